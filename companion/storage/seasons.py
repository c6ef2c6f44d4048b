"""Championship seasons in the race log: which stored race is race N of which season.

Two tables join the race log in the same SQLite file (schema 2, :mod:`.schema`; a log opened to
write is brought to the newest schema)::

    seasons       (id, created, definition, cars, options)   one row per season, never updated
    season_races  (season_id, race_no, race_id)              one row per race started

Both are append-only and every change is one transaction. A season's standings come from its
races' results: each race's result as stored when it finished (``race_results``,
:mod:`.results`), or, when that is missing or stale, as its log replays. The log stays the
source of truth: the standings survive whatever the races survive.

The race log (``storage/codec.py``) keeps each setup's modules (event, Press Corners,
Weather, Road Conditions, tournament mode) and the mechanics' choice; :meth:`SeasonStore.open_race`
checks that a season race's stored event and Press Corners are its season's.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.championship import (
    RaceResult,
    Season,
    SeasonDef,
    SeasonError,
    parse_season,
    season_doc,
)
from companion.engine import CarEntry, RaceSetup
from companion.engine.modules import NO_MODULES, RaceModules
from companion.i18n import N_
from companion.session import RaceLog, RaceSession

from . import codec
from .db import EventLog
from .errors import (
    CorruptLogError,
    DamagedLogError,
    RefusedError,
    StorageError,
    StorageKind,
    UnknownRaceError,
)
from .fold import FoldError, Timeline
from .results import RaceResults

SEASONS_SCHEMA_VERSION = 2
"""The first schema with the season tables (a log opened to read only may be older)."""


class UnknownSeasonError(StorageError, LookupError):
    """No season with that id in the log."""

    kind = StorageKind.UNKNOWN_SEASON
    TEMPLATE = N_("There is no season {season} in the log.")

    def __init__(self, season_id: str) -> None:
        self.season_id = season_id
        super().__init__(season=season_id)

    def _line(self) -> str:
        text = f"unknown season {self.season_id!r}"
        return f"{self.path}: {text}" if self.path is not None else text


class SeasonLinkError(RefusedError):
    """A race that cannot become the next race of a season; the message says why."""


class DamagedSeasonError(DamagedLogError):
    """A stored season that cannot be read; the message names the season."""

    TEMPLATE = N_("Season {season} in the race log is damaged.")

    def __init__(self, season_id: str, problem: str) -> None:
        self.season_id = season_id
        self.problem = problem
        super().__init__(detail=problem, season=season_id)

    def _line(self) -> str:
        text = f"season {self.season_id}: {self.detail}"
        return f"{self.path}: {text}" if self.path is not None else text


@dataclass(frozen=True, slots=True)
class SeasonSummary:
    """One line of the season list (no replay)."""

    id: str
    created: str
    name: str
    races: int
    """Races in the season."""
    started: int
    """Races started so far (linked to a stored race)."""


@dataclass(frozen=True, slots=True)
class StoredSeason:
    """A stored season with the results derived from its races' logs."""

    id: str
    created: str
    season: Season
    """Definition, cars, and the results of the races that are over."""
    race_ids: tuple[str, ...]
    """The stored race of race 1, 2, ...: every race started, the running one included."""
    running: str | None
    """The race being played (started, not over), if any."""


def _cars_doc(cars: Sequence[CarEntry]) -> list[dict[str, Any]]:
    return [{"id": c.id, "name": c.name, "legend": c.legend, "handicap": c.handicap}
            for c in cars]


def _cars(doc: object) -> tuple[CarEntry, ...]:
    if not isinstance(doc, list):
        raise ValueError("cars: must be a list")
    out = []
    for raw in doc:
        if not isinstance(raw, dict) or set(raw) != {"id", "name", "legend", "handicap"}:
            raise ValueError(f"cars: bad entry {raw!r}")
        out.append(CarEntry(id=str(raw["id"]), name=str(raw["name"]), legend=bool(raw["legend"]),
                            handicap=int(raw["handicap"])))
    return tuple(out)


