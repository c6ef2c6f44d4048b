"""Validation: may this input be played now? Each check names its rule and, when the answer is
no, returns a :class:`Rejection` whose sentence a player understands.

Sources: docs/rules.md §1 (base rules), docs/race-file.md (inputs, their order and their
rejections), docs/rules.md §3.3, §5, §6 (what events, weather, road conditions and flooded spaces
change). Steps 4-6 of a turn are checked in ``reactchecks.py``; the checks every input shares in
``gate.py``.
"""

from __future__ import annotations

from collections import Counter

from . import conditions, legends
from .actions import (
    STRESS,
    Action,
    ChooseGear,
    LegendCard,
    Reveal,
    RunRound,
    Upgrade,
)
from .cards import evaluate
from .explain import N_
from .garage import DESIGNS
from .gate import (
    BASIC_VALUES,
    CARD_VALUES,
    check_car,
    check_turn,
    deck_count_problem,
    humans_racing,
    is_int,
    validate_upgrade,
)
from .outcomes import Rejection, reject
from .reactchecks import cooldown_limit, slipstream_partner, super_cool_limit, validate_react
from .state import CarState, Phase, RaceState, TurnStage

__all__ = [
    "cooldown_limit", "flooded_surcharge", "humans_racing", "is_int", "shift_cost",
    "slipstream_partner", "super_cool_limit", "validate",
]

GEARS = range(1, 5)


def shift_cost(state: RaceState, car: CarState, gear: int) -> int:
    """Heat a shift costs (docs/rules.md §1.2 step 1): 1 for two gears. Flooded spaces
    (docs/rules.md §6, Japan): a car that starts the round on one pays 1 more Heat for shifting
    down at all."""
    steps = abs(gear - car.gear)
    return (1 if steps == 2 else 0) + flooded_surcharge(state, car, gear)


def flooded_surcharge(state: RaceState, car: CarState, gear: int) -> int:
    """The part of a shift's cost that is the flooded space's (docs/rules.md §6.4): 1 for a
    shift down from a flooded space, else 0."""
    return 1 if gear < car.gear and state.track.space_of(car.distance) in state.track.flooded \
        else 0


def _gear_moment(state: RaceState, car_id: str) -> Rejection | None:
    """Steps 1-2 happen together at the start of the round; in the tournament variant each
    driver reveals the gear with the cards, at its turn (Garage booklet, "tournament mode")."""
    if not state.modules.tournament:
        if state.phase is not Phase.PLANNING:
            return reject(car_id, N_("Gears are picked at the start of a round, not now."))
        return None
    problem = check_turn(state, car_id, "reveal a gear")
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.gear_set:
        return reject(car_id, N_("{car} has already revealed its gear."), car=car_id)
    return None


def _validate_gear(state: RaceState, action: ChooseGear) -> Rejection | None:
    """Step 1 (docs/rules.md §1.2, docs/race-file.md ``gear``): one step free, two steps 1 Heat,
    three never. Clogged hand (docs/rules.md §1.5): only possible when enough Heat is out of the
    engine to fill the hand so that no gear the driver could shift to (and pay for) can be
    played."""
    problem = check_car(state, action.car) or _gear_moment(state, action.car)
    if problem is not None:
        return problem
    car = state.car(action.car)
    if not is_int(action.gear) or action.gear not in GEARS:
        return reject(action.car, N_("Gear must be 1 to 4, not {gear}."), gear=str(action.gear))
    if abs(action.gear - car.gear) == 3:
        return reject(
            action.car, N_("Cannot shift from gear {old} to {new}: at most two gears at once."),
            old=car.gear, new=action.gear,
        )
    cost = shift_cost(state, car, action.gear)
    if cost > car.engine:
        if cost == 1 and abs(action.gear - car.gear) == 2:
            return reject(
                action.car,
                N_("Cannot shift two gears (from {old} to {new}): it costs 1 Heat and the "
                   "engine is empty."),
                old=car.gear, new=action.gear,
            )
        return reject(
            action.car,
            N_("Cannot shift down from gear {old} to {new} on a flooded space: it costs "
               "{cost} Heat and the engine has {engine}."),
            old=car.gear, new=action.gear, cost=cost, engine=car.engine,
        )
    if action.clogged:
        lowest = min(g for g in GEARS
                     if abs(g - car.gear) <= 2 and shift_cost(state, car, g) <= car.engine)
        needed = conditions.hand_size(state) + 1 - lowest
        outside = car.heat - car.engine
        if outside < needed:
            return reject(
                action.car,
                N_("Cannot be clogged: with only {outside} Heat card(s) out of the engine, the "
                   "hand still holds a card to play in gear {gear}."),
                outside=outside, gear=lowest,
            )
    return None


