"""The app's data folder: the race log and Championship seasons (opened on first need) and
the seat -> car mapping of every race started in the app (``seats.json``).

:class:`DataMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases, and the screens' only
way to the storage layer (``companion.storage`` is loaded before the first frame for
:mod:`~companion.storage.paths` alone: its package ``__init__`` loads the log's fold, and with it
the engine, on first use).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.storage import paths as storage_paths

SEATS_FILE = "seats.json"
"""Seat -> car of every race started in the app, by race id (the table's wiring, not the
race's rules, so it lives beside the log rather than in it)."""


class DataMixin:
    """The race log, the seasons and the seats of the app's ``data_path``."""

    data_path: Path
    race_log: Any
    season_store_: Any

    def log(self) -> Any:
        """The race log, opened on first need (it brings in the engine and SQLite)."""
        if self.race_log is None:
            from companion.session import RaceLog

            self.data_path.mkdir(parents=True, exist_ok=True)
            self.race_log = RaceLog(self.data_path / storage_paths.LOG_FILE)
        return self.race_log

    def season_store(self) -> Any:
        """The Championship seasons of the race log file, opened on first need (the first
        opening adds the season tables to the file: ``companion.storage.seasons``)."""
        if self.season_store_ is None:
            from companion.storage.seasons import SeasonStore

            self.data_path.mkdir(parents=True, exist_ok=True)
            self.season_store_ = SeasonStore(self.data_path / storage_paths.LOG_FILE)
        return self.season_store_

    def has_seasons(self) -> bool:
        """True when the log file has the season tables (without adding them)."""
        if self.season_store_ is not None:
            return True
        import sqlite3

        path = self.data_path / storage_paths.LOG_FILE
        if not path.exists():
            return False
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'season_races'")
            return row.fetchone() is not None
        finally:
            db.close()

    def unfinished_races(self) -> list[Any]:
        """Every race not over (``RaceSummary``), the one Continue opens first: the race the
        table played last (``last_race``) while it is unfinished, else the one created last;
        then the others, most recently created first."""
        races = [r for r in self.log().races() if not r.over]
        last = getattr(self, "last_race", None)
        races.sort(key=lambda r: r.id != last)  # stable: keeps newest-first for the rest
        return races

    def continue_target(self) -> str | None:
        """The race Continue opens (None: every race is over)."""
        races = self.unfinished_races()
        return str(races[0].id) if races else None

    def season_of(self, race_id: str) -> tuple[str, int] | None:
        return self.season_store().season_of(race_id) if self.has_seasons() else None

    def create_season(self, form: Any) -> tuple[str | None, str]:
        """Store the season the New season ``form`` describes (its definition, cars and Legends
        bonus): ``(season id, "")``, or ``(None, why)`` when the season or the log refuses it."""
        from companion.championship import SeasonError
        from companion.storage import StorageError

        try:
            season_id = self.season_store().create_season(
                form.definition(), form.cars(), legend_bonus=form.bonus)
        except (SeasonError, StorageError) as error:
            return None, str(error)
        return str(season_id), ""

    def _close_data(self) -> None:
        if self.race_log is not None:
            self.race_log.close()
            self.race_log = None
        if self.season_store_ is not None:
            self.season_store_.close()
            self.season_store_ = None

    # --- seats ---------------------------------------------------------------------------------

    def _read_seats(self) -> dict[str, dict[str, str]]:
        try:
            doc = json.loads((self.data_path / SEATS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}

    def save_seats(self, race_id: str, seats: dict[int, str]) -> None:
        """Remember which seat plays which car in race ``race_id`` (written atomically)."""
        doc = self._read_seats()
        doc[race_id] = {str(seat): car for seat, car in sorted(seats.items())}
        self.data_path.mkdir(parents=True, exist_ok=True)
        path = self.data_path / SEATS_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        tmp.replace(path)

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
