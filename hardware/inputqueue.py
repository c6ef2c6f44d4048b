"""The one hand-over point between input threads and the app's main thread.

GPIO callbacks, the debounce ticker and the serial reader only ever call :meth:`InputQueue.put`;
the app calls :meth:`InputQueue.drain` on its main thread (e.g. from a Kivy Clock callback, or
from the ``on_put`` hook through a thread-safe trigger such as ``Clock.create_trigger``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from .events import N_, InputEvent, InputRejected, Reason


class InputQueue:
    """Thread-safe FIFO of input events. ``put`` never blocks.

    If the app stops draining, at most ``maxsize`` events are kept; newer ones are dropped and
    counted, and the next :meth:`drain` ends with one ``InputRejected("queue", ...)`` saying so.
    """

    def __init__(self, maxsize: int = 1000, on_put: Callable[[], None] | None = None) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self._events: deque[InputEvent] = deque()
        self._maxsize = maxsize
        self._cond = threading.Condition()
        self._dropped_since_drain = 0
        self.dropped = 0
        """Events dropped because the queue was full, since creation."""
        self.on_put = on_put
        """Called (on the putting thread, outside the lock) after each accepted put."""

    def put(self, event: InputEvent) -> None:
        with self._cond:
            if len(self._events) >= self._maxsize:
                self.dropped += 1
                self._dropped_since_drain += 1
                return
            self._events.append(event)
            self._cond.notify_all()
        hook = self.on_put
        if hook is not None:
            hook()

    def drain(self) -> list[InputEvent]:
        """Everything queued so far, oldest first; the queue is empty afterwards."""
        with self._cond:
            events = list(self._events)
            self._events.clear()
            dropped, self._dropped_since_drain = self._dropped_since_drain, 0
        if dropped:
            events.append(InputRejected("queue", Reason.of(
                N_("{count} table inputs were dropped: too many came at once."), count=dropped)))
        return events

    def wait(self, timeout: float) -> bool:
        """Block until at least one event is queued or ``timeout`` seconds pass (for tests and
        headless consumers; the Kivy app should not block its main thread)."""
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._events), timeout)

    def __len__(self) -> int:
        with self._cond:
            return len(self._events)
