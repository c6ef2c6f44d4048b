"""Round and turn prompts (Kivy-free): what the race screen must show now.

:func:`race_view` says whose turn it is, which prompt, and which buttons the car is entitled to
(decided by asking the engine's ``validate``); the card keypads come from :mod:`.keypad`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from companion import engine
from companion.engine import (
    Accelerate,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DraftMove,
    Phase,
    RaceState,
    Slipstream,
    SuperCool,
    TurnStage,
    Upgrade,
    cooldown_limit,
    payment,
    validate,
)
from companion.engine.cards import subset_sums
from companion.engine.checks import super_cool_limit
from companion.engine.conditions import (
    plain_slipstream_spaces,
    sector_slipstream_bonus,
    slipstream_spaces,
)
from companion.engine.garage import DESIGNS
from companion.engine.reactchecks import draft_spaces
from companion.i18n import _

from .keypad import BASIC_KEYS, Entry, boost_view, reveal_view
from .names import car_label
from .race_view import GearRow, RaceView, ReactButton, Ruling, order_rows, uses_sponsors
from .words import design_name

DirectPlay: Any = getattr(engine, "DirectPlay", None)
"""Gas Pedal cards played from hand during React, when the engine has it."""
LEGEND_KEYS: tuple[int, ...] = tuple(range(1, 11))


def race_view(state: RaceState, entry: Entry, *, messages: tuple[str, ...], error: str,
              can_undo: bool, can_redo: bool, rulings: tuple[Ruling, ...] = (),
              moved: Collection[str] = (), revision: int = 0) -> RaceView:
    common: dict[str, Any] = {
        "revision": revision,
        "order": order_rows(state, moved), "messages": messages, "error": error,
        "rulings": rulings or tuple(Ruling(m) for m in messages),
        "can_undo": can_undo, "can_redo": can_redo,
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
        rows = tuple(gear_row(state, c) for c in state.order if not state.car(c).legend)
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
                car=name), gear_rows=(gear_row(state, current),), **common)
    if state.turn.stage is TurnStage.REVEAL or entry.unpaid_needed:
        return reveal_view(state, entry, status, name, common)
    if entry.boosting:
        return boost_view(state, current, status, name, common)
    return RaceView("react", status,
                    _("{car}: take what you are entitled to, then end the turn.").format(
                        car=name), react=react_buttons(state), **common)


def react_buttons(state: RaceState) -> tuple[ReactButton, ...]:
    """Only what the current car is entitled to now (asked of ``validate``)."""
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
    for amount in range(1, super_cool_limit(state, car) + 1):
        if validate(state, SuperCool(current, amount)) is None:
            buttons.append(ReactButton(f"super_cool:{amount}",
                                       _("Super cool {n}").format(n=amount)))
    short = payment.short_count(state) if payment.due(state) else 0
    if short:  # the upgrade cards' Heat the engine cannot pay: each resolves as Stress
        buttons.append(ReactButton("unpaid", _("Cannot pay: {n} card(s)").format(n=short)))
    if any(validate(state, Boost(current, v)) is None for v in BASIC_KEYS):
        buttons.append(ReactButton("boost", _("Boost (1 Heat)")))
    if validate(state, Accelerate(current)) is None:
        speed = state.turn.accelerate * state.turn.plus_resolved
        buttons.append(ReactButton("accelerate", _("Accelerate +{n}").format(n=speed)))
    if validate(state, DraftMove(current)) is None:
        spaces = draft_spaces(payment.settled(state), car) or 0
        buttons.append(ReactButton("draft", _("Draft +{n}").format(n=spaces)))
    base = slipstream_spaces(state, car) or 0
    plain = plain_slipstream_spaces(state, car) or 0
    for extra in sorted(subset_sums(state.turn.slipstream_bonuses)):
        if validate(state, Slipstream(current, extra)) is None:
            buttons.append(ReactButton("slipstream" if extra == 0 else f"slipstream:{extra}",
                                       _("Slipstream +{n}").format(n=base + extra)))
        if sector_slipstream_bonus(state, car) and validate(
                state, Slipstream(current, extra, False)) is None:  # the bonus is optional
            buttons.append(ReactButton(f"slipstream_plain:{extra}",
                                       _("Slipstream +{n}").format(n=plain + extra)))
    buttons.append(ReactButton("end", _("End turn")))
    return tuple(buttons)


def gear_row(state: RaceState, car_id: str) -> GearRow:
    car = state.car(car_id)
    allowed = tuple(validate(state, ChooseGear(car_id, g)) is None for g in (1, 2, 3, 4))
    can_clog = validate(state, ChooseGear(car_id, car.gear, clogged=True)) is None
    return GearRow(
        car=car_id, name=car_label(state, car_id), gear=car.gear,
        planned=state.planned.get(car_id), clogged=car_id in state.clogged,
        allowed=allowed, can_clog=can_clog,  # type: ignore[arg-type]
    )
