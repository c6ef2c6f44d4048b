"""Properties of random legal races (hypothesis).

Each example draws a track (a small inline one or a bundled board), 1-6 cars of which some are
Legends, sometimes Garage upgrades and Sponsorship cards (Super cool, Draft, upgrade Heat paid
after Cooldown), sometimes Weather, Road Conditions and Press Corners, and a driver (sensible,
Heat-burning or random) that plays every human car from its simulated deck
(``companion.racesim``): every input is one a real deck can produce, and the runner fails if
``validate`` rejects any of them. The runner also checks after every input that the Heat the
simulated deck holds outside the engine equals ``heat - engine``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from strategies import RandomRace, random_races

import tracks
from companion import racefile
from companion.engine import (
    Action,
    CarEntry,
    ChooseGear,
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
from companion.engine.conditions import plain_slipstream_spaces
from companion.engine.modules import RaceModules, Weather
from companion.engine.payment import unpaid_problem
from companion.racesim import RandomDriver, run_race

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_spots(state: RaceState) -> None:
    """docs/rules.md §1.3: two spots per space, one car per spot; finished cars leave the track at
    the end of the round (§1.12)."""
    on_track = [c for c in state.cars if c.on_track]
    spots = Counter((state.track.space_of(c.distance), c.race_line) for c in on_track)
    shared = [spot for spot, n in spots.items() if n > 1]
    assert not shared, f"cars share a spot {shared}: {[(c.id, c.distance) for c in on_track]}"
    per_space = Counter(state.track.space_of(c.distance) for c in on_track)
    assert max(per_space.values(), default=0) <= 2


def check_heat(start: RaceState, state: RaceState) -> None:
    """docs/race-file.md cars.*.heat: the Heat a car owns never changes (no event here removes any);
    the engine holds between none and all of it, Super cool and upgrade Heat included."""
    for car in state.cars:
        if car.legend:
            continue
        assert car.heat == start.car(car.id).heat
        assert 0 <= car.engine <= car.heat, (car.id, car.engine, car.heat)


@SETTINGS
@given(random_races(aggressive=None))
def test_heat_is_conserved_and_the_engine_stays_in_range(race: RandomRace) -> None:
    """docs/rules.md §1.2-1.11: Heat only moves between engine, hand, deck and discard."""
    start = start_race(race.setup).state
    check_heat(start, start)
    run = race.run(on_step=lambda before, action, after: check_heat(start, after))
    assert run.final is not None
    for entry in race.setup.cars:
        if not entry.legend and race.setup.modules.weather is None:
            garage_heat = entry.upgrades.count("heat") if entry.upgrades else 1
            expected = race.setup.track.heat + garage_heat - entry.handicap
            assert run.final.car(entry.id).heat == expected


@SETTINGS
@given(random_races(aggressive=None))
def test_no_two_cars_share_a_spot(race: RandomRace) -> None:
    """docs/rules.md §1.3: a car lands on a free spot (Race Line first) or the first free spot
    behind; never on an occupied one, never three cars on a space."""
    check_spots(start_race(race.setup).state)
    run = race.run(on_step=lambda before, action, after: check_spots(after))
    assert run.final is not None


def play_ok(state: RaceState, action: Action) -> RaceState:
    result = play(state, action)
    assert not isinstance(result, Rejection), result.text()
    return result.state


def replay_actions(race: RandomRace, actions: list[Action]) -> list[dict[str, Any]]:
    state = start_race(race.setup).state
    docs = [racefile.state_document(state)]
    for action in actions:
        state = play_ok(state, action)
        docs.append(racefile.state_document(state))
    return docs


@SETTINGS
@given(random_races(aggressive=None))
def test_replay_is_deterministic(race: RandomRace) -> None:
    """The engine is pure (engine/__init__.py: no clock, no global random state): the same inputs
    give the same states, input by input, however often they are replayed."""
    run = race.run()
    recorded = [racefile.state_document(s) for s in run.states]
    assert replay_actions(race, run.actions) == recorded
    assert replay_actions(race, run.actions) == recorded
    doc = racefile.export(race.setup, run.actions, race.track_doc)
    first = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    second = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    assert first == second


@SETTINGS
@given(random_races(aggressive=None))
def test_export_replays_to_the_same_state_at_round_boundaries(race: RandomRace) -> None:
    """racefile.export: "A heat-race/1 document for the complete rounds of a logged race";
    replaying it must give the state the table had after every round (docs/race-file.md)."""
    run = race.run()
    doc = racefile.export(race.setup, run.actions, race.track_doc)
    assert len(doc["rounds"]) == len(run.round_states)
    replayed = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    assert replayed == [racefile.state_document(s) for s in run.round_states]
    # The driver's own race file (inputs written by the table, not by export) replays the same.
    ours = racefile.parse({**doc, "rounds": run.rounds})
    assert [racefile.state_document(s) for s in racefile.replay(ours)] == replayed


def test_export_keeps_aggressive_legends_off() -> None:
    """RaceSetup.aggressive_legends (docs/rules.md §2.2: an option, default on) changes where
    Legends go, so an exported race must replay to the states the table had (docs/race-file-v2.md
    ``legends.aggressive``). Nederland, card 1 (green 15/2): round 1 the Legend stops on 7
    (diamond 2 before the line after 9); round 2 it is 3 spaces from the chevron corner. With the
    option off it stops on 13, before the chicane's second line; with it on it would reach 14."""
    setup = RaceSetup(
        track=tracks.load_track("nederland"), cars=(CarEntry("green", legend=True),),
        legend_cards=(1, 1), aggressive_legends=False,
    )
    state = start_race(setup).state
    actions: list[Action] = [RunRound(), RunRound()]
    table = []
    for action in actions:
        state = play_ok(state, action)
        table.append(racefile.state_document(state))
    assert [doc["cars"]["green"]["space"] for doc in table] == [7, 13]
    doc = racefile.export(setup, actions)
    assert doc["legends"]["aggressive"] is False
    replayed = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    assert replayed == table
    on = racefile.parse({**doc, "legends": {"cards": [1, 1], "aggressive": True}})
    assert [racefile.state_document(s)["cars"]["green"]["space"]
            for s in racefile.replay(on)] == [7, 14]


