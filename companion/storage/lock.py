"""Who is using the race log: one running app claims it, and says who it is.

SQLite's own locks last one transaction, so they cannot tell a second copy of the app that the
first is running, nor say which process it is. A :class:`LogClaim` is an exclusive ``flock`` on
``races.sqlite3.lock`` beside the log, held for as long as the app runs; the file records the
holder's process id, host name and start time. The kernel drops the lock when the process ends,
however it ends (a crash, SIGKILL, a pulled plug), so a claim is never stale: a lock file whose
lock is free is an old note, and is ignored.

    claim = LogClaim.take(log_path)      # raises LogLockedError(pid, host) if another holds it
    ...
    claim.release()

:func:`holder` tells anyone (a command-line tool, an error message about ``database is
locked``) who holds the log now, without taking it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType

from .errors import LogLockedError, from_os

SUFFIX = ".lock"
_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class Holder:
    """The app holding a race log."""

    pid: int
    host: str
    since: str
    """When it took the log (ISO 8601, local time)."""


def other_holder(log_path: str | os.PathLike[str]) -> Holder | None:
    """The holder of the log when it is another process: when this very process holds the
    claim, a lock on the log belongs to some other program, which the claim cannot name."""
    found = holder(log_path)
    if found is None or (found.pid == os.getpid() and found.host == socket.gethostname()):
        return None
    return found


def lock_path(log_path: str | os.PathLike[str]) -> Path:
    path = Path(log_path)
    return path.with_name(path.name + SUFFIX)


def _read_holder(fd: int) -> Holder | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        doc = json.loads(os.read(fd, 4096).decode("utf-8"))
        return Holder(pid=int(doc["pid"]), host=str(doc["host"]), since=str(doc["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # being written right now, or an old note of another format


def holder(log_path: str | os.PathLike[str]) -> Holder | None:
    """The app holding the log now; None if no one does (or the lock file cannot be read)."""
    try:
        fd = os.open(lock_path(log_path), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd)
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _lock(fd: int) -> None:
    """An exclusive lock on ``fd``; :class:`BlockingIOError` if another process holds the log.
    A few quick retries: :func:`holder` holds a shared lock for a moment while it looks."""
    for attempt in range(_ATTEMPTS):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if attempt == _ATTEMPTS - 1:
                raise
            time.sleep(0.02)


class LogClaim:
    """This process's claim on a race log (see the module docstring). A context manager."""

    def __init__(self, log_path: Path, fd: int, me: Holder) -> None:
        self.log_path = log_path
        self.holder = me
        self._fd: int | None = fd

    @classmethod
    def take(cls, log_path: str | os.PathLike[str]) -> LogClaim:
        """Claim the log at ``log_path`` (its folder must exist).

        :raises LogLockedError: another process holds it (its pid and host when known).
        :raises StorageError: the lock file cannot be made (a read-only or full folder).
        """
        path = lock_path(log_path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise from_os(error, path, folder=True) from error
        try:
            _lock(fd)
        except BlockingIOError as error:
            other = _read_holder(fd)
            os.close(fd)
            raise LogLockedError(
                path=log_path, detail=f"{path} is locked",
                pid=other.pid if other else None, host=other.host if other else None,
            ) from error
        except OSError as error:
            os.close(fd)
            raise from_os(error, path, folder=False) from error
        me = Holder(pid=os.getpid(), host=socket.gethostname(),
                    since=datetime.now().astimezone().isoformat(timespec="seconds"))
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": me.pid, "host": me.host, "since": me.since})
                      .encode("utf-8"), 0)
        except OSError as error:
            os.close(fd)
            raise from_os(error, path, folder=False) from error
        return cls(Path(log_path), fd, me)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the log up (idempotent). The lock file stays, as a note of the last holder."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> LogClaim:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
