"""How a car's name is written in a chart's name column (the lap chart's and the points chart's):
whole at the chart's text size; else whole and smaller, down to the readable floor
(:data:`.measure.READABLE_PX`); else whole on two lines; only else shortened with "…", at the
floor, the points after it ("Ana: 19") never cut. A table test saw "Bartholom…: 15" where the
whole name would have read at a somewhat smaller size, or on two lines.

A label on two lines keeps the name whole on the first and the rest, the colon with the points,
on the second ("김수한무거북이와두루미삼" / ": 11": breaking inside the name, "김수한무거북이와두루"
/ "미삼: 11", was found by a table test), never the points alone ("Bartholomews:" / "7", found
by a table test). Only where the name itself is too long for a line does the label break
inside it, so that its end stays with the points: at a space, or between two letters of which
one is not Latin (inside a Chinese or Korean name); only else inside a Latin word, with a
hyphen ("Bartholo-" / "mews: 7")."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from string import ascii_letters

from .measure import READABLE_PX
from .text_fit import FIT

NAME_STEP = 0.5
"""How much smaller each try of a name's size is (pixels)."""
ELLIPSIS = "…"


@dataclass(frozen=True)
class FittedName:
    """A car's label as the chart writes it."""

    text: str
    """The whole label, or the name shortened with "…"; a "\\n" where it takes two lines."""
    size: float
    """Its font size."""
    lines: int
    """1 or 2."""

    @property
    def cut(self) -> bool:
        return ELLIPSIS in self.text


def _sizes(size: float) -> list[float]:
    """``size``, then smaller by :data:`NAME_STEP`, down to the floor (``size`` alone when it
    is at or under the floor already)."""
    out = [size]
    while out[-1] - NAME_STEP >= READABLE_PX:
        out.append(out[-1] - NAME_STEP)
    if out[-1] > READABLE_PX:
        out.append(READABLE_PX)
    return out


def _may_break(before: str, after: str) -> bool:
    """A second line may start between ``before`` and ``after``: never inside a Latin word or
    a number, nor before a colon or a closing bracket ("婉兒" / "：19"), nor after an opening
    one."""
    if before.isascii() and after.isascii():
        return False
    return unicodedata.category(after) not in ("Po", "Pe", "Pf") and (
        unicodedata.category(before) not in ("Ps", "Pi"))


LEAST_LETTERS = 2
"""The fewest letters of a Chinese or Korean name its second line starts with: "歐陽娜娜司馬長風上
官婉" / "兒（淘汰）" left one letter alone before the lap chart's mark (found by a table
test)."""

HYPHEN_LETTERS = 3
"""The fewest letters of a Latin word on either side of a hyphen a name is broken at."""


def two_lines(text: str, size: float, room: float, name: str | None = None) -> str | None:
    """``text`` on two lines of at most ``room`` pixels at ``size`` (as much as fits on the
    first), the second line starting inside ``name`` (by default the whole text): the points
    after a name stay with its end ("Bartholo-" / "mews: 7", never "Bartholomews:" / "7").
    Broken at a space if one serves; else between letters where :func:`_may_break` (inside a
    Chinese or Korean name, at least :data:`LEAST_LETTERS` of it on the second line); else
    inside a Latin word, with a hyphen (at least :data:`HYPHEN_LETTERS` letters on each side);
    None when it cannot be."""
    start = text.find(name) if name else -1
    start, end = (start, start + len(name or "")) if start >= 0 else (0, len(text))

    def fits(first: str, second: str) -> bool:
        return bool(first and second) and FIT.width(first, size) <= room and (
            FIT.width(second, size) <= room)

    inside = range(end - 1, start, -1)  # the second line's first letter, last to first
    for i in inside:
        if text[i] == " " and fits(text[:i].rstrip(), text[i + 1:].lstrip()):
            return f"{text[:i].rstrip()}\n{text[i + 1:].lstrip()}"
    for i in inside[LEAST_LETTERS - 1:]:  # not the name's last letter alone ("兒（淘汰）")
        first, second = text[:i], text[i:]
        if " " in (first[-1], second[0]) or not _may_break(first[-1], second[0]):
            continue
        if FIT.width(first, size) <= room:
            return f"{first}\n{second}" if FIT.width(second, size) <= room else None
    for i in inside:
        before = len(text[:i]) - len(text[:i].rstrip(ascii_letters))
        after = len(text[i:]) - len(text[i:].lstrip(ascii_letters))
        if min(before, after) < HYPHEN_LETTERS:
            continue
        first, second = f"{text[:i]}-", text[i:]
        if FIT.width(first, size) <= room:
            return f"{first}\n{second}" if FIT.width(second, size) <= room else None
    return None


def name_then_rest(text: str, size: float, room: float, name: str) -> str | None:
    """``text`` on two lines of at most ``room`` pixels at ``size``: ``name`` whole ending the
    first, what follows it on the second ("김수한무거북이와두루미삼" / ": 11"; the points chart
    broke it "김수한무거북이와두루" / "미삼: 11", found by a table test). None when the name
    is not in ``text``, nothing follows it, or a line does not fit."""
    start = text.find(name)
    if start < 0 or not name:
        return None
    end = start + len(name)
    first, second = text[:end].rstrip(), text[end:].lstrip()
    if not (first and second) or FIT.width(first, size) > room or (
            FIT.width(second, size) > room):
        return None
    return f"{first}\n{second}"


