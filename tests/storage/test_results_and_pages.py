"""Schema 3: a race's result stored with the event that finishes it, the migrations from the
logs of schema 1 and 2, and the race list read a page at a time (``RaceLog.race_page``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bench import racegen
from companion.championship import result_from_state
from companion.engine import CarEntry
from companion.session import RaceLog
from companion.storage import results, schema
from companion.storage.db import _SCHEMA, NEWEST_SCHEMA_VERSION, EventLog


def _sql(path: Path, statement: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(statement, params).fetchall()


def _finished(log: RaceLog, race_id: str, seed: int = 2) -> None:
    race = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=seed), race_id=race_id,
                        created="2024-06-01T20:00:00+02:00")
    racegen.drive(race, 5000)
    assert race.state.over


def test_a_finished_race_stores_its_result_with_the_fingerprint_of_its_last_event(
        log_path: Path, log: RaceLog) -> None:
    _finished(log, "done")
    race = log.open_race("done")
    [(version, seq, fingerprint, text)] = _sql(
        log_path, "SELECT version, seq, fingerprint, result FROM race_results")
    [(track, setup)] = _sql(log_path, "SELECT track, setup FROM races")
    [(kind, payload)] = _sql(log_path, "SELECT kind, payload FROM events WHERE seq = ?", seq)
    assert (version, seq) == (schema.RESULTS_VERSION, race.events_logged)
    assert fingerprint == schema.result_fingerprint(str(track), str(setup), seq, str(kind),
                                                    str(payload), str(text))
    assert text == results.result_text(result_from_state(race.state))


def test_a_running_race_stores_no_result(log_path: Path, log: RaceLog) -> None:
    race = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2))
    racegen.drive(race, 40)
    assert not race.state.over
    assert _sql(log_path, "SELECT COUNT(*) FROM race_results") == [(0,)]


def test_deleting_a_race_deletes_its_result(log_path: Path, log: RaceLog) -> None:
    _finished(log, "done")
    log.delete_race("done")
    assert _sql(log_path, "SELECT COUNT(*) FROM race_results") == [(0,)]


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_old_log_is_migrated_step_by_step_when_opened_to_write(
        log_path: Path, version: int) -> None:
    with RaceLog(log_path) as log:
        _finished(log, "old")
        state = log.open_race("old").state
    # The same log as schema 1, 2 or 3 wrote it (no drafts; 1 and 2: no race_results; 1: no
    # season tables).
    _sql(log_path, "DROP TABLE draft_inputs")
    _sql(log_path, "DROP TABLE drafts")
    if version <= 2:
        _sql(log_path, "DROP TABLE race_results")
        _sql(log_path, "DROP INDEX races_unfinished")
    if version == 1:
        _sql(log_path, "DROP TABLE season_races")
        _sql(log_path, "DROP TABLE seasons")
    _sql(log_path, f"PRAGMA user_version = {version}")
    with RaceLog(log_path, read_only=True) as log:  # read only: read as it is, not upgraded
        assert [r.id for r in log.races()] == ["old"]
        assert log.open_race("old").state == state
    assert _sql(log_path, "PRAGMA user_version") == [(version,)]
    with RaceLog(log_path) as log:
        assert log.open_race("old").state == state
        assert [r.id for r in log.races()] == ["old"]
    assert _sql(log_path, "PRAGMA user_version") == [(NEWEST_SCHEMA_VERSION,)]
    tables = {name for (name,) in _sql(log_path, "SELECT name FROM sqlite_master "
                                                 "WHERE type = 'table'")}
    assert tables == {"races", "events", "seasons", "season_races", "race_results", "drafts",
                      "draft_inputs"}


def test_a_new_log_and_a_migrated_one_have_the_same_tables(tmp_path: Path) -> None:
    new, old = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    EventLog(new).close()
    with sqlite3.connect(old) as db:
        db.executescript(_SCHEMA)
        db.execute("PRAGMA user_version = 1")
    EventLog(old).close()
    query = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert _sql(new, query) == _sql(old, query)


# --- the race list, a page at a time -----------------------------------------------------------


@pytest.fixture
def many(log_path: Path) -> Path:
    """70 races: a finished one and a running one copied under new ids, with a date a day
    apart; the last two have drivers named Zoë Müller and 100%_Ana."""
    with RaceLog(log_path) as log:
        _finished(log, "done")
        running = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=3),
                               race_id="running", created="2024-06-01T20:00:00+02:00")
        racegen.drive(running, 30)
    with sqlite3.connect(log_path) as db:
        for n in range(68):
            source = "done" if n % 2 else "running"
            new = f"r{n:02d}"
            db.execute("INSERT INTO races SELECT ?, ?, track, setup, track_id, laps, rounds, "
                       "over, results FROM races WHERE id = ?",
                       (new, f"2024-07-{1 + n % 28:02d}T20:00:00+02:00", source))
            db.execute("INSERT INTO events SELECT ?, seq, kind, payload FROM events "
                       "WHERE race_id = ?", (new, source))
        for race_id, name in (("r66", "Zoë Müller"), ("r67", "100%_Ana")):
            [(setup,)] = db.execute("SELECT setup FROM races WHERE id = ?", (race_id,))
            doc = json.loads(setup)
            doc["cars"][0]["name"] = name
            db.execute("UPDATE races SET setup = ? WHERE id = ?", (json.dumps(doc), race_id))
    return log_path


def test_pages_list_every_race_once_newest_first(many: Path) -> None:
    with RaceLog(many) as log:
        every = [r.id for r in log.races()]
        seen: list[str] = []
        before = None
        while True:
            page = log.race_page(before=before, limit=30)
            seen += [race.id for _, race in page]
            if len(page) < 30:
                break
            before = page[-1][0]
        assert seen == every and len(every) == 70
        assert [len(log.race_page(limit=30))] == [30]


def test_a_page_reads_its_rows_and_no_others(many: Path) -> None:
    """A damaged row beyond the page does not stop the page: only the page is read."""
    _sql(many, "UPDATE races SET results = 'not json' WHERE id = 'done'")  # the oldest but one
    with RaceLog(many) as log:
        assert len(log.race_page(limit=30)) == 30


@pytest.mark.parametrize(("text", "tracks", "expected"), [
    ("Zoë", (), ["r66"]),
    ("müller", (), ["r66"]),
    ("MÜLLER", (), ["r66"]),  # any case, not only ASCII letters
    ("zoë müller", (), ["r66"]),
    ("100%", (), ["r67"]),  # % and _ are letters here, not wildcards
    ("%", (), ["r67"]),
    ("_", (), ["r67"]),
    ("2024-07-28", (), ["r55", "r27"]),
    ("2024-06", (), ["running", "done"]),
    ("driver 2", (), None),  # racegen's names: every race
    ("nobody", (), []),
    ("nobody", ("usa",), None),
    ("nobody", ("italy",), []),
])
def test_search_by_driver_date_or_track(
        many: Path, text: str, tracks: tuple[str, ...], expected: list[str] | None) -> None:
    with RaceLog(many) as log:
        found = [race.id for _, race in log.race_page(text=text, track_ids=tracks, limit=100)]
        assert found == (expected if expected is not None else [r.id for r in log.races()])


def test_search_skips_a_setup_that_is_not_json(many: Path) -> None:
    _sql(many, "UPDATE races SET setup = '{not json' WHERE id = 'r10'")
    with RaceLog(many) as log:
        assert [race.id for _, race in log.race_page(text="Zoë", limit=100)] == ["r66"]


def test_one_race_summary_without_the_list(many: Path) -> None:
    with RaceLog(many) as log:
        summary = log.race_summary("r66")
        assert summary == next(r for r in log.races() if r.id == "r66")
        assert summary.cars[0] == CarEntry(id=summary.cars[0].id, name="Zoë Müller")


def test_pages_and_search_on_a_log_opened_read_only(many: Path) -> None:
    with RaceLog(many) as log:
        expected = [race.id for _, race in log.race_page(text="zoë", limit=100)]
    with RaceLog(many, read_only=True) as log:
        assert [race.id for _, race in log.race_page(text="zoë", limit=100)] == expected
        assert len(log.race_page(limit=30)) == 30


def test_the_unfinished_races_are_read_by_index(many: Path) -> None:
    with RaceLog(many) as log:
        expected = [race.id for race in log.races() if not race.over]
        assert [race.id for race in log.unfinished_races()] == expected
        assert len(expected) == 35 and log.unfinished_race() == expected[0]
    [(plan,)] = [row[3:] for row in _sql(many, "EXPLAIN QUERY PLAN SELECT id FROM races "
                                               "WHERE over = 0 ORDER BY rowid DESC")]
    assert "USING INDEX races_unfinished" in str(plan) and "TEMP B-TREE" not in str(plan)
