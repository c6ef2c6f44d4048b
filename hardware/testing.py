"""Helpers for tests of code that uses this package: wait for events with a deadline instead
of sleeping for a fixed time (threads such as the serial reader deliver asynchronously)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .events import InputEvent, InputRejected
from .inputqueue import InputQueue

EventCheck = Callable[[list[InputEvent]], bool]


def collect(queue: InputQueue, done: EventCheck, timeout: float = 5.0) -> list[InputEvent]:
    """Drain ``queue`` until ``done(events so far)`` is true; AssertionError after ``timeout``."""
    events: list[InputEvent] = []
    deadline = time.monotonic() + timeout
    while not done(events):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out after {timeout} s; got {events}")
        queue.wait(min(left, 0.05))
        events += queue.drain()
    return events


def until(condition: Callable[[], bool], timeout: float = 5.0, poll: float = 0.002) -> None:
    """Wait until ``condition()`` is true; AssertionError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition still false after {timeout} s")
        time.sleep(poll)


def count(kind: type, n: int = 1) -> EventCheck:
    """A ``done`` check: at least ``n`` events of type ``kind``."""
    return lambda events: sum(isinstance(e, kind) for e in events) >= n


def inputs(events: list[InputEvent]) -> list[InputEvent]:
    """The events without rejection notices."""
    return [e for e in events if not isinstance(e, InputRejected)]
