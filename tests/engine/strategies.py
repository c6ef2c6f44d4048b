"""Engine-test helpers on the project's race generator (:mod:`companion.racesim`): the hypothesis
strategies for random races, and the generator of the committed solo race files.

The races themselves are played by :func:`companion.racesim.run_race`: every human car from its
own simulated deck (docs/rules.md §0, §1.1; a Garage deck when it has upgrades), so every input is
one a real deck can produce, and the runner checks after every input that the Heat the deck holds
outside the engine equals ``heat - engine``.

Regenerate the committed solo races with::

    .venv/bin/python tests/engine/strategies.py --write-solo
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hypothesis import strategies as st

import tracks
from companion.engine import LEGEND_COLOURS, CarEntry, RaceSetup, fill_grid
from companion.engine.draft import upgrade_deck
from companion.engine.modules import RaceModules, Road, Weather
from companion.racesim import (
    DRIVERS,
    HEAT,
    DeckSim,
    Driver,
    HotDriver,
    Plan,
    RaceRun,
    Rand,
    RandomDriver,
    SensibleDriver,
    StepHook,
    heat_owed,
    legal_gears,
    run_race,
)

__all__ = [
    "BASE_TRACKS", "BUNDLED_TRACKS", "DRIVERS", "HEAT", "SOLO_DIR", "DeckSim", "Driver",
    "HotDriver", "Plan", "RaceRun", "Rand", "RandomDriver", "RandomRace", "SensibleDriver",
    "StepHook", "dump_race", "heat_owed", "inline_tracks", "legal_gears", "random_races",
    "race_document", "run_race", "solo_race", "solo_setup", "write_solo_files",
]

BASE_TRACKS = ("usa", "great-britain", "france", "italy")
BUNDLED_TRACKS = tuple(tracks.bundled_track_ids())
SOLO_DIR = Path(__file__).parent / "solo"
SOLO_SEEDS = {"usa": 37, "great-britain": 27, "france": 12, "italy": 39}


def race_document(
    setup: RaceSetup, rounds: Sequence[dict[str, Any]], track: str | dict[str, Any]
) -> dict[str, Any]:
    """A ``heat-race/1`` document for a run (Legends cards left to the seed)."""
    cars = []
    for entry in setup.cars:
        car: dict[str, Any] = {"id": entry.id}
        if entry.name:
            car["name"] = entry.name
        if entry.legend:
            car["legend"] = True
        if entry.handicap:
            car["handicap"] = entry.handicap
        cars.append(car)
    doc: dict[str, Any] = {
        "format": "heat-race/1",
        "track": track,
        "laps": setup.laps if setup.laps is not None else setup.track.laps,
        "seed": setup.seed,
        "cars": cars,
    }
    if setup.legend_cards or setup.legend_bonus:
        doc["legends"] = {"cards": list(setup.legend_cards), "bonus": setup.legend_bonus}
    doc["rounds"] = list(rounds)
    return doc


# --- hypothesis strategies ------------------------------------------------------------------


@st.composite
def inline_tracks(draw: st.DrawFn) -> dict[str, Any]:
    """A small valid inline track (docs/race-file.md "Inline track"), zones may wrap the line."""
    spaces = draw(st.integers(12, 36))
    lines = draw(st.lists(st.integers(1, spaces - 1), min_size=1, max_size=4, unique=True))
    corners = []
    for line in sorted(lines):
        zone = draw(st.integers(1, min(9, spaces - 1)))
        corner: dict[str, Any] = {
            "line_after": line,
            "limit": draw(st.integers(2, 7)),
            "legend_line_after": (line - zone - 1) % spaces + 1,
        }
        aggressive = draw(st.integers(0, min(zone, 3)))
        if aggressive:
            corner["aggressive"] = aggressive
            double = draw(st.integers(0, aggressive))
            if double:
                corner["aggressive_double"] = double
        corners.append(corner)
    doc: dict[str, Any] = {
        "id": "inline-test",
        "spaces": spaces,
        "laps": draw(st.integers(1, 2)),
        "heat": draw(st.integers(2, 14)),
        "stress": draw(st.integers(0, 3)),
        "corners": corners,
    }
    flooded = draw(st.lists(st.integers(1, spaces), max_size=spaces // 2, unique=True))
    if flooded:
        doc["flooded"] = sorted(flooded)
    return doc


GARAGE_DECK = upgrade_deck(basic=True, advanced=True)
"""Every Upgrade card, two of each design, the expansions' and the Garage's Heat cards too."""


@st.composite
def race_modules(draw: st.DrawFn, track: tracks.Track) -> RaceModules:
    """A Weather token, a Road Condition token per corner (a chicane's on its first line), a
    Press Corner or two, and now and then the tournament variant (docs/rules.md §3, §5)."""
    road: dict[int, Road] = {}
    for corner in track.corners:
        if corner.chicane_with is not None and corner.chicane_with < corner.line_after:
            continue
        token = draw(st.one_of(st.none(), st.sampled_from(list(Road))))
        if token is not None:
            road[corner.line_after] = token
    letters = list(track.press_corners)  # a race file names Press Corners by letter
    press = draw(st.lists(st.sampled_from(letters), max_size=2, unique=True)) if letters else []
    return RaceModules(weather=draw(st.sampled_from(list(Weather))),
                       road=MappingProxyType(road), press_corners=tuple(press),
                       tournament=draw(st.booleans()))


@dataclass(frozen=True)
class RandomRace:
    setup: RaceSetup
    track_doc: str | dict[str, Any]
    driver_seed: int
    driver: str

    def run(self, on_step: StepHook | None = None) -> RaceRun:
        return run_race(
            self.setup, seed=self.driver_seed, driver=DRIVERS[self.driver], on_step=on_step,
            max_rounds=40, require_finish=False,
        )


@st.composite
def random_races(draw: st.DrawFn, *, aggressive: bool | None = True) -> RandomRace:
    """A track (inline or bundled), 1-6 cars of which some are Legends, and a driver seed;
    sometimes the humans race with Garage upgrades and Sponsorship cards (Super cool, Draft,
    upgrade Heat among them), sometimes with Weather, Road Conditions and Press Corners."""
    track_doc: str | dict[str, Any]
    if draw(st.booleans()):
        track_doc = draw(inline_tracks())
        track = tracks.track_from_dict(track_doc)
        laps = None
    else:
        track_doc = draw(st.sampled_from(BUNDLED_TRACKS))
        track = tracks.load_track(track_doc)
        laps = 1
    count = draw(st.integers(1, 6))
    legend_count = draw(st.integers(0, count))
    colours = draw(st.permutations(LEGEND_COLOURS))
    cars = [CarEntry(colour, legend=True) for colour in colours[:legend_count]]
    garage = draw(st.booleans())
    cars += [
        CarEntry(f"h{i}", name=f"Driver {i}", handicap=draw(st.integers(0, 2)),
                 upgrades=tuple(GARAGE_DECK[n] for n in draw(st.lists(
                     st.integers(0, len(GARAGE_DECK) - 1), min_size=3, max_size=3,
                     unique=True))) if garage else (),
                 sponsor_cards=draw(st.integers(0, 3)) if garage else 0)
        for i in range(1, count - legend_count + 1)
    ]
    grid = draw(st.permutations(cars))
    modules = draw(race_modules(track)) if draw(st.booleans()) else RaceModules()
    setup = RaceSetup(
        modules=modules,
        track=track,
        cars=tuple(grid),
        laps=laps,
        seed=draw(st.integers(0, 2**31)),
        legend_cards=tuple(draw(st.lists(st.integers(1, 10), max_size=4))),
        legend_bonus=draw(st.integers(0, 4)),
        aggressive_legends=draw(st.booleans()) if aggressive is None else aggressive,
        # A physical deck in a tournament race stops a round before the next round's Legends;
        # the export says so (legends.deck "physical") and its replay stops there too.
        physical_legends_deck=draw(st.booleans()),
    )
    return RandomRace(
        setup, track_doc, draw(st.integers(0, 2**31)), draw(st.sampled_from(sorted(DRIVERS)))
    )


# --- solo race files ------------------------------------------------------------------------


def solo_setup(track_id: str, seed: int) -> RaceSetup:
    """One human (red, Ana) against five Legends, grid shuffled from ``seed``, two laps."""
    grid = fill_grid((CarEntry("red", name="Ana"),), 5, seed=seed)
    return RaceSetup(track=tracks.load_track(track_id), cars=grid, laps=2, seed=seed)


def solo_race(track_id: str) -> dict[str, Any]:
    """The solo race file for a base track: the sensible driver against five Legends."""
    seed = SOLO_SEEDS[track_id]
    setup = solo_setup(track_id, seed)
    run = run_race(setup, seed=seed, driver=SensibleDriver)
    return race_document(setup, run.rounds, track_id)


def dump_race(doc: dict[str, Any]) -> str:
    """JSON with one line per round (readable diffs)."""
    head = {k: v for k, v in doc.items() if k != "rounds"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "rounds": [')
    rounds = [f"    {json.dumps(r)}" for r in doc["rounds"]]
    lines.append(",\n".join(rounds))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_solo_files() -> list[Path]:
    SOLO_DIR.mkdir(exist_ok=True)
    written = []
    for track_id in BASE_TRACKS:
        path = SOLO_DIR / f"{track_id}.json"
        path.write_text(dump_race(solo_race(track_id)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    if sys.argv[1:] != ["--write-solo"]:
        sys.exit("usage: strategies.py --write-solo")
    for written_path in write_solo_files():
        print(written_path)
