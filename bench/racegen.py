"""Random legal races, generated with the engine itself (for tests and benchmarks).

Every action :func:`next_action` returns is accepted by :func:`companion.engine.validate`: gears
one step (or two, with Heat) from the current one, revealed cards drawn from a base deck (at most
three of each of 1-4, one 0, one 5 per turn; Stress resolved to Basic cards from what is left),
then a random choice of the optional steps (Adrenaline, Cooldown, Boost, Slipstream) before the
end of the turn. :func:`script` mixes in undo and redo, giving the events a table would log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import tracks
from companion.engine import (
    STRESS,
    Action,
    Adrenaline,
    Applied,
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
    TurnStage,
    play,
    start_race,
    validate,
)
from companion.session import RaceSession
from companion.storage.fold import Event, EventKind

DECK = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5)
"""The speed cards of a base deck (docs/rules.md §0): what one turn may show at most."""

HUMANS = ("red", "blue", "green", "yellow", "grey", "black")


def setup(
    *, humans: int = 4, legends: int = 2, laps: int | None = None, seed: int = 0,
    track: str = "usa", physical: bool = False,
) -> RaceSetup:
    """A grid of ``humans`` human cars then ``legends`` Legends (colours not used by humans)."""
    cars = [CarEntry(id=HUMANS[i], name=f"Driver {i + 1}") for i in range(humans)]
    free = [c for c in ("black", "grey", "yellow", "green", "blue", "red")
            if c not in HUMANS[:humans]]
    if legends > len(free):
        raise ValueError(f"{humans} humans leave {len(free)} Legend colours, not {legends}")
    cars += [CarEntry(id=free[i], legend=True) for i in range(legends)]
    return RaceSetup(track=tracks.load_track(track), cars=tuple(cars), laps=laps, seed=seed,
                     physical_legends_deck=physical)


def _gear(state: RaceState, car_id: str, rng: random.Random) -> ChooseGear:
    car = state.car(car_id)
    gears = [g for g in range(1, 5) if abs(g - car.gear) <= 1 or (
        abs(g - car.gear) == 2 and car.engine > 0)]
    # Lean towards higher gears so races move on, as real drivers do.
    weights = [1 + g for g in gears]
    if rng.random() < 0.05:
        clogged = ChooseGear(car_id, rng.choice(gears), clogged=True)
        if validate(state, clogged) is None:
            return clogged
    return ChooseGear(car_id, rng.choices(gears, weights)[0])


def _reveal(state: RaceState, car_id: str, rng: random.Random) -> Reveal:
    car = state.car(car_id)
    owned_stress = state.track.stress + car.stress_taken
    for _ in range(1000):
        pool: list[int | str] = list(DECK) + [STRESS] * min(owned_stress, 2)
        rng.shuffle(pool)
        cards = tuple(pool[:car.gear])
        rest = [v for v in pool[car.gear:] if isinstance(v, int) and 1 <= v <= 4]
        stress = tuple(rest[:cards.count(STRESS)])
        action = Reveal(car_id, cards, stress)
        if validate(state, action) is None:
            return action
    raise RuntimeError(f"no legal reveal found for {car_id}")  # pragma: no cover


def _optional_steps(state: RaceState, car_id: str) -> list[Action]:
    candidates: list[Action] = [Adrenaline(car_id), Slipstream(car_id)]
    candidates += [Cooldown(car_id, n) for n in (1, 2, 3, 4)]
    candidates += [Boost(car_id, v) for v in (1, 2, 3, 4)]
    return [a for a in candidates if validate(state, a) is None]


def next_action(state: RaceState, rng: random.Random) -> Action | None:
    """A random input the rules accept now, or None when the race is over."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.PLANNING:
        if not state.humans_to_plan:
            return RunRound()
        return _gear(state, rng.choice(state.humans_to_plan), rng)
    if state.awaiting_legend_card:
        return LegendCard(rng.randint(1, 10))
    turn = state.turn
    assert turn is not None, "the engine waits for a human turn"
    if turn.stage is TurnStage.REVEAL:
        return _reveal(state, turn.car, rng)
    options = _optional_steps(state, turn.car)
    if options and rng.random() < 0.6:
        return rng.choice(options)
    return EndTurn(turn.car)


def race(start: RaceState, rng: random.Random, limit: int) -> Iterator[tuple[Action, Applied]]:
    """Up to ``limit`` random inputs from ``start``, each with what it did."""
    state = start
    for _ in range(limit):
        action = next_action(state, rng)
        if action is None:
            return
        result = play(state, action)
        if isinstance(result, Rejection):  # pragma: no cover - a bug in this generator
            raise AssertionError(f"generated {action!r} was rejected: {result.text()}")
        state = result.state
        yield action, result


@dataclass
class _Sim:
    """The in-memory undo/redo model a script is generated against."""

    states: list[RaceState]
    actions: list[Action]
    redo: list[tuple[Action, RaceState]]


def script(
    race_setup: RaceSetup, seed: int, length: int, *, undo: float = 0.1, redo: float = 0.05,
) -> list[Event]:
    """``length`` events (or fewer if the race ends) mixing inputs, undo and redo at the given
    rates; undo/redo only where the stack allows them, so a session accepts every event."""
    rng = random.Random(seed)
    sim = _Sim([start_race(race_setup).state], [], [])
    events: list[Event] = []
    while len(events) < length:
        roll = rng.random()
        if roll < undo and sim.actions:
            sim.redo.append((sim.actions.pop(), sim.states.pop()))
            events.append(Event(EventKind.UNDO))
            continue
        if roll < undo + redo and sim.redo:
            action, state = sim.redo.pop()
            sim.actions.append(action)
            sim.states.append(state)
            events.append(Event(EventKind.REDO))
            continue
        chosen = next_action(sim.states[-1], rng)
        if chosen is None:
            break
        result = play(sim.states[-1], chosen)
        assert not isinstance(result, Rejection)
        sim.states.append(result.state)
        sim.actions.append(chosen)
        sim.redo.clear()
        events.append(Event(EventKind.INPUT, chosen))
    return events


def drive(session: RaceSession, count: int, seed: int = 1) -> int:
    """Submit up to ``count`` random legal inputs to a session; returns how many (the race may
    end first)."""
    rng = random.Random(seed)
    for done in range(count):
        action = next_action(session.state, rng)
        if action is None:
            return done
        result = session.submit(action)
        if isinstance(result, Rejection):  # pragma: no cover - a bug in this generator
            raise AssertionError(f"generated {action!r} was rejected: {result.text()}")
    return count
