"""Seat LEDs and the buzzer: patterns computed from an injected clock.

Blinking is done in software by whoever ticks the table (the GPIO ticker thread, or the hub
firmware for hub seats), so tests check it by moving a :class:`~hardware.clock.FakeClock` and
reading the pin history. Suggested use at the table:

* ``OFF`` — nothing expected from this seat;
* ``BLINK`` — waiting for this seat (set your gear, press Ready);
* ``ON`` — your turn;
* ``FAST_BLINK`` — attention (rejected input, a decision needed now).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol


class LedPattern(StrEnum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"
    FAST_BLINK = "fast"


BLINK_TIMING: dict[LedPattern, tuple[float, float]] = {
    LedPattern.BLINK: (0.5, 0.5),
    LedPattern.FAST_BLINK: (0.1, 0.1),
}
"""(on seconds, off seconds) per blinking pattern; a blink starts with the LED on."""


def pattern_level(pattern: LedPattern, elapsed: float) -> bool:
    """Whether the LED is lit ``elapsed`` seconds after ``pattern`` was set."""
    if pattern is LedPattern.OFF:
        return False
    if pattern is LedPattern.ON:
        return True
    on, off = (round(t * 1000) for t in BLINK_TIMING[pattern])
    return _ms(elapsed) % (on + off) < on


def _ms(seconds: float) -> int:
    # Whole milliseconds, so float noise (1000.1 - 1000.0 != 0.1) cannot shift an edge.
    return round(seconds * 1000)


BEEP_COUNTS = range(1, 11)
BEEP_MAX_MS = 2000


def beep_plan(count: int, on: float, off: float) -> tuple[int, int, int]:
    """``(count, on_ms, off_ms)`` for a beep of ``count`` tones ``on`` seconds long, ``off``
    seconds apart; :class:`ValueError` outside what the hub's ``BEEP`` takes
    (``docs/serial-protocol.md`` section 3: 1..10 tones of 1..2000 ms, 0..2000 ms apart), which
    the GPIO buzzer keeps too, so a beep sounds the same on either."""
    fits = (not isinstance(count, bool) and count in BEEP_COUNTS
            and math.isfinite(on) and math.isfinite(off) and on > 0 and off >= 0
            and _ms(on) <= BEEP_MAX_MS and _ms(off) <= BEEP_MAX_MS)
    if not fits:
        raise ValueError(f"a beep is 1..10 tones of 0.001..2 s, 0..2 s apart; not {count} "
                         f"tones of {on} s, {off} s apart")
    return count, max(1, _ms(on)), _ms(off)


class TableOutput(Protocol):
    """What the app may drive, whatever the hardware: GPIO, a hub, both, or a fake."""

    def set_led(self, seat: int, pattern: LedPattern) -> None: ...

    def beep(self, count: int = 1, on: float = 0.08, off: float = 0.08) -> None: ...


class PatternDriver:
    """Drives one on/off output from a pattern; writes only when the level changes."""

    def __init__(self, write: Callable[[bool], None]) -> None:
        self._write = write
        self.pattern = LedPattern.OFF
        self._since = 0.0
        self._level: bool | None = None

    def set(self, pattern: LedPattern, now: float) -> None:
        if pattern is self.pattern and self._level is not None:
            return  # same pattern again: keep its phase
        self.pattern = pattern
        self._since = now
        self.update(now)

    def update(self, now: float) -> None:
        level = pattern_level(self.pattern, now - self._since)
        if level != self._level:
            self._level = level
            self._write(level)


class Beeper:
    """Plays ``count`` beeps of ``on`` seconds separated by ``off`` seconds; a new beep
    replaces one still playing."""

    def __init__(self, write: Callable[[bool], None]) -> None:
        self._write = write
        self._start = 0.0
        self._count = 0
        self._on = self._off = 0
        self._level = False

    def beep(self, count: int, on: float, off: float, now: float) -> None:
        self._count, self._on, self._off = beep_plan(count, on, off)
        self._start = now
        self.update(now)

    @property
    def busy(self) -> bool:
        return self._count > 0

    def update(self, now: float) -> None:
        level = False
        if self._count:
            elapsed = _ms(now - self._start)
            period = self._on + self._off
            if elapsed >= self._count * period - self._off:
                self._count = 0
            else:
                level = (elapsed % period) < self._on
        if level != self._level:
            self._level = level
            self._write(level)