def _attach(setup: RaceSetup, expected: RaceModules, race_id: str) -> RaceSetup:
    """The stored setup, checked against the season's modules for this race (a race stored
    with no modules at all, as a custom season's plain race is, takes the season's)."""
    stored = setup.modules
    if stored == NO_MODULES:
        return replace(setup, modules=expected)
    if (stored.event, stored.press_corners) != (expected.event, expected.press_corners):
        raise CorruptLogError(race_id, None, f"its event {stored.event!r} and Press Corners "
                                             f"{list(stored.press_corners)} are not its season's")
    return setup


class SeasonStore:
    """The seasons of the race log file at ``path``. A context manager; :meth:`close` it.

    Sessions returned by :meth:`start_race` and :meth:`open_race` write through this store's
    connections: use them while the store is open.
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        """``read_only=True``: read the seasons without writing anything (a log without the
        season tables then simply has no seasons); see :class:`RaceLog`.

        :raises StorageError: the log cannot be opened; its ``kind`` says why.
        """
        self.read_only = read_only
        if read_only:
            self._races = RaceLog(Path(path), read_only=True)
            self._log = self._races._log  # one connection (and one snapshot) for both
            self._tables = self._log.schema_version >= SEASONS_SCHEMA_VERSION
        else:
            self._log = EventLog(Path(path))  # brought to the newest schema
            try:
                self._races = RaceLog(Path(path))
            except BaseException:
                self._log.close()
                raise
            self._tables = True
        self.results = RaceResults(self._log, lambda race_id: self.open_race(race_id).state)
        """The races' results: stored when fresh, else replayed (and stored if writable)."""

    @property
    def path(self) -> Path:
        return self._log.path

    def close(self) -> None:
        self._log.close()
        if hasattr(self, "_races"):
            self._races.close()

    def __enter__(self) -> SeasonStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def races(self) -> RaceLog:
        """The race log of the same file."""
        return self._races

    # --- seasons ------------------------------------------------------------------------------

    def create_season(
        self, definition: SeasonDef, cars: Sequence[CarEntry], *, legend_bonus: int = 0,
        aggressive_legends: bool = True, season_id: str | None = None,
        created: str | None = None,
    ) -> str:
        """Store a new season (one transaction) and return its id (8 random hex digits unless
        given). Raises :class:`SeasonError` for a season that cannot be played to the end."""
        Season(definition, tuple(cars), legend_bonus=legend_bonus,
               aggressive_legends=aggressive_legends)
        for number, race in enumerate(definition.races, start=1):
            if not race.playable:
                raise SeasonError(f"race {number} ({race.track}) cannot be played: {race.note}")
        doc = season_doc(definition)
        parse_season(doc)  # the stored document must read back
        when = created or datetime.now().astimezone().isoformat(timespec="seconds")
        row = (codec.dumps(doc), codec.dumps(_cars_doc(cars)), codec.dumps(
            {"legend_bonus": legend_bonus, "aggressive_legends": aggressive_legends}))
        for _ in range(100):
            new_id = season_id or secrets.token_hex(4)
            try:
                with self._log.transaction() as db:
                    db.execute("INSERT INTO seasons (id, created, definition, cars, options) "
                               "VALUES (?, ?, ?, ?, ?)", (new_id, when, *row))
                return new_id
            except StorageError as error:
                if not isinstance(error.__cause__, sqlite3.IntegrityError):
                    raise
                if season_id is not None:
                    raise RefusedError(f"season {season_id!r} already exists") from error
        raise RefusedError("cannot find a free season id")  # pragma: no cover

    def seasons(self, limit: int | None = None) -> list[SeasonSummary]:
        """Every stored season (or the ``limit`` most recent), most recently created first."""
        if not self._tables:
            return []
        with self._log.reading() as db:
            rows = db.execute(
                "SELECT s.id, s.created, s.definition, "
                "(SELECT COUNT(*) FROM season_races r WHERE r.season_id = s.id) "
                "FROM seasons s ORDER BY s.rowid DESC LIMIT ?",
                (-1 if limit is None else max(0, limit),)).fetchall()
        out = []
        for season_id, created, definition, started in rows:
            try:
                doc = json.loads(definition)
                name, races = str(doc["name"]), len(doc["races"])
            except (ValueError, KeyError, TypeError, RecursionError) as error:
                raise DamagedSeasonError(season_id, f"cannot read it: {error}") from error
            out.append(SeasonSummary(str(season_id), str(created), name, races, int(started)))
        return out

    def seasons_to_go(self) -> list[SeasonSummary]:
        """The seasons with a race not started yet, the one played last first: those with a
        race started, by when their last race was (the season created last on a tie), then
        those with none yet, the one created last first. A season whose definition cannot be
        read is left out (opening it says what is damaged); a season whose race is running is
        in the list (its race is unfinished)."""
        if not self._tables:
            return []
        with self._log.reading() as db:
            rows = db.execute(
                "SELECT s.id, s.created, s.definition, COUNT(l.race_id), "
                "MAX(r.created) AS latest "
                "FROM seasons s LEFT JOIN season_races l ON l.season_id = s.id "
                "LEFT JOIN races r ON r.id = l.race_id "
                "GROUP BY s.id ORDER BY latest IS NULL, latest DESC, s.rowid DESC").fetchall()
        out = []
        for season_id, created, definition, started, _latest in rows:
            try:
                doc = json.loads(definition)
                name, races = str(doc["name"]), len(doc["races"])
            except (ValueError, KeyError, TypeError, RecursionError):
                continue
            if int(started) < races:
                out.append(SeasonSummary(str(season_id), str(created), name, races,
                                         int(started)))
        return out

    def _empty_season(self, db: sqlite3.Connection, season_id: str) -> tuple[str, Season]:
        row = db.execute("SELECT created, definition, cars, options FROM seasons WHERE id = ?",
                         (season_id,)).fetchone()
        if row is None:
            raise UnknownSeasonError(season_id)
        created, definition, cars, options = row
        try:
            opts = json.loads(options)
            season = Season(parse_season(json.loads(definition)), _cars(json.loads(cars)),
                            legend_bonus=int(opts["legend_bonus"]),
                            aggressive_legends=bool(opts["aggressive_legends"]))
        except (ValueError, KeyError, TypeError, RecursionError) as error:
            raise DamagedSeasonError(season_id, f"cannot read it: {error}") from error
        return str(created), season

    def _links(self, db: sqlite3.Connection, season_id: str) -> tuple[str, ...]:
        rows = db.execute("SELECT race_no, race_id FROM season_races WHERE season_id = ? "
                          "ORDER BY race_no", (season_id,)).fetchall()
        for expected, (number, _) in enumerate(rows, start=1):
            if number != expected:
                raise DamagedSeasonError(season_id, f"race {expected} is missing")
        return tuple(str(race_id) for _, race_id in rows)

    def season(self, season_id: str) -> StoredSeason:
        """The season with the results of its finished races: each race's stored result, or
        its log replayed (:meth:`open_race`) when that is missing or stale (:mod:`.results`).

        :raises CorruptLogError: a race follows one that is not over, or a result does not
            name the season's cars (names the race).
        """
        if not self._tables:
            raise UnknownSeasonError(season_id)
        with self._log.reading() as db:
            created, season = self._empty_season(db, season_id)
            race_ids = self._links(db, season_id)
        results = self.results.results(race_ids)
        running = None
        over: list[RaceResult] = []
        for number, race_id in enumerate(race_ids, start=1):
            if running is not None:
                raise CorruptLogError(race_id, None, f"race {number} of season {season_id} "
                                                     f"follows race {running}, not over")
            result = results[race_id]
            if result is None:
                running = race_id
            else:
                over.append(result)
        try:
            season = replace(season, results=tuple(over))  # checked once, not race by race
        except SeasonError:
            for number, (race_id, result) in enumerate(
                    zip(race_ids[:len(over)], over, strict=True), start=1):
                try:
                    season = season.with_result(result)
                except SeasonError as error:
                    raise CorruptLogError(race_id, None, f"race {number} of season "
                                                         f"{season_id}: {error}") from error
            raise
        return StoredSeason(season_id, created, season, race_ids, running)

    def season_of(self, race_id: str) -> tuple[str, int] | None:
        """``(season id, race number)`` of a stored race, None if it is in no season."""
        if not self._tables:
            return None
        with self._log.reading() as db:
            row = db.execute("SELECT season_id, race_no FROM season_races WHERE race_id = ?",
                             (race_id,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def followed(self, race_id: str) -> tuple[str, int] | None:
        """What was begun from a season race's result, so that it stands: an undo may not
        make the race unfinished (``EventLog.followed``: ``("race", n)`` or ``("draft", n)``,
        None for nothing, or a race of no season)."""
        return self._log.followed(race_id) if self._tables else None

    # --- races --------------------------------------------------------------------------------

    def start_race(
        self, season_id: str, setup: RaceSetup, *, race_id: str | None = None,
        created: str | None = None, draft: str | None = None,
    ) -> RaceSession:
        """Store ``setup`` as a new race (normally :meth:`Season.next_race_setup`) and make it
        the season's next race, in one transaction (with ``draft``, the Garage draft it comes
        from ended in it too): the race is stored and linked, or nothing is.

        :raises SeasonLinkError: the previous race is not over, the season is over, or the
            setup is not the next race's (track, event, Press Corners, cars) or holds what the
            race log cannot keep yet.
        """
        stored = self.season(season_id)
        self._check_setup(stored, setup, exact=True)
        return self._races.new_race(setup, race_id=race_id, created=created, draft=draft,
                                    then=lambda db, new_id: self._link(db, season_id, new_id))

    def link_race(self, season_id: str, race_id: str) -> int:
        """Make a stored race the next race of the season (one transaction); returns its
        number. Same checks as :meth:`start_race`, on the stored setup."""
        with self._log.transaction() as db:
            return self._link(db, season_id, race_id)

    def _link(self, db: sqlite3.Connection, season_id: str, race_id: str) -> int:
        """:meth:`link_race` inside the caller's transaction."""
        _, season = self._empty_season(db, season_id)
        links = self._links(db, season_id)
        taken = db.execute("SELECT season_id, race_no FROM season_races WHERE race_id = ?",
                           (race_id,)).fetchone()
        if taken is not None:
            raise SeasonLinkError(f"race {race_id} is already race {taken[1]} of season "
                                  f"{taken[0]}")
        if len(links) >= len(season.definition.races):
            raise SeasonLinkError(f"season {season_id} has all its "
                                  f"{len(season.definition.races)} races")
        if links:
            over = db.execute("SELECT over FROM races WHERE id = ?", (links[-1],)).fetchone()
            if not over or not over[0]:
                raise SeasonLinkError(f"race {len(links)} of season {season_id} "
                                      f"({links[-1]}) is not over")
        row = db.execute("SELECT track, setup FROM races WHERE id = ?",
                         (race_id,)).fetchone()
        if row is None:
            raise UnknownRaceError(race_id)
        try:
            setup = codec.setup_from_doc(json.loads(row[1]),
                                         codec.load_track_doc(json.loads(row[0])))
        except ValueError as error:
            raise CorruptLogError(race_id, None, f"cannot read the setup: {error}") from error
        number = len(links) + 1
        self._check_race(season, number, setup, exact=False)
        db.execute("INSERT INTO season_races (season_id, race_no, race_id) VALUES (?, ?, ?)",
                   (season_id, number, race_id))
        return number

    def _check_setup(self, stored: StoredSeason, setup: RaceSetup, *, exact: bool) -> None:
        if stored.running is not None:
            raise SeasonLinkError(f"race {len(stored.race_ids)} of season {stored.id} "
                                  f"({stored.running}) is not over")
        if stored.season.next_race is None:
            raise SeasonLinkError(f"season {stored.id} has all its races")
        self._check_race(stored.season, stored.season.races_played + 1, setup, exact=exact)

    @staticmethod
    def _check_race(season: Season, number: int, setup: RaceSetup, *, exact: bool) -> None:
        race = season.definition.races[number - 1]
        where = f"race {number} of the season"
        # By id: the app sets a season's race up on the bundled board, and a stored race keeps
        # the track data it was raced on (a later fix to the bundled data must not unlink it).
        if setup.track.id != race.track:
            raise SeasonLinkError(f"{where} is on {race.track}, not {setup.track.id}")
        expected = season.race_modules(number, setup.track)
        ids = sorted((c.id, c.legend) for c in season.cars)
        if sorted((c.id, c.legend) for c in setup.cars) != ids:
            raise SeasonLinkError(f"{where} has the season's cars: "
                                  f"{', '.join(c.id for c in season.cars)}")
        # A stored setup with no modules at all takes the season's (a plain custom-season race).
        modules = expected if not exact and setup.modules == NO_MODULES else setup.modules
        if (modules.event, modules.press_corners) != (expected.event, expected.press_corners):
            raise SeasonLinkError(f"{where} has event {race.event!r} and Press Corners "
                                  f"{list(race.press)}")
        if exact:
            kept = codec.setup_from_doc(json.loads(codec.dumps(codec.setup_to_doc(setup))),
                                        setup.track)
            if _attach(kept, expected, "new") != setup:
                lost = [name for name, on in (
                    ("Weather", setup.modules.weather is not None),
                    ("Road Conditions", bool(setup.modules.road)),
                    ("tournament mode", setup.modules.tournament),
                    ("the mechanics' choice", any(c.mechanics for c in setup.cars))) if on]
                raise SeasonLinkError(f"{where}: the race log cannot keep "
                                      f"{', '.join(lost) or 'this setup'}")

    def race_setup(self, race_id: str) -> RaceSetup:
        """A stored race's setup as :meth:`open_race` plays it (its season's event and Press
        Corners attached), read without replaying the race (the Next race screen needs the
        last race's Upgrades).

        :raises UnknownRaceError: no such race.
        :raises CorruptLogError: the stored setup cannot be read.
        """
        return self._season_setup(self._log.race(race_id))[1]

    def _season_setup(self, row: Any) -> tuple[Any, RaceSetup]:
        """``(track document, setup)`` of a stored race row, with its season's modules."""
        race_id = row.id
        try:
            track_doc = json.loads(row.track)
            setup = codec.setup_from_doc(json.loads(row.setup), codec.load_track_doc(track_doc))
        except (ValueError, TypeError, RecursionError) as error:
            raise CorruptLogError(race_id, None, f"cannot read the setup: {error}") from error
        link = self.season_of(race_id)
        if link is None:
            return track_doc, setup
        with self._log.reading() as db:
            _, season = self._empty_season(db, link[0])
        try:
            expected = season.race_modules(link[1], setup.track)
        except SeasonError as error:
            raise CorruptLogError(race_id, None, str(error)) from error
        return track_doc, _attach(setup, expected, race_id)

    def open_race(self, race_id: str) -> RaceSession:
        """A stored race as its log replays, with its season's event and Press Corners when it
        is a season race (see the module docstring); like ``RaceLog.open_race`` otherwise.

        :raises UnknownRaceError: no such race.
        :raises CorruptLogError: a stored row cannot be read or replayed.
        """
        if self.season_of(race_id) is None:
            return self._races.open_race(race_id)
        row = self._log.race(race_id)
        track_doc, setup = self._season_setup(row)
        try:
            timeline = Timeline.start(setup)
        except ValueError as error:
            raise CorruptLogError(race_id, None, f"cannot set up: {error}") from error
        seq = 0
        for stored in self._log.events(race_id):
            if stored.seq != seq + 1:
                raise CorruptLogError(race_id, seq + 1, f"missing (the next stored seq is "
                                                        f"{stored.seq})")
            seq = stored.seq
            try:
                timeline.apply(codec.decode_event(stored.kind, stored.payload), seq)
            except (codec.CodecError, FoldError) as error:
                raise CorruptLogError(race_id, seq, str(error)) from error
            except Exception as error:  # an engine that cannot take a stored value
                raise CorruptLogError(race_id, seq, f"cannot replay {stored.payload!r}: "
                                                    f"{type(error).__name__}: {error}") from error
        return RaceSession(self._log, row, setup, track_doc, timeline, seq)
