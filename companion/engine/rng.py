"""A small deterministic random number generator whose whole state is one integer.

The engine keeps no global random state (DEVELOPERS brief): the generator state lives in the race
state, every draw returns the next state, and a replay from the same seed is identical on every
Python version. SplitMix64 is used: tiny, fast and well distributed for shuffling ten cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer, negative ones included)."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(value, next_state)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, bound: int) -> tuple[int, int]:
    """A uniform integer in ``range(bound)`` (rejection sampling, no modulo bias)."""
    if bound <= 0:
        raise ValueError("bound must be positive")
    limit = (1 << 64) - ((1 << 64) % bound)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % bound, state


def shuffled(items: Sequence[T], state: int) -> tuple[tuple[T, ...], int]:
    """A Fisher-Yates shuffle of ``items``; returns the new order and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state
