"""What can go wrong with the race log, said so that the app can act on it and tell the table.

Every error the log raises is a :class:`StorageError`, and each carries:

* ``kind``: a :class:`StorageKind`, what happened, for the app to choose its screen and what it
  offers (Retry after a full disk, view-only after read-only storage, and so on). Each kind also
  has its own class (``except ReadOnlyError``), and the older classes are kept: a
  :class:`NotARaceLogError` is still a :class:`SchemaVersionError`, a :class:`CorruptLogError` a
  :class:`DamagedLogError`;
* ``path``: the log file (or the data folder, when no log could be made there);
* ``template`` and ``params``: the reason as one English sentence with ``{placeholders}``,
  marked with ``N_`` for the translation catalogs, and the values to put in it (``str`` and
  ``int`` only: race ids, event numbers, a process id and host name). The app shows
  ``_(error.template).format(**error.params)`` in the player's language; ``error.reason`` is the
  English sentence;
* ``detail``: the technical cause in SQLite's or the system's words (``database is locked``),
  English, for logs and the command line; never needed to understand the reason.

``str(error)`` is one English line for the command line: the path, the reason, the detail.

The kinds and what the app can do about each:

=====================  ===============================================  =======================
kind                   what happened                                    what still works
=====================  ===============================================  =======================
``disk-full``          the storage is full; the write was rolled back   everything but writing
``locked``             another copy of the app (``pid``, ``host`` when  nothing until it stops
                       known) or another program holds the log
``read-only``          the log or its folder or mount is read-only      viewing and exporting
``folder-not-writable``no log exists and none can be made in the folder nothing stored
``damaged``            the file or one of its rows cannot be read       other races, often
``not-a-race-log``     the file is something else                       nothing (keep the file)
``newer-log``          written by a newer heat-companion                nothing until updated
``no-log``             no log yet (reading only)                        a new log
``unknown-race``       no race with that id                             everything
``unknown-season``     no season with that id                           everything
``write-conflict``     another writer appended to the same race         reopen the race
``refused``            a change the log refuses (a duplicate id, a      everything
                       season race out of order)
``io-error``           anything else the system reports                 perhaps a retry
=====================  ===============================================  =======================
"""

from __future__ import annotations

import errno
import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from companion.i18n import N_

if TYPE_CHECKING:  # sqlite3 is loaded by the log itself; the app imports this module earlier
    import sqlite3

Param = str | int


class StorageKind(StrEnum):
    DISK_FULL = "disk-full"
    LOCKED = "locked"
    READ_ONLY = "read-only"
    FOLDER_NOT_WRITABLE = "folder-not-writable"
    DAMAGED = "damaged"
    NOT_A_RACE_LOG = "not-a-race-log"
    NEWER_LOG = "newer-log"
    NO_LOG = "no-log"
    UNKNOWN_RACE = "unknown-race"
    UNKNOWN_SEASON = "unknown-season"
    WRITE_CONFLICT = "write-conflict"
    REFUSED = "refused"
    IO_ERROR = "io-error"


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _one_line(text: str) -> str:
    return " ".join(text.split()) if text else ""


class StorageError(Exception):
    """Anything the race log cannot do; ``sqlite3`` and ``OSError`` errors are mapped onto one
    of the subclasses (:func:`from_sqlite`, :func:`from_os`).

    ``StorageError("message")`` (a reason in English only) is kept for callers that have no
    kind to give: its kind is ``io-error`` and its template the message itself.
    """

    kind: ClassVar[StorageKind] = StorageKind.IO_ERROR
    TEMPLATE: ClassVar[str] = N_("The race log cannot be read or written.")

    def __init__(
        self, message: str | None = None, *, path: str | os.PathLike[str] | None = None,
        detail: str = "", template: str | None = None, **params: Param,
    ) -> None:
        self.path: Path | None = Path(path) if path is not None else None
        self.detail: str = _one_line(detail)
        self.params: dict[str, Param] = dict(params)
        if message is not None:
            self.template: str = "{problem}"
            self.params.setdefault("problem", _one_line(message))
        else:
            self.template = template if template is not None else self.TEMPLATE
        super().__init__(self._line())

    @property
    def reason(self) -> str:
        """The reason as one English sentence (the template with its parameters)."""
        return self.template.format_map(_Blank(self.params))

    def _line(self) -> str:
        reason = self.reason
        if self.detail:
            reason = f"{reason.rstrip('.')} ({self.detail})"
        return f"{self.path}: {reason}" if self.path is not None else reason

    def with_path(self, path: str | os.PathLike[str]) -> StorageError:
        """This error naming ``path`` if it named none (returns self)."""
        if self.path is None:
            self.path = Path(path)
            self.args = (self._line(),)
        return self


