"""The Garage drafts in the race log (schema 4): each draft's start and every input accepted,
so that a draft cut short (a power cut, a crash) goes on where it was.

Two tables (:mod:`.schema`)::

    drafts        (id, created, season_id, race_no, track_id, laps, cars, start, state, race_id)
    draft_inputs  (draft_id, seq, payload)              append-only, one row per input

* :meth:`DraftStore.begin` stores a draft's start in one transaction: what it began from (the
  race's setup as the form held it, or the season's plan) and the deal, as one JSON object the
  app writes and reads (``companion.ui.views.draft_record``); the race's track, laps and cars
  beside it, for the list of things to continue.
* :meth:`DraftStore.record` appends one accepted input (a pick, a swap, no swap, or an undo,
  ``{"kind": "undo", "undoes": seq}``, which takes back the last input in effect) in its own
  durable transaction (WAL, ``synchronous=FULL``, like every write of the log) before the app
  shows it.
* A draft whose setup the table changed where the deal does not depend on it (a name
  corrected) goes on as a new draft from the changed start, holding every input of the one
  before, which is abandoned (:meth:`DraftStore.begin`'s ``carry``): all in one transaction,
  and the rows of the one before stay as they were.
* A draft ends once: in the transaction that stores its race (:meth:`ends_in`, given to
  ``RaceLog.new_race``: the race and the draft's end are recorded together, or neither), or
  when the table abandons it (:meth:`abandon`). Nothing of a draft is ever deleted.

Reading checks the shape of what is stored (JSON objects, inputs numbered 1, 2, 3... with no
gap) and raises :class:`DamagedDraftError`, naming the draft and the input, when it is not;
whether each input is a legal pick is the app's to check when it replays the draft.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.engine import CarEntry
from companion.i18n import N_

from . import codec, schema
from .db import EventLog, Linked
from .errors import DamagedLogError, RefusedError, StorageError, StorageKind

DRAFTS_SCHEMA_VERSION = 4
"""The first schema with the draft tables (a log opened to read only may be older)."""
OPEN, RACE, ABANDONED = "open", "race", "abandoned"
"""A draft's ``state``: under way, became its race, abandoned by the table."""


class DamagedDraftError(DamagedLogError, ValueError):
    """A stored draft that cannot be read or replayed; names the draft and the input."""

    IN_DRAFT = N_("Garage draft {draft} in the race log is damaged.")
    AT_INPUT = N_("Garage draft {draft} in the race log is damaged at input {seq}.")

    def __init__(self, draft_id: str, seq: int | None, problem: str) -> None:
        self.draft_id = draft_id
        self.seq = seq
        self.problem = problem
        if seq is None:
            super().__init__(template=self.IN_DRAFT, detail=problem, draft=draft_id)
        else:
            super().__init__(template=self.AT_INPUT, detail=problem, draft=draft_id, seq=seq)

    def _line(self) -> str:
        where = f"draft {self.draft_id}" + ("" if self.seq is None else f", input {self.seq}")
        text = " ".join(f"{where}: {self.problem}".split())
        return f"{self.path}: {text}" if self.path is not None else text


class UnknownDraftError(StorageError, LookupError):
    """No draft with that id in the log."""

    kind = StorageKind.REFUSED
    TEMPLATE = N_("There is no Garage draft {draft} in the log.")

    def __init__(self, draft_id: str) -> None:
        self.draft_id = draft_id
        super().__init__(draft=draft_id)


class DraftOverError(RefusedError):
    """An input or an end for a draft that has already ended (its race started, or abandoned):
    refused, nothing written."""

    def __init__(self, draft_id: str, state: str) -> None:
        self.draft_id = draft_id
        self.state = state
        super().__init__(f"draft {draft_id} is over ({state})")


@dataclass(frozen=True, slots=True)
class DraftSummary:
    """One draft not over, as the Start screen lists it (read without its inputs)."""

    id: str
    created: str
    track_id: str
    laps: int
    cars: tuple[CarEntry, ...]
    """In grid order (names as stored: "" for a driver shown by the colour's name)."""
    inputs: int
    """Inputs in effect (picks, and a season draft's swap or no swap): an input an undo
    took back, and the undo, are not counted."""
    season_id: str | None
    race_no: int | None

    kind = "draft"
    """Beside :class:`~companion.session.RaceSummary` (``kind`` "race") in the list of
    things to continue."""

    @property
    def drivers(self) -> int:
        """The drivers who draft (the human cars)."""
        return sum(not car.legend for car in self.cars)


@dataclass(frozen=True, slots=True)
class StoredDraft:
    """A draft as stored: its start and every input, in order."""

    id: str
    created: str
    season_id: str | None
    race_no: int | None
    start: dict[str, Any]
    inputs: tuple[dict[str, Any], ...]
    state: str
    race_id: str | None

    @property
    def open(self) -> bool:
        return self.state == OPEN


