"""Validation errors of track data: every problem names the file (or "inline track") and the field.

A message reads ``tracks/data/usa.json: corners[2].limit: must be an integer 1-10, got "x"``.
"""

from __future__ import annotations

import json
from typing import Final

INLINE_SOURCE: Final = "<inline>"
"""The ``source`` of a track given inline (race file); messages call it "inline track"."""


class TrackError(ValueError):
    """Invalid track data. ``source`` names the file (or "inline track"), ``field`` the path."""

    def __init__(self, source: str, field_path: str, problem: str) -> None:
        self.source = "inline track" if source == INLINE_SOURCE else source
        self.field = field_path
        self.problem = problem
        where = f"{self.source}: {field_path}" if field_path else self.source
        super().__init__(f"{where}: {problem}")


def show(value: object) -> str:
    """A value as it would look in JSON, shortened for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
