"""Table hardware -> the same controller calls as touch, and the seat LEDs (Kivy-free).

The App drains ``hardware``'s :class:`~hardware.InputQueue` on the main thread and hands every
event to :meth:`HardwareBridge.handle`. Seats are numbered from 1; :attr:`HardwareBridge.seat_map`
says which car sits at which seat (chosen on the New race screen, default in entry order).

What a table input does depends on :attr:`HardwareBridge.mode` (the App sets it from the screen
on show):

* ``race`` (the race screen): a seat's Ready press reads its dial and calls
  :meth:`~companion.ui.controller.RaceController.choose_gear`, exactly as touching that gear
  does; Undo, Confirm (the Move key) and Next (End turn / Next round) call what the on-screen
  buttons call. A refused input makes that seat's LED blink fast for :data:`ATTENTION_S` and
  the reason shows on the race screen.
* ``check`` (the Hardware check screen): inputs are only shown; a seat's LED lights for a moment
  after each of its inputs, and Identify blinks it fast.
* ``draft`` (the Garage draft screen): Undo calls what the screen's Undo calls
  (:attr:`HardwareBridge.draft_undo`): the last pick taken back; other inputs as ``idle``.
* ``results`` (the Results screen): the table's Undo calls :attr:`HardwareBridge.results_undo`
  (the App's, as a tap on Results' "Undo last input": the input that finished the race taken
  back through the controller's Undo); the other inputs are recorded, nothing is played.
* ``idle`` (any other screen): inputs are recorded, nothing is played.

LEDs follow the race: BLINK = waiting for that seat's gear, ON = that seat's turn, OFF otherwise,
FAST_BLINK = attention. A pattern is only sent when it changes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.engine import Phase, Rejection
from companion.i18n import N_, Text, _, listed
from companion.i18n.counts import fill

from .controller import RaceController
from .views.hardware_words import reason_text

if TYPE_CHECKING:
    from hardware import Reason

SCREEN_MODES = {"race": "race", "hwcheck": "check", "draft": "draft", "results": "results"}
"""The bridge's mode on each screen (any other: ``idle``)."""
ATTENTION_S = 2.0
"""How long a seat's LED blinks fast after a refused input, or after Identify."""
FEEDBACK_S = 1.0
"""Hardware check: how long a seat's LED stays on after one of its inputs."""


def _text(msgid: str, **params: object) -> Text:
    return lambda: fill(_(msgid), **params)


@dataclass
class SeatInfo:
    """What the Hardware check screen shows for one seat."""

    seat: int
    dial: int | None = None
    """The dial's last known gear (None: not reported yet)."""
    last: Text | None = None
    """The last input from this seat, in words."""
    at: float | None = None
    """When it came (bridge clock)."""
    led: str = "off"
    """The LED pattern last sent (``off``, ``on``, ``blink``, ``fast``)."""
    events: int = 0


@dataclass
class HubInfo:
    name: str = ""
    online: bool | None = None
    """None until the hub reported either way."""
    reason: Reason | None = None
    """Why the hub went offline last (shown with :func:`reason_text`)."""
    seats: tuple[int, ...] = ()


@dataclass
class _Timers:
    attention: dict[int, float] = field(default_factory=dict)
    identify: dict[int, float] = field(default_factory=dict)
    feedback: dict[int, float] = field(default_factory=dict)


