"""Storage errors: one root, narrow leaves that also inherit the built-in they resemble."""

from __future__ import annotations


class StorageError(Exception):
    """Anything the race log cannot do; ``sqlite3`` errors are mapped onto this."""


class SchemaVersionError(StorageError):
    """The file is not a race log, or was written by a newer heat-companion."""


class UnknownRaceError(StorageError, LookupError):
    """No race with that id in the log."""

    def __init__(self, race_id: str) -> None:
        super().__init__(f"unknown race {race_id!r}")
        self.race_id = race_id


class WriteConflictError(StorageError):
    """The event (race, seq) is already in the log: another writer appended to the same race."""


class CorruptLogError(StorageError, ValueError):
    """A stored row that cannot be read or replayed; the message names the race and the seq."""

    def __init__(self, race_id: str, seq: int | None, problem: str) -> None:
        where = f"race {race_id}" if seq is None else f"race {race_id}, event seq {seq}"
        super().__init__(f"{where}: {problem}")
        self.race_id = race_id
        self.seq = seq
