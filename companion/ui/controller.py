"""The race controller: every table input goes through here (Kivy-free, unit-testable).

Touch buttons, the table hardware and the demo all call the same methods. Each one builds an
engine action, hands it to ``session.submit`` (validate -> apply -> durable append) and keeps
the outcome sentences or the rejection reason for the screen. :meth:`RaceController.view`
says what the race screen must show: whose turn it is, which prompt, which buttons the car is
entitled to (decided by asking the engine's ``validate``), and the race order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    EndTurn,
    LegendCard,
    Outcome,
    Phase,
    RaceState,
    Rejection,
    Slipstream,
    TurnStage,
    Upgrade,
    cooldown_limit,
    explain,
    validate,
)
from companion.engine.cards import subset_sums
from companion.engine.conditions import slipstream_spaces
from companion.engine.garage import DESIGNS
from companion.i18n import N_, _

from .keypad import BASIC_KEYS, CARD_KEYS, UNPAID_TEMPLATE, Entry, upgrade_keys
from .words import car_label, design_name, render

RunRound: Any = getattr(engine, "RunRound", None)
DirectPlay: Any = getattr(engine, "DirectPlay", None)
"""Gas Pedal cards played from hand during React, when the engine has it."""
"""The "Legends-only round" action, when the engine has it."""

__all__ = ["BASIC_KEYS", "CARD_KEYS", "RaceController", "RaceView"]
LEGEND_KEYS: tuple[int, ...] = tuple(range(1, 11))


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


@dataclass(frozen=True)
class GearRow:
    car: str
    name: str
    gear: int
    """The gear the car is in now."""
    planned: int | None
    """The gear picked this round (ready), or None."""
    clogged: bool
    allowed: tuple[bool, bool, bool, bool]
    can_clog: bool


@dataclass(frozen=True)
class OrderRow:
    car: str
    name: str
    position: int
    legend: bool
    lap: int
    gear: int
    engine: int
    heat: int
    stress_taken: int
    finished_place: int | None
    current: bool
    sponsors: int = 0
    """Sponsorship cards earned this race (races with modules)."""
    eliminated: bool = False


@dataclass(frozen=True)
class ReactButton:
    key: str
    """``adrenaline``, ``direct:<design>`` (a Gas Pedal card from hand), ``cooldown:N``,
    ``boost``, ``accelerate``, ``slipstream``,
    ``slipstream:N`` (with N optional spaces of the cards) or ``end``."""
    label: str


@dataclass(frozen=True)
class RaceView:
    mode: str
    """``gears``, ``turn_gear`` (tournament: the current car's gear), ``reveal``, ``flip``,
    ``value`` (a card's chosen value), ``plus`` (a "+" flip), ``unpaid`` (flips for cards whose
    Heat the engine cannot pay), ``react``, ``boost``, ``legend_card``, ``run_round`` or
    ``over``."""
    status: str
    prompt: str
    current: str | None
    gear_rows: tuple[GearRow, ...] = ()
    entry: str = ""
    keys: tuple[tuple[str, str, bool], ...] = ()
    """Keypad keys as ``(key, label, enabled)``; key is a digit, ``stress``, ``back``."""
    can_confirm: bool = False
    react: tuple[ReactButton, ...] = ()
    order: tuple[OrderRow, ...] = ()
    messages: tuple[str, ...] = ()
    error: str = ""
    can_undo: bool = False
    can_redo: bool = False
    sponsors: bool = False
    """Show the Sponsorship column and eliminated cars (the race uses modules that award or
    eliminate)."""
    tournament: bool = False


def card_text(value: int | str) -> str:
    return _("Stress") if value == "stress" else str(value)


class RaceController:
    """Drives one race session; ``on_change`` is called after every input (main thread)."""

    def __init__(self, session: Session, on_change: Callable[[], None] | None = None) -> None:
        self.session = session
        self.on_change = on_change
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

    def _submit(self, action: Action) -> Applied | Rejection:
        before = self.state
        result = self.session.submit(action)
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

    def choose_gear(self, car: str, gear: int) -> Applied | Rejection:
        return self._submit(ChooseGear(car, gear))

    def clogged(self, car: str) -> Applied | Rejection:
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
        reveal = entry.reveal(current)
        problem = validate(self.state, reveal)
        if problem is not None and problem.reason.template == UNPAID_TEMPLATE and (
                not entry.unpaid_needed):
            entry.unpaid_needed = int(problem.reason.params["count"])  # type: ignore[call-overload]
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
        if key == "accelerate":
            return self.accelerate()
        if key.startswith("direct:") and DirectPlay is not None and self.state.current_car:
            return self._submit(DirectPlay(self.state.current_car, Upgrade(key[7:])))
        if key == "end":
            return self.end_turn()
        raise ValueError(f"unknown react key {key!r}")

    # --- inputs: Legends and the log -------------------------------------------------------

    def legend_card(self, card: int) -> Applied | Rejection:
        return self._submit(LegendCard(card))

    def run_round(self) -> Applied | Rejection | None:
        return self._submit(RunRound()) if RunRound is not None else None

    def undo(self) -> bool:
        done = self.session.undo()
        self._after_log(done, N_("Undone."))
        return done

    def redo(self) -> bool:
        done = self.session.redo()
        self._after_log(done, N_("Redone."))
        return done

    def _after_log(self, done: bool, message: str) -> None:
        self._entry.clear()
        self._error = None if done else (lambda: _("Nothing to undo or redo."))
        if done:
            self._messages = [lambda: _(message)]
        self._changed()

    # --- what to show -----------------------------------------------------------------------

    def view(self) -> RaceView:
        state = self.state
        common: dict[str, Any] = {
            "order": self.order_rows(), "messages": tuple(self.messages), "error": self.error,
            "can_undo": self.session.can_undo, "can_redo": self.session.can_redo,
            "current": state.current_car, "sponsors": uses_sponsors(state),
            "tournament": state.modules.tournament,
        }
        round_no = state.round + 1
        if state.phase is Phase.OVER:
            return RaceView("over", _("The race is over."), _("See the results."), **common)
        status = _("Round {round}").format(round=round_no)
        if state.phase is Phase.PLANNING:
            if not state.humans_to_plan and not any(
                not state.car(c).legend for c in state.order
            ):
                return RaceView("run_round", status,
                                _("Only Legends are still racing: play their round."), **common)
            rows = tuple(self._gear_row(c) for c in state.order if not state.car(c).legend)
            waiting = len(state.humans_to_plan)
            return RaceView(
                "gears", status,
                _("Pick your gear: {count} driver(s) still to choose.").format(count=waiting),
                gear_rows=rows, **common)
        if state.awaiting_legend_card:
            keys = tuple((str(n), str(n), True) for n in LEGEND_KEYS)
            return RaceView("legend_card", status,
                            _("Draw a Legends card and enter its number."), keys=keys, **common)
        current = state.current_car
        assert current is not None and state.turn is not None
        name = car_label(state, current)
        status = _("Round {round}: {car}'s turn").format(round=round_no, car=name)
        if state.turn.stage is TurnStage.REVEAL and not state.turn.gear_set:
            return RaceView(
                "turn_gear", status,
                _("{car}: pick your gear now, then reveal the cards (tournament).").format(
                    car=name), gear_rows=(self._gear_row(current),), **common)
        if state.turn.stage is TurnStage.REVEAL:
            return self._reveal_view(status, name, common)
        if self._entry.boosting:
            keys = tuple(
                (str(v), str(v), validate(state, Boost(current, v)) is None) for v in BASIC_KEYS
            )
            return RaceView("boost", status,
                            _("{car} boosts: flip a Basic card and enter it.").format(car=name),
                            keys=keys, **common)
        return RaceView("react", status,
                        _("{car}: take what you are entitled to, then end the turn.").format(
                            car=name), react=self.react_buttons(), **common)

    def _reveal_view(self, status: str, name: str, common: dict[str, Any]) -> RaceView:
        entry = self._entry
        state = self.state
        car = state.car(state.current_car or "")
        gear = car.gear
        parsed = entry.parse()
        text = entry.text()
        back = ("back", "<", True)
        if entry.unpaid_needed:
            keys = tuple((str(v), str(v), entry.allowed(str(v), car)) for v in BASIC_KEYS)
            return RaceView(
                "unpaid", status,
                _("The engine cannot pay the Heat of {count} card(s): flip a Basic card for "
                  "each and enter it (it counts as a Stress card).").format(
                    count=entry.unpaid_needed),
                entry=text, keys=(*keys, back),
                can_confirm=len(entry.unpaid) == entry.unpaid_needed, **common)
        if parsed.pending == "flip":
            keys = tuple((str(v), str(v), True) for v in BASIC_KEYS) + (back,)
            return RaceView(
                "flip", status,
                _("Stress card: flip Basic cards until one shows, enter its value."),
                entry=text, keys=keys, **common)
        if parsed.pending == "value":
            design = parsed.design or ""
            keys = tuple((str(v), str(v), True) for v in DESIGNS[design].speeds) + (back,)
            return RaceView("value", status, _("{card}: which value is played?").format(
                card=design_name(design)), entry=text, keys=keys, **common)
        if parsed.pending == "plus":
            keys = tuple((str(v), str(v), True) for v in BASIC_KEYS) + (back,)
            return RaceView(
                "plus", status,
                _("{card}: flip a Basic card for its \"+\" and enter its value.").format(
                    card=design_name(parsed.design or "")), entry=text, keys=keys, **common)
        room = len(parsed.cards) < gear
        values = BASIC_KEYS if car.upgrades else CARD_KEYS
        typed: list[tuple[str, str, bool]] = [(str(v), str(v), room) for v in values]
        typed.append(("stress", _("Stress"), room))
        typed += [(f"up:{design}", design_name(design), room and enabled)
                  for design, enabled in upgrade_keys(car, parsed)]
        typed.append(("back", "<", bool(entry.keys)))
        return RaceView(
            "reveal", status,
            _("{car} is in gear {gear}: enter the {gear} cards revealed.").format(
                car=name, gear=gear),
            entry=text, keys=tuple(typed), can_confirm=len(parsed.cards) == gear, **common)

    def react_buttons(self) -> tuple[ReactButton, ...]:
        """Only what the current car is entitled to now (asked of ``validate``)."""
        state = self.state
        current = state.current_car
        if current is None or state.turn is None or state.turn.stage is TurnStage.REVEAL:
            return ()
        car = state.car(current)
        buttons: list[ReactButton] = []
        if validate(state, Adrenaline(current)) is None:
            buttons.append(ReactButton("adrenaline", _("Adrenaline +1")))
        for design in dict.fromkeys(d for d in car.upgrades if DESIGNS[d].direct):
            if DirectPlay is not None and validate(
                    state, DirectPlay(current, Upgrade(design))) is None:
                buttons.append(ReactButton(f"direct:{design}", _("Play {card}").format(
                    card=design_name(design))))
        if validate(state, Cooldown(current, 1)) is None:
            for amount in range(1, cooldown_limit(state, car) + 1):
                if validate(state, Cooldown(current, amount)) is None:
                    buttons.append(ReactButton(f"cooldown:{amount}",
                                               _("Cooldown {n}").format(n=amount)))
        if any(validate(state, Boost(current, v)) is None for v in BASIC_KEYS):
            buttons.append(ReactButton("boost", _("Boost (1 Heat)")))
        if validate(state, Accelerate(current)) is None:
            speed = state.turn.accelerate * state.turn.plus_resolved
            buttons.append(ReactButton("accelerate", _("Accelerate +{n}").format(n=speed)))
        base = slipstream_spaces(state, car) or 0
        for extra in sorted(subset_sums(state.turn.slipstream_bonuses)):
            if validate(state, Slipstream(current, extra)) is None:
                buttons.append(ReactButton("slipstream" if extra == 0 else f"slipstream:{extra}",
                                           _("Slipstream +{n}").format(n=base + extra)))
        buttons.append(ReactButton("end", _("End turn")))
        return tuple(buttons)

    def _gear_row(self, car_id: str) -> GearRow:
        state = self.state
        car = state.car(car_id)
        allowed = tuple(validate(state, ChooseGear(car_id, g)) is None for g in (1, 2, 3, 4))
        can_clog = validate(state, ChooseGear(car_id, car.gear, clogged=True)) is None
        return GearRow(
            car=car_id, name=car_label(state, car_id), gear=car.gear,
            planned=state.planned.get(car_id), clogged=car_id in state.clogged,
            allowed=allowed, can_clog=can_clog,  # type: ignore[arg-type]
        )

    def order_rows(self) -> tuple[OrderRow, ...]:
        return order_rows(self.state)


def standings(state: RaceState) -> list[str]:
    """Every car by position: finished cars by place, then the race order."""
    finished = [car for car, _place, _round in state.results]
    racing = [c for c in state.order if c not in finished]
    rest = [c.id for c in state.cars if c.id not in finished and c.id not in racing]
    return finished + racing + rest


def order_rows(state: RaceState) -> tuple[OrderRow, ...]:
    rows = []
    current = state.current_car
    for position, car_id in enumerate(standings(state), start=1):
        car = state.car(car_id)
        rows.append(OrderRow(
            car=car_id, name=car_label(state, car_id), position=position, legend=car.legend,
            lap=max(0, min(state.laps, state.track.lap_of(car.distance))), gear=car.gear,
            engine=car.engine, heat=car.heat, stress_taken=car.stress_taken,
            finished_place=car.finished_place, current=car_id == current,
            sponsors=car.sponsors, eliminated=car.eliminated,
        ))
    return tuple(rows)


def uses_sponsors(state: RaceState) -> bool:
    """True when the race can award Sponsorship cards or eliminate cars (modules)."""
    modules = state.modules
    return bool(modules.event or modules.press_corners) or any(
        c.sponsors or c.eliminated for c in state.cars)
