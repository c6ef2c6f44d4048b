"""A daemon thread that calls a function every few milliseconds (debounce and blink timing).

The app may instead call the table's ``tick()`` from its own loop (e.g. a Kivy Clock
interval) and not start a ticker at all; tests call ``tick()`` by hand with a fake clock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class Ticker:
    def __init__(self, fn: Callable[[], None], interval: float, name: str = "hardware-ticker"):
        if interval <= 0:
            raise ValueError("interval must be positive")
        self._fn = fn
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 1.0) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self._fn()
            except Exception:  # a hardware thread must not die: log and keep ticking
                log.exception("tick failed")
