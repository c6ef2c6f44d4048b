"""How the app holds its race log (Kivy-free): claimed for the app's whole life, opened to write,
else to read only; a damaged log copied beside itself; a new log started only when asked.

* :meth:`LogAccess.open` takes the log's :class:`~companion.storage.lock.LogClaim` first (a
  second copy of the app gets :class:`~companion.storage.errors.LogLockedError` naming the
  process that holds it), then opens the log to write. On read-only storage (the log or its
  folder cannot be written, or the claim cannot be made beside a log that exists) it opens the
  log to read only, so the races can still be viewed and exported, and raises the
  :class:`~companion.storage.errors.ReadOnlyError` so the app says so.
* :meth:`LogAccess.keep_copy` copies a damaged log beside itself, once
  (``races.sqlite3.damaged-YYYYMMDD-HHMMSS`` and its ``-wal``): the log itself is not touched.
* :meth:`LogAccess.start_new_log` renames the current file aside (never deletes it) and starts
  an empty log: the app calls it only when the user asks, after a confirmation.

The clock (the names of the copies) is the app's: ``now`` is given to :class:`LogAccess`.
Every failure is a :class:`~companion.storage.errors.StorageError` of the kind it is.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from companion.storage.errors import (
    LogLockedError,
    NoLogError,
    ReadOnlyError,
    StorageError,
    StorageKind,
    from_os,
)
from companion.storage.lock import Holder, LogClaim, holder

if TYPE_CHECKING:  # the log brings in the engine and SQLite: loaded on first use
    from companion.session import RaceLog
    from companion.storage.seasons import SeasonStore

COMPANIONS = ("", "-wal", "-shm")
"""The files of one SQLite log in WAL mode: the log, its write-ahead log, its shared index."""


def _free(wanted: Path) -> Path:
    """``wanted``, or ``wanted-2``, ``wanted-3``… the first name no file of a log takes."""
    for number in itertools.count(1):
        target = wanted if number == 1 else wanted.with_name(f"{wanted.name}-{number}")
        if not any(target.with_name(target.name + s).exists() for s in COMPANIONS):
            return target
    raise AssertionError("unreachable")  # pragma: no cover


def _name_beside(path: Path, label: str, when: datetime) -> Path:
    """``<log>.<label>-YYYYMMDD-HHMMSS`` (``-2``, ``-3``… if taken), beside the log."""
    return _free(path.with_name(f"{path.name}.{label}-{when.strftime('%Y%m%d-%H%M%S')}"))


def sync_folder(folder: Path) -> None:
    """A rename in ``folder`` kept through a power cut (best effort: an error is ignored)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def copy_beside(path: Path, label: str, when: datetime) -> Path:
    """Copy the log at ``path`` (and its ``-wal``, which may hold committed events) to a new name
    beside it; returns the copy. Each file is written under a temporary name, synced, then
    renamed, so a copy that exists is whole. :raises OSError: (nothing is left behind)."""
    target = _name_beside(path, label, when)
    made: list[Path] = []
    try:
        for suffix in ("", "-wal"):
            source = path.with_name(path.name + suffix)
            if suffix and (not source.exists() or source.stat().st_size == 0):
                continue  # no write-ahead log, or one that holds nothing
            final = target.with_name(target.name + suffix)
            partial = final.with_name(final.name + ".partial")
            made.append(partial)
            shutil.copyfile(source, partial)
            with open(partial, "rb+") as handle:
                os.fsync(handle.fileno())
            os.replace(partial, final)
            made[-1] = final
    except OSError:
        for leftover in made:
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise
    sync_folder(path.parent)
    return target


