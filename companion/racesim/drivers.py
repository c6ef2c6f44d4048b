"""Three simulated drivers: sensible, Heat-burning and random. Each decides from the race state
and its own simulated cards (``deck.py``); every choice is checked by the engine before it is
made (``choices.py``), so a driver only ever offers inputs the rules allow.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.engine import STRESS, RaceState, cooldown_limit
from companion.engine.checks import super_cool_limit
from companion.engine.garage import DESIGNS

from .choices import card_heat, flips_needed, gear_cost, heat_owed, legal_gears
from .deck import HEAT, Card, DeckSim, Rand, is_upgrade


@dataclass
class Plan:
    gear: int
    cards: tuple[Card, ...] = ()
    clogged: bool = False


def _plays(cards: Sequence[Card], gear: int, flips: int) -> set[tuple[Card, ...]]:
    """Every play of ``gear`` cards whose flips the deck can make (``flips`` Basic cards left to
    flip; one more is kept for a Boost)."""
    plays = set(itertools.combinations(sorted(cards, key=str), gear))
    return {p for p in plays if flips_needed(p) < flips}


def clogged_plan(state: RaceState, car_id: str, sim: DeckSim) -> Plan | None:
    """docs/rules.md §1.5: when no gear the driver can shift to can be played from the hand, play
    every non-Heat card and make up the count with Heat, in the lowest such gear."""
    gears = legal_gears(state, car_id)
    if any(len(sim.playable()) >= g for g in gears):
        return None
    gear = min(gears)
    filler = [HEAT] * (gear - len(sim.playable()))
    return Plan(gear, tuple(sim.playable()) + tuple(filler), clogged=True)


class SensibleDriver:
    """A simple sensible driver: the fastest play it can pay for at every corner (a Stress card
    or a "+" counted as a 4), takes Adrenaline, full Cooldown and Super cool, a Boost,
    Accelerate, Draft or a slipstream when the Heat covers it, pays the upgrade cards' Heat
    after Cooldown, throws away the 0 card, and keeps its Sponsorship cards."""

    def __init__(self, rand: Rand) -> None:
        self.rand = rand

    def hand_for_plan(self, sim: DeckSim) -> list[Card]:
        return sim.playable()

    def plan(self, state: RaceState, car_id: str, sim: DeckSim) -> Plan:
        clogged = clogged_plan(state, car_id, sim)
        if clogged is not None:
            return clogged
        car = state.car(car_id)
        best: tuple[tuple[float, ...], Plan] | None = None
        for gear in legal_gears(state, car_id):
            shift_cost = gear_cost(state, car_id, gear) or 0
            plays = _plays(self.hand_for_plan(sim), gear, sim.basics_to_flip())
            for cards in sorted(plays, key=str):
                known = sum(c for c in cards if isinstance(c, int))
                ups = [c for c in cards if is_upgrade(c)]
                known += sum(max(DESIGNS[str(c)].speeds) for c in ups)
                stress = cards.count(STRESS) + sum(DESIGNS[str(c)].plus for c in ups)
                card_cost = sum(card_heat(c) for c in ups)
                worst = known + 4 * stress
                owed = heat_owed(state, car.distance, car.distance + worst, worst)
                spare = car.engine - shift_cost - owed - card_cost
                expected = known + 2.5 * stress
                expected_owed = heat_owed(
                    state, car.distance, car.distance + round(expected), round(expected)
                )
                safe = spare >= 0
                score = (
                    1 if safe else 0,
                    spare if not safe else 0,
                    expected - 1.5 * expected_owed - 1.5 * shift_cost + 0.3 * stress
                    - 1.5 * card_cost,
                    -gear,
                )
                if best is None or score > best[0]:
                    best = (score, Plan(gear, cards))
        assert best is not None
        return best[1]

    def choose(self, values: tuple[int, ...]) -> int:
        """The value played of a card with a choice (Brakes): the highest."""
        return max(values)

    def declare_unpaid(self, state: RaceState, car_id: str) -> bool:
        """At the reveal, declare the cards the engine cannot pay yet? No: cool down first."""
        return False

    def direct(self, state: RaceState, car_id: str, design: str) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        value = DESIGNS[design].speeds[0]
        owed = heat_owed(state, turn.start_distance, car.distance + value, turn.speed + value)
        return owed + DESIGNS[design].heat <= car.engine

    def adrenaline(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        budget = car.engine + self.cooldown(state, car_id, sim)
        return heat_owed(state, turn.start_distance, car.distance + 1, turn.speed + 1) <= budget

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return min(cooldown_limit(state, state.car(car_id)), sim.hand.count(HEAT))

    def super_cool(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return min(super_cool_limit(state, state.car(car_id)), sim.discard.count(HEAT))

    def pay_now(self, state: RaceState, car_id: str) -> bool:
        """Pay the upgrade Heat with an input of its own (else the next step pays it)."""
        return False

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        if car.engine < 4:
            return False
        owed = heat_owed(state, turn.start_distance, car.distance + 4, turn.speed + 4)
        return owed <= car.engine - 1

    def accelerate(self, state: RaceState, car_id: str, gain: int) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        owed = heat_owed(state, turn.start_distance, car.distance + gain, turn.speed + gain)
        return owed <= car.engine

    def moves_on(self, state: RaceState, car_id: str, spaces: int) -> bool:
        """Draft or slipstream ``spaces`` more, when the corners it crosses can be paid."""
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        return heat_owed(state, turn.start_distance, car.distance + spaces,
                         turn.speed) <= car.engine

    def slipstream(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.moves_on(state, car_id, 2)

    def discard(self, state: RaceState, car_id: str, sim: DeckSim) -> list[Card]:
        return [0] if 0 in sim.hand else []


class HotDriver(SensibleDriver):
    """Burns Heat: never cools down and boosts whenever it can pay for the corners, so Heat
    piles up in the hand and clogged hands happen (docs/rules.md §1.5)."""

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return 0

    def super_cool(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return 0

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        owed = heat_owed(state, turn.start_distance, car.distance + 4, turn.speed + 4)
        return owed <= car.engine - 1


class RandomDriver:
    """Any legal play, chosen at random: reckless, so spin-outs, clogged hands, unpaid upgrade
    cards and every React step happen; it plays its Sponsorship cards too."""

    def __init__(self, rand: Rand) -> None:
        self.rand = rand

    def plan(self, state: RaceState, car_id: str, sim: DeckSim) -> Plan:
        clogged = clogged_plan(state, car_id, sim)
        if clogged is not None:
            return clogged
        gears = [g for g in legal_gears(state, car_id) if len(sim.playable()) >= g]
        gear = self.rand.choice(gears)
        for _ in range(100):
            cards: list[Card] = list(sim.playable())
            self.rand.shuffle(cards)
            chosen = cards[:gear]
            if sim.sponsors and self.rand.chance(40):  # a Sponsorship card in place of a card
                chosen[self.rand.below(gear)] = self.rand.choice(sim.sponsors)
            if flips_needed(chosen) < sim.basics_to_flip():
                break
        else:  # no such play drawn: the cards needing the fewest flips
            chosen = sorted(sim.playable(), key=lambda c: flips_needed([c]))[:gear]
        return Plan(gear, tuple(chosen))

    def choose(self, values: tuple[int, ...]) -> int:
        return int(self.rand.choice(values))

    def declare_unpaid(self, state: RaceState, car_id: str) -> bool:
        return self.rand.chance(50)

    def direct(self, state: RaceState, car_id: str, design: str) -> bool:
        return self.rand.chance(50)

    def adrenaline(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(60)

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        top = min(cooldown_limit(state, state.car(car_id)), sim.hand.count(HEAT))
        return self.rand.below(top + 1) if self.rand.chance(50) else 0

    def super_cool(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        top = min(super_cool_limit(state, state.car(car_id)), sim.discard.count(HEAT))
        return self.rand.below(top + 1) if top else 0

    def pay_now(self, state: RaceState, car_id: str) -> bool:
        return self.rand.chance(50)

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(25)

    def accelerate(self, state: RaceState, car_id: str, gain: int) -> bool:
        return self.rand.chance(70)

    def moves_on(self, state: RaceState, car_id: str, spaces: int) -> bool:
        return self.rand.chance(60)

    def slipstream(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(60)

    def discard(self, state: RaceState, car_id: str, sim: DeckSim) -> list[Card]:
        return [c for c in sim.hand if c not in (HEAT, STRESS) and self.rand.chance(15)]


Driver = SensibleDriver | HotDriver | RandomDriver
DRIVERS: dict[str, Callable[[Rand], Driver]] = {
    "sensible": SensibleDriver, "hot": HotDriver, "random": RandomDriver,
}
