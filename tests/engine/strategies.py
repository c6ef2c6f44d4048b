"""Shared race helpers for the engine tests: a simulated base deck, two drivers, a race runner,
the hypothesis strategies for random races, and the generator of the solo race files.

A human car is played from a simulated base deck (docs/rules.md §0, §1.1): the 12 Basic cards (three
each of 1-4), the Starting Upgrades 0, 5 and the personal Heat card, and the track's Stress cards;
hand of 7, Stress resolved by flipping to the next Basic card, replenish at the end of the round,
the discard pile reshuffled when the draw pile runs out (docs/rules.md §1.4, §1.11). The engine only
sees what a table would enter (docs/race-file.md inputs); the simulation keeps the hand honest, so
every input is one a real deck can produce.

Randomness comes from ``companion.engine.rng`` (SplitMix64), so a generated race is the same on
every Python version.

Regenerate the committed solo races with::

    .venv/bin/python tests/engine/strategies.py --write-solo
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import tracks
from companion.engine import (
    LEGEND_COLOURS,
    STRESS,
    Action,
    Adrenaline,
    Boost,
    CarEntry,
    ChooseGear,
    Cooldown,
    EndTurn,
    LegendCard,
    Phase,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    RunRound,
    Slipstream,
    Track,
    cooldown_limit,
    fill_grid,
    play,
    start_race,
    validate,
)
from companion.engine import rng as engine_rng

HEAT = "heat"
HAND = 7
BASE_TRACKS = ("usa", "great-britain", "france", "italy")
BUNDLED_TRACKS = tuple(tracks.bundled_track_ids())
SOLO_DIR = Path(__file__).parent / "solo"
SOLO_SEEDS = {"usa": 37, "great-britain": 27, "france": 12, "italy": 39}

Card = int | str


class Rand:
    """A tiny deterministic random source on the engine's SplitMix64."""

    def __init__(self, seed: int) -> None:
        self.state = engine_rng.seed_state(seed)

    def below(self, bound: int) -> int:
        value, self.state = engine_rng.below(self.state, bound)
        return value

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        order, self.state = engine_rng.shuffled(items, self.state)
        items[:] = order


def base_deck(track: Track) -> list[Card]:
    """A driver's starting deck (docs/rules.md §0, §1.1 step 3)."""
    deck: list[Card] = [1, 2, 3, 4] * 3
    return deck + [0, 5, HEAT] + [STRESS] * track.stress


