"""Every fault of the race log says what it is (issue 13): a kind the app can act on, the path,
a sentence it can translate, and the technical detail; none of them reads "not a race log"
unless the file is not one. Opening a new log from several processes at once is safe."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import socket
import sqlite3
import string
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bench import racegen
from companion.engine import ChooseGear, RaceSetup
from companion.i18n import translation
from companion.session import RaceLog
from companion.storage import (
    DamagedLogError,
    DiskFullError,
    LogLockedError,
    NewerLogError,
    NoLogError,
    NotARaceLogError,
    ReadOnlyError,
    SchemaVersionError,
    StorageError,
    StorageKind,
    errors,
)
from companion.storage.db import NEWEST_SCHEMA_VERSION, EventLog
from companion.storage.lock import LogClaim, holder, lock_path


def _kind(error: pytest.ExceptionInfo[StorageError], kind: StorageKind, path: Path) -> str:
    """The error has the kind and the path; its message is one line."""
    assert error.value.kind is kind, error.value
    assert error.value.path == path
    text = str(error.value)
    assert text.startswith(f"{path}: ") and "\n" not in text
    return text


# --- two processes creating one log ------------------------------------------------------


def test_a_log_being_created_is_waited_for(tmp_path: Path) -> None:
    """Another process has just created the file and holds its write lock (what the first of
    two apps starting at once does): the second waits for it instead of reporting "not a race
    log: database is locked" (the failure behind "a third of tries" in issue 13: SQLite's busy
    handler does not cover switching a new file to WAL)."""
    path = tmp_path / "races.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        with RaceLog(path) as log:
            assert log.races() == []
    finally:
        release.join()
        other.close()


def _create_and_store(path: str, start: Any, results: Any) -> None:
    start.wait()
    try:
        with RaceLog(Path(path)) as log:
            log.new_race(racegen.setup(humans=1, legends=1, laps=1))
        results.put("ok")
    except Exception as error:  # reported to the test, which fails on it
        results.put(f"{type(error).__name__}: {error}")


def test_many_processes_create_one_log_at_once(tmp_path: Path) -> None:
    """Six processes open the same new log at the same moment, eight times over: every one
    opens it and stores its race; the tables are created once."""
    context = multiprocessing.get_context("fork")
    for attempt in range(8):
        path = tmp_path / f"try-{attempt}" / "races.sqlite3"
        start, results = context.Barrier(6), context.Queue()
        workers = [context.Process(target=_create_and_store, args=(str(path), start, results))
                   for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        outcomes = [results.get(timeout=10) for _ in workers]
        assert outcomes == ["ok"] * 6, (attempt, [o for o in outcomes if o != "ok"])
        with RaceLog(path) as log:
            assert len(log.races()) == 6


# --- locked ------------------------------------------------------------------------------


def _write_lock_held_elsewhere(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_locked_log_says_locked(log_path: Path, setup: RaceSetup) -> None:
    with RaceLog(log_path) as log:
        log.new_race(setup, race_id="r1")
    other = _write_lock_held_elsewhere(log_path)
    try:
        stuck = EventLog(log_path, timeout=0.1)
        with pytest.raises(LogLockedError) as info, stuck.transaction():
            pass
        stuck.close()
    finally:
        other.close()
    text = _kind(info, StorageKind.LOCKED, log_path)
    assert "locked by another program" in text and "database is locked" in text
    assert "not a race log" not in text


def test_a_locked_log_names_the_app_that_holds_it(log_path: Path, setup: RaceSetup) -> None:
    """When another copy of the app claimed the log (:mod:`companion.storage.lock`), "database
    is locked" names its process and host."""
    with RaceLog(log_path) as log:
        log.new_race(setup, race_id="r1")
    child = subprocess.Popen([sys.executable, "-c", _HOLD, str(log_path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdin is not None
    other = _write_lock_held_elsewhere(log_path)
    try:
        pid = int(child.stdout.readline())
        stuck = EventLog(log_path, timeout=0.1)
        with pytest.raises(LogLockedError) as info, stuck.transaction():
            pass
        stuck.close()
    finally:
        other.close()
        child.kill()
        child.wait(timeout=30)
    _kind(info, StorageKind.LOCKED, log_path)
    assert info.value.params == {"pid": pid, "host": socket.gethostname()}
    assert info.value.reason == (f"The race log is in use by another copy of heat-companion "
                                 f"(process {pid} on {socket.gethostname()}).")


def test_a_lock_held_while_this_app_holds_the_claim_is_another_program(
        log_path: Path, setup: RaceSetup) -> None:
    """This process holds the claim and some other program holds SQLite's lock: the error
    must not call this very process "another copy of heat-companion"."""
    with RaceLog(log_path) as log:
        log.new_race(setup, race_id="r1")
    other = _write_lock_held_elsewhere(log_path)
    try:
        with LogClaim.take(log_path):
            stuck = EventLog(log_path, timeout=0.1)
            with pytest.raises(LogLockedError) as info, stuck.transaction():
                pass
            stuck.close()
    finally:
        other.close()
    text = _kind(info, StorageKind.LOCKED, log_path)
    assert "pid" not in info.value.params
    assert "locked by another program" in text and str(os.getpid()) not in text


_HOLD = """
import sys
from companion.storage.lock import LogClaim
claim = LogClaim.take(sys.argv[1])
print(claim.holder.pid, flush=True)
sys.stdin.read()
"""


def test_a_second_copy_of_the_app_is_told_which_process_runs(log_path: Path) -> None:
    """Another process holds the claim: taking it fails with its pid and host; once that
    process is gone (however it ended), the claim is free again."""
    child = subprocess.Popen([sys.executable, "-c", _HOLD, str(log_path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdin is not None
    try:
        pid = int(child.stdout.readline())
        with pytest.raises(LogLockedError) as info:
            LogClaim.take(log_path)
        assert info.value.kind is StorageKind.LOCKED
        assert info.value.params == {"pid": pid, "host": socket.gethostname()}
        seen = holder(log_path)
        assert seen is not None and (seen.pid, seen.host) == (pid, socket.gethostname())
    finally:
        child.kill()
        child.wait(timeout=30)
    assert holder(log_path) is None  # the kernel dropped the lock with the process
    with LogClaim.take(log_path) as claim:
        assert claim.held and holder(log_path) is not None
        assert json.loads(lock_path(log_path).read_text())["pid"] == os.getpid()
    assert holder(log_path) is None


# --- disk full ---------------------------------------------------------------------------


def test_a_full_disk_says_full_and_changes_nothing(log_path: Path, setup: RaceSetup) -> None:
    """The log may not grow (SQLite's page limit gives the same SQLITE_FULL a full card does):
    the input is refused with a disk-full error, the session and the log are as they were, and
    once there is room again the same input goes through (the app's Retry)."""
    rng = random.Random(7)
    with RaceLog(log_path) as log:
        race = log.new_race(setup, race_id="r1")
        db = log._log._db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        full: DiskFullError | None = None
        for _ in range(2000):
            action = racegen.next_action(race.state, rng)
            assert action is not None, "the race ended before the page limit was reached"
            before, logged = race.state, race.events_logged
            try:
                race.submit(action)
            except DiskFullError as error:
                full = error
                break
        assert full is not None, "the page limit was never reached"
        assert full.kind is StorageKind.DISK_FULL and full.path == log_path
        assert "storage is full" in str(full) and "full" in full.detail
        assert (race.state, race.events_logged) == (before, logged)
        db.execute("PRAGMA max_page_count = 1000000")
        race.submit(action)
        assert race.events_logged == logged + 1
        after = race.state
    with RaceLog(log_path) as log:
        reopened = log.open_race("r1")
        assert (reopened.state, reopened.events_logged) == (after, logged + 1)


# --- not a race log, newer, damaged --------------------------------------------------------


def test_not_a_database_is_not_a_race_log(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    path.write_bytes(b"this is a text file, not SQLite" * 100)
    for read_only in (False, True):
        with pytest.raises(NotARaceLogError) as info:
            RaceLog(path, read_only=read_only)
        assert isinstance(info.value, SchemaVersionError)  # the old name still catches it
        assert "not a race log" in _kind(info, StorageKind.NOT_A_RACE_LOG, path)


def test_a_newer_log(log_path: Path, setup: RaceSetup) -> None:
    with RaceLog(log_path) as log:
        log.new_race(setup)
    with sqlite3.connect(log_path) as db:
        db.execute("PRAGMA user_version = 9")
    for read_only in (False, True):
        with pytest.raises(NewerLogError) as info:
            RaceLog(log_path, read_only=read_only)
        _kind(info, StorageKind.NEWER_LOG, log_path)
        assert info.value.params == {"version": 9, "newest": NEWEST_SCHEMA_VERSION}


def test_a_newer_or_foreign_log_is_left_exactly_as_it_is(tmp_path: Path) -> None:
    """A log from a newer app, or an SQLite database of some other program, in the rollback
    journal mode: refusing it must not change a byte (not even switch it to WAL)."""
    for name, version, table in (("newer.sqlite3", 9, "races"), ("other.sqlite3", 0, "notes")):
        path = tmp_path / name
        with sqlite3.connect(path) as db:
            db.execute(f"CREATE TABLE {table} (x)")
            db.execute(f"PRAGMA user_version = {version}")
        db.close()
        before = path.read_bytes()
        with pytest.raises((NewerLogError, NotARaceLogError)):
            RaceLog(path)
        assert path.read_bytes() == before, name
        assert not path.with_name(name + "-wal").exists()


def test_no_log_when_reading(tmp_path: Path) -> None:
    with pytest.raises(NoLogError) as info:
        RaceLog(tmp_path / "races.sqlite3", read_only=True)
    _kind(info, StorageKind.NO_LOG, tmp_path / "races.sqlite3")
    assert not (tmp_path / "races.sqlite3").exists()
    (tmp_path / "races.sqlite3").touch()  # a log whose first opening never finished
    with pytest.raises(NoLogError):
        RaceLog(tmp_path / "races.sqlite3", read_only=True)


def damage_schema(path: Path) -> None:
    """Give the events table a name and SQL that are not UTF-8: SQLite's message quotes the
    name, and Python raises UnicodeDecodeError instead of an sqlite3 error."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET name = CAST(X'72ff' AS TEXT), "
               "sql = CAST(X'435245415445205441424c45207261636573ff' AS TEXT) "
               "WHERE name = 'events'")
    db.commit()
    db.close()


def test_a_damaged_schema_with_a_message_that_is_not_utf8(
        log_path: Path, setup: RaceSetup) -> None:
    with RaceLog(log_path) as log:
        log.new_race(setup)
    damage_schema(log_path)
    for read_only in (False, True):
        with pytest.raises(DamagedLogError) as info:
            RaceLog(log_path, read_only=read_only).races()
        text = _kind(info, StorageKind.DAMAGED, log_path)
        assert "malformed database schema (r\\xff)" in text


# --- what the app does with an error ------------------------------------------------------


def test_every_kind_has_a_sentence_in_every_language() -> None:
    """The app shows ``_(error.template).format(**error.params)``: every template of the
    errors module is in the catalogs, and formats with the parameters its class gives."""
    made = [
        errors.DiskFullError(path="/x"), errors.LogLockedError(path="/x"),
        errors.LogLockedError(path="/x", pid=12, host="table-pi"), errors.ReadOnlyError(),
        errors.FolderNotWritableError(), errors.DamagedLogError(), errors.NotARaceLogError(),
        errors.NewerLogError(path="/x", version=3, newest=2), errors.NoLogError(),
        errors.UnknownRaceError("r1"), errors.WriteConflictError("r1", 4),
        errors.CorruptLogError("r1", 4, "bad"), errors.CorruptLogError("r1", None, "bad"),
        errors.StorageError(path="/x"),
    ]
    assert {e.kind for e in made} >= set(StorageKind) - {StorageKind.REFUSED,
                                                         StorageKind.UNKNOWN_SEASON}
    for language in ("zh_TW", "ko"):
        catalog = translation(language)
        for error in made:
            translated = catalog.gettext(error.template)
            assert translated != error.template, (language, error.template)
            text = translated.format(**error.params)
            used = {name for _, name, _, _ in string.Formatter().parse(error.template) if name}
            assert used <= set(error.params), error.template
            for name in used:
                assert str(error.params[name]) in text, (language, text)


def test_read_only_log_refuses_to_write(log_path: Path, setup: RaceSetup) -> None:
    with RaceLog(log_path) as log:
        log.new_race(setup, race_id="r1")
    with RaceLog(log_path, read_only=True) as log:
        assert log.read_only
        race = log.open_race("r1")
        with pytest.raises(ReadOnlyError) as info:
            race.submit(ChooseGear(race.state.order[0], 2))
        _kind(info, StorageKind.READ_ONLY, log_path)
        assert race.events_logged == 0


def test_result_codes_are_sqlites() -> None:
    """errors.py names SQLite's result codes itself (the app imports it before sqlite3)."""
    for name in ("SQLITE_PERM", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_READONLY",
                 "SQLITE_CORRUPT", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_NOTADB"):
        assert getattr(errors, name) == getattr(sqlite3, name), name