class HardwareBridge:
    """Maps table events to controller calls and the race to seat LEDs (main thread only)."""

    def __init__(
        self,
        hardware: Any,
        controller: Callable[[], RaceController | None],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hardware = hardware
        self._controller = controller
        self.clock = clock
        self.mode = "idle"
        """``race``, ``check``, ``draft``, ``results`` or ``idle`` (set by the App when a
        screen is shown: :data:`SCREEN_MODES`)."""
        self.draft_undo: Callable[[], None] | None = None
        """What the draft screen's Undo does (the table's Undo on that screen)."""
        self.results_undo: Callable[[], None] | None = None
        """What the table's Undo does while Results shows (``results`` mode)."""
        self.dial_version = 0
        """Counts the changes of any seat's dial (:meth:`dials_by_car`)."""
        self.seat_map: dict[int, str] = {}
        """Seat number -> car id for the race on the table."""
        self.seats: dict[int, SeatInfo] = {s: SeatInfo(s) for s in self.hardware_seats()}
        self.hub = HubInfo()
        hub = getattr(hardware, "hub", None)
        if hub is not None:
            self.hub = HubInfo(name=str(getattr(hub, "name", "hub")),
                               seats=tuple(getattr(hub, "seats", ())))
        self.buttons: Text | None = None
        """The last shared button pressed, in words."""
        self.status: Text | None = None
        """The last message about the table (hub, rejected input), in words."""
        self.version = 0
        """Bumped whenever something shown on the Hardware check screen changes."""
        self._timers = _Timers()
        self._sent: dict[int, str] = {}

    # --- helpers ------------------------------------------------------------------------------

    def hardware_seats(self) -> tuple[int, ...]:
        return tuple(getattr(self.hardware, "seats", ()) or ())

    def seat_car(self, seat: int) -> str | None:
        return self.seat_map.get(seat)

    def car_seat(self, car: str) -> int | None:
        return next((s for s, c in self.seat_map.items() if c == car), None)

    def _seat(self, seat: int) -> SeatInfo:
        if seat not in self.seats:
            self.seats[seat] = SeatInfo(seat)
        return self.seats[seat]

    def dials_by_car(self) -> dict[str, int]:
        """Each race car's seat dial as last reported (car id -> gear): the race screen marks
        that gear in the car's cell, so the table sees what Ready will choose. A seat whose
        hub is offline is left out (its dial is not read now)."""
        dials = {}
        for seat, car in self.seat_map.items():
            info = self.seats.get(seat)
            if info is not None and info.dial is not None and not self.hub_offline(seat):
                dials[car] = info.dial
        return dials

    def hub_offline(self, seat: int) -> bool:
        """True for a seat served by the hub while the hub is offline (its dial is not read
        and its light not lit now)."""
        return seat in self.hub.seats and self.hub.online is False

    def _record(self, seat: int, text: Text, dial: int | None = None) -> SeatInfo:
        info = self._seat(seat)
        info.last, info.at = text, self.clock()
        info.events += 1
        if dial is not None and dial != info.dial:
            info.dial = dial
            self.dial_version += 1
        if self.mode == "check":
            self._timers.feedback[seat] = self.clock() + FEEDBACK_S
        self.version += 1
        return info

    def _attention(self, seat: int | None) -> None:
        if seat is None:
            return
        self._timers.attention[seat] = self.clock() + ATTENTION_S
        self.update_leds()

    def _say(self, text: Text) -> None:
        self.status = text
        self.version += 1

    # --- inputs -------------------------------------------------------------------------------

    def handle(self, event: Any) -> None:
        from hardware import (
            ButtonPressed,
            DialMoved,
            HubOffline,
            HubOnline,
            InputRejected,
            SeatReady,
            TableButton,
        )

        if isinstance(event, HubOnline):
            self.hub = HubInfo(name=event.hub, online=True, seats=tuple(event.seats))
            self.dial_version += 1  # its seats' dials are read again
            self._say(_text(N_("Table hub {hub} connected."), hub=event.hub))
        elif isinstance(event, HubOffline):
            self.hub = HubInfo(name=event.hub, online=False, reason=event.reason,
                               seats=self.hub.seats)
            self.dial_version += 1  # its seats' dials are not read now
            offline = event.reason
            self._say(lambda: _("Table hub {hub} is offline: {reason}").format(
                hub=event.hub, reason=reason_text(offline)))
            controller = self._controller()
            if self.mode == "race" and controller is not None and self.hub.seats:
                # said on the race screen too: its seats' dials and Ready do nothing now
                # (a table test found it said only on Settings and the Hardware check)
                controller.refuse(N_("Table hub {hub} is offline: seats {seats} use the "
                                     "screen until it is back."), hub=event.hub,
                                  seats=listed(str(seat) for seat in self.hub.seats))
        elif isinstance(event, InputRejected):
            rejected = event.reason
            if event.seat is not None:  # the table's only seat-level refusal: a dial between
                self._record(event.seat, lambda: reason_text(rejected))  # two gears at Ready
                self._attention(event.seat)
                controller = self._controller()
                if self.mode == "race" and controller is not None:
                    controller.refuse(N_("Seat {seat}: the gear dial is between two gears. Turn "
                                         "it to a gear and press Ready again."), seat=event.seat)
            self._say(lambda: reason_text(rejected))
        elif isinstance(event, DialMoved):
            self._record(event.seat, _text(N_("Dial: gear {gear}"), gear=event.gear),
                         dial=event.gear)
        elif isinstance(event, SeatReady):
            self._record(event.seat, _text(N_("Ready in gear {gear}"),
                                           gear=event.gear), dial=event.gear)
            if self.mode == "race":
                self._ready(event.seat, event.gear)
        elif isinstance(event, ButtonPressed):
            button = event.button
            self.buttons = lambda: _("Last button: {button}").format(
                button=_button_name(button))
            if event.seat is not None:
                self._record(event.seat, self.buttons)
            self.version += 1
            if self.mode == "race":
                self._button(event.button)
            elif self.mode in ("draft", "results"):
                undo = self.draft_undo if self.mode == "draft" else self.results_undo
                if event.button is TableButton.UNDO and undo is not None:
                    undo()
        self.update_leds()

    def _ready(self, seat: int, gear: int) -> None:
        controller = self._controller()
        if controller is None:
            return
        car = self.seat_car(seat)
        if car is None or car not in controller.state.index:
            controller.refuse(N_("Seat {seat} has no driver in this race."), seat=seat)
            self._attention(seat)
            return
        result = controller.choose_gear(car, gear)
        if isinstance(result, Rejection):
            self._attention(seat)
            self.beep(2)

    def _button(self, button: Any) -> None:
        from hardware import TableButton

        controller = self._controller()
        if controller is None:
            return
        view = controller.view()
        if button is TableButton.UNDO:
            controller.undo()
        elif button is TableButton.CONFIRM:
            if view.mode in ("reveal", "unpaid") and view.can_confirm:
                controller.confirm()
            else:
                controller.refuse(N_("Confirm: there are no cards to move with now."))
        elif button is TableButton.NEXT:
            if view.mode == "react":  # as the screen's End turn: greyed, it says why
                controller.react("end")
            elif view.mode == "run_round":
                controller.run_round()
            else:
                controller.refuse(N_("Next: the table must decide something first."))

    # --- outputs ------------------------------------------------------------------------------

    def identify(self, seat: int) -> None:
        """Blink the seat's LED fast for :data:`ATTENTION_S` (which seat is which?)."""
        self._timers.identify[seat] = self.clock() + ATTENTION_S
        self.update_leds()

    def beep(self, count: int = 1) -> None:
        beep = getattr(self.hardware, "beep", None)
        if beep is not None:
            with contextlib.suppress(Exception):  # a buzzer problem must never stop the race
                beep(count)

    def pattern(self, seat: int) -> str:
        """The LED pattern this seat should show now."""
        now = self.clock()
        timers = self._timers
        if timers.identify.get(seat, 0) > now or timers.attention.get(seat, 0) > now:
            return "fast"
        if self.mode == "check":
            return "on" if timers.feedback.get(seat, 0) > now else "off"
        if self.mode != "race":
            return "off"
        controller = self._controller()
        car = self.seat_car(seat)
        if controller is None or car is None or car not in controller.state.index:
            return "off"
        state = controller.state
        if state.phase is Phase.PLANNING and car in state.humans_to_plan:
            return "blink"
        if state.current_car == car:
            turn = state.turn
            return "blink" if turn is not None and not turn.gear_set else "on"
        return "off"

    def update_leds(self) -> None:
        """Send every seat its pattern (only when it changed)."""
        from hardware import LedPattern

        set_led = getattr(self.hardware, "set_led", None)
        for seat in self.hardware_seats():
            wanted = self.pattern(seat)
            if self._sent.get(seat) == wanted:
                continue
            self._sent[seat] = wanted
            self._seat(seat).led = wanted
            self.version += 1
            if set_led is not None:
                with contextlib.suppress(Exception):  # a broken LED must never stop the race
                    set_led(seat, LedPattern(wanted))

    def tick(self) -> None:
        """Called a few times a second: ends attention/identify blinks when they are due."""
        now = self.clock()
        timers = self._timers
        for table in (timers.attention, timers.identify, timers.feedback):
            for seat in [s for s, until in table.items() if until <= now]:
                del table[seat]
        self.update_leds()


def _button_name(button: Any) -> str:
    names = {"next": N_("Next"), "undo": N_("Undo"), "confirm": N_("Confirm")}
    return _(names.get(str(button), str(button)))
