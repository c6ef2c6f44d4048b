"""What a driver may do now, asked of the engine: the legal gears, a play turned into the inputs a
table would enter, and every React step the rules allow at this moment.

Shared by the simulated drivers (``drivers.py``) and by the generator that keeps no hands
(``inputs.py``), so both produce only inputs :func:`companion.engine.validate` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.engine import (
    STRESS,
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    Cooldown,
    DirectPlay,
    DraftMove,
    PayHeat,
    RaceState,
    Reveal,
    Slipstream,
    SuperCool,
    Upgrade,
    cooldown_limit,
    validate,
)
from companion.engine.cards import evaluate, subset_sums
from companion.engine.checks import shift_cost, super_cool_limit
from companion.engine.garage import DESIGNS
from companion.engine.payment import due, short_count

from .deck import BASIC, Card, is_upgrade

FlipBasic = Callable[[], int]
"""Flips the next Basic card of the driver's deck (docs/rules.md §1.4)."""


def heat_owed(state: RaceState, start: int, end: int, speed: int) -> int:
    """Heat the corner check would ask for (docs/rules.md §1.9), all corners paid."""
    lines = state.track.corner_lines_between(start, end, state.laps)
    return sum(max(0, speed - corner.limit) for _, corner in lines)


def gear_cost(state: RaceState, car_id: str, gear: int) -> int | None:
    """Heat a shift to ``gear`` costs this round, None if impossible: one step free, two steps
    1 Heat, three never (docs/rules.md §1.2 step 1); from a flooded space any downshift costs 1 Heat
    more (docs/rules.md §6.4, Japan) — the engine's own cost, so no shift offered is refused."""
    car = state.car(car_id)
    if abs(gear - car.gear) > 2 or gear not in range(1, 5):
        return None
    cost = shift_cost(state, car, gear)
    return cost if cost <= car.engine else None


def legal_gears(state: RaceState, car_id: str) -> list[int]:
    """Gears the driver can shift to this round."""
    return [g for g in range(1, 5) if gear_cost(state, car_id, g) is not None]


def card_speed(card: Card) -> float:
    """What a card is worth on average before it is flipped: a Stress card or a "+" about 2.5,
    a card with a choice its highest value (for a driver's plan)."""
    if isinstance(card, int):
        return card
    if card == STRESS:
        return 2.5
    design = DESIGNS[str(card)]
    return max(design.speeds) + 2.5 * design.plus


def flips_needed(cards: Sequence[Card]) -> int:
    """Basic cards a play may need flipped: each Stress card, each "+", and one for each card
    with Heat, in case it is left unpaid (docs/rules.md §1.4, §4.4)."""
    total = 0
    for card in cards:
        if card == STRESS:
            total += 1
        elif is_upgrade(card):
            design = DESIGNS[str(card)]
            total += design.plus + (1 if design.heat else 0)
    return total


def card_heat(card: Card) -> int:
    return DESIGNS[str(card)].heat if is_upgrade(card) else 0


def reveal_of(
    car_id: str, cards: Sequence[Card], flip: FlipBasic, choose: Callable[[tuple[int, ...]], int],
) -> Reveal:
    """The reveal a table enters for ``cards``: each Stress card's flip, each upgrade card's
    chosen value and the flip for each of its "+" (docs/rules.md §1.4, §4.2)."""
    shown: list[int | str | Upgrade] = []
    for card in cards:
        if is_upgrade(card):
            assert isinstance(card, str)
            design = DESIGNS[card]
            value = choose(design.speeds) if design.choice else None
            shown.append(Upgrade(card, value, tuple(flip() for _ in range(design.plus))))
        else:
            shown.append(card)
    stress = tuple(flip() for card in cards if card == STRESS)
    return Reveal(car_id, tuple(shown), stress)


def unpayable_at_reveal(state: RaceState, reveal: Reveal) -> int:
    """How many of the revealed upgrade cards the engine cannot pay now (docs/rules.md §4.4)."""
    return evaluate(reveal, state.car(reveal.car).engine).unpayable


def react_options(state: RaceState, car_id: str, hand: Sequence[Card] = ()) -> list[Action]:
    """Every React or slipstream step the rules allow now (the engine's ``validate``): direct
    plays of the Gas Pedal cards in ``hand`` (or owned, when no hand is kept), each amount of
    Cooldown and Super cool, paying the upgrade Heat (with the flips it needs, as 1s), Boost
    flips, Accelerate, Draft, and each slipstream with and without the sector's bonus."""
    car, turn = state.car(car_id), state.turn
    assert turn is not None
    owned = [c for c in (hand or car.upgrades) if is_upgrade(c)]
    options: list[Action] = [Adrenaline(car_id), Accelerate(car_id), DraftMove(car_id)]
    options += [DirectPlay(car_id, Upgrade(str(d))) for d in dict.fromkeys(owned)
                if DESIGNS[str(d)].direct]
    options += [Cooldown(car_id, n) for n in range(1, cooldown_limit(state, car) + 1)]
    options += [SuperCool(car_id, n) for n in range(1, super_cool_limit(state, car) + 1)]
    if turn.pending and due(state):
        options.append(PayHeat(car_id, fresh_flips(turn.cards, short_count(state))))
    options += [Boost(car_id, v) for v in (1, 2, 3, 4)]
    for extra in sorted(subset_sums(turn.slipstream_bonuses)):
        options += [Slipstream(car_id, extra), Slipstream(car_id, extra, False)]
    return [a for a in options if validate(state, a) is None]


def fresh_flips(shown: Sequence[int], count: int) -> tuple[int, ...]:
    """``count`` Basic cards a deck can still flip, given the values already in play (the
    fewest shown first; docs/rules.md §0: three of each)."""
    seen = list(shown)
    flips = []
    for _ in range(count):
        value = min(BASIC, key=seen.count)
        flips.append(value)
        seen.append(value)
    return tuple(flips)
