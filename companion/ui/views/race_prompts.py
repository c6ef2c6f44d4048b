"""Round and turn prompts (Kivy-free): what the race screen must show now.

:func:`race_view` says whose turn it is, which prompt, and which buttons the car is entitled to
(decided by asking the engine's ``validate``); the card keypads come from :mod:`.keypad`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from companion.engine import (
    ChooseGear,
    Phase,
    RaceState,
    TurnStage,
    validate,
)
from companion.i18n import _
from companion.i18n.counts import fill

from .keypad import Entry, boost_view, reveal_view
from .names import car_label
from .race_view import GearRow, RaceView, Ruling, order_rows, uses_sponsors
from .react_choices import DirectPlay, react_buttons

__all__ = ["DirectPlay", "LEGEND_KEYS", "gear_row", "race_view", "react_buttons"]

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
            fill(_("Pick your gear: {count} driver(s) still to choose."), count=waiting),
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


def gear_row(state: RaceState, car_id: str) -> GearRow:
    car = state.car(car_id)
    allowed = tuple(validate(state, ChooseGear(car_id, g)) is None for g in (1, 2, 3, 4))
    can_clog = validate(state, ChooseGear(car_id, car.gear, clogged=True)) is None
    return GearRow(
        car=car_id, name=car_label(state, car_id), gear=car.gear,
        planned=state.planned.get(car_id), clogged=car_id in state.clogged,
        allowed=allowed, can_clog=can_clog,  # type: ignore[arg-type]
    )
