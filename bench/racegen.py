"""Random legal races for the benchmarks and the storage tests: setups, inputs, undo/redo scripts.

The inputs come from the project's one race generator, :mod:`companion.racesim` (also used by the
engine tests): :func:`next_action` returns only inputs :func:`companion.engine.validate` accepts,
drawn from the car's deck as the race state says it is (gears from the legal ones, flooded
spaces on Japan included; reveals a deck can show; every React step, Super cool, the upgrade
cards' Heat, Draft and the sector's slipstream bonus among them). :func:`script` mixes in undo
and redo, giving the events a table would log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import tracks
from companion.engine import (
    Action,
    Applied,
    CarEntry,
    RaceSetup,
    RaceState,
    Rejection,
    play,
    start_race,
)
from companion.racesim import next_action
from companion.session import RaceSession
from companion.storage.fold import Event, EventKind

__all__ = ["HUMANS", "drive", "next_action", "race", "script", "setup"]

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
