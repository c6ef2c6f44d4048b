"""The ``heat-companion`` command: the app by default, plus race-file and log tools.

Only the app and demo commands import Kivy (lazily), so ``replay`` needs the standard library
alone (docs/race-file.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import championship_cli, racefile

EXIT_REJECTED = 2


def _replay(path: str, each_round: bool) -> int:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
        return EXIT_REJECTED
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"{path}: not JSON: line {error.lineno} column {error.colno}: {error.msg}",
              file=sys.stderr)
        return EXIT_REJECTED
    try:
        race = racefile.parse(data)
        final = None
        for state in racefile.replay(race):
            final = state
            if each_round:
                print(json.dumps(racefile.state_document(state)), flush=True)
        if final is None:
            from .engine import start_race

            final = start_race(race.setup).state
            if each_round:
                return 0
        if not each_round:
            print(json.dumps(racefile.state_document(final), indent=2))
    except racefile.RaceFileError as error:
        print(str(error), file=sys.stderr)
        return EXIT_REJECTED
    return 0


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
    sub.add_parser("races", help="list the races stored in the log")
    export = sub.add_parser("export", help="write a stored race as a heat-race/1 file")
    export.add_argument("race", help="race id (see `races`)")
    export.add_argument("--out", help="file to write (default: standard output)")
    sub.add_parser("app", help="run the touchscreen app (the default)")
    championship_cli.add_parser(sub)
    demo = sub.add_parser("demo", help="play a scripted race through the real screens")
    demo.add_argument("--headless", action="store_true", help="no window; write PNGs")
    demo.add_argument("--out", default="demo-shots", help="folder for the screen PNGs")
    demo.add_argument("--size", default="800x480", metavar="WxH",
                      help="window size of the headless PNGs, e.g. 1280x720")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return _replay(args.file, args.each_round)
    if args.command in ("races", "export"):
        from . import logtools

        return logtools.main(args)
    if args.command == "championship":
        return championship_cli.main(args)
    if args.command == "demo":
        from .ui.demo import run as demo

        return demo.main(args)
    from .ui import app

    return app.main(args)


if __name__ == "__main__":
    sys.exit(main())
