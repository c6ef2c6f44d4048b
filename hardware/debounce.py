"""Settle-time debouncing with an injected clock.

A raw value (a switch level, or a decoded dial position) becomes *stable* only once it has
stayed unchanged for ``settle`` seconds. Contacts that bounce for a few milliseconds therefore
produce exactly one transition, and a glitch shorter than ``settle`` produces none.

Edges carry their own timestamps: if the ticker runs late, a value that had already been steady
for ``settle`` before the next edge still counts, so a short press is not lost to a slow tick.
gpiozero's ``bounce_time`` is not used (mock pins ignore it and backends disagree on its meaning).
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")
_EPSILON = 1e-6  # one microsecond, so float noise (1000.03 - 1000.0 < 0.03) cannot matter


class Debouncer(Generic[T]):
    """Turns raw samples into stable transitions. Not thread-safe: callers hold their lock."""

    def __init__(self, initial: T, settle: float, now: float) -> None:
        if settle <= 0:
            raise ValueError("settle time must be positive")
        self.settle = settle
        self.stable: T = initial
        self._candidate: T = initial
        self._since = now
        self._committed: list[T] = []

    def feed(self, value: T, now: float) -> None:
        """Record the raw value seen at ``now`` (call on every edge; repeats are harmless)."""
        if value == self._candidate:
            return
        self._commit_if_settled(now)
        self._candidate = value
        self._since = now

    def poll(self, now: float) -> list[T]:
        """New stable values, oldest first, that settled by ``now``."""
        self._commit_if_settled(now)
        committed, self._committed = self._committed, []
        return committed

    def reset(self, value: T, now: float) -> None:
        """Take ``value`` as already stable (e.g. the level found at start-up); no transition."""
        self.stable = self._candidate = value
        self._since = now
        self._committed.clear()

    @property
    def pending(self) -> bool:
        """True while a raw change is waiting to settle."""
        return self._candidate != self.stable

    def _commit_if_settled(self, now: float) -> None:
        if self._candidate != self.stable and now - self._since >= self.settle - _EPSILON:
            self.stable = self._candidate
            self._committed.append(self._candidate)
