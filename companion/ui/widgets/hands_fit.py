"""A finished Garage draft's hands, every one in sight at once: how many side by side, at what
text size, and whether each card shows its words or its name only.

Six drivers of twelve-letter names, three cards each, take two rows of three at 800x480; their
cards' words at the body size needed 406-481 px where the view has about 330, so the second row
lay below the bottom edge. The hands are measured (:data:`~.text_fit.FIT`, no texture
rendered) at the small size and smaller, down to the readable floor
(:data:`~.measure.READABLE_PX`), the cards' words first, and only where they fit at no size a
table reads (the wordiest cards of the game: 520 px at the floor) each card by its name, one a
line, which the driver holds printed in full."""

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
    """The cards' words (else each card by its name)."""
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


def _height(hands: Sequence[tuple[str, str]], names: Mapping[str, str], size: float,
            gaps: tuple[float, float], room: float, cols: int) -> float:
    """The tallest column's height: its hands and the gaps between them."""
    across, down = gaps
    width = (room - across * (cols - 1)) / cols
    tall = [label_height(names[car], size, width) + label_height(text, size, width)
            for car, text in hands]
    return max(sum(tall[i] for i in column) + down * (len(column) - 1)
               for column in columns(len(hands), cols))


def finished_hands(full: Sequence[tuple[str, str]], by_name: Sequence[tuple[str, str]],
                   names: Mapping[str, str], small: float, gaps: tuple[float, float],
                   room: tuple[float, float]) -> FinishedHands:
    """The largest size from ``small`` down to the floor at which the hands ``full`` (each
    card's words) fit ``room`` (width, height); else ``by_name`` (each card's name) so;
    else ``by_name`` at the floor, as tall as they are (the view scrolls: no table's
    screen is so small)."""
    width, height = room
    for hands, in_full in ((full, True), (by_name, False)):
        for size in sizes(small):
            cols, tall = laid_out(hands, names, size, gaps, width)
            if tall <= math.floor(height):
                return FinishedHands(tuple(hands), size, cols, in_full, tall)
    cols, tall = laid_out(by_name, names, READABLE_PX, gaps, width)
    return FinishedHands(tuple(by_name), READABLE_PX, cols, False, tall)
