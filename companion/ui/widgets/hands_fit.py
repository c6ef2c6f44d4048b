"""A finished Garage draft's hands, every one in sight at once: how many side by side, at what
text size, and whether each card shows its words or its name only.

Six drivers of twelve-letter names, three cards each, take two rows of three at 800x480; their
cards' words at the body size needed 406-481 px where the view has about 330, so the second row
lay below the bottom edge. The hands are measured (:data:`~.text_fit.FIT`, no texture
rendered) at the small size and smaller, down to the readable floor
(:data:`~.measure.READABLE_PX`), the cards' words first, and only the hands whose words fit at
no size a table reads (the wordiest cards of the game: 520 px at the floor) by their cards'
names, one a line, which the driver holds printed in full; the other hands keep their words."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .measure import READABLE_PX
from .text_fit import FIT

LEAST_LETTERS = 13
"""A column is at least this many letters of the text size wide (a card's line of figures
may take two lines), and as wide as the widest name needs."""


@dataclass(frozen=True)
class FinishedHands:
    hands: tuple[tuple[str, str], ...]
    """(car, the text under its name) in the order given."""
    size: float
    """The hands' text size (names and cards)."""
    cols: int
    in_full: bool
    """Every hand in its cards' words (else some or all by their cards' names)."""
    height: float
    """The height the hands take, measured."""


def sizes(small: float) -> list[float]:
    """``small``, then a pixel smaller each time down to the readable floor."""
    out = [float(small)]
    while out[-1] - 1 >= READABLE_PX:
        out.append(out[-1] - 1)
    if out[-1] > READABLE_PX:
        out.append(READABLE_PX)
    return out


def label_height(text: str, size: float, width: float) -> float:
    """A wrapping label's height (``TLabel`` in common.kv: its lines, at least 1.4 sizes)."""
    return max(FIT.lines(text, size, width) * FIT.line_height(size), size * 1.4)


def laid_out(hands: Sequence[tuple[str, str]], names: Mapping[str, str], size: float,
             gaps: tuple[float, float], room: float) -> tuple[int, float]:
    """(columns, height) of ``hands`` at ``size`` in ``room`` pixels, in columns
    (:func:`columns`) at least :data:`LEAST_LETTERS` wide and as wide as the widest name
    needs: of the column counts that stack each number of hands the fewest (six hands in four
    columns stack two high, as in three, their lines wrapping more), the one least tall."""
    across = gaps[0]
    least = max(size * LEAST_LETTERS,
                *(FIT.width(names[car], size) * 1.1 for car, _text in hands))
    most = max(1, min(len(hands), int((room + across) // (least + across))))
    counts = sorted({math.ceil(len(hands) / high) for high in range(1, len(hands) + 1)})
    return min(((cols, _height(hands, names, size, gaps, room, cols))
                for cols in counts if cols <= most), key=lambda laid: (laid[1], -laid[0]))


def columns(count: int, cols: int) -> list[range]:
    """The hands of each of ``cols`` columns, in order down each column and then across (the
    first column's top hand first), as many in each but the last."""
    high = math.ceil(count / cols)
    return [range(start, min(start + high, count)) for start in range(0, count, high)]


def _column_heights(hands: Sequence[tuple[str, str]], names: Mapping[str, str], size: float,
                    gaps: tuple[float, float], room: float, cols: int) -> list[float]:
    """Each column's height: its hands and the gaps between them."""
    across, down = gaps
    width = (room - across * (cols - 1)) / cols
    tall = [label_height(names[car], size, width) + label_height(text, size, width)
            for car, text in hands]
    return [sum(tall[i] for i in column) + down * (len(column) - 1)
            for column in columns(len(hands), cols)]


def _height(hands: Sequence[tuple[str, str]], names: Mapping[str, str], size: float,
            gaps: tuple[float, float], room: float, cols: int) -> float:
    """The tallest column's height: its hands and the gaps between them."""
    return max(_column_heights(hands, names, size, gaps, room, cols))


def _mixed(full: Sequence[tuple[str, str]], by_name: Sequence[tuple[str, str]],
           names: Mapping[str, str], size: float, gaps: tuple[float, float],
           room: tuple[float, float]) -> tuple[tuple[bool, ...], int, float] | None:
    """(which hands show their cards' words, columns, height) at ``size`` in ``room``: every
    hand in words if they fit, else, one at a time, the wordiest hand of the tallest column
    by its cards' names (a hand in words where the column beside it is short does not cost
    the others theirs); None when the hands do not fit even all by name."""
    width, height = room
    words = [True] * len(full)
    while True:
        hands = [full[i] if words[i] else by_name[i] for i in range(len(full))]
        cols, tall = laid_out(hands, names, size, gaps, width)
        if tall <= math.floor(height):
            return tuple(words), cols, tall
        heights = _column_heights(hands, names, size, gaps, width, cols)
        column = columns(len(hands), cols)[heights.index(max(heights))]
        wordy = [i for i in column if words[i]] or [i for i in range(len(full)) if words[i]]
        if not wordy:
            return None
        column_width = (width - gaps[0] * (cols - 1)) / cols
        words[max(wordy, key=lambda i: label_height(full[i][1], size, column_width))] = False


def finished_hands(full: Sequence[tuple[str, str]], by_name: Sequence[tuple[str, str]],
                   names: Mapping[str, str], small: float, gaps: tuple[float, float],
                   room: tuple[float, float]) -> FinishedHands:
    """The hands ``full`` (each card's words) fitted to ``room`` (width, height): at the size
    from ``small`` down to the floor that shows the most hands in words, the largest of
    those; a hand whose words do not fit there shown by its cards' names (``by_name``), the
    others still in words (a deal with one wordy hand showed all six by name, half the view
    empty: found by a table test); else every hand by name at the floor, as tall as they
    are (the view scrolls: no table's screen is so small)."""
    best: tuple[int, float, tuple[bool, ...], int, float] | None = None
    for size in sizes(small):
        fit = _mixed(full, by_name, names, size, gaps, room)
        if fit is not None and (best is None or sum(fit[0]) > best[0]):
            best = (sum(fit[0]), size, *fit)
        if best is not None and best[0] == len(full):
            break
    if best is None:
        cols, tall = laid_out(by_name, names, READABLE_PX, gaps, room[0])
        return FinishedHands(tuple(by_name), READABLE_PX, cols, False, tall)
    _count, size, words, cols, tall = best
    hands = tuple(full[i] if words[i] else by_name[i] for i in range(len(full)))
    return FinishedHands(hands, size, cols, all(words), tall)
