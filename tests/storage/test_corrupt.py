"""A log that cannot be read fails loudly, naming the race and the seq; nothing is dropped."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bench import racegen
from companion.engine import RaceSetup
from companion.session import RaceLog
from companion.storage import (
    CorruptLogError,
    FolderNotWritableError,
    SchemaVersionError,
    StorageKind,
)


def _race(log_path: Path, setup: RaceSetup, inputs: int = 12) -> str:
    with RaceLog(log_path) as log:
        race = log.new_race(setup, race_id="r1")
        racegen.drive(race, inputs)
        return race.race_id


def _sql(log_path: Path, statement: str, *params: object) -> None:
    db = sqlite3.connect(log_path)
    db.execute("PRAGMA ignore_check_constraints = ON")
    db.execute(statement, params)
    db.commit()
    db.close()


def _open(log_path: Path, race_id: str = "r1") -> None:
    with RaceLog(log_path) as log:
        log.open_race(race_id)


@pytest.mark.parametrize(("payload", "problem"), [
    ("{not json", "payload is not JSON"),
    ('{"kind": "warp", "car": "red"}', "unknown action kind 'warp'"),
    ('{"kind": "end_turn"}', "expected fields"),
    ('[1, 2]', "must be an object"),
    ('{"kind": "gear", "car": "red", "gear": 9, "clogged": false}', "rejected by the rules"),
    ('{"kind": "gear", "car": "nobody", "gear": 2, "clogged": false}', "rejected by the rules"),
])
def test_bad_input_payload(log_path: Path, setup: RaceSetup, payload: str, problem: str) -> None:
    _race(log_path, setup)
    _sql(log_path, "UPDATE events SET payload = ? WHERE race_id = 'r1' AND seq = 5", payload)
    with pytest.raises(CorruptLogError, match=rf"race r1, event seq 5: .*{problem}") as info:
        _open(log_path)
    assert info.value.race_id == "r1" and info.value.seq == 5


def test_unknown_kind(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "UPDATE events SET kind = 'rewind' WHERE race_id = 'r1' AND seq = 7")
    with pytest.raises(CorruptLogError, match="race r1, event seq 7: unknown event kind 'rewind'"):
        _open(log_path)


def test_undo_with_nothing_to_undo(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "UPDATE events SET kind = 'undo', payload = '{}' WHERE seq = 1")
    # seq 1 undoes nothing; caught before any later input is even looked at
    with pytest.raises(CorruptLogError, match="race r1, event seq 1: undo with nothing to undo"):
        _open(log_path)


def test_redo_with_nothing_to_redo(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "INSERT INTO events VALUES ('r1', 13, 'redo', '{}')")
    with pytest.raises(CorruptLogError, match="race r1, event seq 13: redo with nothing to redo"):
        _open(log_path)


def test_undo_payload_must_be_empty(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "INSERT INTO events VALUES ('r1', 13, 'undo', '{\"x\": 1}')")
    with pytest.raises(CorruptLogError, match="race r1, event seq 13: undo event: payload"):
        _open(log_path)


def test_missing_seq(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "DELETE FROM events WHERE race_id = 'r1' AND seq = 4")
    with pytest.raises(CorruptLogError, match="race r1, event seq 4: missing"):
        _open(log_path)


def test_payload_not_text(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "UPDATE events SET payload = X'7B7D' WHERE seq = 2")
    with pytest.raises(CorruptLogError, match="race r1, event seq 2: payload must be JSON text"):
        _open(log_path)


@pytest.mark.parametrize(("column", "value", "problem"), [
    ("setup", "{}", "missing key"),
    ("setup", '{"laps": null}', "missing key"),
    ("track", '"atlantis"', "unknown track id 'atlantis'"),
    ("track", "{oops", "cannot read the setup"),
])
def test_bad_setup(log_path: Path, setup: RaceSetup, column: str, value: str,
                   problem: str) -> None:
    _race(log_path, setup)
    _sql(log_path, f"UPDATE races SET {column} = ? WHERE id = 'r1'", value)
    with pytest.raises(CorruptLogError, match=rf"^race r1: .*{problem}"):
        _open(log_path)


def test_extra_setup_key_is_rejected(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    with sqlite3.connect(log_path) as db:
        text = db.execute("SELECT setup FROM races").fetchone()[0]
    _sql(log_path, "UPDATE races SET setup = ?", text[:-1] + ',"turbo":true}')
    with pytest.raises(CorruptLogError, match="unknown key 'turbo'"):
        _open(log_path)
    with RaceLog(log_path) as log, pytest.raises(CorruptLogError, match="race r1"):
        log.races()


def test_newer_schema_is_refused(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    _sql(log_path, "PRAGMA user_version = 7")
    with pytest.raises(SchemaVersionError, match="newer heat-companion .*schema 7"):
        RaceLog(log_path)


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    path.write_bytes(b"this is a text file, not SQLite" * 100)
    with pytest.raises(SchemaVersionError, match="not a race log"):
        RaceLog(path)


def test_someone_elses_database(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text)")
    with pytest.raises(SchemaVersionError, match="not a race log"):
        RaceLog(path)


def test_unwritable_place(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(FolderNotWritableError, match="data folder cannot be written") as info:
        RaceLog(blocker / "races.sqlite3")
    assert info.value.kind is StorageKind.FOLDER_NOT_WRITABLE
    assert info.value.path == blocker


def test_double_write_is_refused_by_the_schema(log_path: Path, setup: RaceSetup) -> None:
    _race(log_path, setup)
    with pytest.raises(sqlite3.IntegrityError):
        _sql(log_path, "INSERT INTO events VALUES ('r1', 3, 'undo', '{}')")
