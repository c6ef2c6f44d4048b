"""Which races the standings table gives a column of their own when it cannot give every race
one (a twelve-race season at 800x480: its race columns took the whole table, the cars' names and
totals fell out of it; found by a table test).

The table always shows each car and its total. Its race columns are as many as fit: the latest
races played, each with its points and place; the races before them share one column, their
points added up ("1–7"), so a row still adds up to its total."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RaceColumns:
    """The races of the standings table's columns."""

    summed: int
    """Races 1 to ``summed`` share one column (their points added up); 0: no such column."""
    shown: range
    """The races (numbered from 1) with a column each, in order."""

    @property
    def count(self) -> int:
        """How many columns the races take."""
        return len(self.shown) + (1 if self.summed else 0)

    def header(self) -> str:
        """The shared column's header: "1–7"."""
        return f"1\u2013{self.summed}"


def race_columns(races: int, played: int, fits: int) -> RaceColumns:
    """The columns for a season of ``races`` races, ``played`` of them over, in a table with
    room for ``fits`` race columns (at least 2 are given): every race when all fit; else races
    1 to ``fits`` while no later race is played (the others have nothing to show yet); else the
    last ``fits - 1`` races played, the ones before them in one column."""
    fits = max(2, fits)
    if races <= fits or played <= fits:
        return RaceColumns(0, range(1, min(races, fits) + 1))
    first = played - (fits - 1) + 1
    return RaceColumns(first - 1, range(first, played + 1))
