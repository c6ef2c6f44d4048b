"""The tables of the race log, version by version, and the migrations between versions.

The version is ``PRAGMA user_version``. A new log is created at version 1 and migrated step by
step to :data:`NEWEST`, so a new log and an upgraded one are the same; a log opened to write
is migrated in one transaction (:meth:`~companion.storage.db.EventLog` does it). A log opened to
read only is never changed: readers cope with every version from 1 to :data:`NEWEST`.

* **1**: ``races`` (one row per race, with its setup and a summary kept in step with its events)
  and ``events`` (the append-only log).
* **2**: ``seasons`` and ``season_races`` (the Championship, :mod:`.seasons`).
* **3**: ``race_results``: the result of every finished race (finishing order, cars eliminated
  or still racing, Sponsorship cards won), derived from its events and stored so that standings,
  seasons and the next race need no replay (:mod:`.results`). Derived data, never the source of
  truth: a missing or stale row is rebuilt from the log. And an index of the races not over,
  so that finding them reads those races only.
* **4**: ``drafts`` and ``draft_inputs``: the Garage draft before a race, recorded pick by pick
  (:mod:`.drafts`), so that a draft cut short by a power cut goes on where it was. A draft
  ends when it becomes its race (in the transaction that stores the race) or is abandoned.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable

SCHEMA_1 = """
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

SCHEMA_2 = """
CREATE TABLE seasons (
    id TEXT PRIMARY KEY NOT NULL,
    created TEXT NOT NULL,
    definition TEXT NOT NULL,            -- JSON: heat-season/1 document (docs/championship.md)
    cars TEXT NOT NULL,                  -- JSON: [{id, name, legend, handicap}, ...]
    options TEXT NOT NULL                -- JSON: {legend_bonus, aggressive_legends}
);
CREATE TABLE season_races (
    season_id TEXT NOT NULL REFERENCES seasons(id),
    race_no INTEGER NOT NULL CHECK (race_no >= 1),
    race_id TEXT NOT NULL UNIQUE REFERENCES races(id),
    PRIMARY KEY (season_id, race_no)
) WITHOUT ROWID;
"""

SCHEMA_3 = """
CREATE TABLE race_results (
    race_id TEXT PRIMARY KEY NOT NULL REFERENCES races(id),
    version INTEGER NOT NULL,            -- results.RESULTS_VERSION of the code that derived it
    seq INTEGER NOT NULL,                -- the race's last event when it was derived
    fingerprint TEXT NOT NULL,           -- sha256 of the race's track, setup and that event
    result TEXT NOT NULL                 -- JSON: {order, eliminated, unfinished, sponsors}
) WITHOUT ROWID;
CREATE INDEX races_unfinished ON races (over) WHERE over = 0;  -- Continue: no scan of history
"""

SCHEMA_4 = """
CREATE TABLE drafts (
    id TEXT PRIMARY KEY NOT NULL,
    created TEXT NOT NULL,
    season_id TEXT REFERENCES seasons(id),  -- a season race's draft (NULL: a single race's)
    race_no INTEGER,                        -- the season race it is the draft of
    track_id TEXT NOT NULL,                 -- the race it sets up, for the list of drafts
    laps INTEGER NOT NULL,
    cars TEXT NOT NULL,                     -- JSON: [{id, name, legend}, ...] in grid order
    start TEXT NOT NULL,                    -- JSON: what the draft began from (its setup, deal)
    state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'race', 'abandoned')),
    race_id TEXT                            -- the race it became (state 'race')
);
CREATE TABLE draft_inputs (
    draft_id TEXT NOT NULL REFERENCES drafts(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    payload TEXT NOT NULL,                  -- JSON: one accepted input (a pick, a swap...)
    PRIMARY KEY (draft_id, seq)
) WITHOUT ROWID;
CREATE INDEX drafts_open ON drafts (state) WHERE state = 'open';  -- Continue: no scan
"""

NEWEST = 4
"""The newest schema version this code reads and writes."""

RESULTS_VERSION = 2
"""What a ``race_results`` row holds and how it is derived from the race's final state
(``storage/results.py``). Bump it when either changes (or when a change of the rules would
give a stored race another result): every stored result then reads as stale and is rebuilt
from its log the next time it is needed. 2: the eliminated cars the later-eliminated first (1
listed them in grid order)."""


def result_fingerprint(track: str, setup: str, seq: int, kind: str, payload: str,
                       result: str) -> str:
    """The ``race_results.fingerprint`` of a result derived from a race whose ``races`` row
    has ``track`` and ``setup`` and whose last event is ``seq`` (``kind``, ``payload``): a
    result is fresh when the log still gives this fingerprint. The log is append-only and
    ``(race_id, seq)`` is its primary key, so an event added after the result (an undo, an
    input written by other software) changes ``seq``; a changed setup or a damaged result
    row changes the hash."""
    digest = hashlib.sha256()
    for part in (f"heat-companion results/{RESULTS_VERSION}", track, setup, str(seq), kind,
                 payload, result):
        digest.update(str(part).encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def _run(db: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def create(db: sqlite3.Connection) -> None:
    """Version 1 in an empty file. Run inside the caller's transaction."""
    _run(db, SCHEMA_1)
    db.execute("PRAGMA user_version = 1")


def to_2(db: sqlite3.Connection) -> None:
    """1 -> 2: the Championship tables. Run inside the caller's transaction."""
    _run(db, SCHEMA_2)
    db.execute("PRAGMA user_version = 2")


def to_3(db: sqlite3.Connection) -> None:
    """2 -> 3: the table of stored race results, empty: the result of a race finished before
    is derived from its log the first time it is needed (:mod:`.results`), so upgrading costs
    no replay. Run inside the caller's transaction."""
    _run(db, SCHEMA_3)
    db.execute("PRAGMA user_version = 3")


def to_4(db: sqlite3.Connection) -> None:
    """3 -> 4: the tables of the Garage drafts, empty (a log of schema 3 holds no draft:
    drafts were not stored then). Run inside the caller's transaction."""
    _run(db, SCHEMA_4)
    db.execute("PRAGMA user_version = 4")


STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {1: to_2, 2: to_3, 3: to_4}
"""Version -> the migration to the next one."""


def migrate(db: sqlite3.Connection) -> int:
    """Bring the log to :data:`NEWEST`, step by step (version 0, an empty file, is created
    first); returns the version found. Run inside the caller's write transaction."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    version = found
    if version == 0:
        create(db)
        version = 1
    while version < NEWEST:
        STEPS[version](db)
        version += 1
    return found


DRAFT_INPUTS_IN_EFFECT = (
    "(SELECT COUNT(*) - 2 * COUNT(CASE WHEN json_valid(i.payload) THEN "
    "NULLIF(json_extract(i.payload, '$.kind') = 'undo', 0) END) "
    "FROM draft_inputs i WHERE i.draft_id = d.id)")
"""SQL: the inputs in effect of the draft ``d`` (picks, a swap or No swap; an undo, the
app's ``{"kind": "undo"}``, takes one back)."""
