"""The ``heat-companion`` command: the app by default, plus race-file and log tools.

Only the app and demo commands import Kivy (lazily), so ``replay`` needs the standard library
alone (docs/race-file.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from . import championship_cli, racefile

EXIT_REJECTED = 2
EXIT_BROKEN_PIPE = 141
"""What a shell reports for a Unix tool stopped by SIGPIPE (128 + 13): the reader of the
output went away (``heat-companion replay … | head -1``). Nothing is printed."""

TOOLS = ("replay", "races", "export", "championship")
"""The commands that write to standard output and end (the others run the app)."""


def _replay(path: str, each_round: bool, out: TextIO) -> int:
    try:
        race = racefile.read(path)
        final = None
        for state in racefile.replay(race):
            final = state
            if each_round:
                print(json.dumps(racefile.state_document(state)), file=out, flush=True)
        if final is None:
            from .engine import start_race

            final = start_race(race.setup).state
            if each_round:
                return 0
        if not each_round:
            print(json.dumps(racefile.state_document(final), indent=2), file=out)
    except racefile.RaceFileError as error:
        print(str(error), file=sys.stderr)
        return EXIT_REJECTED
    return 0


def _data_option(parser: argparse.ArgumentParser) -> None:
    """``--data`` after the command too (``heat-companion races --data DIR``); when given only
    before it, the main parser's value stands (SUPPRESS: the subcommand sets nothing)."""
    parser.add_argument("--data", default=argparse.SUPPRESS,
                        help="data folder (default: the user's data dir)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="heat-companion",
        description="Race director for Heat: Pedal to the Metal. Without a command, runs the app.",
    )
    parser.add_argument("--data", help="data folder (default: the user's data dir)")
    sub = parser.add_subparsers(dest="command")
    replay = sub.add_parser("replay", help="replay a heat-race/1 file and print the final state")
    replay.add_argument("file")
    replay.add_argument("--each-round", action="store_true",
                        help="print one state per round (JSON Lines)")
    _data_option(replay)
    races = sub.add_parser("races", help="list the races stored in the log")
    _data_option(races)
    export = sub.add_parser("export", help="write a stored race as a heat-race/1 file")
    export.add_argument("race", help="race id (see `races`)")
    export.add_argument("--out", help="file to write (default: standard output)")
    _data_option(export)
    app = sub.add_parser("app", help="run the touchscreen app (the default)")
    _data_option(app)
    championship_cli.add_parser(sub)
    demo = sub.add_parser("demo", help="play a scripted race through the real screens")
    demo.add_argument("--headless", action="store_true", help="no window; write PNGs")
    demo.add_argument("--out", default="demo-shots", help="folder for the screen PNGs")
    demo.add_argument("--size", default="800x480", metavar="WxH",
                      help="window size of the headless PNGs, e.g. 1280x720")
    _data_option(demo)
    return parser


def _tool(args: argparse.Namespace) -> Callable[[], int]:
    if args.command == "replay":
        return lambda: _replay(args.file, args.each_round, sys.stdout)
    if args.command == "championship":
        return lambda: championship_cli.main(args)
    from . import logtools

    return lambda: logtools.main(args)


def run_tool(command: Callable[[], int]) -> int:
    """Run a command that writes to standard output; if the reader of that output has gone
    (a closed pipe), stop quietly with :data:`EXIT_BROKEN_PIPE`, as Unix tools do."""
    try:
        code = command()
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    return code


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush at exit finds no
    broken pipe to complain about."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's StringIO)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in TOOLS:
        return run_tool(_tool(args))
    if args.command == "demo":
        from .ui.demo import run as demo

        return demo.main(args)
    from .ui import app

    return app.main(args)


if __name__ == "__main__":
    sys.exit(main())
