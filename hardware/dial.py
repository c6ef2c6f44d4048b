"""Decoding a 4-position gear dial from its contact levels.

Two wirings (see docs/wiring.md):

* ``positions`` — one pin per position (one-hot). Exactly one closed contact is a gear; none
  (break-before-make, between detents) or several (make-before-break) is "between" -> None.
* ``gray`` — two pins ``[a, b]`` in Gray order, so one bit changes per detent:
  gear 1 = both open, gear 2 = a, gear 3 = a+b, gear 4 = b. Every code is a gear.

A level is True when the contact is closed (the input is active).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class DialKind(StrEnum):
    GRAY = "gray"
    POSITIONS = "positions"


PIN_COUNT: dict[DialKind, int] = {DialKind.GRAY: 2, DialKind.POSITIONS: 4}

GRAY_CODES: dict[tuple[bool, bool], int] = {
    (False, False): 1,
    (True, False): 2,
    (True, True): 3,
    (False, True): 4,
}
"""(a, b) contact levels -> gear."""


def decode(kind: DialKind, levels: Sequence[bool]) -> int | None:
    """The gear the contacts show, or None when the dial is between positions."""
    if len(levels) != PIN_COUNT[kind]:
        raise ValueError(f"a {kind} dial has {PIN_COUNT[kind]} contacts, got {len(levels)}")
    if kind is DialKind.GRAY:
        return GRAY_CODES[(bool(levels[0]), bool(levels[1]))]
    closed = [i for i, level in enumerate(levels) if level]
    return closed[0] + 1 if len(closed) == 1 else None


def encode(kind: DialKind, gear: int) -> tuple[bool, ...]:
    """Contact levels for ``gear`` (used by fakes and tests)."""
    if kind is DialKind.GRAY:
        for code, g in GRAY_CODES.items():
            if g == gear:
                return code
        raise ValueError(f"no gear {gear}")
    if gear not in (1, 2, 3, 4):
        raise ValueError(f"no gear {gear}")
    return tuple(i == gear - 1 for i in range(4))
