"""How the race panel lays out the React choices (Kivy-free, engine-free): a few as whole
buttons; a busy React with each long run of amounts on a row of its own
(:func:`react_rows`; drawn by :mod:`companion.ui.widgets.react_grid`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .race_view import ReactButton

__all__ = ["FEW", "RUN_MIN", "RUN_ROW", "ReactRow", "react_rows"]

FEW = 8
"""Up to this many choices the panel shows them as whole buttons in two columns (four rows
fit at 800x480); more make a busy React (:func:`react_rows`)."""
RUN_MIN = 3
"""In a busy React, a run of amounts this long or longer gets a row of its own (two amounts
take less room as two whole buttons)."""
RUN_ROW = 5
"""Amount keys in one row (each at least 48 px wide in two thirds of the panel at 800x480)."""


@dataclass(frozen=True)
class ReactRow:
    """A run of amounts on one row of a busy React: its name and the detail its amounts share
    (on its first row only), then one key per amount (``ReactButton.amount``)."""

    buttons: tuple[ReactButton, ...]
    caption: str = ""
    detail: str = ""


def react_rows(buttons: Sequence[ReactButton]) -> tuple[tuple[ReactRow, ...],
                                                        tuple[ReactButton, ...]]:
    """``(runs, whole)``: how the React panel shows ``buttons``. Up to :data:`FEW` choices,
    no runs: every choice is a whole button. More: each run of :data:`RUN_MIN` or more
    amounts (Cooldown 1 to 4; Slipstream +4 to +7 with the Sun's +2; the same declining it)
    is a row, and the other choices follow as whole buttons, End turn last."""
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
        for start in range(0, len(run), RUN_ROW):
            first = start == 0
            rows.append(ReactRow(tuple(run[start:start + RUN_ROW]),
                                 series if first else "", detail if first else ""))
    return tuple(rows), tuple(b for b in buttons if b.key not in in_runs)
