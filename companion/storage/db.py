"""The append-only SQLite file: a ``races`` table and an ``events`` table.

* WAL journal, ``synchronous=FULL``: a committed event survives a crash or a power cut.
* One explicit ``BEGIN IMMEDIATE … COMMIT`` per write, rolled back on any error.
* ``events`` has the primary key ``(race_id, seq)``: writing the same seq twice fails
  (:class:`WriteConflictError`), so two writers can never both extend a race.
* The schema version is ``PRAGMA user_version`` (:mod:`.schema`); a log opened to write is
  brought to the newest one in one transaction, a newer one is refused with a clear message.
* ``races`` also caches a summary (rounds completed, over, results), written in the same
  transaction as the event that changed it, so listing races needs no replay; the event that
  finishes a race also stores its full result in ``race_results`` (:mod:`.results`).

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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from . import lock, schema
from .errors import (
    CorruptLogError,
    FinishStandsError,
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

NEWEST_SCHEMA_VERSION = schema.NEWEST
"""The newest schema this code reads and writes (:mod:`.schema` lists every version)."""
SCHEMA_VERSION = NEWEST_SCHEMA_VERSION
"""The schema of a log created now."""
RESULTS_SCHEMA_VERSION = 3
"""The first schema with the ``race_results`` table."""

_SCHEMA = schema.SCHEMA_1
"""The tables of schema 1 (the race log alone), as the first logs were created."""

Results = tuple[tuple[str, int, int], ...]
Linked = Callable[[sqlite3.Connection, str], object]
"""What :meth:`EventLog.create_race` runs in the transaction that stores a race (its id given)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """The cached progress of a race: rounds completed, over, results ``(car, place, round)``."""

    rounds: int = 0
    over: bool = False
    results: Results = ()
    outcome: str | None = field(default=None, compare=False)
    """Of a race that is over: its full result as ``race_results`` stores it (JSON,
    :func:`companion.storage.results.summary_of`); never read back from ``races``."""


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
class StoredResult:
    """A ``race_results`` row, as stored (any column may be damaged)."""

    version: Any
    seq: Any
    fingerprint: str
    result: str


