"""The flow of a race: what happens without a decision between two table inputs.

Closing the planning phase (step 1 paid for every car), the Legends' moves, clogged cars, the
end of a round (finishers to the podium, new race order), and the start of each human turn.
Sources: docs/rules.md §1.2, §1.5, §1.6, §1.12, §2.2.
"""

from __future__ import annotations

from types import MappingProxyType

from . import conditions, legends, sponsorship
from .checks import humans_racing
from .evolve import evolve
from .explain import N_
from .modules import Sponsorship
from .outcomes import Outcome, said
from .placement import move_car, position_outcome, race_order_key
from .state import CarState, DeckMode, Phase, RaceState, TurnStage, TurnState
from .turn import pay_for_shift


def _close_planning(state: RaceState, out: list[Outcome]) -> RaceState:
    """All gears picked: pay for the shifts and set the gears (docs/rules.md §1.2 step 1)."""
    for car_id in state.order:
        car = state.car(car_id)
        if not car.legend:
            state = pay_for_shift(state, car, state.planned[car_id], out)
    return evolve(state, phase=Phase.TURNS, turn_index=0, turn=None,
                   planned=MappingProxyType({}))


def _adrenaline_entitled(state: RaceState) -> bool:
    """docs/rules.md §1.6: the last car in race order (the last two with 5 or more cars in the
    race); cars already finished count as ahead, so the position counts every starter."""
    if not conditions.adrenaline_in_play(state):
        return False
    starters = len(state.cars)
    position = (starters - len(state.order)) + state.turn_index
    return position == starters - 1 or (starters >= 5 and position == starters - 2)


def _legend_turn(state: RaceState, car: CarState, out: list[Outcome]) -> RaceState:
    """A Legend's turn (docs/rules.md §2.2): the round's card is drawn when the first Legend
    acts."""
    card = state.legend_card
    if card is None:
        card, deck = legends.draw(state.deck)
        state = evolve(state, legend_card=card, deck=deck)
        out.append(said("legend_card", None, N_("Legends card {card} is drawn for this round."),
                        card=card))
    plan = legends.legend_move(state, car.id, car.distance, card)
    moved = move_car(state, car, plan.target)
    state = state.with_car(moved)
    out.append(Outcome("legend", car.id, plan.why))
    out.append(position_outcome(state, moved, plan.target))
    state = sponsorship.crowd_and_grandstand(state, moved, car.distance, out, award=False)
    return evolve(state, turn_index=state.turn_index + 1)


def _clogged_turn(state: RaceState, car: CarState, out: list[Outcome]) -> RaceState:
    """docs/rules.md §1.5: the car does not move, gets none of steps 4-8, and drops to 1st gear."""
    state = state.with_car(evolve(car, gear=1))
    out.append(said(
        "clogged", car.id,
        N_("{car}'s hand is full of Heat: it does not move this round and drops to 1st gear."),
        car=car.id,
    ))
    return evolve(state, turn_index=state.turn_index + 1, turn=None)


def _end_round(state: RaceState, out: list[Outcome]) -> RaceState:
    """docs/rules.md §1.12: finished cars go to the podium in order (furthest past the line first,
    Race Line ahead); the next round's order is recomputed from positions."""
    round_no = state.round + 1
    finishers = sorted(
        (state.car(c) for c in state.order
         if state.car(c).racing and state.car(c).distance > state.finish_distance),
        key=race_order_key,
    )
    results = list(state.results)
    for car in finishers:
        place = len(results) + 1
        results.append((car.id, place, round_no))
        state = state.with_car(
            evolve(car, on_track=False, finished_place=place, finished_round=round_no)
        )
        out.append(said("finish", car.id, N_("{car} finishes in place {place}."),
                        car=car.id, place=place))
    racing = sorted((c for c in state.cars if c.racing), key=race_order_key)
    order = tuple(c.id for c in racing)
    state = evolve(
        state, round=round_no, order=order, results=tuple(results), turn_index=0, turn=None,
        legend_card=None, planned=MappingProxyType({}), clogged=frozenset(),
    )
    if not order:
        return evolve(state, phase=Phase.OVER)
    if state.modules.tournament and humans_racing(state):
        return evolve(state, phase=Phase.TURNS)
    return evolve(state, phase=Phase.PLANNING)


def _start_turn(state: RaceState, car: CarState) -> RaceState:
    event = state.modules.event_card
    counts_passes = event is not None and Sponsorship.LIVE_TV in event.triggers
    return evolve(state, turn=TurnState(
        car=car.id, stage=TurnStage.REVEAL, start_distance=car.distance,
        start_race_line=car.race_line,
        adrenaline_entitled=_adrenaline_entitled(state),
        gear_set=not state.modules.tournament,
        ahead_at_start=sponsorship.cars_ahead(state, car.id) if counts_passes else frozenset(),
    ))


def advance(state: RaceState, out: list[Outcome]) -> RaceState:
    """Play everything that needs no decision, until the table must act (or the race is over)."""
    for _ in range(100_000):
        if state.phase is Phase.PLANNING:
            if state.humans_to_plan or not humans_racing(state):
                return state  # gears to pick, or a Legends-only round to start (RunRound)
            state = _close_planning(state, out)
            continue
        if state.phase is Phase.OVER:
            return state
        if state.turn_index >= len(state.order):
            state = _end_round(state, out)
            continue
        car = state.car(state.order[state.turn_index])
        if not car.racing:  # eliminated earlier this round
            state = evolve(state, turn_index=state.turn_index + 1)
            continue
        if car.legend:
            if state.legend_card is None and state.deck.mode is DeckMode.PHYSICAL:
                return state
            state = _legend_turn(state, car, out)
            continue
        if car.id in state.clogged:
            state = _clogged_turn(state, car, out)
            continue
        if state.turn is None:
            state = _start_turn(state, car)
        return state
    raise RuntimeError("the race does not progress")  # a bug: Legends always move on
