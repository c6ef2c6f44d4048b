"""Special spaces of a board: flooded spaces (Japan), tunnels (España) and gravel spots (South
Africa) as data (docs/rules.md §6.4, §6.6, §6.7).

Spaces are listed as numbers or inclusive ``[first, last]`` ranges; a space listed twice is an
error. Gravel is listed per lane (``lane1``, ``lane2``) and read as ``(space, lane)`` spots.
"""

from __future__ import annotations

from typing import Final

from .errors import show
from .fields import FieldReader

GRAVEL_KEYS: Final = ("lane1", "lane2")


def read_space_set(reader: FieldReader, value: object, path: str, spaces: int) -> frozenset[int]:
    """A list of spaces: each entry a space number or an inclusive ``[first, last]`` range."""
    found: set[int] = set()
    for index, entry in enumerate(reader.array(value, path)):
        at = f"{path}[{index}]"
        if isinstance(entry, list):
            if len(entry) != 2:
                reader.fail(at, f"a range must be [first, last], got {show(entry)}")
            first = reader.integer(entry[0], f"{at}[0]", 1, spaces, "a space on this track")
            last = reader.integer(entry[1], f"{at}[1]", first, spaces, "first <= last")
            group = set(range(first, last + 1))
        else:
            group = {reader.integer(entry, at, 1, spaces, "a space on this track")}
        twice = sorted(found & group)
        if twice:
            reader.fail(at, f"space {twice[0]} is listed twice")
        found |= group
    return frozenset(found)


def read_gravel(reader: FieldReader, value: object, spaces: int) -> frozenset[tuple[int, int]]:
    """Gravel spots as ``(space, lane)``; the rule itself is not applied (docs/rules.md §6.7)."""
    doc = reader.obj(value, "gravel", (), GRAVEL_KEYS)
    spots: set[tuple[int, int]] = set()
    for lane, key in enumerate(GRAVEL_KEYS, start=1):
        for space in read_space_set(reader, doc.get(key, []), f"gravel.{key}", spaces):
            spots.add((space, lane))
    return frozenset(spots)
