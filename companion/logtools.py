"""``heat-companion races`` and ``heat-companion export RACE [--out FILE]``.

The log is ``races.sqlite3`` in the data folder (``--data``, else ``HEAT_COMPANION_DATA``, else
the user's data dir; see :mod:`companion.storage.paths`). A race id may be shortened to any prefix
that names one race. Exit status: 0 done, 2 unknown or ambiguous race id, 1 a log that cannot be
read (one line on stderr in both cases).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from .session import RaceLog, RaceSummary
from .storage import StorageError, default_log_path

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
        winner = next((car for car, place, _ in race.results if place == 1), "?")
        return f"over, won by {winner}"
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
    ids = [race.id for race in log.races()]
    if wanted in ids:
        return wanted
    matches = [race_id for race_id in ids if race_id.startswith(wanted)] if wanted else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise _BadRace(f"race id {wanted!r} is ambiguous: {', '.join(sorted(matches))}")
    raise _BadRace(f"unknown race {wanted!r} (see `heat-companion races`)")


def _races(log_path: Path, out: TextIO) -> int:
    if not log_path.exists():
        print(f"no races yet (no log at {log_path})", file=out)
        return EXIT_OK
    with RaceLog(log_path) as log:
        races = log.races()
    if not races:
        print(f"no races yet (log: {log_path})", file=out)
        return EXIT_OK
    print(format_table(races), file=out)
    return EXIT_OK


def _export(log_path: Path, race: str, target: str | None, out: TextIO) -> int:
    if not log_path.exists():
        raise _BadRace(f"unknown race {race!r}: no log at {log_path}")
    with RaceLog(log_path) as log:
        session = log.open_race(_resolve(log, race))
        text = json.dumps(session.export(), indent=2, ensure_ascii=False) + "\n"
    if target is None or target == "-":
        out.write(text)
    else:
        Path(target).write_text(text, encoding="utf-8")
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
            return _export(log_path, args.race, getattr(args, "out", None), stdout)
    except _BadRace as error:
        print(str(error), file=stderr)
        return EXIT_BAD_RACE
    except StorageError as error:
        print(str(error), file=stderr)
        return EXIT_STORAGE
    except OSError as error:
        print(f"{error.filename or log_path}: {error.strerror}", file=stderr)
        return EXIT_STORAGE
    raise ValueError(f"logtools: unknown command {args.command!r}")
