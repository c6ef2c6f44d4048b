"""No phantom input: a touch acts only on a prompt that was on screen before it began.

Two quick taps on the last driver's gear button used to type a "1" into the next car's card
keypad: the first tap brought the keypad up under the finger, the second landed on it. The rule
here, for every button given a :class:`PromptGate` (the race screen's panel, the draft):

* a touch that **began before the prompt appeared** never acts on it (it may have been aimed at
  the prompt before, whose buttons were in the same places);
* nor does a touch of the same **burst** of taps: a touch that begins within
  :data:`QUICK_S` of the previous one and within :data:`NEAR_PX` of it (or that Kivy marks as a
  double tap) belongs to that touch's burst, and a burst that began before the prompt appeared
  is refused as a whole. A deliberate tap on the new prompt, later or elsewhere, acts.

Which gate a control answers to depends on what it acts on:

* the race screen's panel (gears, keypads, React, Next round) answers to the prompt on show
  (:attr:`~companion.ui.views.race_view.RaceView.prompt_id`: it changes with every input the
  race records, except while the drivers pick their gears, where one driver's pick does not
  change another's buttons);
* Undo and Redo answer to the race itself (:attr:`~companion.ui.views.race_view.RaceView.
  position_id`): what they take back changes with every input, theirs included, so the quick
  second tap of a double tap on Undo does not undo a second input; a deliberate second Undo
  a moment later does;
* every button answers to :data:`SCREEN_GATE` as well, which changes whenever another screen or
  another page of a screen comes up (Menu, New race and its question, More options): the second
  tap of a double tap on Menu never presses what the Start screen has in that place.

Everything is decided by ordering and by the touches' own timestamps (``time_start``), never by
the clock at the moment of the decision: the tests drive frames and give touches synthetic
timestamps. The :class:`TouchLedger` numbers every touch as it goes down, at the window, before
any widget sees it.
"""

from __future__ import annotations

import math
from typing import Any

QUICK_S = 0.35
"""A second touch that begins this soon after the previous one is part of its burst (Kivy's
double-tap window is 0.25 s; nobody reads a new prompt and aims at it this fast)."""
NEAR_PX = 40.0
"""...when it lands this close to it (about 8 mm on a 7" 800x480 screen)."""
STAMP = "heat_touch_stamp"
"""``touch.ud`` key: ``(sequence number, burst number)``."""


class TouchLedger:
    """Numbers the touches as they go down, and groups quick repeated taps into bursts."""

    def __init__(self) -> None:
        self.seq = 0
        self._last: tuple[float, tuple[float, float], int] | None = None
        self._window: Any = None

    def install(self, window: Any) -> None:
        """Stamp every touch of ``window`` before its widgets see it (once per window)."""
        if self._window is window:
            return
        if self._window is not None:
            self._window.unbind(on_touch_down=self._on_window_touch)
        self._window = window
        window.bind(on_touch_down=self._on_window_touch)

    def forget(self) -> None:
        """No burst goes on from the touches before: an app started on the window after
        another (the UI tests start one after another, the next test's first tap within a
        burst's time and reach of the last test's last tap, and it was refused)."""
        self._last = None

    def _on_window_touch(self, _window: Any, touch: Any) -> None:
        self.stamp(touch)

    def stamp(self, touch: Any) -> tuple[int, int]:
        """The touch's ``(sequence, burst)``, given once when it goes down."""
        found = touch.ud.get(STAMP)
        if found is not None:
            return found  # type: ignore[no-any-return]
        self.seq += 1
        start = float(getattr(touch, "time_start", 0.0) or 0.0)
        window = self._window
        if window is not None and hasattr(touch, "sx"):  # window pixels, whatever transform
            pos = (float(touch.sx) * window.width, float(touch.sy) * window.height)
        else:
            pos = (float(touch.x), float(touch.y))
        burst = self.seq
        if self._last is not None:
            last_start, last_pos, last_burst = self._last
            quick = 0.0 <= start - last_start < QUICK_S and math.dist(pos, last_pos) <= NEAR_PX
            if quick or getattr(touch, "is_double_tap", False):
                burst = last_burst
        self._last = (start, pos, burst)
        touch.ud[STAMP] = (self.seq, burst)
        return self.seq, burst


LEDGER = TouchLedger()
"""The app's one ledger (one window)."""


class PromptGate:
    """Which touches may act on the prompt shown now; :meth:`prompt_changed` when it changes."""

    def __init__(self, ledger: TouchLedger = LEDGER, window: Any = None) -> None:
        self.ledger = ledger
        if window is not None:
            ledger.install(window)
        self.shown_after = 0
        """The prompt appeared after the touch with this sequence number began."""
        self.prompt: object = None
        self.refused = 0
        """Touches refused so far (for tests and the log)."""

    def show(self, prompt: object) -> bool:
        """Say which prompt is shown now (any value that identifies it); True if it changed."""
        if prompt == self.prompt:
            return False
        self.prompt = prompt
        self.prompt_changed()
        return True

    def prompt_changed(self) -> None:
        self.shown_after = self.ledger.seq

    def refuses(self, touch: Any) -> bool:
        """True when ``touch`` (or the burst it belongs to) began before the prompt appeared."""
        _seq, burst = self.ledger.stamp(touch)  # stamped at the window, or now if it was not
        refused = burst <= self.shown_after
        if refused:
            self.refused += 1
        return refused


SCREEN_GATE = PromptGate()
"""Every button's gate besides its own: the screen (or page of a screen) on show."""


def screen_changed() -> None:
    """Another screen, or another page of a screen, is on show now."""
    SCREEN_GATE.prompt_changed()


def refused(touch: Any, gate: PromptGate | None) -> bool:
    """True when a button with ``gate`` (or none) must not act on ``touch``: it began before
    the screen on show, or before the prompt of ``gate``, came up."""
    by_screen = SCREEN_GATE.refuses(touch)
    return (gate is not None and gate.refuses(touch)) or by_screen
