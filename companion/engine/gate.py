"""The checks every input shares: whose turn it is, where in the turn the car is, what one deck
can show, and whether an upgrade card may be played (docs/rules.md §0, §1.2, §3.4, §4.2;
docs/race-file.md "Order inside a car's turn")."""

from __future__ import annotations

from collections import Counter

from .actions import Upgrade
from .explain import N_
from .garage import DESIGNS
from .outcomes import Rejection, reject
from .state import CarState, Phase, RaceState, TurnStage

CARD_VALUES = range(0, 6)
"""Values a base-game deck can reveal: Basic 1-4, Starting Upgrades 0 and 5 (docs/rules.md §0)."""
COPIES_IN_DECK = {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 1}
"""Copies of each value in a base deck (docs/rules.md §0): a play can't show more than that."""
BASIC_VALUES = range(1, 5)
"""A Stress card or a Boost resolves to a Basic card, 1-4 (docs/rules.md §1.4, §1.7)."""


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def humans_racing(state: RaceState) -> bool:
    return any(not state.car(c).legend for c in state.order)


def check_car(state: RaceState, car_id: str) -> Rejection | None:
    if car_id not in state.index:
        return reject(car_id, N_("{car} is not a car in this race."), car=car_id)
    car = state.car(car_id)
    if car.legend:
        return reject(car_id, N_("{car} is a Legend: the app moves it."), car=car_id)
    if car.finished:
        return reject(car_id, N_("{car} has already finished."), car=car_id)
    if car.eliminated:
        return reject(car_id, N_("{car} is out of the race."), car=car_id)
    return None


def check_turn(state: RaceState, car_id: str, step: str) -> Rejection | None:
    problem = check_car(state, car_id)
    if problem is not None:
        return problem
    if state.phase is Phase.OVER:
        return reject(car_id, N_("The race is over."))
    if state.phase is Phase.PLANNING:
        return reject(car_id, N_("Cannot {step} yet: every driver picks a gear first."),
                      step=step)
    current = state.current_car
    if current != car_id:
        return reject(car_id, N_("Cannot {step}: it is {current}'s turn."), step=step,
                      current=current or "-")
    return None


def react_step(state: RaceState, car_id: str, step: str, stage: TurnStage) -> Rejection | None:
    """Steps 4-6 come after the reveal and in race-file order (docs/race-file.md "Order inside a
    car's turn"; docs/race-file-v2.md): Adrenaline, direct plays, Cooldown, Super cool, paying
    the upgrade cards' Heat, Boost, Accelerate, Draft, Slipstream; each at most once."""
    problem = check_turn(state, car_id, step)
    if problem is not None:
        return problem
    turn = state.turn
    assert turn is not None
    if turn.stage is TurnStage.REVEAL:
        return reject(car_id, N_("Cannot {step} before revealing cards."), step=step)
    if turn.stage.value >= stage.value:
        return reject(
            car_id, N_("Cannot {step} now: a car's turn goes move, Adrenaline, Cooldown, "
                       "Super cool, upgrade Heat, Boost, Accelerate, Draft, Slipstream, and "
                       "that step has passed."),
            step=step,
        )
    return None


def deck_count_problem(car_id: str, values: list[int]) -> Rejection | None:
    """A base deck holds three of each Basic value and one 0 and one 5 (docs/rules.md §0); the cards
    played, flipped for Stress and flipped for a Boost are all in play until step 9."""
    counts = Counter(values)
    for value, count in sorted(counts.items()):
        if count > COPIES_IN_DECK[value]:
            return reject(
                car_id,
                N_("A deck has only {copies} card(s) of value {value}, but this turn shows "
                   "{count}."),
                copies=COPIES_IN_DECK[value], value=value, count=count,
            )
    return None


def validate_upgrade(state: RaceState, car: CarState, card: Upgrade) -> Rejection | None:
    """An upgrade card (docs/rules.md §4.2) must be in the car's deck, with a legal chosen value and
    one flipped Basic card per "+" symbol; a Sponsorship card must be in hand (§3.4)."""
    design = DESIGNS.get(card.design)
    if design is None or design.heat_card:
        return reject(car.id, N_("{design} is not a card that can be played."),
                      design=card.design)
    if design.sponsor and car.sponsor_cards < 1:
        return reject(car.id, N_("{car} holds no Sponsorship card."), car=car.id)
    if not design.sponsor and card.design not in car.upgrades:
        return reject(car.id, N_("{design} is not among {car}'s upgrades."),
                      design=card.design, car=car.id)
    if design.choice and card.value not in design.speeds:
        return reject(car.id, N_("{design} is played as one of its values, not {value}."),
                      design=card.design, value=str(card.value))
    if not design.choice and card.value not in (None, design.speeds[0]):
        return reject(car.id, N_("{design} has speed {speed}, not {value}."),
                      design=card.design, speed=design.speeds[0], value=str(card.value))
    if len(card.plus) != design.plus or not all(
        is_int(v) and v in BASIC_VALUES for v in card.plus
    ):
        return reject(car.id, N_("{design} has {count} \"+\" symbol(s): give a flipped Basic "
                                 "card 1-4 for each."), design=card.design, count=design.plus)
    return None