def check_slipstream_offer(state: RaceState) -> None:
    """docs/rules.md §1.8: a slipstream is allowed when another car is beside (same space) or on the
    space directly in front, either spot, and the sector or event does not forbid it; never
    across the finish line on the final lap, counting only the plain slipstream (the sector's
    bonus is optional, decision 8); once, after the move and React (docs/race-file.md order), which
    pays the upgrade cards' Heat first."""
    turn = state.turn
    if turn is None or turn.stage in (TurnStage.REVEAL, TurnStage.SLIPSTREAM):
        return
    car = state.car(turn.car)
    here = state.track.space_of(car.distance)
    ahead = state.track.space_of(car.distance + 1)
    partner = any(
        other.on_track and other.id != car.id
        and state.track.space_of(other.distance) in (here, ahead)
        for other in state.cars
    )
    plain = plain_slipstream_spaces(state, car)
    expected = (partner and plain is not None and car.distance + plain <= state.finish_distance
                and unpaid_problem(state, car.id) is None)
    offered = any(validate(state, Slipstream(car.id, 0, sector)) is None
                  for sector in (True, False))
    assert offered is expected


@SETTINGS
@given(random_races(aggressive=None))
def test_slipstream_is_offered_exactly_when_the_rules_allow(race: RandomRace) -> None:
    """docs/rules.md §1.8, checked at every point of every human turn of the race."""
    run = race.run(on_step=lambda before, action, after: check_slipstream_offer(after))
    assert run.final is not None


def test_random_races_reach_draft_super_cool_and_unpaid_cards() -> None:
    """The generator plays the new React steps, and every property above holds while it does:
    Garage decks with Heavy Rain's Air Intake (Super cool) and the Eole Wings Sponsorship card
    (Draft 2), a reckless driver that leaves upgrade Heat unpaid, Weather and road tokens."""
    track = tracks.load_track("usa")
    seen: set[str] = set()
    for seed in range(12):
        cars = tuple(CarEntry(f"h{i}", upgrades=("air-intake-4", "turbo-7", "air-intake-0-slip"),
                              sponsor_cards=3) for i in range(3))
        setup = RaceSetup(track=track, cars=cars, laps=1, seed=seed)
        start = start_race(setup).state

        def hook(before: RaceState, action: Action, after: RaceState,
                 start: RaceState = start) -> None:
            check_heat(start, after)
            check_spots(after)
            check_slipstream_offer(after)
            seen.add(type(action).__name__)
            if isinstance(action, Reveal) and action.unpaid:
                seen.add("unpaid at the reveal")

        run = run_race(setup, seed=seed, driver=RandomDriver, on_step=hook, max_rounds=40,
                       require_finish=False)
        doc = racefile.export(setup, run.actions)
        replayed = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
        assert replayed == [racefile.state_document(s) for s in run.round_states]
    assert {"DraftMove", "SuperCool", "PayHeat", "unpaid at the reveal"} <= seen, seen