@dataclass(frozen=True, slots=True)
class ResultSource:
    """One race as :meth:`EventLog.result_sources` reads it."""

    race_id: str
    over: bool
    """The ``races`` summary's flag (kept in step with the events)."""
    track: str
    setup: str
    seq: int
    """The race's last event (0: none yet), with its ``kind`` and ``payload`` as stored."""
    kind: str
    payload: str
    stored: StoredResult | None


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
        self._has_results: bool | None = None
        self._folding = False
        self._db = self._open_to_read() if read_only else self._open_to_write()

    # --- opening ------------------------------------------------------------------------------

    def _fault(self, error: sqlite3.Error | UnicodeDecodeError) -> StorageError:
        """The StorageError for an sqlite3 error on this log, naming the app that holds the log
        when it is locked and that app said who it is (:mod:`.lock`); never this process itself,
        whose own claim does not make a lock held by some other program "another copy"."""
        owner = lock.other_holder(self.path) if is_busy(error) else None
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
        # The version and tables are read before anything is written: a log from a newer app,
        # or a database that is not a race log, must be left exactly as it is (switching it to
        # WAL would change its header).
        version, tables = self._patiently(self._header)
        if version > NEWEST_SCHEMA_VERSION:
            raise NewerLogError(path=self.path, version=version, newest=NEWEST_SCHEMA_VERSION)
        if version == 0 and tables:
            raise NotARaceLogError(path=self.path, detail="it has tables but no schema version")
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
        if version == NEWEST_SCHEMA_VERSION:
            return  # no write lock needed: a writer busy elsewhere does not stop an opening
        with self.transaction():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > NEWEST_SCHEMA_VERSION:  # a newer app migrated it meanwhile
                raise NewerLogError(path=self.path, version=version,
                                    newest=NEWEST_SCHEMA_VERSION)
            if version == 0 and self._tables():
                raise NotARaceLogError(path=self.path,
                                       detail="it has tables but no schema version")
            schema.migrate(self._db)

    def _header(self) -> tuple[int, list[str]]:
        """The schema version and the tables, read in one read transaction: read apart, another
        process creating the log could commit in between, and a log caught between "version 0"
        and "it has tables" would be taken for another program's database."""
        self._db.execute("BEGIN")
        try:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            tables = self._tables()
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return version, tables

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

    def create_race(self, row: RaceRow, then: Linked | None = None) -> bool:
        """Insert a new race; False if the id is already taken. ``then(db, race_id)`` runs in
        the same transaction once the row is in (linking it to its season, ending the draft
        it comes from): if it raises, the race is not stored either."""
        with self.transaction() as db:
            try:
                db.execute(
                    "INSERT INTO races (id, created, track, setup, track_id, laps) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (row.id, row.created, row.track, row.setup, row.track_id, row.laps),
                )
            except sqlite3.IntegrityError:
                return False  # the id is taken: nothing written (the empty transaction ends)
            if then is not None:
                then(db, row.id)
        return True

    def race(self, race_id: str) -> RaceRow:
        rows = self._read(
            "SELECT id, created, track, setup, track_id, laps, rounds, over, results "
            "FROM races WHERE id = ?", (race_id,))
        if not rows:
            raise UnknownRaceError(race_id)
        return _race_row(rows[0])

    def races(self, *, unfinished: bool = False) -> list[RaceRow]:
        """Every race (or every race not over), most recently created first."""
        rows = self._read(
            "SELECT id, created, track, setup, track_id, laps, rounds, over, results "
            f"FROM races {'WHERE over = 0 ' if unfinished else ''}ORDER BY rowid DESC", ())
        return [_race_row(row) for row in rows]

    def race_page(
        self, *, before: int | None = None, limit: int = 30, text: str = "",
        track_ids: Sequence[str] = (),
    ) -> list[tuple[int, RaceRow]]:
        """Up to ``limit`` races created before the race at position ``before`` (None: from
        the newest), most recent first, each with its position (to ask for the next page).

        With ``text``, only the races with a driver whose name contains it, or created on a
        date that starts with it, or on one of ``track_ids`` (the tracks whose name matches
        it in the player's language; the caller knows the names). Costs a page, not the log:
        rows are read by position (``rowid``) from an index, and a race's setup is searched
        in SQL (a setup that is not JSON matches by track or date only)."""
        where: list[str] = []
        params: list[Any] = []
        if before is not None:
            where.append("rowid < ?")
            params.append(before)
        if text:
            self._fold_function()
            escaped = text.casefold().replace("\\", "\\\\").replace("%", "\\%").replace(
                "_", "\\_")
            found = ["created LIKE ? ESCAPE '\\'",
                     "EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(setup) THEN setup "
                     "ELSE '{}' END, '$.cars') AS car WHERE "
                     "heat_casefold(json_extract(car.value, '$.name')) LIKE ? ESCAPE '\\')"]
            params += [escaped + "%", "%" + escaped + "%"]
            if track_ids:
                found.append(f"track_id IN ({', '.join('?' * len(track_ids))})")
                params += list(track_ids)
            where.append("(" + " OR ".join(found) + ")")
        rows = self._read(
            "SELECT rowid, id, created, track, setup, track_id, laps, rounds, over, results "
            f"FROM races {'WHERE ' + ' AND '.join(where) if where else ''} "
            "ORDER BY rowid DESC LIMIT ?", (*params, limit))
        return [(int(row[0]), _race_row(row[1:])) for row in rows]

    def _fold_function(self) -> None:
        """``heat_casefold(text)`` in SQL: Python's ``str.casefold`` (SQLite's ``LIKE`` folds
        ASCII letters only), so a search finds "Zoë" as "ZOË" too."""
        if not self._folding:
            self._db.create_function("heat_casefold", 1, _casefold, deterministic=True)
            self._folding = True

    def race_ids(self) -> list[str]:
        """Every race id, most recently created first."""
        return [str(race_id) for (race_id,) in self._read(
            "SELECT id FROM races ORDER BY rowid DESC", ())]

    def unfinished(self) -> str | None:
        rows = self._read("SELECT id FROM races WHERE over = 0 ORDER BY rowid DESC LIMIT 1", ())
        return str(rows[0][0]) if rows else None

    def delete_race(self, race_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM race_results WHERE race_id = ?", (race_id,))
            db.execute("DELETE FROM events WHERE race_id = ?", (race_id,))
            if db.execute("DELETE FROM races WHERE id = ?", (race_id,)).rowcount == 0:
                raise UnknownRaceError(race_id)

    # --- events -------------------------------------------------------------------------------

    def events(self, race_id: str) -> list[EventRow]:
        rows = self._read(
            "SELECT seq, kind, payload FROM events WHERE race_id = ? ORDER BY seq", (race_id,))
        return [EventRow(seq, kind, payload) for seq, kind, payload in rows]

    def append_many(self, race_id: str, events: Sequence[tuple[int, str, str]],
                    summary: Summary | None = None) -> None:
        """Append ``events`` (``(seq, kind, payload)``, in order), and the summary after the
        last of them if it changed, in one durable transaction: all of them are recorded, or
        none.

        A summary of a race that is over comes with its result (``summary.outcome``), stored in
        ``race_results`` with the fingerprint of the last event
        (:func:`.schema.result_fingerprint`); a summary of a race that is not over (an undo of
        its last input) removes it.

        :raises WriteConflictError: the race already has one of the events' ``seq``.
        :raises FinishStandsError: the events make a finished season race unfinished after
            something was begun from its result (:meth:`followed`); nothing is written.
        """
        if not events:
            raise ValueError("append_many: no events")
        seq = events[0][0]
        try:
            with self.transaction() as db:
                for seq, kind, payload in events:  # (seq: the one a conflict names)
                    db.execute(
                        "INSERT INTO events (race_id, seq, kind, payload) VALUES (?, ?, ?, ?)",
                        (race_id, seq, kind, payload),
                    )
                if summary is not None:
                    if not summary.over:
                        self._check_unfinish(db, race_id)  # (before the row says so)
                    db.execute(
                        "UPDATE races SET rounds = ?, over = ?, results = ? WHERE id = ?",
                        (summary.rounds, int(summary.over),
                         json.dumps([list(r) for r in summary.results]), race_id),
                    )
                    if summary.over and summary.outcome is not None:
                        self._store_result(db, race_id, *events[-1], summary.outcome)
                    elif not summary.over:
                        db.execute("DELETE FROM race_results WHERE race_id = ?", (race_id,))
        except StorageError as error:
            cause = error.__cause__
            if isinstance(cause, sqlite3.IntegrityError) and "UNIQUE" in str(cause):
                raise WriteConflictError(race_id, seq, path=self.path) from cause
            if isinstance(cause, sqlite3.IntegrityError) and "FOREIGN KEY" in str(cause):
                raise UnknownRaceError(race_id) from cause
            raise

    def _check_unfinish(self, db: sqlite3.Connection, race_id: str) -> None:
        """A race that is over made unfinished (an undo of the input that finished it): refused
        when something was begun from its result (:meth:`followed`)."""
        was = db.execute("SELECT over FROM races WHERE id = ?", (race_id,)).fetchone()
        if not was or not was[0]:
            return
        tables = self._table_names(db)
        after = self._followed(db, race_id, tables)
        if after is not None:
            raise FinishStandsError(race_id, *after)
        # a later race's Garage draft opened and nothing picked yet was dealt from this
        # result (its pick order): set aside with the undo, in its transaction, so that the
        # next Garage draft is dealt from the result of then (an opened draft blocked the
        # undo, though nothing had been chosen in it and it could not be closed: found by a
        # table test)
        link = self._season_link(db, race_id, tables)
        if link is not None and "drafts" in tables:
            db.execute("UPDATE drafts SET state = 'abandoned' WHERE season_id = ? AND "
                       "race_no > ? AND state = 'open'", link)

    def followed(self, race_id: str) -> tuple[str, int] | None:
        """What was begun from a season race's result, so that it stands (an undo may not
        make the race unfinished): ``("race", n)``, race n of its season has started;
        ``("draft", n)``, the Garage draft of race n is under way; None: nothing (or a race
        of no season)."""
        with self.reading() as db:
            return self._followed(db, race_id, self._table_names(db))

    @staticmethod
    def _table_names(db: sqlite3.Connection) -> set[str]:
        return {str(row[0]) for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    @staticmethod
    def _season_link(db: sqlite3.Connection, race_id: str,
                     tables: set[str]) -> tuple[str, int] | None:
        """``(season_id, race_no)`` of a season race, None for a race of no season
        (``tables``: the log's, :meth:`_table_names`)."""
        if "season_races" not in tables:
            return None
        link = db.execute("SELECT season_id, race_no FROM season_races WHERE race_id = ?",
                          (race_id,)).fetchone()
        return None if link is None else (str(link[0]), int(link[1]))

    def _followed(self, db: sqlite3.Connection, race_id: str,
                  tables: set[str]) -> tuple[str, int] | None:
        link = self._season_link(db, race_id, tables)
        if link is None:
            return None
        later = db.execute("SELECT MIN(race_no) FROM season_races WHERE season_id = ? AND "
                           "race_no > ?", link).fetchone()
        if later is not None and later[0] is not None:
            return "race", int(later[0])
        if "drafts" not in tables:
            return None
        # a draft under way is one with a pick (a swap, No swap) in effect: one opened with
        # nothing chosen is set aside by the undo (_check_unfinish)
        draft = db.execute("SELECT MIN(d.race_no) FROM drafts d WHERE d.season_id = ? AND "
                           "d.race_no > ? AND d.state = 'open' AND "
                           f"{schema.DRAFT_INPUTS_IN_EFFECT} > 0", link).fetchone()
        if draft is not None and draft[0] is not None:
            return "draft", int(draft[0])
        return None

    # --- stored results (derived data: storage/results.py) ------------------------------------

    @property
    def has_results(self) -> bool:
        """Whether the log has the ``race_results`` table (a log opened to read only may be of
        an older schema; one opened to write has been brought to the newest)."""
        if self._has_results is None:
            self._has_results = self.schema_version >= RESULTS_SCHEMA_VERSION
        return self._has_results

    def result_sources(self, race_ids: Sequence[str]) -> dict[str, ResultSource]:
        """What deciding whether each race's stored result is fresh takes: its ``races`` row,
        its last event and its ``race_results`` row (one query per 500 races, each row found
        by key: the cost of the races asked for, not of the log)."""
        stored = "x.version, x.seq, x.fingerprint, x.result" if self.has_results else \
            "NULL, NULL, NULL, NULL"
        join = "LEFT JOIN race_results x ON x.race_id = r.id" if self.has_results else ""
        out: dict[str, ResultSource] = {}
        ids = list(dict.fromkeys(race_ids))
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            rows = self._read(
                "SELECT r.id, r.over, r.track, r.setup, e.seq, e.kind, e.payload, "
                f"{stored} FROM races r LEFT JOIN events e ON e.race_id = r.id AND e.seq = "
                "(SELECT MAX(seq) FROM events WHERE race_id = r.id) "
                f"{join} WHERE r.id IN ({', '.join('?' * len(chunk))})", tuple(chunk))
            for (race_id, over, track, setup, seq, kind, payload,
                 version, stored_seq, fingerprint, result) in rows:
                out[str(race_id)] = ResultSource(
                    race_id=str(race_id), over=bool(_whole(str(race_id), "over", over)),
                    track=str(track), setup=str(setup), seq=seq if isinstance(seq, int) else 0,
                    kind=str(kind), payload=str(payload),
                    stored=None if version is None else StoredResult(
                        version, stored_seq, str(fingerprint), str(result)))
        return out

    def store_results(self, rows: Sequence[tuple[ResultSource, str]]) -> None:
        """Store results rebuilt from the log (one transaction): each ``(source, result)`` is
        written only if the race's last event is still the one ``source`` read."""
        with self.transaction() as db:
            for source, result in rows:
                last = db.execute("SELECT MAX(seq) FROM events WHERE race_id = ?",
                                  (source.race_id,)).fetchone()[0]
                if (last or 0) == source.seq:
                    self._store_result(db, source.race_id, source.seq, source.kind,
                                       source.payload, result)

    @staticmethod
    def _store_result(db: sqlite3.Connection, race_id: str, seq: int, kind: str, payload: str,
                      result: str) -> None:
        row = db.execute("SELECT track, setup FROM races WHERE id = ?", (race_id,)).fetchone()
        if row is None:
            return
        fingerprint = schema.result_fingerprint(str(row[0]), str(row[1]), seq, kind, payload,
                                                result)
        db.execute("INSERT OR REPLACE INTO race_results (race_id, version, seq, fingerprint, "
                   "result) VALUES (?, ?, ?, ?, ?)",
                   (race_id, schema.RESULTS_VERSION, seq, fingerprint, result))

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._fault(error) from error


def _casefold(value: object) -> str | None:
    return value.casefold() if isinstance(value, str) else None


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
