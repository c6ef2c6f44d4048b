"""Press Corners: which Corner Lines carry the letters A, B, C… of the Championship events.

A, B, C… are the corners in track order from the start line, a chicane counting once at its
second Corner Line; letters past the track's last press corner wrap around (docs/rules.md §3.3).
A track file may list its own (España does, §6.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.track import Corner, Track

from .errors import show
from .fields import FieldReader


def read_press_corners(
    reader: FieldReader, value: object, corners: Sequence[Corner]
) -> tuple[int, ...]:
    """The ``press_corners`` array: ``line_after`` of corners, in track order, a chicane once."""
    items = reader.array(value, "press_corners", allow_empty=False)
    lines = [c.line_after for c in corners]
    by_line = {c.line_after: c for c in corners}
    result: list[int] = []
    for index, entry in enumerate(items):
        path = f"press_corners[{index}]"
        if type(entry) is not int or entry not in by_line:
            known = ", ".join(str(line) for line in lines)
            reader.fail(path, f"must be the line_after of a corner ({known}), got {show(entry)}")
        if result and entry <= result[-1]:
            reader.fail(
                path,
                f"press corners go in track order: must be greater than "
                f"{result[-1]}, got {entry}",
            )
        partner = by_line[entry].chicane_with
        if partner is not None and partner in result:
            reader.fail(path, f"a chicane counts once: {partner} and {entry} are one chicane")
        result.append(entry)
    return tuple(result)


def default_press_corners(corners: Sequence[Corner]) -> tuple[int, ...]:
    """Press-corner lines A, B, C…: every corner in track order, a chicane counted once, at its
    second Corner Line (docs/rules.md §3.3; BGA ``Circuit::getPressCornersMapping`` keeps the
    second line of a chicane)."""
    count = len(corners)
    index_of = {c.line_after: i for i, c in enumerate(corners)}
    result: list[int] = []
    for index, corner in enumerate(corners):
        if corner.chicane_with is not None:
            other = index_of[corner.chicane_with]
            first_of_pair = other == index + 1 or (index == count - 1 and other == 0 and count > 2)
            if first_of_pair:
                continue
        result.append(corner.line_after)
    return tuple(result)


def press_corner_line(track: Track, letter: str | int) -> int:
    """The Corner Line (``line_after``) of press corner ``letter`` ("A", "B"… or a 0-based index).

    Letters past the track's last press corner wrap around (docs/rules.md §3.3: Italy has three
    press corners, so "E" is its second)."""
    press = track.press_corners or default_press_corners(track.corners)
    if isinstance(letter, str):
        if len(letter) != 1 or not "A" <= letter.upper() <= "Z":
            raise ValueError(f"press corner must be a letter A-Z, got {letter!r}")
        index = ord(letter.upper()) - ord("A")
    else:
        index = letter
    if index < 0:
        raise ValueError(f"press corner index must be >= 0, got {index}")
    return press[index % len(press)]