class DiskFullError(StorageError):
    """The storage is full. The write was rolled back: nothing changed."""

    kind = StorageKind.DISK_FULL
    TEMPLATE = N_("The storage is full, so nothing more can be saved until some space is freed.")


class LogLockedError(StorageError):
    """Another process holds the log: another copy of the app (its ``pid`` and ``host`` in the
    params when it said who it is, see :mod:`companion.storage.lock`) or another program."""

    kind = StorageKind.LOCKED
    TEMPLATE = N_("The race log is locked by another program.")
    HELD_BY_APP = N_("The race log is in use by another copy of heat-companion "
                     "(process {pid} on {host}).")

    def __init__(self, *, path: str | os.PathLike[str] | None = None, detail: str = "",
                 pid: int | None = None, host: str | None = None) -> None:
        if pid is None:
            super().__init__(path=path, detail=detail)
        else:
            super().__init__(path=path, detail=detail, template=self.HELD_BY_APP, pid=pid,
                             host=host or "?")


class ReadOnlyError(StorageError):
    """The log, its folder or the whole storage is read-only: races can be read, not saved."""

    kind = StorageKind.READ_ONLY
    TEMPLATE = N_("The race log is read-only: races can be viewed and exported, but nothing "
                  "new can be saved.")


class FolderNotWritableError(StorageError):
    """No log exists and none can be made: the data folder (``path``) cannot be created or
    written."""

    kind = StorageKind.FOLDER_NOT_WRITABLE
    TEMPLATE = N_("The data folder cannot be written, so no race log can be kept there.")


class DamagedLogError(StorageError):
    """The file is damaged (SQLite reports corruption) or a stored value cannot be read."""

    kind = StorageKind.DAMAGED
    TEMPLATE = N_("The race log is damaged.")


class SchemaVersionError(StorageError):
    """The file is not a race log, or was written by a newer heat-companion."""

    kind = StorageKind.NOT_A_RACE_LOG
    TEMPLATE = N_("The file is not a race log.")


class NotARaceLogError(SchemaVersionError):
    """Some other file: not SQLite, or an SQLite file without the race log's tables."""


class NewerLogError(SchemaVersionError):
    """Written by a newer heat-companion (``version``; this one reads up to ``newest``)."""

    kind = StorageKind.NEWER_LOG
    TEMPLATE = N_("The race log was written by a newer heat-companion (log schema {version}; "
                  "this version reads schema {newest} or older): update the app.")

    def __init__(self, *, path: str | os.PathLike[str] | None, version: int,
                 newest: int) -> None:
        super().__init__(path=path, version=version, newest=newest)


class NoLogError(StorageError):
    """No race log at ``path`` yet (raised only when opening to read)."""

    kind = StorageKind.NO_LOG
    TEMPLATE = N_("There is no race log yet.")


class UnknownRaceError(StorageError, LookupError):
    """No race with that id in the log."""

    kind = StorageKind.UNKNOWN_RACE
    TEMPLATE = N_("There is no race {race} in the log.")

    def __init__(self, race_id: str) -> None:
        self.race_id = race_id
        super().__init__(race=race_id)

    def _line(self) -> str:
        text = f"unknown race {self.race_id!r}"
        return f"{self.path}: {text}" if self.path is not None else text


