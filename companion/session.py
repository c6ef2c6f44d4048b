"""The race log the app's controller uses: Kivy-free, one SQLite file, one object per race.

>>> import tempfile, tracks
>>> from pathlib import Path
>>> from companion.engine import CarEntry, ChooseGear, RaceSetup
>>> folder = Path(tempfile.mkdtemp())
>>> with RaceLog(folder / "races.sqlite3") as log:
...     setup = RaceSetup(track=tracks.load_track("usa"), cars=(CarEntry("red", "Ana"),))
...     race = log.new_race(setup, created="2024-06-01T20:00:00+02:00")
...     applied = race.submit(ChooseGear("red", 2))
...     race.undo(), race.can_redo, len(race.actions())
(True, True, 0)

Every accepted input goes validate → apply → durable append (one transaction, committed before
:meth:`RaceSession.submit` returns); a rejected input writes nothing. Undo and redo are events in
the log too. Inside :meth:`RaceSession.one_transaction` the appends wait for the end of the block
and go to the log together, in one transaction (a tap's input and the End turn that follows it by
itself: both recorded, or neither). In memory a session keeps the state after every effective
input, so undo and redo cost nothing; the log is the source of truth when a race is opened
again (a replay).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from . import racefile
from .engine import Action, Applied, CarEntry, Outcome, RaceSetup, RaceState, Rejection
from .storage import codec
from .storage.db import EventLog, Linked, RaceRow, Summary
from .storage.drafts import DraftStore
from .storage.errors import CorruptLogError, RefusedError
from .storage.fold import Event, EventKind, FoldError, Step, Timeline
from .storage.results import summary_of

__all__ = ["RaceLog", "RaceSession", "RaceSummary"]


@dataclass(frozen=True, slots=True)
class RaceSummary:
    """One line of the race list (read from the log's summary columns, no replay)."""

    id: str
    created: str
    track_id: str
    laps: int
    cars: tuple[CarEntry, ...]
    """In grid order."""
    rounds: int
    """Rounds completed."""
    over: bool
    results: tuple[tuple[str, int, int], ...]
    """Finished cars as ``(car, place, round)``, like ``RaceState.results``."""

    @property
    def car_ids(self) -> tuple[str, ...]:
        return tuple(car.id for car in self.cars)

    @property
    def status(self) -> str:
        return "over" if self.over else "running"

    kind = "race"
    """Beside :class:`~companion.storage.drafts.DraftSummary` (``kind`` "draft") in the list
    of things to continue."""


def _summary(state: RaceState) -> Summary:
    """The summary kept in step with the events, with the result of a race that is over."""
    return summary_of(state)


class RaceSession:
    """One race being played: the current state, undo/redo, and the durable log behind them.

    Use one session per race at a time; a second writer to the same race gets a
    :class:`~companion.storage.WriteConflictError` on its next write.
    """

    def __init__(
        self, log: EventLog, row: RaceRow, setup: RaceSetup, track_doc: codec.TrackDoc,
        timeline: Timeline, events: int,
    ) -> None:
        self._log = log
        self.race_id: str = row.id
        self.created: str = row.created
        self.setup: RaceSetup = setup
        self.track_doc: codec.TrackDoc = track_doc
        """The track as stored: a bundled id or an inline track object."""
        self._timeline = timeline
        self._events = events
        self._written = row.summary
        self._waiting: list[tuple[int, str, str]] | None = None
        """The events of the open :meth:`one_transaction` block, not yet in the log."""

    # --- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> RaceState:
        """The current state."""
        return self._timeline.current.state

    @property
    def last_outcomes(self) -> tuple[Outcome, ...]:
        """What the input that led to the current state did (after an undo: the input now
        last; at the start: what setting up did)."""
        return self._timeline.current.outcomes

    @property
    def can_undo(self) -> bool:
        return self._timeline.can_undo

    @property
    def can_redo(self) -> bool:
        return self._timeline.can_redo

    @property
    def events_logged(self) -> int:
        """Events in the log for this race (inputs, undos and redos): the last seq."""
        return self._events

    def actions(self) -> tuple[Action, ...]:
        """The effective inputs, in order."""
        return self._timeline.actions()

    def steps(self) -> tuple[Step, ...]:
        """The start of the race, then each effective input with its state and outcomes."""
        return tuple(self._timeline.steps())

    def undone(self) -> tuple[Step, ...]:
        """The inputs undone and not redone (each with the state it led to), the last undone
        last."""
        return self._timeline.undone()

    @property
    def last_event(self) -> str | None:
        """Whether the race's last logged event is an ``"input"``, an ``"undo"`` or a
        ``"redo"`` (None: none yet)."""
        kind = self._timeline.last_event
        return kind.value if kind is not None else None

    def export(self) -> dict[str, Any]:
        """The race as a ``heat-race/1`` document (complete rounds only).

        :raises CorruptLogError: a logged input the engine now rejects (names the race).
        """
        try:
            return racefile.export(self.setup, self.actions(), self.track_doc)
        except racefile.RaceFileError as error:
            raise CorruptLogError(self.race_id, None, str(error)) from error

    # --- writing ------------------------------------------------------------------------------

    def submit(self, action: Action) -> Applied | Rejection:
        """Validate and apply ``action``; if the rules accept it, append it durably (when the
        :meth:`one_transaction` it is in ends, if any).

        A :class:`Rejection` writes nothing and changes nothing.
        :raises StorageError: the append failed; the session is unchanged.
        """
        result = self._timeline.try_input(action)
        if isinstance(result, Rejection):
            return result
        with self.one_transaction():
            self._timeline.push(action, result)
            self._append(Event(EventKind.INPUT, action))
        return result

    def undo(self) -> bool:
        """Undo the last effective input (logged as an event); False if there is none."""
        return self._history(self._timeline.undo, EventKind.UNDO)

    def redo(self) -> bool:
        """Redo the last undone input (logged as an event); False if there is none."""
        return self._history(self._timeline.redo, EventKind.REDO)

    def _history(self, step: Callable[[], bool], kind: EventKind) -> bool:
        """An undo or a redo: the timeline's ``step``, logged as an event of ``kind``."""
        with self.one_transaction():
            if not step():
                return False
            self._append(Event(kind))
        return True

    @contextmanager
    def one_transaction(self) -> Iterator[None]:
        """Every input, undo and redo of the block goes to the log when the block ends, all in
        one durable transaction (each of :meth:`submit`, :meth:`undo` and :meth:`redo` is such
        a block of its own). If that write fails (or the block raises), the session is as it was
        before the block, nothing is recorded, and the error is raised. Inside the block
        :meth:`submit`, :meth:`undo` and :meth:`redo` write nothing (so raise no storage error).
        A block inside another is part of it."""
        if self._waiting is not None:
            yield
            return
        mark = self._timeline.mark()
        events, written = self._events, self._written
        self._waiting = []
        try:
            yield
            if self._waiting:
                summary = _summary(self.state)
                # A race that is over stores its result with the event that made it so.
                changed = summary if summary != written or summary.over else None
                self._log.append_many(self.race_id, self._waiting, changed)
                self._written = summary
        except BaseException:
            self._timeline.restore(mark)
            self._events, self._written = events, written
            raise
        finally:
            self._waiting = None

    def _append(self, event: Event) -> None:
        """``event`` for the log, written when the :meth:`one_transaction` block ends."""
        assert self._waiting is not None, "an event is appended inside one_transaction"
        self._events += 1
        self._waiting.append((self._events, event.kind.value, codec.event_payload(event)))


class RaceLog:
    """The file of every race played on this table. A context manager; :meth:`close` it.

    ``read_only=True`` opens it to read only (the ``races`` and ``export`` commands; the app on
    read-only storage): nothing is written, and writing raises
    :class:`~companion.storage.errors.ReadOnlyError`.

    :raises StorageError: the log cannot be opened; its ``kind`` says why
        (:mod:`companion.storage.errors`).
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self._log = EventLog(Path(path), read_only=read_only)

    @property
    def path(self) -> Path:
        return self._log.path

    @property
    def read_only(self) -> bool:
        return self._log.read_only

    def close(self) -> None:
        self._log.close()

    def __enter__(self) -> RaceLog:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def drafts(self) -> DraftStore:
        """The Garage drafts of the same file (:mod:`companion.storage.drafts`)."""
        return DraftStore(self._log)

    def new_race(
        self, setup: RaceSetup, *, track_doc: dict[str, Any] | str | None = None,
        created: str | None = None, race_id: str | None = None, draft: str | None = None,
        then: Linked | None = None,
    ) -> RaceSession:
        """Start and store a new race.

        ``track_doc`` is how the track is stored and exported: a bundled id or an inline track
        object that rebuilds ``setup.track``; by default the bundled id when the track is a
        bundled one, else an inline object built from it. ``created`` defaults to the local time
        now (ISO 8601). ``race_id`` defaults to 8 random hex digits. ``draft``: the Garage
        draft the race comes from, ended in the transaction that stores the race (both, or
        neither); ``then(db, race_id)`` runs in that transaction too (a season's link).

        :raises companion.engine.SetupError: the engine cannot set up this race.
        :raises ValueError: ``track_doc`` does not describe ``setup.track``.
        :raises companion.storage.drafts.DraftOverError: ``draft`` has ended (no race stored).
        """
        timeline = Timeline.start(setup)  # raises SetupError before anything is written
        doc = codec.resolve_track_doc(setup.track, track_doc)
        when = created if created is not None else datetime.now().astimezone().isoformat(
            timespec="seconds")
        for _ in range(100):
            row = RaceRow(
                id=race_id or secrets.token_hex(4), created=when, track=codec.dumps(doc),
                setup=codec.dumps(codec.setup_to_doc(setup)), track_id=setup.track.id,
                laps=timeline.current.state.laps, summary=Summary(),
            )
            if self._log.create_race(row, DraftStore.ends_in(draft, then) if draft else then):
                return RaceSession(self._log, row, setup, doc, timeline, 0)
            if race_id is not None:
                raise RefusedError(f"race {race_id!r} already exists")
        raise RefusedError("cannot find a free race id")  # pragma: no cover

    def open_race(self, race_id: str) -> RaceSession:
        """The race as its log replays.

        :raises UnknownRaceError: no such race.
        :raises CorruptLogError: a stored row cannot be read or replayed (names race and seq).
        """
        row = self._log.race(race_id)
        try:
            track_doc = json.loads(row.track)
            setup = codec.setup_from_doc(json.loads(row.setup), codec.load_track_doc(track_doc))
            timeline = Timeline.start(setup)
        except (ValueError, TypeError, RecursionError) as error:
            raise CorruptLogError(race_id, None, f"cannot read the setup: {error}") from error
        seq = 0
        for stored in self._log.events(race_id):
            if stored.seq != seq + 1:
                raise CorruptLogError(race_id, seq + 1, f"missing (the next stored seq is "
                                                        f"{stored.seq})")
            seq = stored.seq
            try:
                event = codec.decode_event(stored.kind, stored.payload)
                timeline.apply(event, seq)
            except (codec.CodecError, FoldError) as error:
                raise CorruptLogError(race_id, seq, str(error)) from error
            except Exception as error:  # an engine that cannot take a stored value
                raise CorruptLogError(
                    race_id, seq, f"cannot replay {stored.payload!r}: "
                                  f"{type(error).__name__}: {error}") from error
        return RaceSession(self._log, row, setup, track_doc, timeline, seq)

    def races(self) -> list[RaceSummary]:
        """Every stored race, most recently created first."""
        return [_race_summary(row) for row in self._log.races()]

    def race_page(
        self, *, before: int | None = None, limit: int = 30, text: str = "",
        track_ids: tuple[str, ...] = (),
    ) -> list[tuple[int, RaceSummary]]:
        """One page of the race list, most recent first: ``(position, summary)`` of up to
        ``limit`` races older than position ``before``, those a search ``text`` names (a
        driver's name, a date, or one of ``track_ids``) if given. Costs the page, not the log
        (``EventLog.race_page``)."""
        return [(position, _race_summary(row)) for position, row in self._log.race_page(
            before=before, limit=limit, text=text, track_ids=track_ids)]

    def unfinished_races(self) -> list[RaceSummary]:
        """Every race not over, most recently created first (reads those races only: an
        index holds them)."""
        return [_race_summary(row) for row in self._log.races(unfinished=True)]

    def race_summary(self, race_id: str) -> RaceSummary:
        """One race's line of the race list. :raises UnknownRaceError:"""
        return _race_summary(self._log.race(race_id))

    def race_ids(self) -> list[str]:
        """The id of every stored race, most recently created first (reads no other column,
        so a race whose summary is damaged does not hide the others)."""
        return self._log.race_ids()

    def unfinished_race(self) -> str | None:
        """The id of the most recently created race that is not over (the app's "Continue")."""
        return self._log.unfinished()

    def delete_race(self, race_id: str) -> None:
        """Remove a race and its events. :raises UnknownRaceError:"""
        self._log.delete_race(race_id)


def _race_summary(row: RaceRow) -> RaceSummary:
    try:
        cars = codec.setup_cars(json.loads(row.setup))
    except (ValueError, TypeError, RecursionError) as error:
        raise CorruptLogError(row.id, None, f"cannot read the setup: {error}") from error
    s = row.summary
    return RaceSummary(id=row.id, created=row.created, track_id=row.track_id, laps=row.laps,
                       cars=cars, rounds=s.rounds, over=s.over, results=s.results)
