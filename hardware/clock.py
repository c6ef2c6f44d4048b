"""Injected time. Production code takes a ``Clock`` (default :func:`time.monotonic`); tests and
fakes pass a :class:`FakeClock` and move it by hand, so no test waits for real time to pass."""

from __future__ import annotations

import threading
from collections.abc import Callable

Clock = Callable[[], float]
"""Returns seconds on a monotonic scale."""


class FakeClock:
    """A monotonic clock that only moves when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a monotonic clock cannot go back")
        with self._lock:
            self._now += seconds
            return self._now