class WriteConflictError(StorageError):
    """The event (race, seq) is already in the log: another writer appended to the same race.
    Nothing was written; reopening the race shows what the log holds."""

    kind = StorageKind.WRITE_CONFLICT
    TEMPLATE = N_("Another copy of heat-companion has written to race {race} at the same time.")

    def __init__(self, race_id: str, seq: int, *,
                 path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(path=path, race=race_id, seq=seq,
                         detail=f"race {race_id}: event seq {seq} is already in the log")
        self.race_id = race_id
        self.seq = seq


class RefusedError(StorageError, ValueError):
    """A change the log refuses because it would make it inconsistent (a race or season id
    already taken, a season race out of order); ``problem`` says why, in English."""

    kind = StorageKind.REFUSED

    def __init__(self, problem: str) -> None:
        super().__init__(problem)


class FinishStandsError(RefusedError):
    """An undo that would make a finished season race unfinished after something was begun
    from its result (the season's next race started, or its Garage draft under way):
    refused, nothing written."""

    def __init__(self, race_id: str, what: str, number: int) -> None:
        self.race_id = race_id
        self.what = what
        """``race`` (race ``number`` of the season has started) or ``draft`` (its Garage
        draft is under way)."""
        self.number = number
        begun = "has started" if what == "race" else "has its Garage draft under way"
        super().__init__(f"race {race_id} stays over: race {number} of its season {begun}")


class CorruptLogError(DamagedLogError, ValueError):
    """A stored row that cannot be read or replayed; the message names the race and the seq."""

    AT_EVENT = N_("Race {race} in the race log is damaged at event {seq}.")
    IN_RACE = N_("Race {race} in the race log is damaged.")

    def __init__(self, race_id: str, seq: int | None, problem: str) -> None:
        self.race_id = race_id
        self.seq = seq
        self.problem = problem
        if seq is None:
            super().__init__(template=self.IN_RACE, detail=problem, race=race_id)
        else:
            super().__init__(template=self.AT_EVENT, detail=problem, race=race_id, seq=seq)

    def _line(self) -> str:
        where = (f"race {self.race_id}" if self.seq is None
                 else f"race {self.race_id}, event seq {self.seq}")
        text = _one_line(f"{where}: {self.problem}")
        return f"{self.path}: {text}" if self.path is not None else text


# --- mapping sqlite3 and OS errors onto the kinds -------------------------------------------

# SQLite's primary result codes (https://www.sqlite.org/rescode.html; sqlite3.SQLITE_* too).
SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY = 3, 5, 6, 8
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 11, 13, 14, 26
_READONLY_CODES = {SQLITE_READONLY, SQLITE_PERM}
_BUSY_CODES = {SQLITE_BUSY, SQLITE_LOCKED}


def sqlite_code(error: BaseException) -> int | None:
    """The primary SQLite result code of an error (``SQLITE_BUSY``…), None if it has none."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_busy(error: BaseException) -> bool:
    """Another connection holds a lock the statement needs (try again later)."""
    return sqlite_code(error) in _BUSY_CODES or "database is locked" in str(error)


def sqlite_detail(error: BaseException) -> str:
    """SQLite's message, readable even when it quotes bytes that are not UTF-8 (a damaged
    schema makes Python raise ``UnicodeDecodeError`` instead of an ``sqlite3`` error)."""
    if isinstance(error, UnicodeDecodeError):
        raw = error.object if isinstance(error.object, bytes) else bytes(error.object)
        return raw.decode("utf-8", "backslashreplace")
    return str(error)


def from_sqlite(
    error: sqlite3.Error | UnicodeDecodeError, path: str | os.PathLike[str], *,
    holder: tuple[int, str] | None = None,
) -> StorageError:
    """The :class:`StorageError` for an ``sqlite3`` error on the log at ``path`` (``holder``:
    the process id and host of the app that holds the log, if known)."""
    detail = sqlite_detail(error)
    code = sqlite_code(error)
    text = detail.lower()
    if isinstance(error, UnicodeDecodeError) or code == SQLITE_CORRUPT or (
            "malformed" in text or "could not decode to utf-8" in text):
        return DamagedLogError(path=path, detail=detail)
    if code == SQLITE_NOTADB or "file is not a database" in text:
        return NotARaceLogError(path=path, detail=detail)
    if code == SQLITE_FULL or "disk is full" in text:
        return DiskFullError(path=path, detail=detail)
    if is_busy(error):
        pid, host = holder if holder is not None else (None, None)
        return LogLockedError(path=path, detail=detail, pid=pid, host=host)
    if code in _READONLY_CODES or "readonly database" in text:
        return ReadOnlyError(path=path, detail=detail)
    return StorageError(path=path, detail=detail)


_FOLDER_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EEXIST,
                  errno.ENOENT}
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def from_os(error: OSError, path: str | os.PathLike[str], *, folder: bool) -> StorageError:
    """The :class:`StorageError` for an ``OSError`` on ``path``; ``folder``: while making the
    data folder or a new log in it."""
    detail = error.strerror or str(error)
    if error.errno in _FULL_ERRNOS:
        return DiskFullError(path=path, detail=detail)
    if error.errno == errno.EROFS and not folder:
        return ReadOnlyError(path=path, detail=detail)
    if folder and error.errno in _FOLDER_ERRNOS:
        return FolderNotWritableError(path=path, detail=detail)
    return StorageError(path=path, detail=detail)
