"""The app's data folder: the race log and Championship seasons (opened on first need) and
the seat -> car mapping of every race started in the app (``seats.json``).

:class:`DataMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases, and the screens' only
way to the storage layer (``companion.storage`` is loaded before the first frame for
:mod:`~companion.storage.paths` alone: its package ``__init__`` loads the log's fold, and with it
the engine, on first use).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.storage import paths as storage_paths

from ..log_access import sync_folder

SEATS_FILE = "seats.json"
"""Seat -> car of every race started in the app, by race id (the table's wiring, not the
race's rules, so it lives beside the log rather than in it)."""


@dataclass(frozen=True, slots=True)
class SeasonRaceToGo:
    """A season's next race, as Start leads to it when nothing is unfinished."""

    season_id: str
    name: str
    number: int
    """The race's number in the season (1, 2, ...)."""
    races: int
    track: str
    """The race's track id."""


class DataMixin:
    """The race log, the seasons and the seats of the app's ``data_path``.

    The log is held through a :class:`~companion.ui.log_access.LogAccess`: claimed for the
    app's whole life (a second copy of the app is told which one runs), opened to write, or to
    read only on read-only storage. Every failure is a ``StorageError`` the app routes to its
    storage fault screen (:mod:`.storage_faults`).
    """

    data_path: Path
    race_log: Any
    season_store_: Any
    _log_access: Any = None

    @property
    def log_access(self) -> Any:
        """The :class:`~companion.ui.log_access.LogAccess` of the data folder's log."""
        if self._log_access is None:
            from ..log_access import LogAccess

            self._log_access = LogAccess(self.data_path / storage_paths.LOG_FILE)
        return self._log_access

    @property
    def storage_read_only(self) -> bool:
        """The log is open to read only: races can be viewed and exported, nothing saved."""
        return self._log_access is not None and self._log_access.read_only is not None

    def _sync_data(self) -> None:
        access = self.log_access
        self.race_log = access.log
        self.season_store_ = access.seasons

    def open_storage(self) -> None:
        """Claim and open the race log (again, after a fault: Retry).

        :raises StorageError: why it cannot be opened; a ``ReadOnlyError`` comes after the log
            was opened to read only (``storage_read_only``).
        """
        try:
            self.log_access.open()
        finally:
            self._sync_data()

    def view_read_only(self, why: Any) -> None:
        """Stop writing (the storage turned read-only): reopen the log to read only."""
        try:
            self.log_access.open_to_read(why)
        finally:
            self._sync_data()

    def start_new_log(self, aside: Path) -> Path:
        """Set the current log file aside as ``aside`` and start an empty one (only when the
        user asks); returns the name the old file took."""
        try:
            return Path(self.log_access.start_new_log(aside))
        finally:
            self._sync_data()

    def log(self) -> Any:
        """The race log, opened on first need (it brings in the engine and SQLite).

        :raises StorageError: it cannot be opened (see :meth:`open_storage`).
        """
        if self.race_log is None:
            self.open_storage()
        return self.race_log

    def season_store(self) -> Any:
        """The Championship seasons of the race log file, opened on first need (to write, the
        first opening adds the season tables to the file: ``companion.storage.seasons``)."""
        if self.season_store_ is None:
            self.log()
            self.season_store_ = self.log_access.season_store()
        return self.season_store_

    def has_seasons(self) -> bool:
        """True when the log file has the season tables (looked at without adding them)."""
        self.log()
        return bool(self.log_access.has_seasons())

    def season_of_race(self, race_id: str) -> tuple[str, int, int] | None:
        """The season a race belongs to: its name, the race's number and the season's
        races; None for a race of no season, or when the seasons cannot be read (the Start
        screen then says the race alone: it opens whatever the seasons' tables hold)."""
        from companion.storage.errors import StorageError

        try:
            if not self.has_seasons():
                return None
            found = self.season_store().season_of(race_id)
        except StorageError:
            return None
        return None if found is None else self.season_words(*found)

    def season_words(self, season_id: str, number: int) -> tuple[str, int, int] | None:
        """Race ``number`` of a season as the Start screen names it: the season's name, the
        number and the season's races (None when the seasons cannot be read)."""
        from companion.storage.errors import StorageError

        try:
            store = self.season_store()
            summary = next((s for s in store.seasons() if s.id == season_id), None)
        except StorageError:
            return None
        return None if summary is None else (summary.name, number, summary.races)

    def unfinished_races(self) -> list[Any]:
        """Every race not over (``RaceSummary``), the one Continue opens first: the race the
        table played last (``last_race``) while it is unfinished, else the one created last;
        then the others, most recently created first."""
        from companion.storage.errors import DamagedLogError

        try:
            races: list[Any] = self.log().unfinished_races()  # by index, not the whole history
        except DamagedLogError:  # one damaged row hides the list: the newest race, if readable
            races = self._newest_unfinished()
        last = getattr(self, "last_race", None)
        races.sort(key=lambda r: r.id != last)  # stable: keeps newest-first for the rest
        return races

    def _newest_unfinished(self) -> list[Any]:
        """The race list cannot be read (a damaged summary): the unfinished race created last,
        read on its own (a replay), so Continue still offers it; [] if it cannot be read
        either (opening it, or the Races screen, then says what is damaged)."""
        from companion.session import RaceSummary
        from companion.storage.errors import StorageError

        try:
            race_id = self.log().unfinished_race()
            if race_id is None:
                return []
            session = self.log().open_race(race_id)
        except StorageError:
            return []
        state = session.state
        return [RaceSummary(id=session.race_id, created=session.created,
                            track_id=state.track.id, laps=state.laps, cars=session.setup.cars,
                            rounds=state.round, over=state.over, results=state.results)]

    def unfinished(self) -> list[Any]:
        """Every race not over (``RaceSummary``) and every Garage draft not over
        (``DraftSummary``; ``kind`` tells them apart), the one Continue opens first: what the
        table played last (``last_race``: a race, or a draft) while it is unfinished; then the
        others, most recently begun first."""
        import heapq

        drafts = self.log().drafts.open_drafts()
        races = self.unfinished_races()
        last = getattr(self, "last_race", None)
        # each list in its own order (newest first), the two merged by the time begun
        newest: list[Any] = list(heapq.merge(drafts, races, key=lambda item: item.created,
                                             reverse=True))
        newest.sort(key=lambda item: item.id != last)  # stable: newest first for the rest
        return newest

    def continue_target(self) -> str | None:
        """The race (or draft) Continue opens (None: nothing is unfinished)."""
        items = self.unfinished()
        return str(items[0].id) if items else None

    def season_to_go(self) -> SeasonRaceToGo | None:
        """The season race Start leads to when nothing is unfinished: the next race of the
        season with races to go that the table played last (the season of ``last_race``, else
        the one whose race was started last, else the one created last:
        ``SeasonStore.seasons_to_go``); None when no season has a race to go, or the seasons
        cannot be read (Start then leads as on a new table)."""
        from companion.storage.errors import StorageError

        try:
            if not self.has_seasons():
                return None
            store = self.season_store()
            waiting = store.seasons_to_go()
            last = getattr(self, "last_race", None)
            found = store.season_of(last) if last else None
            if found is not None:  # the season played last, first
                waiting.sort(key=lambda summary: summary.id != found[0])
            for summary in waiting[:3]:  # (a damaged one is passed over)
                try:
                    stored = store.season(summary.id)
                except StorageError:
                    continue
                race = stored.season.next_race
                if race is None or stored.running is not None:
                    continue
                return SeasonRaceToGo(summary.id, summary.name, stored.season.races_played + 1,
                                      summary.races, race.track)
        except StorageError:
            return None
        return None

    def season_of(self, race_id: str) -> tuple[str, int] | None:
        return self.season_store().season_of(race_id) if self.has_seasons() else None

    def create_season(self, form: Any) -> tuple[str | None, str]:
        """Store the season the New season ``form`` describes (its definition, cars and Legends
        bonus): ``(season id, "")``, or ``(None, why)`` when the season refuses it. A storage
        fault (a full disk, read-only storage) is raised, for the fault screen."""
        from companion.championship import SeasonError
        from companion.storage import RefusedError

        try:
            season_id = self.season_store().create_season(
                form.definition(), form.cars(), legend_bonus=form.bonus)
        except (SeasonError, RefusedError) as error:
            return None, str(error)
        return str(season_id), ""

    def _close_data(self) -> None:
        if self._log_access is not None:
            self._log_access.close()
        self.race_log = None
        self.season_store_ = None

    # --- seats ---------------------------------------------------------------------------------

    def _read_seats(self) -> dict[str, dict[str, str]]:
        try:
            doc = json.loads((self.data_path / SEATS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}

    def seated(self, seats: dict[int, str]) -> Any:
        """What storing a race does in its transaction (``RaceLog.new_race``'s ``then``): the
        race's seats written to the seat file and synced (:meth:`save_seats`) before the race's
        transaction commits (with the end of the draft it comes from, if any).

        So a race in the log has its seats, whenever the app is killed: killed before the
        commit, the race is not stored and its seats are an entry no race has (never read:
        each race's seats are looked up by its id, and a race started here writes its own
        first); killed after, both are kept. (The seats are the table's wiring, not the race:
        they stay out of the log and its schema.)"""

        def write(_db: Any, race_id: str) -> None:
            self.save_seats(race_id, seats)

        return write

    def save_seats(self, race_id: str, seats: dict[int, str]) -> None:
        """Remember which seat plays which car in race ``race_id``: the seat file written under
        a temporary name, synced, renamed, the folder synced (whole, and kept through a power
        cut). The seats are the table's wiring, not the race: when they cannot be written, the
        race goes on with them in memory, and the failure is logged."""
        doc = self._read_seats()
        doc[race_id] = {str(seat): car for seat, car in sorted(seats.items())}
        path = self.data_path / SEATS_FILE
        tmp = path.with_suffix(".json.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(doc, indent=1))
                handle.flush()
                os.fsync(handle.fileno())
            tmp.replace(path)
            sync_folder(self.data_path)
        except OSError as error:
            from kivy.logger import Logger

            Logger.warning("heat-companion: seats of race %s not saved: %s", race_id, error)
            with contextlib.suppress(OSError):
                tmp.unlink()

    def load_seats(self, session: Any) -> dict[int, str]:
        """The race's seats as saved, else the human drivers in grid order from seat 1."""
        state = session.state
        humans = [c.id for c in state.cars if not c.legend]
        saved = self._read_seats().get(session.race_id)
        if isinstance(saved, dict):
            seats = {int(s): c for s, c in saved.items()
                     if str(s).isdigit() and c in humans}
            if seats:
                return seats
        return {seat: car for seat, car in enumerate(humans, start=1)}