def _validate_reveal(state: RaceState, action: Reveal) -> Rejection | None:
    """Steps 2-3 (docs/rules.md §1.2, §1.4; docs/race-file.md ``cards``/``stress``; upgrade and
    Sponsorship cards in heat-race/2, docs/rules.md §4.2, §3.4). The cards whose Heat the engine
    cannot pay now may be declared unpaid here (docs/rules.md §4.4), all of them or none."""
    problem = check_turn(state, action.car, "reveal cards")
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.stage is not TurnStage.REVEAL:
        return reject(action.car, N_("{car} has already revealed its cards."), car=action.car)
    if not state.turn.gear_set:
        return reject(action.car, N_("Reveal the gear first (tournament mode)."))
    car = state.car(action.car)
    if len(action.cards) != car.gear:
        return reject(action.car, N_("Gear {gear} plays exactly {gear} card(s), not {count}."),
                      gear=car.gear, count=len(action.cards))
    values = BASIC_VALUES if car.upgrades else CARD_VALUES
    stress_cards = 0
    upgrades: list[str] = []
    sponsors = 0
    for value in action.cards:
        if value == STRESS:
            stress_cards += 1
        elif isinstance(value, Upgrade):
            problem = validate_upgrade(state, car, value)
            if problem is not None:
                return problem
            upgrades.append(value.design)
            sponsors += 1 if DESIGNS[value.design].sponsor else 0
        elif not (is_int(value) and value in values):
            return reject(action.car, N_("{value} is not a card of this deck."),
                          value=str(value))
    for design, count in Counter(upgrades).items():
        if not DESIGNS[design].sponsor and count > car.upgrades.count(design):
            return reject(action.car, N_("{car} has only {copies} {design} card(s)."),
                          car=action.car, copies=car.upgrades.count(design), design=design)
    if sponsors > car.sponsor_cards:
        return reject(action.car, N_("{car} holds only {held} Sponsorship card(s)."),
                      car=action.car, held=car.sponsor_cards)
    if len(action.stress) != stress_cards:
        return reject(
            action.car,
            N_("{count} Stress card(s) played, so give {count} flipped Basic card(s), "
               "not {given}."),
            count=stress_cards, given=len(action.stress),
        )
    for flipped in (*action.stress, *action.unpaid):
        if not is_int(flipped) or flipped not in BASIC_VALUES:
            return reject(action.car, N_("A Stress card resolves to a Basic card 1-4, not "
                                         "{value}."), value=str(flipped))
    if stress_cards > car.stress_owned:
        return reject(action.car, N_("{car} owns only {owned} Stress card(s), not {count}."),
                      car=action.car, owned=car.stress_owned, count=stress_cards)
    play = evaluate(action, car.engine)
    if action.unpaid and len(action.unpaid) != play.unpayable:
        return reject(
            action.car,
            N_("The engine cannot pay for {count} upgrade card(s) now: to declare them unpaid "
               "give a flipped Basic card for each (they resolve as Stress), not {given}; or "
               "give none and pay after Cooldown."),
            count=play.unpayable, given=len(action.unpaid),
        )
    return deck_count_problem(action.car, list(play.basic_shown))


def validate(state: RaceState, action: Action) -> Rejection | None:
    """None if the rules allow ``action`` now, else the reason they don't."""
    if isinstance(action, ChooseGear):
        return _validate_gear(state, action)
    if isinstance(action, Reveal):
        return _validate_reveal(state, action)
    if isinstance(action, RunRound):
        if state.phase is not Phase.PLANNING or humans_racing(state):
            return reject(None, N_("Only a round with no human car still racing plays by "
                                   "itself."))
        return None
    if isinstance(action, LegendCard):
        if not state.awaiting_legend_card:
            return reject(None, N_("No Legends card is needed now."))
        if not is_int(action.card) or action.card not in legends.LEGENDS_CARDS:
            return reject(None, N_("Legends cards are numbered 1-10, not {card}."),
                          card=str(action.card))
        return None
    return validate_react(state, action)
