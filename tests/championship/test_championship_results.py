"""Standings from stored race results (storage/results.py): the same standings as replaying the
races, no replay while the stored results are fresh, and a missing or stale result rebuilt from
the log (stored again when the log is writable, kept in memory when it is read only)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from season_1961 import CARS, SEEDS
from strategies import SensibleDriver, run_race

from companion.championship import SEASONS, result_from_state
from companion.championship_cli import main as championship_main
from companion.engine import Rejection
from companion.session import RaceSession
from companion.storage import CorruptLogError, results
from companion.storage.db import NEWEST_SCHEMA_VERSION
from companion.storage.seasons import SeasonStore
from companion.ui.views.next_race import plan_next_race

# The hand-checked 1961 standings (see test_championship_1961.py for the arithmetic).
STANDINGS_1961 = [(1, "black", 24), (2, "red", 16), (3, "yellow", 16), (4, "green", 12)]


def _play(session: RaceSession, seed: int, stop: int | None = None) -> None:
    run = run_race(session.setup, seed=seed, driver=SensibleDriver)
    for action in run.actions[:stop]:
        assert not isinstance(session.submit(action), Rejection)


def _start(store: SeasonStore, number: int) -> RaceSession:
    season = store.season("s61").season
    setup = season.next_race_setup(seed=SEEDS[number - 1])
    return store.start_race("s61", setup, race_id=f"r{number}", created="2024-06-01")


def _ranks(store: SeasonStore) -> list[tuple[int, str, int]]:
    return [(s.rank, s.car.id, s.points) for s in store.season("s61").season.standings()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with the 1961 season played to the end (three races), read-only for the tests:
    each test works on a copy (:func:`log`)."""
    path = tmp_path_factory.mktemp("season") / "races.sqlite3"
    with SeasonStore(path) as store:
        store.create_season(SEASONS["1961"], CARS, season_id="s61",
                            created="2024-06-01T20:00:00+02:00")
        for number, seed in enumerate(SEEDS, start=1):
            _play(_start(store, number), seed)
    return path


@pytest.fixture
def log(played: Path, tmp_path: Path) -> Path:
    path = tmp_path / "races.sqlite3"
    shutil.copyfile(played, path)
    return path