class DeckSim:
    """One human driver's cards: draw pile, hand, cards in play and discard pile."""

    def __init__(self, track: Track, rand: Rand) -> None:
        self.rand = rand
        self.draw_pile: list[Card] = base_deck(track)
        rand.shuffle(self.draw_pile)
        self.discard: list[Card] = []
        self.prepaid = 0
        """Heat already put on the discard pile before the engine hears of the payment."""
        self.hand: list[Card] = []
        self.in_play: list[Card] = []
        self.replenish()

    def _draw_one(self) -> Card:
        if not self.draw_pile:
            if not self.discard:
                raise AssertionError("deck simulation: draw and discard piles are both empty")
            self.draw_pile, self.discard = self.discard, []
            self.rand.shuffle(self.draw_pile)
        return self.draw_pile.pop()

    def flip_basic(self) -> int:
        """Flip until a Basic card 1-4 shows (docs/rules.md §1.4); the others go to the discard."""
        for _ in range(200):
            card = self._draw_one()
            if isinstance(card, int) and 1 <= card <= 4:
                self.in_play.append(card)
                return card
            self.discard.append(card)
        raise AssertionError("deck simulation: no Basic card to flip")

    def replenish(self) -> None:
        """Step 9: cards in play to the discard pile, draw back to 7."""
        self.discard.extend(self.in_play)
        self.in_play = []
        while len(self.hand) < HAND:
            self.hand.append(self._draw_one())

    def play_cards(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.hand.remove(card)
            self.in_play.append(card)

    def playable(self) -> list[Card]:
        return [c for c in self.hand if c != HEAT]

    def heat_outside_engine(self) -> int:
        piles = (self.draw_pile, self.discard, self.hand, self.in_play)
        return sum(pile.count(HEAT) for pile in piles)

    def heat_to_discard(self, count: int) -> None:
        already = min(count, self.prepaid)
        self.prepaid -= already
        self.discard.extend([HEAT] * (count - already))

    def pay_before_flip(self) -> None:
        """Boost: the Heat card goes to the discard pile before the flip (docs/rules.md §1.7)."""
        self.discard.append(HEAT)
        self.prepaid += 1

    def heat_to_engine(self, count: int) -> None:
        for _ in range(count):
            self.hand.remove(HEAT)

    def stress_to_hand(self, count: int) -> None:
        self.hand.extend([STRESS] * count)


# --- drivers --------------------------------------------------------------------------------


def heat_owed(state: RaceState, start: int, end: int, speed: int) -> int:
    """Heat the corner check would ask for (docs/rules.md §1.9), all corners paid."""
    lines = state.track.corner_lines_between(start, end, state.laps)
    return sum(max(0, speed - corner.limit) for _, corner in lines)


def gear_cost(state: RaceState, car_id: str, gear: int) -> int | None:
    """Heat a shift to ``gear`` costs this round, None if impossible (docs/rules.md §1.2 step 1: one
    step free, two steps 1 Heat, three never; §6 flooded spaces: a car that starts the round on
    one pays 1 more Heat to shift down)."""
    car = state.car(car_id)
    steps = abs(gear - car.gear)
    if steps > 2:
        return None
    cost = 1 if steps == 2 else 0
    if gear < car.gear and state.track.space_of(car.distance) in state.track.flooded:
        cost += 1
    return cost if cost <= car.engine else None


def legal_gears(state: RaceState, car_id: str) -> list[int]:
    """Gears the driver can shift to this round."""
    return [g for g in range(1, 5) if gear_cost(state, car_id, g) is not None]


@dataclass
class Plan:
    gear: int
    cards: tuple[Card, ...] = ()
    clogged: bool = False


def _plays(sim: DeckSim, gear: int) -> set[tuple[Card, ...]]:
    cards = sorted(sim.playable(), key=str)
    return set(itertools.combinations(cards, gear))


def _clogged_plan(state: RaceState, car_id: str, sim: DeckSim) -> Plan | None:
    gears = legal_gears(state, car_id)
    if any(len(sim.playable()) >= g for g in gears):
        return None
    # docs/rules.md §1.5: play every non-Heat card and make up the count with Heat, in the lowest
    # gear the driver can shift to.
    gear = min(gears)
    filler = [HEAT] * (gear - len(sim.playable()))
    return Plan(gear, tuple(sim.playable()) + tuple(filler), clogged=True)


class SensibleDriver:
    """A simple sensible driver: the fastest play it can pay for at every corner (Stress
    counted as a 4), takes Adrenaline, full Cooldown, a Boost or a slipstream when the Heat
    covers it, and throws away the 0 card."""

    def __init__(self, rand: Rand) -> None:
        self.rand = rand

    def plan(self, state: RaceState, car_id: str, sim: DeckSim) -> Plan:
        clogged = _clogged_plan(state, car_id, sim)
        if clogged is not None:
            return clogged
        car = state.car(car_id)
        best: tuple[tuple[float, ...], Plan] | None = None
        for gear in legal_gears(state, car_id):
            shift_cost = gear_cost(state, car_id, gear) or 0
            for cards in sorted(_plays(sim, gear), key=str):
                known = sum(c for c in cards if isinstance(c, int))
                stress = cards.count(STRESS)
                worst = known + 4 * stress
                owed = heat_owed(state, car.distance, car.distance + worst, worst)
                spare = car.engine - shift_cost - owed
                expected = known + 2.5 * stress
                expected_owed = heat_owed(
                    state, car.distance, car.distance + round(expected), round(expected)
                )
                safe = spare >= 0
                score = (
                    1 if safe else 0,
                    spare if not safe else 0,
                    expected - 1.5 * expected_owed - 1.5 * shift_cost + 0.3 * stress,
                    -gear,
                )
                if best is None or score > best[0]:
                    best = (score, Plan(gear, cards))
        assert best is not None
        return best[1]

    def adrenaline(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        budget = car.engine + self.cooldown(state, car_id, sim)
        return heat_owed(state, turn.start_distance, car.distance + 1, turn.speed + 1) <= budget

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return min(cooldown_limit(state, state.car(car_id)), sim.hand.count(HEAT))

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        if car.engine < 4:
            return False
        owed = heat_owed(state, turn.start_distance, car.distance + 4, turn.speed + 4)
        return owed <= car.engine - 1

    def slipstream(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        return heat_owed(state, turn.start_distance, car.distance + 2, turn.speed) <= car.engine

    def discard(self, state: RaceState, car_id: str, sim: DeckSim) -> list[Card]:
        return [0] if 0 in sim.hand else []


class HotDriver(SensibleDriver):
    """Burns Heat: never cools down and boosts whenever it can pay for the corners, so Heat
    piles up in the hand and clogged hands happen (docs/rules.md §1.5)."""

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        return 0

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        car, turn = state.car(car_id), state.turn
        assert turn is not None
        owed = heat_owed(state, turn.start_distance, car.distance + 4, turn.speed + 4)
        return owed <= car.engine - 1


class RandomDriver:
    """Any legal play, chosen at random: reckless, so spin-outs and clogged hands happen."""

    def __init__(self, rand: Rand) -> None:
        self.rand = rand

    def plan(self, state: RaceState, car_id: str, sim: DeckSim) -> Plan:
        clogged = _clogged_plan(state, car_id, sim)
        if clogged is not None:
            return clogged
        gears = [g for g in legal_gears(state, car_id) if len(sim.playable()) >= g]
        gear = self.rand.choice(gears)
        cards = list(sim.playable())
        self.rand.shuffle(cards)
        return Plan(gear, tuple(cards[:gear]))

    def adrenaline(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(60)

    def cooldown(self, state: RaceState, car_id: str, sim: DeckSim) -> int:
        top = min(cooldown_limit(state, state.car(car_id)), sim.hand.count(HEAT))
        return self.rand.below(top + 1) if self.rand.chance(50) else 0

    def boost(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(25)

    def slipstream(self, state: RaceState, car_id: str, sim: DeckSim) -> bool:
        return self.rand.chance(60)

    def discard(self, state: RaceState, car_id: str, sim: DeckSim) -> list[Card]:
        return [c for c in sim.hand if c not in (HEAT, STRESS) and self.rand.chance(15)]


Driver = SensibleDriver | HotDriver | RandomDriver
DRIVERS: dict[str, Callable[[Rand], Driver]] = {
    "sensible": SensibleDriver, "hot": HotDriver, "random": RandomDriver,
}


# --- running a race -------------------------------------------------------------------------

StepHook = Callable[[RaceState, Action, RaceState], None]


@dataclass
class RaceRun:
    setup: RaceSetup
    actions: list[Action] = field(default_factory=list)
    rounds: list[dict[str, dict[str, Any]]] = field(default_factory=list)
    round_states: list[RaceState] = field(default_factory=list)
    """The state after each completed round."""
    states: list[RaceState] = field(default_factory=list)
    """The start state, then the state after every action."""
    final: RaceState | None = None


class _Runner:
    def __init__(
        self, setup: RaceSetup, driver: Callable[[Rand], Driver], seed: int,
        on_step: StepHook | None,
    ) -> None:
        self.run = RaceRun(setup)
        self.rand = Rand(seed)
        self.state = start_race(setup).state
        self.run.states.append(self.state)
        self.on_step = on_step
        self.sims = {
            c.id: DeckSim(setup.track, Rand(seed * 7919 + i))
            for i, c in enumerate(self.state.cars) if not c.legend
        }
        self.drivers = {cid: driver(Rand(seed * 104729 + i)) for i, cid in enumerate(self.sims)}
        self.doc: dict[str, dict[str, Any]] = {}

    def step(self, action: Action) -> None:
        before = self.state
        rejection = validate(before, action)
        if rejection is not None:
            raise AssertionError(
                f"round {before.round + 1}: engine rejects a legal deck play {action!r}: "
                f"{rejection.text()}"
            )
        result = play(before, action)
        assert not isinstance(result, Rejection)
        after = result.state
        self.run.actions.append(action)
        self.run.states.append(after)
        for car_id, sim in self.sims.items():
            old, new = before.car(car_id), after.car(car_id)
            delta = new.engine - old.engine
            if delta > 0:
                sim.heat_to_engine(delta)
            elif delta < 0:
                sim.heat_to_discard(-delta)
            sim.stress_to_hand(new.stress_taken - old.stress_taken)
            assert sim.heat_outside_engine() == new.heat - new.engine, (
                f"{car_id}: the deck holds {sim.heat_outside_engine()} Heat out of the engine, "
                f"the engine says {new.heat - new.engine}"
            )
        if self.on_step is not None:
            self.on_step(before, action, after)
        self.state = after
        if after.round > before.round:
            self.run.rounds.append(self.doc)
            self.run.round_states.append(after)
            self.doc = {}
            for sim in self.sims.values():
                sim.replenish()

    def plan_round(self) -> None:
        for car_id in self.state.humans_to_plan:
            sim, car = self.sims[car_id], self.state.car(car_id)
            plan = self.drivers[car_id].plan(self.state, car_id, sim)
            entry: dict[str, Any] = {}
            if plan.gear != car.gear:
                entry["gear"] = plan.gear
            if plan.clogged:
                entry["clogged"] = True
                sim.play_cards(plan.cards)
            else:
                entry["cards"] = list(plan.cards)
                self.pending[car_id] = plan
            self.doc[car_id] = entry
            self.step(ChooseGear(car_id, plan.gear, plan.clogged))

    def take_turn(self, car_id: str) -> None:
        sim, driver, entry = self.sims[car_id], self.drivers[car_id], self.doc[car_id]
        plan = self.pending.pop(car_id)
        sim.play_cards(plan.cards)
        flips = tuple(sim.flip_basic() for card in plan.cards if card == STRESS)
        if flips:
            entry["stress"] = list(flips)
        self.step(Reveal(car_id, tuple(plan.cards), flips))
        turn = self.state.turn
        assert turn is not None
        if validate(self.state, Adrenaline(car_id)) is None:
            assert turn.adrenaline_entitled
            if driver.adrenaline(self.state, car_id, sim):
                entry["adrenaline"] = True
                self.step(Adrenaline(car_id))
        else:
            assert not turn.adrenaline_entitled
        amount = driver.cooldown(self.state, car_id, sim)
        if amount:
            entry["cooldown"] = amount
            self.step(Cooldown(car_id, amount))
        if self.state.car(car_id).engine > 0 and driver.boost(self.state, car_id, sim):
            # Pay first, then flip (docs/rules.md §1.7); the engine is told the value.
            sim.pay_before_flip()
            value = sim.flip_basic()
            entry["boost"] = value
            self.step(Boost(car_id, value))
        if validate(self.state, Slipstream(car_id)) is None and driver.slipstream(
            self.state, car_id, sim
        ):
            entry["slipstream"] = True
            self.step(Slipstream(car_id))
        # Step 8 (the engine is not told): a car that crossed the finish line skips it, and no
        # card is discarded on a tunnel space (docs/rules.md §6, España).
        car = self.state.car(car_id)
        space = self.state.track.space_of(car.distance)
        if car.distance <= self.state.finish_distance and space not in self.state.track.tunnels:
            for card in driver.discard(self.state, car_id, sim):
                sim.hand.remove(card)
                sim.discard.append(card)
        self.step(EndTurn(car_id))

    def race(self, max_rounds: int, require_finish: bool) -> RaceRun:
        self.pending: dict[str, Plan] = {}
        while not self.state.over:
            if self.state.round >= max_rounds:
                if require_finish:
                    raise AssertionError(f"the race is not over after {max_rounds} rounds")
                break
            if self.state.awaiting_legend_card:
                # Physical deck: the table draws a card and enters its number.
                self.step(LegendCard(self.rand.below(10) + 1))
            elif self.state.phase is Phase.PLANNING and not self.state.humans_to_plan:
                self.step(RunRound())
            elif self.state.phase is Phase.PLANNING:
                self.plan_round()
            else:
                current = self.state.current_car
                assert current is not None, "the engine waits for nobody"
                assert not self.state.car(current).legend
                self.take_turn(current)
        self.run.final = self.state
        return self.run


def run_race(
    setup: RaceSetup,
    *,
    seed: int = 0,
    driver: Callable[[Rand], Driver] = SensibleDriver,
    on_step: StepHook | None = None,
    max_rounds: int = 200,
    require_finish: bool = True,
) -> RaceRun:
    """Race to the end with every human car played from a simulated deck by ``driver``
    (or for ``max_rounds`` rounds when the end is not required)."""
    return _Runner(setup, driver, seed, on_step).race(max_rounds, require_finish)


def race_document(
    setup: RaceSetup, rounds: Sequence[dict[str, Any]], track: str | dict[str, Any]
) -> dict[str, Any]:
    """A ``heat-race/1`` document for a run (Legends cards left to the seed)."""
    cars = []
    for entry in setup.cars:
        car: dict[str, Any] = {"id": entry.id}
        if entry.name:
            car["name"] = entry.name
        if entry.legend:
            car["legend"] = True
        if entry.handicap:
            car["handicap"] = entry.handicap
        cars.append(car)
    doc: dict[str, Any] = {
        "format": "heat-race/1",
        "track": track,
        "laps": setup.laps if setup.laps is not None else setup.track.laps,
        "seed": setup.seed,
        "cars": cars,
    }
    if setup.legend_cards or setup.legend_bonus:
        doc["legends"] = {"cards": list(setup.legend_cards), "bonus": setup.legend_bonus}
    doc["rounds"] = list(rounds)
    return doc


# --- hypothesis strategies ------------------------------------------------------------------


@st.composite
def inline_tracks(draw: st.DrawFn) -> dict[str, Any]:
    """A small valid inline track (docs/race-file.md "Inline track"), zones may wrap the line."""
    spaces = draw(st.integers(12, 36))
    lines = draw(st.lists(st.integers(1, spaces - 1), min_size=1, max_size=4, unique=True))
    corners = []
    for line in sorted(lines):
        zone = draw(st.integers(1, min(9, spaces - 1)))
        corner: dict[str, Any] = {
            "line_after": line,
            "limit": draw(st.integers(2, 7)),
            "legend_line_after": (line - zone - 1) % spaces + 1,
        }
        aggressive = draw(st.integers(0, min(zone, 3)))
        if aggressive:
            corner["aggressive"] = aggressive
            double = draw(st.integers(0, aggressive))
            if double:
                corner["aggressive_double"] = double
        corners.append(corner)
    doc: dict[str, Any] = {
        "id": "inline-test",
        "spaces": spaces,
        "laps": draw(st.integers(1, 2)),
        "heat": draw(st.integers(2, 14)),
        "stress": draw(st.integers(0, 3)),
        "corners": corners,
    }
    flooded = draw(st.lists(st.integers(1, spaces), max_size=spaces // 2, unique=True))
    if flooded:
        doc["flooded"] = sorted(flooded)
    return doc


@dataclass(frozen=True)
class RandomRace:
    setup: RaceSetup
    track_doc: str | dict[str, Any]
    driver_seed: int
    driver: str

    def run(self, on_step: StepHook | None = None) -> RaceRun:
        return run_race(
            self.setup, seed=self.driver_seed, driver=DRIVERS[self.driver], on_step=on_step,
            max_rounds=40, require_finish=False,
        )


@st.composite
def random_races(draw: st.DrawFn, *, aggressive: bool | None = True) -> RandomRace:
    """A track (inline or bundled), 1-6 cars of which some are Legends, and a driver seed."""
    track_doc: str | dict[str, Any]
    if draw(st.booleans()):
        track_doc = draw(inline_tracks())
        track = tracks.track_from_dict(track_doc)
        laps = None
    else:
        track_doc = draw(st.sampled_from(BUNDLED_TRACKS))
        track = tracks.load_track(track_doc)
        laps = 1
    count = draw(st.integers(1, 6))
    legend_count = draw(st.integers(0, count))
    colours = draw(st.permutations(LEGEND_COLOURS))
    cars = [CarEntry(colour, legend=True) for colour in colours[:legend_count]]
    cars += [
        CarEntry(f"h{i}", name=f"Driver {i}", handicap=draw(st.integers(0, 2)))
        for i in range(1, count - legend_count + 1)
    ]
    grid = draw(st.permutations(cars))
    setup = RaceSetup(
        track=track,
        cars=tuple(grid),
        laps=laps,
        seed=draw(st.integers(0, 2**31)),
        legend_cards=tuple(draw(st.lists(st.integers(1, 10), max_size=4))),
        legend_bonus=draw(st.integers(0, 4)),
        aggressive_legends=draw(st.booleans()) if aggressive is None else aggressive,
        physical_legends_deck=draw(st.booleans()),
    )
    return RandomRace(
        setup, track_doc, draw(st.integers(0, 2**31)), draw(st.sampled_from(sorted(DRIVERS)))
    )


# --- solo race files ------------------------------------------------------------------------


def solo_setup(track_id: str, seed: int) -> RaceSetup:
    """One human (red, Ana) against five Legends, grid shuffled from ``seed``, two laps."""
    grid = fill_grid((CarEntry("red", name="Ana"),), 5, seed=seed)
    return RaceSetup(track=tracks.load_track(track_id), cars=grid, laps=2, seed=seed)


def solo_race(track_id: str) -> dict[str, Any]:
    """The solo race file for a base track: the sensible driver against five Legends."""
    seed = SOLO_SEEDS[track_id]
    setup = solo_setup(track_id, seed)
    run = run_race(setup, seed=seed, driver=SensibleDriver)
    return race_document(setup, run.rounds, track_id)


def dump_race(doc: dict[str, Any]) -> str:
    """JSON with one line per round (readable diffs)."""
    head = {k: v for k, v in doc.items() if k != "rounds"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "rounds": [')
    rounds = [f"    {json.dumps(r)}" for r in doc["rounds"]]
    lines.append(",\n".join(rounds))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_solo_files() -> list[Path]:
    SOLO_DIR.mkdir(exist_ok=True)
    written = []
    for track_id in BASE_TRACKS:
        path = SOLO_DIR / f"{track_id}.json"
        path.write_text(dump_race(solo_race(track_id)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    if sys.argv[1:] != ["--write-solo"]:
        sys.exit("usage: strategies.py --write-solo")
    for written_path in write_solo_files():
        print(written_path)
