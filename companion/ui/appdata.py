"""The app's data folder: the race log and Championship seasons (opened on first need) and
the seat -> car mapping of every race started in the app (``seats.json``).

:class:`DataMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

SEATS_FILE = "seats.json"
"""Seat -> car of every race started in the app, by race id (the table's wiring, not the
race's rules, so it lives beside the log rather than in it)."""


def storage_paths() -> Any:
    """:mod:`companion.storage.paths` (where the data folder is), without running its package's
    ``__init__``, which imports the engine and the log's fold (some 30 ms before the first
    frame). The module is standard-library only; it is registered under its own name, so a
    later ``import companion.storage`` reuses this very module."""
    name = "companion.storage.paths"
    if name in sys.modules:
        return sys.modules[name]
    import companion

    spec = importlib.util.spec_from_file_location(
        name, Path(companion.__file__).parent / "storage" / "paths.py")
    if spec is None or spec.loader is None:  # pragma: no cover - an unusual installation
        return importlib.import_module(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


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
            self.race_log = RaceLog(self.data_path / storage_paths().LOG_FILE)
        return self.race_log

    def season_store(self) -> Any:
        """The Championship seasons of the race log file, opened on first need (the first
        opening adds the season tables to the file: ``companion.storage.seasons``)."""
        if self.season_store_ is None:
            from companion.storage.seasons import SeasonStore

            self.data_path.mkdir(parents=True, exist_ok=True)
            self.season_store_ = SeasonStore(self.data_path / storage_paths().LOG_FILE)
        return self.season_store_

    def has_seasons(self) -> bool:
        """True when the log file has the season tables (without adding them)."""
        if self.season_store_ is not None:
            return True
        import sqlite3

        path = self.data_path / storage_paths().LOG_FILE
        if not path.exists():
            return False
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'season_races'")
            return row.fetchone() is not None
        finally:
            db.close()

    def season_of(self, race_id: str) -> tuple[str, int] | None:
        return self.season_store().season_of(race_id) if self.has_seasons() else None

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
