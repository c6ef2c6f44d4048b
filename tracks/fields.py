"""Reading typed fields out of a decoded JSON document, each check naming its field path.

:func:`parse_json` decodes the text strictly (no duplicate keys, no NaN or Infinity);
:class:`FieldReader` holds the checks every part of a track document is built from: objects with
known keys only, integers in a range (``bool`` is not an integer here), non-empty strings, arrays.
Every failure raises :class:`~tracks.errors.TrackError` for the reader's source.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import NoReturn

from .errors import TrackError, show


def parse_json(text: str, source: str) -> object:
    """Decode JSON text, rejecting duplicate keys and NaN/Infinity."""

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        result: dict[str, object] = {}
        for key, value in pairs:
            if key in result:
                raise TrackError(source, key, "key appears twice in one JSON object")
            result[key] = value
        return result

    def no_constant(name: str) -> NoReturn:
        raise TrackError(source, "", f"{name} is not allowed in track data")

    try:
        data: object = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise TrackError(
            source, "", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from None
    return data


class FieldReader:
    """The primitive checks of one document read from ``source``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> NoReturn:
        raise TrackError(self.source, path, problem)

    def obj(
        self,
        value: object,
        path: str,
        required: Sequence[str],
        optional: Sequence[str],
    ) -> dict[str, object]:
        if not isinstance(value, dict):
            self.fail(path, f"must be a JSON object, got {show(value)}")
        known = (*required, *optional)
        prefix = f"{path}." if path else ""
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f'did you mean "{close[0]}"?' if close else f"known keys: {', '.join(known)}"
                self.fail(f"{prefix}{key}", f"unknown key ({hint})")
        for key in required:
            if key not in value:
                self.fail(f"{prefix}{key}", "missing (required)")
        return {str(k): v for k, v in value.items()}

    def integer(self, value: object, path: str, low: int, high: int, why: str = "") -> int:
        if type(value) is not int or not low <= value <= high:
            note = f" ({why})" if why else ""
            self.fail(path, f"must be an integer {low}-{high}{note}, got {show(value)}")
        return value

    def text(self, value: object, path: str, max_length: int = 200) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > max_length:
            self.fail(
                path,
                f"must be a non-empty string of at most {max_length} characters, got {show(value)}",
            )
        return value

    def array(self, value: object, path: str, *, allow_empty: bool = True) -> list[object]:
        if not isinstance(value, list):
            self.fail(path, f"must be a JSON array, got {show(value)}")
        if not allow_empty and not value:
            self.fail(path, "must not be empty")
        return list(value)
