"""The append-only SQLite file: a ``races`` table and an ``events`` table.

* WAL journal, ``synchronous=FULL``: a committed event survives a crash or a power cut.
* One explicit ``BEGIN IMMEDIATE … COMMIT`` per write, rolled back on any error.
* ``events`` has the primary key ``(race_id, seq)``: writing the same seq twice fails
  (:class:`WriteConflictError`), so two writers can never both extend a race.
* The schema version is ``PRAGMA user_version``; a newer one is refused with a clear message.
* ``races`` also caches a summary (rounds completed, over, results), written in the same
  transaction as the event that changed it, so listing races needs no replay.

Every ``sqlite3`` error is raised as a :class:`StorageError`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import (
    CorruptLogError,
    SchemaVersionError,
    StorageError,
    UnknownRaceError,
    WriteConflictError,
)

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


class EventLog:
    """One SQLite file holding every race. Not thread-safe: use it from one thread."""

    def __init__(self, path: Path, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StorageError(f"{self.path}: cannot open: {error}") from error
        try:
            self._configure()
        except BaseException:
            self._db.close()
            raise

    def _configure(self) -> None:
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            raise SchemaVersionError(f"{self.path}: not a race log: {error}") from error
        if str(mode).lower() != "wal":
            raise StorageError(f"{self.path}: cannot switch to WAL journal mode (got {mode})")
        with self.transaction():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > NEWEST_SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path}: written by a newer heat-companion (log schema {version}; "
                    f"this version reads schema {NEWEST_SCHEMA_VERSION} or older). Update the app."
                )
            if version == 0:
                tables = self._db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
                if tables:
                    raise SchemaVersionError(
                        f"{self.path}: not a race log (it has tables but no schema version)")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rollback and a :class:`StorageError` on failure."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: cannot start a write: {error}") from error
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as error:
            if self._db.in_transaction:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise StorageError(f"{self.path}: write failed: {error}") from error
            raise

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
                raise WriteConflictError(
                    f"race {race_id}: event seq {seq} is already in the log "
                    "(another writer is appending to this race)") from cause
            if isinstance(cause, sqlite3.IntegrityError) and "FOREIGN KEY" in str(cause):
                raise UnknownRaceError(race_id) from cause
            raise

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: read failed: {error}") from error


def _race_row(row: Any) -> RaceRow:
    race_id, created, track, setup, track_id, laps, rounds, over, results = row
    try:
        decoded = json.loads(results)
        parsed: Results = tuple((str(c), int(p), int(r)) for c, p, r in decoded)
    except (TypeError, ValueError) as error:
        raise CorruptLogError(str(race_id), None, f"results: cannot read {results!r}") from error
    return RaceRow(
        id=str(race_id), created=str(created), track=str(track), setup=str(setup),
        track_id=str(track_id), laps=int(laps),
        summary=Summary(rounds=int(rounds), over=bool(over), results=parsed),
    )
