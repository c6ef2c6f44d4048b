"""The durable race log: an append-only SQLite file of events; state = fold(events).

Kivy-free. The app uses :mod:`companion.session` (``RaceLog`` / ``RaceSession``); this package
holds the parts: :mod:`.db` (the SQLite file), :mod:`.codec` (JSON of setups and events),
:mod:`.fold` (undo/redo stack and replay), :mod:`.paths` (where the log lives), :mod:`.lock`
(which running app holds the log) and :mod:`.errors` (what went wrong, as a kind the app can
act on and a sentence it can translate).
"""

from typing import TYPE_CHECKING, Any

from .errors import (
    CorruptLogError,
    DamagedLogError,
    DiskFullError,
    FinishStandsError,
    FolderNotWritableError,
    LogLockedError,
    NewerLogError,
    NoLogError,
    NotARaceLogError,
    ReadOnlyError,
    RefusedError,
    SchemaVersionError,
    StorageError,
    StorageKind,
    UnknownRaceError,
    WriteConflictError,
)
from .paths import data_dir, default_log_path

if TYPE_CHECKING:
    from .fold import (
        Event,
        EventKind,
        FoldError,
        Timeline,
        effective_inputs,
        fold_state,
        replay,
    )

_FOLD = {"Event", "EventKind", "FoldError", "Timeline", "effective_inputs", "fold_state",
         "replay"}


def __getattr__(name: str) -> Any:
    """The fold (which loads the engine) is imported on first use, so the app can find its data
    folder before its first frame without loading the rules."""
    if name in _FOLD:
        from . import fold

        return getattr(fold, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "CorruptLogError", "DamagedLogError", "DiskFullError", "Event", "EventKind",
    "FinishStandsError", "FoldError", "FolderNotWritableError", "LogLockedError",
    "NewerLogError", "NoLogError",
    "NotARaceLogError", "ReadOnlyError", "RefusedError", "SchemaVersionError", "StorageError",
    "StorageKind", "Timeline", "UnknownRaceError", "WriteConflictError", "data_dir",
    "default_log_path", "effective_inputs", "fold_state", "replay",
]
