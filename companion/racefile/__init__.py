"""Race files: ``heat-race/1`` in, ``heat-race-state/1`` out (see ``docs/race-file.md``).

A race file holds inputs only; the engine derives everything else. This module turns a file into a
:class:`RaceSetup` plus one list of engine actions per round, replays it, and writes states. It
also turns a logged action list back into a race file (export). Standard library only.
"""

from .loading import MAX_DEPTH, loads, read, read_json
from .reading import (
    FORMAT,
    FORMAT_2,
    FORMATS,
    STATE_FORMAT,
    STATE_FORMAT_2,
    RaceFile,
    RaceFileError,
    parse,
)
from .replaying import play_round, replay
from .writing import Unfinished, export, export_parts, state_document

__all__ = [
    "FORMAT",
    "FORMAT_2",
    "FORMATS",
    "MAX_DEPTH",
    "STATE_FORMAT",
    "STATE_FORMAT_2",
    "RaceFile",
    "RaceFileError",
    "Unfinished",
    "export",
    "export_parts",
    "loads",
    "parse",
    "play_round",
    "read",
    "read_json",
    "replay",
    "state_document",
]
