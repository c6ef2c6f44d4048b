"""``heat-companion championship``: a season's standings as JSON or CSV (docs/championship.md).

From the race log (``--season ID``, a stored season; the log is ``races.sqlite3`` in the data
folder of :mod:`companion.storage.paths`)::

    heat-companion championship --season 3f9a01bc [--csv] [--out FILE]

From exported race files, replayed with :mod:`companion.racefile`, race 1 first; the season says
which events (and so which bonuses) the races had::

    heat-companion championship --files race-1.json race-2.json --season 1961
    heat-companion championship --files a.json b.json --custom my-season.json --csv

``--list`` prints the stored seasons. Exit status: 0 done; 2 bad input (one line on stderr);
1 a log that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import racefile
from .championship import (
    SEASONS,
    Season,
    SeasonDef,
    SeasonError,
    official_season,
    on_season_board,
    parse_season,
    press_lines,
    standings_csv,
    standings_document,
)
from .engine import CarEntry
from .storage import StorageError, default_log_path

EXIT_OK = 0
EXIT_STORAGE = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input the command cannot use; the message is the one line it prints."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInput(f"{self.prog}: {message}")


def add_arguments(parser: argparse.ArgumentParser, *, data: bool = True) -> None:
    """The command's options (``data=False`` when a parent parser already has ``--data``)."""
    parser.add_argument("--season", metavar="ID",
                        help="a stored season id (or prefix); with --files, an official "
                             f"season ({', '.join(SEASONS)})")
    parser.add_argument("--files", nargs="+", metavar="RACE",
                        help="exported race files (heat-race/2), race 1 first")
    parser.add_argument("--custom", metavar="FILE",
                        help="with --files: a custom season (heat-season/1 file)")
    parser.add_argument("--list", action="store_true", help="list the stored seasons")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="standings as JSON (the default)")
    form.add_argument("--csv", action="store_true", help="standings as CSV")
    parser.add_argument("--out", metavar="FILE", help="file to write (default: standard output)")
    parser.add_argument("--data", help="data folder (default: the user's data dir)",
                        default=None if data else argparse.SUPPRESS)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``championship`` command to ``heat-companion``'s subparsers."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "championship", help="championship standings from the log or from race files")
    add_arguments(parser, data=False)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="heat-companion championship",
                     description="Championship standings as JSON or CSV.")
    add_arguments(parser)
    return parser


# --- from race files ----------------------------------------------------------------------


def _read_json(path: str) -> Any:
    """A file's JSON value, read as race files are (:func:`companion.racefile.read_json`: not
    UTF-8, too deep, numbers of thousands of digits are one line each)."""
    try:
        return racefile.read_json(path)
    except racefile.RaceFileError as error:
        raise BadInput(str(error)) from error


def _definition(args: argparse.Namespace) -> SeasonDef:
    if args.custom is not None and args.season is not None:
        raise BadInput("give --season YEAR or --custom FILE, not both")
    if args.custom is not None:
        try:
            return parse_season(_read_json(args.custom))
        except SeasonError as error:
            raise BadInput(f"{args.custom}: {error}") from error
    if args.season is None:
        raise BadInput("--files needs --season YEAR or --custom FILE (the races' events)")
    try:
        return official_season(args.season)
    except SeasonError as error:
        raise BadInput(str(error)) from error