def middle_lines(name: str, size: float, room: float) -> str | None:
    """``name`` alone on two lines of at most ``room`` pixels at ``size``, broken where the two
    lines come nearest to the same width: at a space, or between two letters where
    :func:`_may_break` (a Chinese or Korean name's, letter by letter: a syllable), never inside
    a Latin word; at least :data:`LEAST_LETTERS` letters on each line. The gear panel's name
    beside Clogged: "제갈공명선생 / 의후손이라네", where filling the first line as full as it
    goes left "제갈공명선생의후 / 손이라네" (found by a table test). None when it cannot be."""
    best: tuple[float, str] | None = None
    for i in range(LEAST_LETTERS, len(name) - LEAST_LETTERS + 1):
        if name[i] == " ":
            first, second = name[:i].rstrip(), name[i + 1:].lstrip()
        elif " " in (name[i - 1], name[i]) or not _may_break(name[i - 1], name[i]):
            continue
        else:
            first, second = name[:i], name[i:]
        wide = max(FIT.width(first, size), FIT.width(second, size))
        if first and second and wide <= room and (best is None or wide < best[0]):
            best = (wide, f"{first}\n{second}")
    return best[1] if best is not None else None


def fit_cell(name: str, size: float, room: float) -> FittedName:
    """A name alone in a table's cell ``room`` pixels wide: whole on one line at ``size``,
    else on two lines (:func:`middle_lines`), else the same a little smaller, down to the
    readable floor; only else on one line at the floor, to be shortened with "…" by the
    cell. The hardware check's 15% column cut "歐陽娜…官婉兒" and "김수한…루미삼" at 800x480
    (found by a table test); now "歐陽娜娜司馬" / "長風上官婉兒"."""
    sizes = _sizes(size)
    for font in sizes:
        if FIT.width(name, font) <= room:
            return FittedName(name, font, 1)
        lines = middle_lines(name, font, room)
        if lines is not None:
            return FittedName(lines, font, 2)
    return FittedName(name, sizes[-1], 1)


def fit_name(name: str, label: Callable[[str], str], size: float, room: float,
             two: bool = True) -> FittedName:
    """``label(name)`` in ``room`` pixels: at ``size``, else smaller down to the floor, else
    (when ``two``) on two lines, as large as they allow: the name whole on the first and
    what follows it on the second (:func:`name_then_rest`) at any size down to the floor
    before the name is broken (:func:`two_lines`); else shortened at the floor."""
    whole = label(name)
    sizes = _sizes(size)
    for font in sizes:
        if FIT.width(whole, font) <= room:
            return FittedName(whole, font, 1)
    if two:
        for font in sizes:  # the name whole on its line, down to the floor
            broken = name_then_rest(whole, font, room, name)
            if broken is not None:
                return FittedName(broken, font, 2)
        for font in sizes:
            broken = two_lines(whole, font, room, name)
            if broken is not None:
                return FittedName(broken, font, 2)
    floor = sizes[-1]
    low, high = 1, len(name) - 1  # keep the longest start of the name that fits
    while low < high:
        middle = (low + high + 1) // 2
        if FIT.width(label(name[:middle].rstrip() + ELLIPSIS), floor) <= room:
            low = middle
        else:
            high = middle - 1
    return FittedName(label(name[:low].rstrip() + ELLIPSIS), floor, 1)


def whole_name(name: str, fitted: FittedName) -> bool:
    """``fitted`` writes ``name`` whole, on its first line."""
    return not fitted.cut and fitted.text.split("\n")[0].find(name) >= 0


def label_height(fitted: FittedName) -> float:
    """The height ``fitted`` takes in the column, with the gap kept to the next name."""
    return fitted.lines * FIT.line_height(fitted.size) + fitted.size * 0.2


def label_width(fitted: FittedName) -> float:
    """The width of ``fitted``'s widest line."""
    return max(FIT.width(line, fitted.size) for line in fitted.text.split("\n"))


def fit_column(labels: Sequence[tuple[str, Callable[[str], str]]], size: float, room: float,
               tall: float, two_lines: bool = True) -> list[FittedName]:
    """Every ``(name, label)`` fitted (:func:`fit_name`) in ``room`` pixels and, together,
    in ``tall`` pixels of height, all at one size (the largest every one of them allows: one
    long name does not leave its column at two sizes); the column smaller, down to the floor,
    before a name that took two lines is shortened instead (the last ones first). Without
    ``two_lines``, every name on one line: shortened at the floor where it must be."""
    two = [two_lines] * len(labels)

    def at(font: float) -> list[FittedName]:
        fitted = [fit_name(name, label, font, room, may)
                  for (name, label), may in zip(labels, two, strict=True)]
        least = min((name.size for name in fitted), default=font)
        return [fit_name(name, label, least, room, may)
                for (name, label), may in zip(labels, two, strict=True)]

    def holds(fitted: list[FittedName]) -> bool:
        return sum(label_height(name) for name in fitted) <= tall

    for font in _sizes(size):
        fitted = at(font)
        if holds(fitted):
            return fitted
    while not holds(fitted):
        taller = [i for i, name in enumerate(fitted) if name.lines > 1]
        if not taller:
            break
        two[taller[-1]] = False
        fitted = at(font)
    return fitted
