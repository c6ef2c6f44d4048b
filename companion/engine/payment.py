"""Paying the upgrade cards' Heat at React, after Cooldown (docs/rules.md §4.3, §4.4).

The official clarification agreed between BGA and Days of Wonder (docs/rules.md §4.4) places the
check at React: a car may cool down first (with the card's own Cooldown too) and pay with that Heat.
What the engine still cannot pay then resolves as a Stress card: the card gives the Basic card
flipped for it instead of its speed, and none of its other symbols, and the car moves again from
where its turn began by the new total. Direct plays (Gas Pedal) wait the same way: Gas Pedal 4's
Cooldown first, then its Heat.

In the race-file order the payment comes after Cooldown and Super cool and before Boost
(docs/race-file-v2.md): :class:`~.actions.PayHeat` pays it, with the flips of the cards the
engine cannot pay; without it, the next step of the turn pays everything, when the engine can.
Cards are paid in play order, a card the engine cannot pay once the cards before it are paid
being the one left unpaid (docs/rules-decisions.md).
"""

from __future__ import annotations

from .cards import Symbols, unpayable
from .evolve import evolve
from .explain import N_
from .garage import DESIGNS
from .outcomes import Outcome, Rejection, reject, said
from .placement import moved
from .state import RaceState, TurnStage


def owed(state: RaceState) -> int:
    """Heat still to pay for the upgrade cards of the current turn."""
    turn = state.turn
    return sum(DESIGNS[c.design].heat for c in turn.pending) if turn is not None else 0


def short_count(state: RaceState) -> int:
    """How many of the current turn's pending cards the engine cannot pay now."""
    turn = state.turn
    if turn is None:
        return 0
    return sum(unpayable(turn.pending, state.car(turn.car).engine))


def due(state: RaceState) -> bool:
    """True while the current turn has not reached its payment (React, after Cooldown)."""
    turn = state.turn
    return turn is not None and turn.stage.value < TurnStage.PAID.value


def unpaid_problem(state: RaceState, car_id: str) -> Rejection | None:
    """A later step of the turn pays the Heat by itself; it cannot when the engine is short."""
    count = short_count(state) if due(state) else 0
    if count:
        return reject(car_id, N_("{car} cannot pay the Heat of {count} upgrade card(s): flip a "
                                 "Basic card for each, which resolves as a Stress card."),
                      car=car_id, count=count)
    return None


def settle(state: RaceState, out: list[Outcome], flips: tuple[int, ...] = ()) -> RaceState:
    """Pay the pending cards in play order; each one the engine cannot pay takes the next of
    ``flips`` (validated: one per such card) and resolves as a Stress card."""
    turn = state.turn
    assert turn is not None
    car = state.car(turn.car)
    short = unpayable(turn.pending, car.engine)
    left = iter(flips)
    speed, plus, cards, engine, paid = turn.speed, turn.plus_resolved, turn.cards, car.engine, 0
    symbols = Symbols(turn.slipstream_bonuses, turn.limit_adjust, turn.accelerate, turn.draft)
    for card, cannot in zip(turn.pending, short, strict=True):
        design = DESIGNS[card.design]
        if cannot:
            flip = next(left)
            speed, plus, cards = speed - card.speed + flip, plus + 1, cards + (flip,)
            out.append(said("card_unpaid", car.id,
                            N_("{car} cannot pay the {heat} Heat of {design}: it resolves as a "
                               "Stress card, a {value} is flipped."),
                            car=car.id, heat=design.heat, design=design.id, value=flip))
            continue
        engine, paid = engine - design.heat, paid + design.heat
        symbols = symbols.add(design)
    if paid:
        out.append(said("card_heat", car.id,
                         N_("{car} pays {heat} Heat for its upgrade cards."),
                         car=car.id, heat=paid))
    car = evolve(car, engine=engine)
    state = state.with_car(car)
    if any(short):
        # It moves again, from where its turn began, by the new total (docs/rules-decisions.md
        # #13), even when the flip equals the card's speed: the moves of the turn so far (the
        # reveal, Adrenaline, direct plays) are replaced by one, which a full space may block
        # differently.
        start = evolve(car, distance=turn.start_distance, race_line=turn.start_race_line)
        state = moved(state.with_car(start), start, turn.start_distance + speed, out)
    return evolve(state, turn=evolve(
        turn, stage=TurnStage.PAID, pending=(), speed=speed, plus_resolved=plus, cards=cards,
        slipstream_bonuses=symbols.slipstream_bonuses, limit_adjust=symbols.limit_adjust,
        accelerate=symbols.accelerate, draft=symbols.draft,
    ))


def settled(state: RaceState) -> RaceState:
    """The state a later step of the turn starts from: the Heat paid, when it is still due
    (the caller has checked :func:`unpaid_problem`)."""
    if not due(state) or state.turn is None or not state.turn.pending:
        return state  # nothing to pay: the later step starts from here (the base game)
    return settle(state, [])