def test_clogged_on_a_flooded_space_counts_only_reachable_gears() -> None:
    """docs/rules.md §1.5: a hand is clogged when it "cannot reach the required number of non-Heat
    cards for any gear you could legally shift to"; §6 flooded spaces (Japan): from one,
    "shifting down costs +1 Heat (-1 gear: 1 Heat, -2 gears: 2 Heat)". The deck simulation of
    the property tests reaches this hand: Japan with handicap 2 (6 Heat), on flooded space 40 in
    4th gear with 1 Heat in the engine and the other 5 in a hand of 7. Gear 4 needs 4 cards,
    gear 3 (1 Heat) needs 3, gear 2 would cost 2 Heat: only 2 cards can be played, so the hand
    is clogged and the driver declares it in 3rd gear."""
    setup = RaceSetup(track=tracks.load_track("japan"), cars=(CarEntry("red", handicap=2),))
    state = start_race(setup).state
    car = state.car("red")
    assert 40 in state.track.flooded and car.heat == 6
    state = state.with_car(replace(car, distance=40, gear=4, engine=1))
    assert validate(state, ChooseGear("red", 2)) is not None  # 2 gears down: 2 Heat
    assert validate(state, ChooseGear("red", 3)) is None
    assert validate(state, ChooseGear("red", 3, clogged=True)) is None


def test_tournament_with_a_physical_deck_exports_exactly_at_every_round() -> None:
    """docs/race-file-v2.md ``legends.deck``: in the tournament variant a round may begin with
    Legends, and a physical deck then waits for the table's card at the end of the round before,
    where a seeded deck would draw one by itself. The export of the race stopped after any
    round must replay to the state the table had then, with no card drawn by the seed."""
    setup = RaceSetup(
        track=tracks.load_track("usa"), laps=1, seed=5,
        cars=(CarEntry("black", legend=True), CarEntry("green", legend=True),
              CarEntry("red", name="Ana"), CarEntry("blue", name="Bo")),
        modules=RaceModules(tournament=True), physical_legends_deck=True,
    )
    run = run_race(setup, seed=11)
    led_by_a_legend = [s for s in run.round_states
                       if s.phase is not Phase.OVER and s.awaiting_legend_card]
    assert led_by_a_legend, "no round of this race begins with a Legend: choose another seed"
    for stop in range(1, len(run.round_states) + 1):
        actions = run.actions[:_actions_until_round(run, stop)]
        doc = racefile.export(setup, actions)
        assert doc["format"] == "heat-race/2" and doc["legends"]["deck"] == "physical"
        replayed = list(racefile.replay(racefile.parse(doc)))
        assert len(replayed) == stop
        assert [racefile.state_document(s) for s in replayed] == [
            racefile.state_document(s) for s in run.round_states[:stop]]
        assert replayed[-1].awaiting_legend_card == run.round_states[stop - 1].awaiting_legend_card


def test_a_physical_deck_card_is_drawn_in_the_round_it_begins() -> None:
    """The whole race in one file: the Legends card a tournament round begins with is entered in
    that round, not at the end of the round before, although the file already holds it (a race
    hypothesis found: a Legend leading a two-car race on a short track, one card per round)."""
    track_doc: dict[str, Any] = {
        "id": "inline-test", "spaces": 12, "laps": 1, "heat": 2, "stress": 0,
        "corners": [{"line_after": 1, "limit": 2, "legend_line_after": 12},
                    {"line_after": 2, "limit": 2, "legend_line_after": 1}]}
    setup = RaceSetup(
        track=tracks.track_from_dict(track_doc), seed=0, physical_legends_deck=True,
        cars=(CarEntry("h1", name="Driver 1"), CarEntry("black", legend=True)),
        modules=RaceModules(weather=Weather.CLOUD, tournament=True),
    )
    run = RandomRace(setup, track_doc, 0, "hot").run()
    doc = racefile.export(setup, run.actions, track_doc)
    assert doc["legends"]["deck"] == "physical" and len(doc["legends"]["cards"]) >= 3
    whole = racefile.replay(racefile.parse(doc))
    assert [racefile.state_document(s) for s in whole] == [
        racefile.state_document(s) for s in run.round_states]


def _actions_until_round(run: Any, rounds: int) -> int:
    """How many of the run's actions it took to complete ``rounds`` rounds."""
    for count, state in enumerate(run.states):
        if state.round >= rounds:
            return count
    raise AssertionError(f"the run never completed round {rounds}")