def season_from_files(definition: SeasonDef, paths: Sequence[str]) -> Season:
    """Replay race files (race 1 first) into a season; raises :class:`BadInput`."""
    if len(paths) > len(definition.races):
        raise BadInput(f"{len(paths)} race files for a season of {len(definition.races)} races")
    season: Season | None = None
    for number, path in enumerate(paths, start=1):
        race = definition.races[number - 1]
        try:
            parsed = racefile.parse(_read_json(path))
            states = list(racefile.replay(parsed))
        except racefile.RaceFileError as error:
            raise BadInput(f"{path}: {error}") from error
        setup = parsed.setup
        where = f"{path}: race {number} of season {definition.id}"
        if not race.playable:  # as next_race_setup refuses to set it up
            why = f": {race.note}" if race.note else ""
            raise BadInput(f"{where} ({race.track}) cannot be played in the app{why}")
        if setup.track.id != race.track:
            raise BadInput(f"{where} is on {race.track}, the file on {setup.track.id}")
        if not on_season_board(setup.track, race.track):
            raise BadInput(f"{where} is on the bundled {race.track}; the file's track of that "
                           f"id is another board ({setup.track.spaces} spaces, "
                           f"{len(setup.track.corners)} corners)")
        if setup.modules.event != race.event:
            raise BadInput(f"{where} has event {race.event}, the file {setup.modules.event}")
        try:
            expected = press_lines(setup.track, race.press)
        except SeasonError as error:
            raise BadInput(f"{where}: {error}") from error
        if set(setup.modules.press_corners) != set(expected):  # the corners, named as may be
            letters = [chr(ord("A") + setup.track.press_corners.index(line))
                       for line in setup.modules.press_corners]
            raise BadInput(f"{where} has Press Corners {', '.join(race.press) or 'none'}, "
                           f"the file {', '.join(letters) or 'none'}")
        final = states[-1] if states else None
        if final is None or not final.over:
            raise BadInput(f"{path}: the race is not over (round "
                           f"{final.round if final else 0}); standings need finished races")
        if season is None:
            cars = tuple(CarEntry(c.id, c.name, c.legend, c.handicap) for c in setup.cars)
            try:
                season = Season(definition, cars, legend_bonus=setup.legend_bonus,
                                aggressive_legends=setup.aggressive_legends)
            except SeasonError as error:
                raise BadInput(f"{path}: {error}") from error
        if sorted((c.id, c.legend) for c in setup.cars) != sorted(
                (c.id, c.legend) for c in season.cars):
            raise BadInput(f"{path}: the cars are not race 1's "
                           f"({', '.join(c.id for c in season.cars)})")
        season = season.with_result(final)
    assert season is not None
    return season


# --- from the log -------------------------------------------------------------------------


def _store(log_path: Path) -> Any:
    """The log's seasons, opened to read only (so this works on read-only storage and never
    changes the log); None if there is no log."""
    from .storage import NoLogError
    from .storage.seasons import SeasonStore

    try:
        return SeasonStore(log_path, read_only=True)
    except NoLogError:
        return None


def _stored(log_path: Path, wanted: str) -> tuple[Season, list[str], str | None]:
    store = _store(log_path)
    if store is None:
        raise BadInput(f"unknown season {wanted!r}: no seasons in {log_path}")
    with store:
        ids = [s.id for s in store.seasons()]
        if not ids:
            raise BadInput(f"unknown season {wanted!r}: no seasons in {log_path}")
        matches = [i for i in ids if i == wanted] or [i for i in ids if i.startswith(wanted)]
        if len(matches) != 1:
            raise BadInput(f"season id {wanted!r} is ambiguous: {', '.join(sorted(matches))}"
                           if matches else f"unknown season {wanted!r} (see --list)")
        stored = store.season(matches[0])
    done = list(stored.race_ids[:stored.season.races_played])
    return stored.season, done, stored.running


def _list(log_path: Path) -> str:
    store = _store(log_path)
    if store is None:
        return "[]\n"
    with store:
        rows = [{"id": s.id, "created": s.created, "name": s.name, "races": s.races,
                 "started": s.started} for s in store.seasons()]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


# --- main ---------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> str:
    log_path = default_log_path(getattr(args, "data", None))
    if args.list:
        return _list(log_path)
    running = None
    if args.files:
        season = season_from_files(_definition(args), args.files)
        sources = list(args.files)
    elif args.custom is not None:
        raise BadInput("--custom goes with --files")
    elif args.season is not None:
        season, sources, running = _stored(log_path, args.season)
    else:
        raise BadInput("give --season ID (a stored season) or --files RACE.json ... with "
                       "--season YEAR or --custom FILE")
    if args.csv:
        return standings_csv(season)
    doc = standings_document(season, sources, running=running)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main(
    argv: Sequence[str] | argparse.Namespace | None = None, *,
    out: TextIO | None = None, err: TextIO | None = None,
) -> int:
    """Run the command: ``argv`` as strings, or a namespace parsed by ``companion.cli``."""
    stdout = out if out is not None else sys.stdout
    stderr = err if err is not None else sys.stderr
    try:
        if isinstance(argv, argparse.Namespace):
            args = argv
        else:
            try:
                args = build_parser().parse_args(argv)
            except SystemExit as done:  # --help
                return int(done.code or 0)
        text = _run(args)
        if args.out is None or args.out == "-":
            stdout.write(text)
        else:
            Path(args.out).write_text(text, encoding="utf-8")
    except BadInput as error:
        print(str(error), file=stderr)
        return EXIT_BAD_INPUT
    except StorageError as error:
        print(str(error.with_path(default_log_path(getattr(args, "data", None)))),
              file=stderr)
        return EXIT_STORAGE
    except OSError as error:
        print(f"{error.filename or ''}: {error.strerror}", file=stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
