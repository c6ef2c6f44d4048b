"""Taps per car-turn: how many touches (and table presses) a scripted race needs.

    .venv/bin/python bench/taps.py [--laps 1] [--track usa]

One headless app (SDL offscreen, 800x480) plays four races through the real race screen with
the demo's scripted table (:mod:`companion.ui.demo.script`: the same decisions every run, e.g.
Adrenaline when it can pay, the largest Cooldown, every Slipstream):

* 4 humans and 2 Legends, and 6 humans (names of 12 letters), on the same track and seed;
* each once **touch only** (every gear tapped on the screen) and once **with gear dials** (each
  seat's gear dialled and Ready pressed on a pin-free table, ``hardware.FakeTable``, through the
  app's hardware bridge, exactly as the real table's events arrive).

A *car-turn* is one human car's turn in one round (its cards revealed). Counted: every button
the script taps on the screen (by kind: gear, cards, React choices, End turn, other) and every
Ready press on the table; dial turns are listed but are not taps. The last line is one JSON
object: per race, ``taps_per_car_turn`` (screen taps) and ``inputs_per_car_turn`` (screen taps
plus Ready presses).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.ui.headless import use_headless_kivy  # noqa: E402

use_headless_kivy("heat-taps-kivy-")

NAMES = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina", "Evangelina",
         "Christopher")
SEED = 20240601
TABLES = {"4 humans + 2 Legends": (4, 2), "6 humans": (6, 0)}


def kind_of(name: str, mode: str) -> str:
    """What a tap was for: ``gear``, ``cards`` (a key of the reveal keypads), ``move`` (the
    Move key), ``react`` (a React choice, Boost's flipped card included), ``end`` (End turn),
    ``legends`` or ``other``."""
    if name.startswith(("gear ", "clogged ")):
        return "gear"
    if name == "react end":
        return "end"
    if name.startswith("react ") or mode == "boost":
        return "react"
    if name == "run round" or mode == "legend_card":
        return "legends"
    if name == "confirm":
        return "move"
    if name.startswith("key "):
        return "cards"
    return "other"


class Counting:
    """Wraps the player's presses and the fake table's inputs to count them."""

    def __init__(self, app: Any, player: Any) -> None:
        self.app = app
        self.player = player
        self.taps: Counter[str] = Counter()
        self.ready = 0
        self.dial_turns = 0
        press = player.press

        def counted_press(name: str, *, touch: bool = True) -> None:
            controller = app.controller
            mode = controller.view().mode if controller is not None else ""
            self.taps[kind_of(name, mode)] += 1
            press(name, touch=touch)

        player.press = counted_press

    def watch_table(self, table: Any) -> None:
        turn, ready = table.turn_dial, table.press_ready

        def counted_turn(seat: int, gear: int) -> None:
            self.dial_turns += 1
            turn(seat, gear)

        def counted_ready(seat: int) -> None:
            self.ready += 1
            ready(seat)

        table.turn_dial, table.press_ready = counted_turn, counted_ready


def play(app: Any, pump: Any, table: Any, humans: int, legends: int, dials: bool,
         track_id: str, laps: int | None) -> dict[str, Any]:
    import tracks
    from companion.engine import Reveal
    from companion.ui.demo.player import TablePlayer
    from companion.ui.views.drivers import Driver
    from companion.ui.views.names import CAR_COLOURS
    from companion.ui.views.race_form import RaceForm

    form = RaceForm(seed=SEED)
    form.track_id = track_id
    form.laps = laps
    form.drivers = [Driver(colour, name=name, seat=seat) for seat, (colour, name) in
                    enumerate(zip(CAR_COLOURS, NAMES[:humans], strict=False), start=1)]
    form.set_legends(legends)
    session = app.log().new_race(form.setup(tracks.load_track(track_id)))
    app.open_session(session)
    pump()
    player = TablePlayer(app, pump, table if dials else None)
    counting = Counting(app, player)
    if dials:
        counting.watch_table(table)
    player.play_to_end()
    state = app.session.state
    car_turns = sum(1 for action in app.session.actions()
                    if isinstance(action, Reveal) and not state.car(action.car).legend)
    taps = sum(counting.taps.values())
    return {
        "humans": humans, "legends": legends, "rounds": state.round,
        "car_turns": car_turns, "taps": taps, "by_kind": dict(sorted(counting.taps.items())),
        "ready_presses": counting.ready, "dial_turns": counting.dial_turns,
        "taps_per_car_turn": round(taps / car_turns, 2),
        "inputs_per_car_turn": round((taps + counting.ready) / car_turns, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--track", default="usa")
    parser.add_argument("--laps", type=int, default=1)
    args = parser.parse_args(argv)

    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from kivy.base import EventLoop, runTouchApp

    from companion import i18n
    from companion.ui.app import HeatApp
    from hardware import FakeTable

    tables: list[Any] = []

    def factory(queue: Any) -> Any:
        tables.append(FakeTable(queue, seats=(1, 2, 3, 4, 5, 6)))
        return tables[-1]

    i18n.set_language("en")
    app = HeatApp(data=tempfile.mkdtemp(prefix="heat-taps-"), hardware_factory=factory)
    app._run_prepare()
    runTouchApp(embedded=True)

    def pump() -> None:
        for _ in range(2):
            EventLoop.idle()

    results: dict[str, Any] = {}
    try:
        pump()
        pump()
        for label, (humans, legends) in TABLES.items():
            for dials in (False, True):
                key = f"{label}, {'gear dials' if dials else 'touch only'}"
                results[key] = play(app, pump, tables[0], humans, legends, dials,
                                    args.track, args.laps)
    finally:
        app._stop()
    for key, found in results.items():
        print(f"{key:40s} {found['car_turns']:3d} car-turns: "
              f"{found['taps_per_car_turn']:.2f} taps per car-turn "
              f"({found['inputs_per_car_turn']:.2f} with Ready presses) {found['by_kind']}")
    print(json.dumps({"track": args.track, "laps": args.laps, "races": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
