"""The durable race log: an append-only SQLite file of events; state = fold(events).

Kivy-free. The app uses :mod:`companion.session` (``RaceLog`` / ``RaceSession``); this package
holds the parts: :mod:`.db` (the SQLite file), :mod:`.codec` (JSON of setups and events),
:mod:`.fold` (undo/redo stack and replay) and :mod:`.paths` (where the log lives).
"""

from .errors import (
    CorruptLogError,
    SchemaVersionError,
    StorageError,
    UnknownRaceError,
    WriteConflictError,
)
from .fold import Event, EventKind, FoldError, Timeline, effective_inputs, fold_state, replay
from .paths import data_dir, default_log_path

__all__ = [
    "CorruptLogError", "Event", "EventKind", "FoldError", "SchemaVersionError", "StorageError",
    "Timeline", "UnknownRaceError", "WriteConflictError", "data_dir", "default_log_path",
    "effective_inputs", "fold_state", "replay",
]
