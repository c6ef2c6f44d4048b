"""Seasons in the race log (companion/storage/seasons.py): round trip, reopen, crash in the
middle of a race, schema migration, and the links the store refuses."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest
from season_1961 import CARS, SEEDS
from strategies import SensibleDriver, run_race

from companion.championship import SEASONS, SeasonDef, SeasonError, SeasonRace
from companion.engine import RaceSetup, Rejection
from companion.engine.modules import Weather
from companion.session import RaceLog, RaceSession
from companion.storage import StorageError
from companion.storage.db import _SCHEMA, NEWEST_SCHEMA_VERSION
from companion.storage.seasons import (
    SeasonLinkError,
    SeasonStore,
    UnknownSeasonError,
)
from tracks import load_track

# The hand-checked 1961 standings (see test_championship_1961.py for the arithmetic).
STANDINGS_1961 = [(1, "black", 24), (2, "red", 16), (3, "yellow", 16), (4, "green", 12)]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "races.sqlite3"


def play(session: RaceSession, seed: int, start: int = 0, stop: int | None = None) -> None:
    """Submit the generated actions ``start:stop`` of the race (same driver as the files)."""
    run = run_race(session.setup, seed=seed, driver=SensibleDriver)
    for action in run.actions[start:stop]:
        assert not isinstance(session.submit(action), Rejection)


def start_next(store: SeasonStore, season_id: str, number: int) -> RaceSession:
    season = store.season(season_id).season
    setup = season.next_race_setup(seed=SEEDS[number - 1])
    return store.start_race(season_id, setup, race_id=f"r{number}", created="2024-06-01")


def ranks(store: SeasonStore, season_id: str) -> list[tuple[int, str, int]]:
    return [(s.rank, s.car.id, s.points) for s in store.season(season_id).season.standings()]


def test_full_season_round_trip_and_reopen(path: Path) -> None:
    with SeasonStore(path) as store:
        season_id = store.create_season(SEASONS["1961"], CARS, season_id="s61",
                                        created="2024-06-01T20:00:00+02:00")
        for number, seed in enumerate(SEEDS, start=1):
            play(start_next(store, season_id, number), seed)
        assert ranks(store, season_id) == STANDINGS_1961
    with SeasonStore(path) as store:  # a new process: everything from the file
        stored = store.season("s61")
        assert stored.race_ids == ("r1", "r2", "r3") and stored.running is None
        assert stored.season.over and stored.created == "2024-06-01T20:00:00+02:00"
        assert ranks(store, "s61") == STANDINGS_1961
        # The season puts back what the race log does not keep: Drivers' strike is 2 laps.
        assert store.open_race("r3").state.laps == 2
        assert store.season_of("r2") == ("s61", 2) and store.season_of("nope") is None
        [summary] = store.seasons()
        assert (summary.id, summary.name, summary.races, summary.started) == ("s61", "1961", 3, 3)


def test_power_cut_in_the_middle_of_a_race(path: Path) -> None:
    with SeasonStore(path) as store:
        season_id = store.create_season(SEASONS["1961"], CARS)
        play(start_next(store, season_id, 1), SEEDS[0])
        play(start_next(store, season_id, 2), SEEDS[1], stop=40)
    # The store was closed mid-race (every input was committed when submitted).
    with SeasonStore(path) as store:
        stored = store.season(season_id)
        assert stored.running == "r2" and stored.season.races_played == 1
        # After race 1: black 9, green 6, red 4, yellow 3.
        assert ranks(store, season_id) == [(1, "black", 9), (2, "green", 6), (3, "red", 4),
                                           (4, "yellow", 3)]
        with pytest.raises(SeasonLinkError, match=r"race 2 of season .* \(r2\) is not over"):
            start_next(store, season_id, 3)
        play(store.open_race("r2"), SEEDS[1], start=40)
        play(start_next(store, season_id, 3), SEEDS[2])
        assert ranks(store, season_id) == STANDINGS_1961


def test_schema_1_file_is_migrated(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(_SCHEMA)
        db.execute("PRAGMA user_version = 1")
    with RaceLog(path) as log:  # opened to write: brought to the newest schema
        race = log.new_race(RaceSetup(track=load_track("usa"), cars=CARS), race_id="old")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == NEWEST_SCHEMA_VERSION
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        assert {"seasons", "season_races", "race_results"} <= tables
    with SeasonStore(path) as store:
        assert store.seasons() == []
        assert store.races.open_race("old").state == race.state
    with RaceLog(path) as log:
        assert [r.id for r in log.races()] == ["old"]


def test_refused_links(path: Path) -> None:
    with SeasonStore(path) as store:
        s61 = store.create_season(SEASONS["1961"], CARS, season_id="a")
        s62 = store.create_season(SEASONS["1962"], CARS, season_id="b")
        with pytest.raises(StorageError, match="season 'a' already exists"):
            store.create_season(SEASONS["1961"], CARS, season_id="a")
        with pytest.raises(UnknownSeasonError, match="unknown season 'zz'"):
            store.season("zz")
        season = store.season(s61).season
        setup = season.next_race_setup(seed=1)
        with pytest.raises(SeasonLinkError, match="race 1 of the season is on italy, not "
                                                  "great-britain"):
            store.start_race(s62, setup)
        with pytest.raises(SeasonLinkError, match="has the season's cars"):
            store.start_race(s61, dataclasses.replace(setup, cars=setup.cars[:3]))
        with pytest.raises(SeasonLinkError, match="has event 'new-grandstand'"):
            store.start_race(s61, dataclasses.replace(setup, modules=dataclasses.replace(
                setup.modules, event="corruption")))
        assert store.races.races() == []  # nothing was written by the refusals
        session = store.start_race(s61, setup, race_id="r1")
        with pytest.raises(SeasonLinkError, match="race r1 is already race 1 of season a"):
            store.link_race(s62, "r1")
        with pytest.raises(SeasonLinkError, match=r"race 1 of season a \(r1\) is not over"):
            store.start_race(s61, setup)
        # A season's race cannot be deleted from under it (foreign key).
        with pytest.raises(StorageError, match="FOREIGN KEY"):
            store.races.delete_race("r1")
        assert session.race_id == "r1"


def test_custom_season_and_link_of_a_race_created_elsewhere(path: Path) -> None:
    custom = SeasonDef("custom", "Cup", (SeasonRace("france", "corruption", 1, ("B",)),))
    with SeasonStore(path) as store:
        season_id = store.create_season(custom, CARS)
        setup = store.season(season_id).season.next_race_setup(seed=4)
        with RaceLog(path) as log:
            race = log.new_race(setup, race_id="x1")
            run = run_race(setup, seed=4, driver=SensibleDriver)
            for action in run.actions:
                race.submit(action)
            log.new_race(setup, race_id="x2")
        assert store.link_race(season_id, "x1") == 1
        stored = store.season(season_id)
        assert stored.season.over
        with pytest.raises(SeasonLinkError, match="has all its 1 races"):
            store.link_race(season_id, "x2")
        # Corruption: places 1-3 get 9+1, 6+1, 4+1; 4th 3.
        assert sorted(line.points for line in stored.season.standings()) == [3, 5, 7, 10]


def test_unplayable_season_is_not_stored(path: Path) -> None:
    with SeasonStore(path) as store, pytest.raises(SeasonError, match="race 2 .germany."):
        store.create_season(SEASONS["1966"], CARS)


def test_season_race_keeps_weather_and_event_through_the_log(path: Path) -> None:
    """The race log keeps a setup's modules, so a season race with Weather reopens exactly."""
    with SeasonStore(path) as store:
        s61 = store.create_season(SEASONS["1961"], CARS, season_id="w")
        setup = store.season(s61).season.next_race_setup(seed=1, weather=Weather.SUN)
        session = store.start_race(s61, setup, race_id="wet")
        expected = session.state
    with SeasonStore(path) as store:
        reopened = store.open_race("wet")
        assert reopened.state == expected
        assert reopened.setup.modules.weather is Weather.SUN
        assert reopened.setup.modules.event == "new-grandstand"
    with RaceLog(path) as log:
        assert log.open_race("wet").state == expected
