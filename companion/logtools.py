"""``heat-companion races`` and ``heat-companion export RACE [--out FILE]``.

The log is ``races.sqlite3`` in the data folder (``--data``, else ``HEAT_COMPANION_DATA``, else
the user's data dir; see :mod:`companion.storage.paths`). Both commands open it to read only, so
they work on read-only storage and never change the log. A race id may be shortened to any
prefix that names one race. Exit status: 0 done, 2 unknown or ambiguous race id, 1 a log that
cannot be read (one line on stderr in both cases).

A race stopped in the middle of a round is exported up to its last complete round (a race file
holds whole rounds); one line on stderr says which inputs of the unfinished round are left out.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from . import racefile
from .session import RaceLog, RaceSummary
from .storage import CorruptLogError, NoLogError, StorageError, default_log_path

EXIT_OK = 0
EXIT_STORAGE = 1
EXIT_BAD_RACE = 2

_COLUMNS = ("id", "created", "track", "cars", "rounds", "status")


class _BadRace(Exception):
    pass


def _cars(race: RaceSummary) -> str:
    return ", ".join(
        f"{c.id} (Legend)" if c.legend else (f"{c.name} ({c.id})" if c.name and c.name != c.id
                                             else c.id)
        for c in race.cars
    )


def _status(race: RaceSummary) -> str:
    if race.over:
        winner = next((car for car, place, _ in race.results if place == 1), None)
        # No winner: every car was eliminated (Title sponsor withdraws, docs/rules.md §3.3).
        return f"over, won by {winner}" if winner else "over, no car finished"
    return f"running, {len(race.results)} finished" if race.results else "running"


def format_table(races: list[RaceSummary]) -> str:
    rows = [_COLUMNS] + [
        (r.id, r.created, f"{r.track_id} ({r.laps} lap{'s' if r.laps != 1 else ''})", _cars(r),
         str(r.rounds), _status(r))
        for r in races
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _resolve(log: RaceLog, wanted: str) -> str:
    ids = log.race_ids()
    if wanted in ids:
        return wanted
    matches = [race_id for race_id in ids if race_id.startswith(wanted)] if wanted else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise _BadRace(f"race id {wanted!r} is ambiguous: {', '.join(sorted(matches))}")
    raise _BadRace(f"unknown race {wanted!r} (see `heat-companion races`)")


def _open(log_path: Path) -> RaceLog | None:
    """The log, opened to read only; None if there is none yet."""
    try:
        return RaceLog(log_path, read_only=True)
    except NoLogError:
        return None


def _races(log_path: Path, out: TextIO) -> int:
    log = _open(log_path)
    if log is None:
        print(f"no races yet (no log at {log_path})", file=out)
        return EXIT_OK
    with log:
        races = log.races()
    if not races:
        print(f"no races yet (log: {log_path})", file=out)
        return EXIT_OK
    print(format_table(races), file=out)
    return EXIT_OK


def _export(log_path: Path, race: str, target: str | None, out: TextIO, err: TextIO) -> int:
    log = _open(log_path)
    if log is None:
        raise _BadRace(f"unknown race {race!r}: no log at {log_path}")
    with log:
        session = log.open_race(_resolve(log, race))
        try:
            doc, rest = racefile.export_parts(session.setup, session.actions(),
                                              session.track_doc)
        except racefile.RaceFileError as error:
            raise CorruptLogError(session.race_id, None, str(error)) from error
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if target is None or target == "-":
        out.write(text)
    else:
        Path(target).write_text(text, encoding="utf-8")
    if rest is not None:
        print(f"race {session.race_id}: {rest.describe()}", file=err)
    return EXIT_OK


def main(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``races`` or ``export`` as parsed by :func:`companion.cli.build_parser`."""
    stdout = out if out is not None else sys.stdout
    stderr = err if err is not None else sys.stderr
    log_path = default_log_path(getattr(args, "data", None))
    try:
        if args.command == "races":
            return _races(log_path, stdout)
        if args.command == "export":
            return _export(log_path, args.race, getattr(args, "out", None), stdout, stderr)
    except _BadRace as error:
        print(str(error), file=stderr)
        return EXIT_BAD_RACE
    except StorageError as error:
        print(str(error.with_path(log_path)), file=stderr)
        return EXIT_STORAGE
    except OSError as error:
        print(f"{error.filename or log_path}: {error.strerror}", file=stderr)
        return EXIT_STORAGE
    raise ValueError(f"logtools: unknown command {args.command!r}")