def cars_doc(cars: Sequence[CarEntry]) -> str:
    return codec.dumps([{"id": c.id, "name": c.name, "legend": c.legend} for c in cars])


def _cars(text: object) -> tuple[CarEntry, ...]:
    """The cars column; () when it cannot be read (opening the draft then says why)."""
    try:
        doc = json.loads(str(text))
        return tuple(CarEntry(id=str(c["id"]), name=str(c["name"]), legend=bool(c["legend"]))
                     for c in doc)
    except (ValueError, TypeError, KeyError, RecursionError):
        return ()


def _object(draft_id: str, seq: int | None, what: str, text: object) -> dict[str, Any]:
    try:
        doc = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        doc = None
    if not isinstance(doc, dict):
        raise DamagedDraftError(draft_id, seq, f"{what} is not a JSON object: "
                                               f"{str(text)[:80]!r}")
    return doc


class DraftStore:
    """The drafts of one race log (the caller's :class:`EventLog`: one connection)."""

    def __init__(self, log: EventLog) -> None:
        self._log = log

    @property
    def _tables(self) -> bool:
        """A log opened to write is of the newest schema; one opened to read only may be
        older, and then has no drafts."""
        return self._log.read_only is False or \
            self._log.schema_version >= DRAFTS_SCHEMA_VERSION

    # --- writing ------------------------------------------------------------------------------

    def begin(
        self, start: dict[str, Any], *, track_id: str, laps: int, cars: Sequence[CarEntry],
        season_id: str | None = None, race_no: int | None = None,
        replacing: Sequence[str] = (), draft_id: str | None = None, created: str | None = None,
        carry: str | None = None,
    ) -> str:
        """Store a new draft (one transaction) and return its id (8 random hex digits unless
        given). The open drafts of ``replacing`` (the draft this one starts afresh, from a
        setup the table changed) are abandoned in the same transaction.

        ``carry``: an open draft this one goes on from (the table changed its setup where the
        deal does not depend on it: a name corrected): every input it holds is stored again,
        as it is and with its number, as the new draft's, and it is abandoned, in the same
        transaction; its own rows stay as they were. :raises DraftOverError: ``carry`` has
        ended (nothing written)."""
        when = created or datetime.now().astimezone().isoformat(timespec="seconds")
        row = (when, season_id, race_no, track_id, laps, cars_doc(cars), codec.dumps(start))
        for _ in range(100):
            new_id = draft_id or secrets.token_hex(4)
            try:
                with self._log.transaction() as db:
                    if carry is not None:
                        self._check_open(db, carry)
                    for old in (*replacing, *(() if carry is None else (carry,))):
                        db.execute("UPDATE drafts SET state = ? WHERE id = ? AND state = ?",
                                   (ABANDONED, old, OPEN))
                    db.execute("INSERT INTO drafts (id, created, season_id, race_no, track_id, "
                               "laps, cars, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (new_id, *row))
                    if carry is not None:
                        db.execute("INSERT INTO draft_inputs (draft_id, seq, payload) SELECT "
                                   "?, seq, payload FROM draft_inputs WHERE draft_id = ? "
                                   "ORDER BY seq", (new_id, carry))
                return new_id
            except StorageError as error:
                cause = error.__cause__
                if not (isinstance(cause, sqlite3.IntegrityError) and "UNIQUE" in str(cause)):
                    raise
                if draft_id is not None:
                    raise RefusedError(f"draft {draft_id!r} already exists") from error
        raise RefusedError("cannot find a free draft id")  # pragma: no cover

    def record(self, draft_id: str, seq: int, payload: dict[str, Any]) -> None:
        """Append input ``seq`` (the draft's inputs so far + 1) in one durable transaction.

        :raises DraftOverError: the draft has ended (nothing written).
        :raises RefusedError: input ``seq`` is already stored, or is not the next one.
        :raises UnknownDraftError: no such draft.
        """
        with self._log.transaction() as db:
            self._check_open(db, draft_id)
            last = db.execute("SELECT MAX(seq) FROM draft_inputs WHERE draft_id = ?",
                              (draft_id,)).fetchone()[0] or 0
            if seq != last + 1:
                raise RefusedError(f"draft {draft_id}: input {seq} is not the next one "
                                   f"(the log holds {last})")
            db.execute("INSERT INTO draft_inputs (draft_id, seq, payload) VALUES (?, ?, ?)",
                       (draft_id, seq, codec.dumps(payload)))

    def abandon(self, draft_id: str) -> None:
        """The table gave the draft up (one transaction): it is no longer offered to
        continue; what it recorded stays in the log. :raises DraftOverError:"""
        with self._log.transaction() as db:
            self._check_open(db, draft_id)
            db.execute("UPDATE drafts SET state = ? WHERE id = ?", (ABANDONED, draft_id))

    @staticmethod
    def ends_in(draft_id: str, then: Linked | None = None) -> Linked:
        """What storing the draft's race does in the same transaction (``RaceLog.new_race``'s
        ``then``): ``then`` first (a season's link), then the draft marked as become that
        race. :raises DraftOverError: it has ended already (so no second race is stored)."""

        def end(db: sqlite3.Connection, race_id: str) -> None:
            if then is not None:
                then(db, race_id)
            DraftStore._check_open(db, draft_id)
            db.execute("UPDATE drafts SET state = ?, race_id = ? WHERE id = ?",
                       (RACE, race_id, draft_id))

        return end

    @staticmethod
    def _check_open(db: sqlite3.Connection, draft_id: str) -> None:
        row = db.execute("SELECT state FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        if row is None:
            raise UnknownDraftError(draft_id)
        if row[0] != OPEN:
            raise DraftOverError(draft_id, str(row[0]))

    # --- reading ------------------------------------------------------------------------------

    def open_drafts(self, season_id: str | None = None, *,
                    single: bool = False) -> list[DraftSummary]:
        """The drafts not over, most recently begun first (an index holds them): every one,
        those of ``season_id``, or with ``single`` those of no season."""
        if not self._tables:
            return []
        where = "state = 'open'"
        params: tuple[Any, ...] = ()
        if season_id is not None:
            where += " AND season_id = ?"
            params = (season_id,)
        elif single:
            where += " AND season_id IS NULL"
        with self._log.reading() as db:
            rows = db.execute(
                "SELECT d.id, d.created, d.track_id, d.laps, d.cars, d.season_id, d.race_no, "
                # the inputs in effect: an undo takes one back
                f"{schema.DRAFT_INPUTS_IN_EFFECT} "
                f"FROM drafts d WHERE {where} ORDER BY d.rowid DESC", params).fetchall()
        return [DraftSummary(
            id=str(draft_id), created=str(created), track_id=str(track_id),
            laps=laps if isinstance(laps, int) else 0, cars=_cars(cars), inputs=int(inputs),
            season_id=None if season is None else str(season),
            race_no=number if isinstance(number, int) else None)
            for draft_id, created, track_id, laps, cars, season, number, inputs in rows]

    def open_draft_like(self, start: dict[str, Any], season_id: str | None) -> str | None:
        """The open draft (of ``season_id``, or of no season) whose start is ``start``, the
        most recently begun if several; None if there is none."""
        if not self._tables:
            return None
        rows = self._read("SELECT id FROM drafts WHERE state = 'open' AND season_id IS ? AND "
                          "start = ? ORDER BY rowid DESC LIMIT 1",
                          (season_id, codec.dumps(start)))
        return str(rows[0][0]) if rows else None

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self._log.reading() as db:
            return db.execute(sql, params).fetchall()

    def draft(self, draft_id: str) -> StoredDraft:
        """A draft with its start and inputs, checked for shape (see the module docstring).

        :raises UnknownDraftError: no such draft.
        :raises DamagedDraftError: its start or an input cannot be read, or an input is
            missing (names the draft and the input).
        """
        if not self._tables:
            raise UnknownDraftError(draft_id)
        with self._log.reading() as db:
            row = db.execute("SELECT created, season_id, race_no, start, state, race_id "
                             "FROM drafts WHERE id = ?", (draft_id,)).fetchone()
            if row is None:
                raise UnknownDraftError(draft_id)
            rows = db.execute("SELECT seq, payload FROM draft_inputs WHERE draft_id = ? "
                              "ORDER BY seq", (draft_id,)).fetchall()
        created, season_id, race_no, start, state, race_id = row
        if state not in (OPEN, RACE, ABANDONED):
            raise DamagedDraftError(draft_id, None, f"state {state!r} is none of open, race, "
                                                    "abandoned")
        if season_id is not None and not isinstance(race_no, int):
            raise DamagedDraftError(draft_id, None, f"race_no {race_no!r} is not a number")
        inputs = []
        for expected, (seq, payload) in enumerate(rows, start=1):
            if seq != expected:
                raise DamagedDraftError(draft_id, expected, f"missing (the next stored input "
                                                            f"is {seq})")
            inputs.append(_object(draft_id, expected, "the input", payload))
        return StoredDraft(
            id=draft_id, created=str(created),
            season_id=None if season_id is None else str(season_id),
            race_no=race_no if season_id is not None else None,
            start=_object(draft_id, None, "the start", start), inputs=tuple(inputs),
            state=str(state), race_id=None if race_id is None else str(race_id))
