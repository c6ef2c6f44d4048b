"""The append-only SQLite file: a ``races`` table and an ``events`` table.

* WAL journal, ``synchronous=FULL``: a committed event survives a crash or a power cut.
* One explicit ``BEGIN IMMEDIATE … COMMIT`` per write, rolled back on any error.
* ``events`` has the primary key ``(race_id, seq)``: writing the same seq twice fails
  (:class:`WriteConflictError`), so two writers can never both extend a race.
* The schema version is ``PRAGMA user_version``; a newer one is refused with a clear message.
* ``races`` also caches a summary (rounds completed, over, results), written in the same
  transaction as the event that changed it, so listing races needs no replay.

* Opening is safe when several processes open a new log at the same moment: SQLite's lock
  makes one of them create the tables, and the steps its busy handler does not cover (switching
  a new file to WAL) are tried again until the timeout.
* ``EventLog(path, read_only=True)`` reads a log without writing anything, on read-only storage
  too (the reading commands and the app's view of read-only storage).

Every ``sqlite3`` error is raised as a :class:`StorageError` of the kind it is (disk full,
locked, read-only, damaged, not a race log…: :mod:`.errors`).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from . import lock
from .errors import (
    CorruptLogError,
    FolderNotWritableError,
    NewerLogError,
    NoLogError,
    NotARaceLogError,
    ReadOnlyError,
    StorageError,
    UnknownRaceError,
    WriteConflictError,
    from_os,
    from_sqlite,
    is_busy,
    sqlite_code,
)

T = TypeVar("T")

SCHEMA_VERSION = 1
NEWEST_SCHEMA_VERSION = 2
"""Schema 2 adds the Championship tables; ``storage/seasons.py`` migrates 1 -> 2 on first use."""

_SCHEMA = """
CREATE TABLE races (
    id TEXT PRIMARY KEY NOT NULL,
    created TEXT NOT NULL,
    track TEXT NOT NULL,                 -- JSON: a bundled track id or an inline track object
    setup TEXT NOT NULL,                 -- JSON: cars, laps, seed, Legends options
    track_id TEXT NOT NULL,
    laps INTEGER NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0,   -- summary, kept in step with the events
    over INTEGER NOT NULL DEFAULT 0,
    results TEXT NOT NULL DEFAULT '[]'   -- JSON: [[car, place, round], ...]
);
CREATE TABLE events (
    race_id TEXT NOT NULL REFERENCES races(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('input', 'undo', 'redo')),
    payload TEXT NOT NULL,               -- JSON: the action of an input, {} for undo/redo
    PRIMARY KEY (race_id, seq)
) WITHOUT ROWID;
"""

Results = tuple[tuple[str, int, int], ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """The cached progress of a race: rounds completed, over, results ``(car, place, round)``."""

    rounds: int = 0
    over: bool = False
    results: Results = ()


@dataclass(frozen=True, slots=True)
class RaceRow:
    id: str
    created: str
    track: str
    """JSON text."""
    setup: str
    """JSON text."""
    track_id: str
    laps: int
    summary: Summary


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: Any
    """As stored; normally one of ``input``, ``undo``, ``redo``."""
    payload: Any


def _writable(path: Path) -> bool:
    """Whether this process may write ``path`` (a read-only mount says no even to root). A
    seam for tests, which run as root: root may write any file on a writable mount."""
    return os.access(path, os.W_OK)


class EventLog:
    """One SQLite file holding every race. Not thread-safe: use it from one thread.

    Opened to write (the default), the file and its folder are created if need be; several
    processes may open a new log at the same moment, and exactly one of them creates the
    tables. Opened with ``read_only=True``, nothing is ever written, and the log can be read
    on read-only storage too (see :meth:`_open_to_read`).

    :raises StorageError: one of its kinds (:mod:`.errors`) when the log cannot be opened.
    """

    def __init__(self, path: Path, *, timeout: float = 5.0, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._timeout = timeout
        self._snapshot: Path | None = None
        self._db = self._open_to_read() if read_only else self._open_to_write()

    # --- opening ------------------------------------------------------------------------------

    def _fault(self, error: sqlite3.Error | UnicodeDecodeError) -> StorageError:
        """The StorageError for an sqlite3 error on this log, naming the app that holds the log
        when it is locked and that app said who it is (:mod:`.lock`)."""
        owner = lock.holder(self.path) if is_busy(error) else None
        return from_sqlite(error, self.path,
                           holder=(owner.pid, owner.host) if owner is not None else None)

    def _patiently(self, step: Callable[[], T]) -> T:
        """``step()``, tried again while another connection holds a lock it needs (up to the
        timeout): SQLite's busy handler does not cover every step of opening a log, such as
        switching a brand-new file to WAL while another process does the same."""
        deadline = time.monotonic() + self._timeout
        pause = 0.005
        while True:
            try:
                return step()
            except (sqlite3.Error, UnicodeDecodeError) as error:
                if not is_busy(error) or time.monotonic() >= deadline:
                    raise self._fault(error) from error
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def _open_to_write(self) -> sqlite3.Connection:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            exists = self.path.exists()
        except OSError as error:
            raise from_os(error, folder, folder=True) from error
        if exists and not (_writable(self.path) and _writable(folder)):
            raise ReadOnlyError(path=self.path, detail="the log or its folder is not writable")
        if not exists and not _writable(folder):
            raise FolderNotWritableError(path=folder, detail="the folder is not writable")
        try:
            db = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
        except sqlite3.Error as error:
            if not exists and sqlite_code(error) == sqlite3.SQLITE_CANTOPEN:
                raise FolderNotWritableError(path=folder, detail=str(error)) from error
            raise self._fault(error) from error
        self._db = db
        try:
            self._configure()
        except BaseException:
            db.close()
            raise
        return db

    def _configure(self) -> None:
        mode = self._patiently(
            lambda: self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        if str(mode).lower() != "wal":
            raise StorageError(path=self.path,
                               detail=f"cannot switch to WAL journal mode (got {mode})")
        try:
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error
        version = self._patiently(
            lambda: self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > NEWEST_SCHEMA_VERSION:
            raise NewerLogError(path=self.path, version=version, newest=NEWEST_SCHEMA_VERSION)
        if version != 0:
            return  # no write lock needed: a writer busy elsewhere does not stop an opening
        with self.transaction():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                if self._tables():
                    raise NotARaceLogError(path=self.path,
                                           detail="it has tables but no schema version")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _tables(self) -> list[str]:
        return [str(name) for (name,) in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]

    def _open_to_read(self) -> sqlite3.Connection:
        """Open the log read-only (``mode=ro``): nothing is written, not even the WAL index.

        On read-only storage SQLite cannot open a WAL log that way, because a reader must be
        able to create or write the ``-shm`` index beside it. Then, if no ``-wal`` file holds
        committed changes, the file alone is the whole log and is opened ``immutable=1``;
        if one does (the app was stopped without closing the log), the log and its ``-wal``
        are copied to a private temporary folder and the copy is read, so nothing committed
        is left out.
        """
        try:
            os.stat(self.path)
        except FileNotFoundError as error:
            raise NoLogError(path=self.path) from error
        except OSError as error:
            raise from_os(error, self.path, folder=False) from error
        uri = self.path.resolve().as_uri()
        try:
            self._db = self._probe(f"{uri}?mode=ro", uri=True)
        except (sqlite3.Error, UnicodeDecodeError) as error:
            if sqlite_code(error) not in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY):
                raise self._fault(error) from error
            self._db = self._open_unshared(uri)
        try:
            self._check_readable()
        except BaseException:
            self.close()
            raise
        return self._db

    def _probe(self, target: str, *, uri: bool) -> sqlite3.Connection:
        db = sqlite3.connect(target, uri=uri, timeout=self._timeout, isolation_level=None)
        try:
            db.execute("PRAGMA query_only = 1")
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _open_unshared(self, uri: str) -> sqlite3.Connection:
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            pending = wal.exists() and wal.stat().st_size > 0
            if pending:
                self._snapshot = Path(tempfile.mkdtemp(prefix="heat-companion-log-"))
                copy = self._snapshot / self.path.name
                shutil.copyfile(self.path, copy)
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        except OSError as error:
            self._drop_snapshot()
            raise from_os(error, self.path, folder=False) from error
        try:
            if self._snapshot is not None:
                return self._probe(str(self._snapshot / self.path.name), uri=False)
            return self._probe(f"{uri}?mode=ro&immutable=1", uri=True)
        except (sqlite3.Error, UnicodeDecodeError) as error:
            self._drop_snapshot()
            raise self._fault(error) from error

    def _check_readable(self) -> None:
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = self._tables()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error
        if version > NEWEST_SCHEMA_VERSION:
            raise NewerLogError(path=self.path, version=version, newest=NEWEST_SCHEMA_VERSION)
        if version == 0 and tables:
            raise NotARaceLogError(path=self.path, detail="it has tables but no schema version")
        if version == 0:  # an empty file: a log whose first opening never finished
            raise NoLogError(path=self.path, detail="the file is empty")

    def _drop_snapshot(self) -> None:
        if self._snapshot is not None:
            shutil.rmtree(self._snapshot, ignore_errors=True)
            self._snapshot = None

    @property
    def snapshot(self) -> bool:
        """True when reading a private copy of a log on read-only storage (see
        :meth:`_open_to_read`): what the log held when it was opened."""
        return self._snapshot is not None

    @property
    def schema_version(self) -> int:
        return int(self._read("PRAGMA user_version", ())[0][0])

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._db.close()
        self._drop_snapshot()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rollback and a :class:`StorageError` on failure.

        :raises ReadOnlyError: the log was opened read-only.
        """
        if self.read_only:
            raise ReadOnlyError(path=self.path, detail="the log was opened to read only")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as error:
            if self._db.in_transaction:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error | UnicodeDecodeError):
                raise self._fault(error) from error
            raise

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read transaction (``BEGIN`` … ``COMMIT``): several queries see one state of the
        log. Works on a log opened read-only too."""
        try:
            self._db.execute("BEGIN")
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error
        try:
            yield self._db
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error
        finally:
            if self._db.in_transaction:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")

    # --- races --------------------------------------------------------------------------------

    def create_race(self, row: RaceRow) -> bool:
        """Insert a new race; False if the id is already taken."""
        try:
            with self.transaction() as db:
                db.execute(
                    "INSERT INTO races (id, created, track, setup, track_id, laps) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (row.id, row.created, row.track, row.setup, row.track_id, row.laps),
                )
        except StorageError as error:
            if isinstance(error.__cause__, sqlite3.IntegrityError):
                return False
            raise
        return True

    def race(self, race_id: str) -> RaceRow:
        rows = self._read(
            "SELECT id, created, track, setup, track_id, laps, rounds, over, results "
            "FROM races WHERE id = ?", (race_id,))
        if not rows:
            raise UnknownRaceError(race_id)
        return _race_row(rows[0])

    def races(self) -> list[RaceRow]:
        """Every race, most recently created first."""
        rows = self._read(
            "SELECT id, created, track, setup, track_id, laps, rounds, over, results "
            "FROM races ORDER BY rowid DESC", ())
        return [_race_row(row) for row in rows]

    def race_ids(self) -> list[str]:
        """Every race id, most recently created first."""
        return [str(race_id) for (race_id,) in self._read(
            "SELECT id FROM races ORDER BY rowid DESC", ())]

    def unfinished(self) -> str | None:
        rows = self._read("SELECT id FROM races WHERE over = 0 ORDER BY rowid DESC LIMIT 1", ())
        return str(rows[0][0]) if rows else None

    def delete_race(self, race_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM events WHERE race_id = ?", (race_id,))
            if db.execute("DELETE FROM races WHERE id = ?", (race_id,)).rowcount == 0:
                raise UnknownRaceError(race_id)

    # --- events -------------------------------------------------------------------------------

    def events(self, race_id: str) -> list[EventRow]:
        rows = self._read(
            "SELECT seq, kind, payload FROM events WHERE race_id = ? ORDER BY seq", (race_id,))
        return [EventRow(seq, kind, payload) for seq, kind, payload in rows]

    def append(
        self, race_id: str, seq: int, kind: str, payload: str, summary: Summary | None = None
    ) -> None:
        """Append one event, and the new summary if it changed, in one durable transaction.

        :raises WriteConflictError: the race already has an event ``seq``.
        """
        try:
            with self.transaction() as db:
                db.execute(
                    "INSERT INTO events (race_id, seq, kind, payload) VALUES (?, ?, ?, ?)",
                    (race_id, seq, kind, payload),
                )
                if summary is not None:
                    db.execute(
                        "UPDATE races SET rounds = ?, over = ?, results = ? WHERE id = ?",
                        (summary.rounds, int(summary.over),
                         json.dumps([list(r) for r in summary.results]), race_id),
                    )
        except StorageError as error:
            cause = error.__cause__
            if isinstance(cause, sqlite3.IntegrityError) and "UNIQUE" in str(cause):
                raise WriteConflictError(race_id, seq, path=self.path) from cause
            if isinstance(cause, sqlite3.IntegrityError) and "FOREIGN KEY" in str(cause):
                raise UnknownRaceError(race_id) from cause
            raise

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error


def _whole(race_id: str, field: str, value: object) -> int:
    """A stored whole number (SQLite keeps whatever it is given, even text in an INTEGER
    column); :class:`CorruptLogError` naming the race and the field if it is not one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise CorruptLogError(race_id, None, f"{field}: {value!r} is not a whole number")


def _race_row(row: Any) -> RaceRow:
    race_id, created, track, setup, track_id, laps, rounds, over, results = row
    race = str(race_id)
    try:
        decoded = json.loads(results)
        parsed: Results = tuple((str(c), int(p), int(r)) for c, p, r in decoded)
    except (TypeError, ValueError, RecursionError) as error:
        raise CorruptLogError(race, None, f"results: cannot read {results!r}") from error
    return RaceRow(
        id=race, created=str(created), track=str(track), setup=str(setup),
        track_id=str(track_id), laps=_whole(race, "laps", laps),
        summary=Summary(rounds=_whole(race, "rounds", rounds),
                        over=bool(_whole(race, "over", over)), results=parsed),
    )
