"""The race controller: every table input goes through here (Kivy-free, unit-testable).

Touch buttons, the table hardware and the demo all call the same methods. Each one builds an
engine action, hands it to ``session.submit`` (validate -> apply -> durable append) and keeps
the outcome sentences or the rejection reason for the screen. :meth:`RaceController.view`
says what the race screen must show (:mod:`companion.ui.views.race_prompts` for the round and
turn, :mod:`companion.ui.views.keypad` for the card keypads, :mod:`companion.ui.views.race_view`
for the records and the race order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion import engine
from companion.engine import (
    Accelerate,
    Action,
    Adrenaline,
    Applied,
    Boost,
    ChooseGear,
    Cooldown,
    DraftMove,
    EndTurn,
    LegendCard,
    Outcome,
    PayHeat,
    RaceState,
    Rejection,
    Slipstream,
    SuperCool,
    TurnStage,
    Upgrade,
    explain,
    validate,
)
from companion.engine.payment import short_count
from companion.i18n import N_, _

from .views.keypad import UNPAID_TEMPLATE, Entry
from .views.names import car_label
from .views.race_prompts import DirectPlay, race_view, react_buttons
from .views.race_view import OrderRow, RaceView, ReactButton, order_rows
from .views.storage_fault import fault_reason
from .views.words import render

RunRound: Any = getattr(engine, "RunRound", None)
"""The "Legends-only round" action, when the engine has it."""

__all__ = ["RaceController", "Session"]


class Session(Protocol):
    """What the controller needs of ``companion.session.RaceSession``."""

    @property
    def state(self) -> RaceState: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def can_redo(self) -> bool: ...
    def submit(self, action: Action) -> Applied | Rejection: ...
    def undo(self) -> bool: ...
    def redo(self) -> bool: ...


class RaceController:
    """Drives one race session; ``on_change`` is called after every input (main thread).

    ``on_fault(error)`` is called when the session's log could not record an input, undo or
    redo (a full disk, a locked or read-only log: the session is then unchanged); it shows the
    fault and returns True, or returns False for an error that is no storage fault (a bug,
    raised again). Without it every error is raised.
    """

    def __init__(self, session: Session, on_change: Callable[[], None] | None = None, *,
                 on_fault: Callable[[Exception], bool] | None = None) -> None:
        self.session = session
        self.on_change = on_change
        self.on_fault = on_fault
        self.unrecorded: Callable[[], object] | None = None
        """The input the log did not record, to submit again (:meth:`retry`)."""
        self._messages: list[Callable[[], str]] = []
        self._error: Callable[[], str] | None = None
        self._entry = Entry()

    # --- state ---------------------------------------------------------------------------

    @property
    def state(self) -> RaceState:
        return self.session.state

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _submit(self, action: Action) -> Applied | Rejection | None:
        before = self.state
        try:
            result = self.session.submit(action)
        except Exception as error:
            if not self._not_recorded(error, lambda: self._submit(action)):
                raise
            return None
        self.unrecorded = None
        if isinstance(result, Rejection):
            reason = result.reason
            if isinstance(action, ChooseGear):  # many drivers pick at once: say whose gear
                car = action.car
                self._error = lambda: _("{car}: {reason}").format(
                    car=car_label(before, car), reason=render(reason, before))
            else:
                self._error = lambda: render(reason, before)
        else:
            self._error = None
            self._entry.clear()
            self._messages = self._sentences(before, action, result.outcomes)
        self._changed()
        return result

    def _not_recorded(self, error: Exception, again: Callable[[], object]) -> bool:
        """The log did not record an input: the session is as it was, so the race is too, and
        the keypad keeps what was typed. Nothing is shown as accepted; the race screen says why
        and the app shows the fault (``on_fault``). False: not a storage fault."""
        if self.on_fault is None:
            return False
        self.unrecorded = again
        if not self.on_fault(error):
            self.unrecorded = None
            return False
        self._error = lambda: _("Not recorded: {reason}").format(reason=fault_reason(error))
        self._changed()
        return True

    def retry(self) -> bool:
        """Submit the input the log did not record once more (after space was freed…); True
        when it is recorded now. It is recorded once: the session is unchanged by a failure."""
        again = self.unrecorded
        if again is None:
            return False
        self.unrecorded = None
        again()
        return self.unrecorded is None

    def refuse(self, msgid: str, **params: object) -> None:
        """Show why an input that reached no engine action did nothing (e.g. a table button
        pressed when it has no meaning); ``msgid`` is translated when shown."""
        self._error = lambda: _(msgid).format(**params)
        self._changed()

    @property
    def messages(self) -> list[str]:
        """What the last input did, in the current language."""
        return [line() for line in self._messages]

    @property
    def error(self) -> str:
        """Why the last input was refused ("" if it was not), in the current language."""
        return self._error() if self._error is not None else ""

    def _sentences(
        self, before: RaceState, action: Action, outcomes: Sequence[Outcome]
    ) -> list[Callable[[], str]]:
        state = self.state

        def say(why: Any, at: RaceState = state) -> Callable[[], str]:
            return lambda: render(why, at)

        lines = [say(o.why) for o in outcomes]
        if isinstance(action, EndTurn):
            car = state.car(action.car)
            place = say(explain(
                N_("{car} to space {space}, {spot}."), car=car.id,
                space=state.track.space_of(car.distance),
                spot="Race Line" if car.race_line else "outside"))
            checks = [i for i, o in enumerate(outcomes)
                      if o.car == action.car and o.kind in ("corner", "spinout")]
            at = checks[-1] + 1 if checks else 0
            if not any(o.kind == "spinout" and o.car == action.car for o in outcomes):
                lines.insert(at, place)
            if not checks:
                lines.insert(0, say(explain(N_("{car} crossed no Corner Line."),
                                            car=action.car)))
        elif isinstance(action, ChooseGear) and not outcomes:
            lines = [say(explain(N_("{car} is ready."), car=action.car), before)]
        return lines

    # --- inputs: gears (steps 1-2) --------------------------------------------------------

    def choose_gear(self, car: str, gear: int) -> Applied | Rejection | None:
        return self._submit(ChooseGear(car, gear))

    def clogged(self, car: str) -> Applied | Rejection | None:
        return self._submit(ChooseGear(car, self.state.car(car).gear, clogged=True))

    # --- inputs: the reveal keypad (step 3) -----------------------------------------------

    @property
    def entry(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The cards (``Upgrade`` for an upgrade card) and the Basic cards flipped for Stress
        typed on the keypad so far."""
        parsed = self._entry.parse()
        return parsed.reveal_cards(), tuple(parsed.flips)

    def _gear_now(self) -> int:
        current = self.state.current_car
        return self.state.car(current).gear if current else 0

    def key(self, key: str) -> None:
        """A keypad key: ``0``-``5`` (cards, or a flipped Basic card, or a card's chosen value),
        ``stress``, ``up:<design>`` (an upgrade or Sponsorship card), ``back``."""
        self._error = None
        current = self.state.current_car
        if current is not None:
            self._entry.press(key, self.state.car(current))
        self._changed()

    def confirm(self) -> Applied | Rejection | None:
        """Submit the cards on the keypad (the "Move" key). When the engine cannot pay an
        upgrade card's Heat, its rejection says how many: the keypad then asks for the Basic
        card flipped for each."""
        current = self.state.current_car
        entry = self._entry
        if current is None or entry.flip_pending or (
                entry.unpaid_needed and len(entry.unpaid) < entry.unpaid_needed):
            return None
        turn = self.state.turn
        if turn is not None and turn.stage is not TurnStage.REVEAL and entry.unpaid_needed:
            return self._submit(PayHeat(current, tuple(entry.unpaid)))  # after Cooldown
        reveal = entry.reveal(current)
        problem = validate(self.state, reveal)
        if problem is not None and problem.reason.template == UNPAID_TEMPLATE and (
                not entry.unpaid_needed):
            entry.unpaid_needed = int(problem.reason.params["count"])
            self._error = None
            self._changed()
            return None
        return self._submit(reveal)

    # --- inputs: the rest of the turn (steps 4-7) ----------------------------------------

    def adrenaline(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Adrenaline(current)) if current else None

    def cooldown(self, amount: int) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Cooldown(current, amount)) if current else None

    def boost(self) -> None:
        """Ask for the flipped Basic card (the Boost keypad)."""
        self._entry.boosting = True
        self._error = None
        self._changed()

    def boost_cancel(self) -> None:
        self._entry.boosting = False
        self._changed()

    def boost_value(self, value: int) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Boost(current, value)) if current else None

    def slipstream(self, extra: int = 0) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Slipstream(current, extra)) if current else None

    def accelerate(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Accelerate(current)) if current else None

    def end_turn(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(EndTurn(current)) if current else None

    def react(self, key: str) -> Applied | Rejection | None:
        """A react button by its :class:`ReactButton` key."""
        if key == "adrenaline":
            return self.adrenaline()
        if key.startswith("cooldown:"):
            return self.cooldown(int(key.split(":", 1)[1]))
        if key == "boost":
            self.boost()
            return None
        if key == "slipstream":
            return self.slipstream()
        if key.startswith("slipstream:"):
            return self.slipstream(int(key.split(":", 1)[1]))
        current = self.state.current_car
        if key.startswith("slipstream_plain:") and current:  # without the sector's bonus
            return self._submit(Slipstream(current, int(key.split(":", 1)[1]), False))
        if key.startswith("super_cool:") and current:
            return self._submit(SuperCool(current, int(key.split(":", 1)[1])))
        if key == "draft" and current:
            return self._submit(DraftMove(current))
        if key == "unpaid" and current:  # the flip keypad for the cards left unpaid
            self._entry.unpaid_needed = short_count(self.state)
            self._error = None
            self._changed()
            return None
        if key == "accelerate":
            return self.accelerate()
        if key.startswith("direct:") and DirectPlay is not None and self.state.current_car:
            return self._submit(DirectPlay(self.state.current_car, Upgrade(key[7:])))
        if key == "end":
            return self.end_turn()
        raise ValueError(f"unknown react key {key!r}")

    # --- inputs: Legends and the log -------------------------------------------------------

    def legend_card(self, card: int) -> Applied | Rejection | None:
        return self._submit(LegendCard(card))

    def run_round(self) -> Applied | Rejection | None:
        return self._submit(RunRound()) if RunRound is not None else None

    def undo(self) -> bool:
        try:
            done = self.session.undo()
        except Exception as error:
            if not self._not_recorded(error, self.undo):
                raise
            return False
        self._after_log(done, N_("Undone."))
        return done

    def redo(self) -> bool:
        try:
            done = self.session.redo()
        except Exception as error:
            if not self._not_recorded(error, self.redo):
                raise
            return False
        self._after_log(done, N_("Redone."))
        return done

    def _after_log(self, done: bool, message: str) -> None:
        self.unrecorded = None
        self._entry.clear()
        self._error = None if done else (lambda: _("Nothing to undo or redo."))
        if done:
            self._messages = [lambda: _(message)]
        self._changed()

    # --- what to show -----------------------------------------------------------------------

    def view(self) -> RaceView:
        return race_view(self.state, self._entry, messages=tuple(self.messages),
                         error=self.error, can_undo=self.session.can_undo,
                         can_redo=self.session.can_redo)

    def react_buttons(self) -> tuple[ReactButton, ...]:
        """Only what the current car is entitled to now (asked of ``validate``)."""
        return react_buttons(self.state)

    def order_rows(self) -> tuple[OrderRow, ...]:
        return order_rows(self.state)
