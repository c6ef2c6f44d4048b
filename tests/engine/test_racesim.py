"""The race generator shared by the tests and the benchmarks (``companion.racesim``).

It must only ever produce inputs the engine accepts: gears (flooded spaces included), reveals
a deck can show, and every React step of the new rules (Super cool, upgrade Heat, Draft, the
optional sector bonus), whether it keeps each driver's hand (``run_race``) or works from the
state alone (``next_action``, used by the storage tests and ``bench/``).
"""

from __future__ import annotations

import random
from dataclasses import replace

import tracks
from companion.engine import (
    CarEntry,
    ChooseGear,
    RaceSetup,
    Rejection,
    play,
    start_race,
    validate,
)
from companion.engine.modules import RaceModules, Road, Weather
from companion.racesim import DRIVERS, legal_gears, next_action, run_race
from companion.racesim.inputs import gear_choice


def test_flooded_space_shifts_are_legal() -> None:
    """docs/rules.md §6.4 (Japan): from a flooded space any downshift costs 1 Heat more (-1 gear 1
    Heat,
    -2 gears 2 Heat). The old bench generator offered a downshift with an empty engine there."""
    japan = tracks.load_track("japan")
    state = start_race(RaceSetup(track=japan, cars=(CarEntry("red"), CarEntry("blue")))).state
    rng = random.Random(3)
    checked = 0
    for space in sorted(japan.flooded):
        for gear in (2, 3, 4):
            for engine in (0, 1, 2):
                car = replace(state.car("red"), distance=space, gear=gear, engine=engine)
                here = state.with_car(car)
                assert all(validate(here, ChooseGear("red", g)) is None
                           for g in legal_gears(here, "red"))
                if engine == 0:  # no downshift at all, and no two-gear shift up
                    assert legal_gears(here, "red") == list(range(gear, min(gear + 1, 4) + 1))
                for _ in range(20):
                    choice = gear_choice(here, "red", rng)
                    assert validate(here, choice) is None, (space, gear, engine, choice)
                    checked += 1
    assert checked > 100


def test_next_action_plays_the_new_rules_from_the_state_alone() -> None:
    """Random inputs from the state only, with Garage decks, Sponsorship cards, Weather and road
    tokens: every one accepted, and Draft, Super cool and the Heat payment among them."""
    track = tracks.load_track("usa")
    modules = RaceModules(weather=Weather.STORM, road={c.line_after: Road.WEATHER
                                                       for c in track.corners})
    kinds: set[str] = set()
    for seed in range(6):
        cars = tuple(CarEntry(f"h{i}", upgrades=("air-intake-3", "turbo-7", "gas-4"),
                              sponsor_cards=4) for i in range(3))
        state = start_race(RaceSetup(track=track, cars=cars, laps=1, seed=seed,
                                     modules=modules)).state
        rng = random.Random(seed)
        for _ in range(400):
            action = next_action(state, rng)
            if action is None:
                break
            result = play(state, action)
            assert not isinstance(result, Rejection), (action, result.text())
            state = result.state
            kinds.add(type(action).__name__)
    assert {"SuperCool", "PayHeat", "DirectPlay", "Slipstream"} <= kinds, kinds


def test_drivers_keep_their_hands_honest_with_garage_decks() -> None:
    """Every driver, whole races with Garage decks and Sponsorship cards: the runner checks every
    input against the engine and the Heat each deck holds against ``heat - engine``."""
    track = tracks.load_track("great-britain")
    for name, driver in sorted(DRIVERS.items()):
        cars = (CarEntry("red", upgrades=("air-intake-0-plus", "wings-6", "cooling-6"),
                         sponsor_cards=2),
                CarEntry("blue", upgrades=("rpm-1-heat", "gas-1-accelerate", "heat")),
                CarEntry("black", legend=True))
        run = run_race(RaceSetup(track=track, cars=cars, laps=1, seed=len(name)), seed=5,
                       driver=driver, max_rounds=60, require_finish=False)
        assert run.final is not None and run.final.round >= 5, name


def test_a_pressure_cooker_race_keeps_the_decks_honest() -> None:
    """Pressure cooker (docs/rules.md §3.3, 1965 race 4): each lap completed removes 1 Heat
    from the game, from the engine, else from the cards outside it. The generator moved the
    engine's to the discard pile and knew nothing of one taken from outside the engine, so its
    decks and the engine disagreed ("the deck holds 7 Heat out of the engine, the engine says
    6": found by a table test's season); it takes them out of the game too."""
    from companion.championship.season import Season
    from companion.championship.seasons import official_season

    cars = tuple(CarEntry(colour, name) for colour, name in
                 zip(("red", "blue", "green", "yellow"), "ABCD", strict=True)) + tuple(
        CarEntry(colour, "", legend=True) for colour in ("black", "grey"))
    season = Season(official_season("1965"), cars)
    for race in range(4):
        setup = season.next_race_setup(seed=10 + race)
        run = run_race(setup, seed=10 + race, driver=DRIVERS["sensible"])
        assert run.final is not None and run.final.over
        season = season.with_result(run.final)
    assert setup.modules.event == "pressure-cooker"
    first, final = run.states[0], run.final
    assert sum(first.car(c.id).heat - final.car(c.id).heat for c in final.cars
               if not c.legend) > 0  # Heat did leave the game