def _sql(path: Path, statement: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(statement, params).fetchall()


@pytest.fixture
def replay_only() -> Iterator[None]:
    results.USE_STORED = False
    try:
        yield
    finally:
        results.USE_STORED = True


def test_each_race_stores_its_result_when_it_finishes(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    with SeasonStore(path) as store:
        store.create_season(SEASONS["1961"], CARS, season_id="s61")
        race = _start(store, 1)
        run = run_race(race.setup, seed=SEEDS[0], driver=SensibleDriver)
        for action in run.actions[:-1]:
            race.submit(action)
        assert _sql(path, "SELECT COUNT(*) FROM race_results") == [(0,)]
        assert store.season("s61").running == "r1"
        race.submit(run.actions[-1])  # the input that finishes the race
        [(seq, text)] = _sql(path, "SELECT seq, result FROM race_results WHERE race_id = 'r1'")
        assert seq == race.events_logged
        assert text == results.result_text(result_from_state(race.state))
        assert store.season("s61").season.results == (result_from_state(race.state),)
        assert store.results.replayed == []


def test_stored_results_give_the_standings_of_the_replayed_races(
        log: Path, replay_only: None) -> None:
    with SeasonStore(log) as store:
        replayed = store.season("s61")
        assert store.results.replayed == ["r1", "r2", "r3"]
    results.USE_STORED = True
    with SeasonStore(log) as store:
        stored = store.season("s61")
        assert store.results.replayed == []
        assert stored == replayed
        assert _ranks(store) == STANDINGS_1961


@pytest.mark.parametrize("damage", [
    "DELETE FROM race_results WHERE race_id = 'r2'",
    "UPDATE race_results SET version = version + 1 WHERE race_id = 'r2'",
    "UPDATE race_results SET seq = seq - 1 WHERE race_id = 'r2'",
    "UPDATE race_results SET fingerprint = 'x' WHERE race_id = 'r2'",
    "UPDATE race_results SET result = '{\"order\": [' WHERE race_id = 'r2'",
    # A well-formed result that is not the race's (its fingerprint no longer matches).
    "UPDATE race_results SET result = replace(result, 'black', 'BLACK') WHERE race_id = 'r2'",
    # A setup changed after the result was derived.
    "UPDATE races SET setup = replace(setup, '\"seed\":22', '\"seed\": 22') WHERE id = 'r2'",
])
def test_a_missing_or_stale_result_is_rebuilt_and_stored_again(log: Path, damage: str) -> None:
    before = _sql(log, "SELECT * FROM race_results WHERE race_id = 'r2'")
    _sql(log, damage)
    with SeasonStore(log) as store:
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == ["r2"]
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == ["r2"]  # stored again: read, not replayed
    with SeasonStore(log) as store:
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == []
    after = _sql(log, "SELECT race_id, version, seq, result FROM race_results "
                      "WHERE race_id = 'r2'")
    assert after == [row[:3] + row[4:] for row in before]


def test_an_event_added_after_the_result_makes_it_stale(log: Path) -> None:
    """An undo written by other software, without the summary: the stored result no longer
    describes the log, which says the race is running again."""
    [(last,)] = _sql(log, "SELECT MAX(seq) FROM events WHERE race_id = 'r3'")
    _sql(log, "INSERT INTO events (race_id, seq, kind, payload) VALUES ('r3', ?, 'undo', '{}')",
         last + 1)
    with SeasonStore(log) as store:
        stored = store.season("s61")
        assert store.results.replayed == ["r3"]
        assert stored.running == "r3" and stored.season.races_played == 2


def test_undo_of_the_finishing_input_removes_the_result_and_redo_restores_it(log: Path) -> None:
    with SeasonStore(log) as store:
        race = store.open_race("r3")
        stored = _sql(log, "SELECT result FROM race_results WHERE race_id = 'r3'")
        assert race.undo()
        assert _sql(log, "SELECT result FROM race_results WHERE race_id = 'r3'") == []
        assert store.season("s61").running == "r3"
        assert race.redo()
        assert _sql(log, "SELECT result FROM race_results WHERE race_id = 'r3'") == stored
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == []


def _schema_2(log: Path) -> None:
    """The log as schema 2 had it: no race_results (nor the drafts of schema 4)."""
    for statement in ("DROP TABLE draft_inputs", "DROP TABLE drafts", "DROP TABLE race_results",
                      "DROP INDEX races_unfinished", "PRAGMA user_version = 2"):
        _sql(log, statement)


def test_an_old_log_is_upgraded_and_its_results_derived_once(log: Path) -> None:
    """A schema-2 log (as the app wrote it before results were stored) opens, is upgraded to
    the newest schema, and each race is replayed once, the first time its result is needed."""
    _schema_2(log)
    with SeasonStore(log) as store:
        assert _sql(log, "PRAGMA user_version") == [(NEWEST_SCHEMA_VERSION,)]
        assert _sql(log, "SELECT COUNT(*) FROM race_results") == [(0,)]
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == ["r1", "r2", "r3"]
    assert _sql(log, "SELECT race_id FROM race_results ORDER BY race_id") == [
        ("r1",), ("r2",), ("r3",)]
    with SeasonStore(log) as store:
        assert _ranks(store) == STANDINGS_1961
        assert store.results.replayed == []


@pytest.mark.parametrize("old_schema", [False, True])
def test_read_only_computes_missing_results_in_memory(log: Path, old_schema: bool) -> None:
    if old_schema:  # a schema-2 log: no race_results table at all
        _schema_2(log)
    else:
        _sql(log, "DELETE FROM race_results WHERE race_id IN ('r1', 'r3')")
    _sql(log, "PRAGMA wal_checkpoint(TRUNCATE)")
    before = log.read_bytes()
    with SeasonStore(log, read_only=True) as store:
        assert _ranks(store) == STANDINGS_1961
        replayed = ["r1", "r2", "r3"] if old_schema else ["r1", "r3"]
        assert store.results.replayed == replayed
        assert _ranks(store) == STANDINGS_1961  # remembered while the log is open
        assert store.results.replayed == replayed
    assert log.read_bytes() == before
    assert not log.with_name(log.name + "-wal").exists() or \
        log.with_name(log.name + "-wal").stat().st_size == 0


def test_a_result_that_cannot_be_stored_is_still_given(log: Path) -> None:
    _sql(log, "DELETE FROM race_results")
    other = sqlite3.connect(log, isolation_level=None)
    try:
        with SeasonStore(log) as store:
            store._log._db.execute("PRAGMA busy_timeout = 0")
            other.execute("BEGIN IMMEDIATE")  # another writer holds the log
            assert _ranks(store) == STANDINGS_1961
            other.execute("ROLLBACK")
    finally:
        other.close()
    assert _sql(log, "SELECT COUNT(*) FROM race_results") == [(0,)]


def test_a_result_naming_other_cars_names_the_race(log: Path) -> None:
    """A result that replays to cars the season does not have is a damaged log, said as such
    (here: a stored setup whose cars were changed, so the race replays with other cars)."""
    _sql(log, "UPDATE races SET setup = replace(setup, '\"green\"', '\"blue\"') WHERE id = 'r1'")
    with SeasonStore(log) as store, pytest.raises(CorruptLogError, match="r1"):
        store.season("s61")


def test_the_next_race_reads_the_last_setup_without_replay(log: Path) -> None:
    """The next race of a season that is not over: its plan (grid from the standings, the
    Upgrades of the last race) needs no replay."""
    _sql(log, "DELETE FROM season_races WHERE race_id = 'r3'")
    _sql(log, "DELETE FROM race_results WHERE race_id = 'r3'")
    _sql(log, "DELETE FROM events WHERE race_id = 'r3'")
    _sql(log, "DELETE FROM races WHERE id = 'r3'")
    with SeasonStore(log) as store:
        plan = plan_next_race(store, "s61", seed=5)
        assert plan is not None and plan.number == 3
        assert store.results.replayed == []
        assert store.race_setup("r2") == store.open_race("r2").setup


def test_the_championship_command_derives_results_without_writing(
        log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``championship --season`` opens the log read only: results it lacks are derived in
    memory, none is written."""
    _sql(log, "DELETE FROM race_results")
    _sql(log, "PRAGMA wal_checkpoint(TRUNCATE)")
    assert championship_main(["--data", str(log.parent), "--season", "s61", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and lines[1].split(",")[:2] == ["1", "black"]
    assert _sql(log, "SELECT COUNT(*) FROM race_results") == [(0,)]
