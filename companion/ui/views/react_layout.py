"""How the race panel lays out the React choices (Kivy-free, engine-free): a few as whole
buttons; a busy React with each long run of amounts in a block of its own, on as many rows as
the panel's width needs (:func:`react_rows`, :func:`run_columns`; drawn by
:mod:`companion.ui.widgets.react_grid`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .race_view import ReactButton

__all__ = ["FEW", "RUN_MIN", "ReactRow", "react_rows", "run_columns"]

FEW = 8
"""Up to this many choices the panel shows them as whole buttons in two columns (four rows
fit at 800x480); more make a busy React (:func:`react_rows`)."""
RUN_MIN = 3
"""In a busy React, a run of amounts this long or longer gets a row of its own (two amounts
take less room as two whole buttons)."""


@dataclass(frozen=True)
class ReactRow:
    """A run of amounts of a busy React: its name and the detail its amounts share, then one
    key per amount (``ReactButton.amount``), as many to a row as :func:`run_columns` says."""

    buttons: tuple[ReactButton, ...]
    caption: str = ""
    detail: str = ""


def react_rows(buttons: Sequence[ReactButton]) -> tuple[tuple[ReactRow, ...],
                                                        tuple[ReactButton, ...]]:
    """``(runs, whole)``: how the React panel shows ``buttons``. Up to :data:`FEW` choices,
    no runs: every choice is a whole button. More: each run of :data:`RUN_MIN` or more
    amounts (Cooldown 1 to 4; Slipstream +4 to +7 with the Sun's +2; the same declining it)
    is a block of keys beside its name, and the other choices follow as whole buttons, End
    turn last."""
    if len(buttons) <= FEW:
        return (), tuple(buttons)
    runs: dict[tuple[str, str], list[ReactButton]] = {}
    for button in buttons:
        if button.series:
            runs.setdefault((button.series, button.detail), []).append(button)
    rows: list[ReactRow] = []
    in_runs: set[str] = set()
    for (series, detail), run in runs.items():
        if len(run) < RUN_MIN:
            continue
        in_runs.update(b.key for b in run)
        rows.append(ReactRow(tuple(run), series, detail))
    return tuple(rows), tuple(b for b in buttons if b.key not in in_runs)


def run_columns(count: int, room: float, least: float, spacing: float) -> int:
    """How many of a run's ``count`` keys go on one row ``room`` px wide: as many as fit, each
    at least ``least`` px wide and ``spacing`` apart, and the rows as even as they can be (six
    keys where five fit: three and three, not five and a lone sixth). Cooldown 6 in Rain was
    five keys of 56 px (the app's touch size) in a row 268 px wide at 800x480, the fifth
    half off the screen, and the sixth alone on a row (found by a table test)."""
    fit = max(1, math.floor((room + spacing) / (least + spacing)))
    rows = math.ceil(count / fit)
    return max(1, math.ceil(count / max(1, rows)))