def set_aside(path: Path, target: Path) -> None:
    """Rename the log at ``path`` and its ``-wal`` and ``-shm`` to ``target`` (same folder).
    :raises OSError:"""
    for suffix in COMPANIONS:
        source = path.with_name(path.name + suffix)
        if source.exists():
            os.rename(source, target.with_name(target.name + suffix))
    sync_folder(path.parent)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def as_storage_error(error: BaseException) -> StorageError | None:
    """``error`` as a storage fault: a :class:`StorageError`, or an ``OSError`` on a file (a
    full disk while writing an export, a read-only folder…); None for anything else."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, OSError) and error.filename is not None:
        return from_os(error, os.fsdecode(error.filename), folder=False)
    return None


class LogAccess:
    """The race log of the app at ``path``: the claim, the log and its seasons."""

    def __init__(self, path: Path, *, now: Callable[[], datetime] = datetime.now) -> None:
        self.path = Path(path)
        self._now = now
        self.claim: LogClaim | None = None
        self.log: RaceLog | None = None
        self.seasons: SeasonStore | None = None
        self.read_only: ReadOnlyError | None = None
        """Set while the log is open to read only (why it could not be opened to write)."""
        self.copy: Path | None = None
        """The copy made of the damaged log (:meth:`keep_copy`)."""
        self.copy_problem = ""
        self._season_tables: bool | None = None

    # --- opening ------------------------------------------------------------------------------

    def open(self) -> RaceLog:
        """The log, open to write (the claim taken first, kept until :meth:`close`).

        :raises ReadOnlyError: the storage is read-only; the log is then open to read only
            (``self.log``, ``self.seasons``), unless it cannot even be read.
        :raises StorageError: anything else; nothing is open then.
        """
        if self.log is not None and self.read_only is None:
            return self.log
        self.close_log()
        from companion.session import RaceLog

        folder = self.path.parent
        try:
            if not folder.is_dir():
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise from_os(error, folder, folder=True) from error
        if self.claim is None:
            try:
                self.claim = LogClaim.take(self.path)
            except LogLockedError:
                raise
            except StorageError as error:
                if error.kind in (StorageKind.FOLDER_NOT_WRITABLE, StorageKind.READ_ONLY) and (
                        _exists(self.path)):
                    self._open_to_read(ReadOnlyError(path=self.path, detail=error.detail))
                raise
        try:
            self.log = RaceLog(self.path)
        except ReadOnlyError as error:
            self._open_to_read(error)
        return self.log

    def open_to_read(self, why: ReadOnlyError) -> None:
        """Give up writing (the storage turned read-only): the log open to read only; the
        claim is kept. :raises StorageError: it cannot even be read."""
        self.close_log()
        try:
            self._open_to_read(why)
        except ReadOnlyError as error:
            if error is not why:
                raise

    def _open_to_read(self, why: ReadOnlyError) -> NoReturn:
        """Open the log (and its seasons) to read only, then raise ``why``."""
        from companion.storage.seasons import SeasonStore

        try:
            store = SeasonStore(self.path, read_only=True)
        except NoLogError:
            raise why from None
        self.seasons = store
        self.log = store.races
        self.read_only = why
        raise why

    def holder(self) -> Holder | None:
        """The app holding the log now (when another copy does)."""
        return holder(self.path)

    # --- seasons ------------------------------------------------------------------------------

    def season_store(self) -> SeasonStore:
        """The seasons of the log (open it first); to write, the first use adds the season
        tables to the file."""
        if self.seasons is None:
            from companion.storage.seasons import SeasonStore

            self.seasons = SeasonStore(self.path)
        return self.seasons

    def has_seasons(self) -> bool:
        """True when the log has the season tables, looked at through a read-only
        :class:`~companion.storage.db.EventLog` (so without adding them, and on read-only
        storage too). Known once it is True (tables are never removed), and once for all on
        read-only storage (nothing changes the log there)."""
        if self._season_tables or (self.read_only is not None and self._season_tables is not None):
            return bool(self._season_tables)
        if self.seasons is not None and self.read_only is None:
            return True  # opened to write: the tables were added
        from companion.storage.db import EventLog
        from companion.storage.seasons import SEASONS_SCHEMA_VERSION

        try:
            peek = EventLog(self.path, read_only=True)
        except NoLogError:
            return False
        try:
            self._season_tables = peek.schema_version >= SEASONS_SCHEMA_VERSION
        finally:
            peek.close()
        return self._season_tables

    # --- damaged logs -------------------------------------------------------------------------

    def keep_copy(self) -> None:
        """Copy the damaged log beside itself, once (``self.copy``; ``self.copy_problem`` says
        why when it cannot be copied, e.g. on a full disk)."""
        if self.copy is not None or not _exists(self.path):
            return
        try:
            self.copy = copy_beside(self.path, "damaged", self._now())
            self.copy_problem = ""
        except OSError as error:
            self.copy_problem = error.strerror or str(error)

    def aside_name(self, label: str) -> Path:
        """The name :meth:`start_new_log` would give the current file now."""
        return _name_beside(self.path, label, self._now())

    def start_new_log(self, aside: Path) -> Path:
        """Close the log, rename it (and its ``-wal`` and ``-shm``) to ``aside`` (from
        :meth:`aside_name`; ``aside-2``… if that is taken by now), and open a new, empty log;
        returns the name the old file took. Only on the user's request. :raises StorageError:"""
        self.close_log()
        target = _free(aside)
        if _exists(self.path):
            try:
                set_aside(self.path, target)
            except OSError as error:
                raise from_os(error, self.path, folder=False) from error
        self.copy, self.copy_problem = None, ""
        self.open()
        return target

    # --- closing ------------------------------------------------------------------------------

    def close_log(self) -> None:
        """Close the log and its seasons (the claim is kept)."""
        for part in (self.seasons, self.log):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.close()
        self.seasons = None
        self.log = None
        self.read_only = None
        self._season_tables = None

    def close(self) -> None:
        """Close everything and give up the claim."""
        self.close_log()
        if self.claim is not None:
            self.claim.release()
            self.claim = None

