"""Generator of the 1961 season race files in ``season-1961/`` (docs/rules.md §3.3).

Two humans (red Ana, green Ben) and two Legends (black, yellow) race Great Britain
(new-grandstand, Press Corner A), USA (new-speed-record, B) and Italy (drivers-strike, C). Each
race is set up by :meth:`Season.next_race_setup` (grid from the standings), played by the
simulated-deck driver of ``tests/engine/strategies.py`` and written with
:func:`companion.racefile.export` as ``heat-race/2``. Deterministic: regenerate with::

    .venv/bin/python tests/championship/season_1961.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from strategies import SensibleDriver, dump_race, run_race  # noqa: E402

from companion import racefile  # noqa: E402
from companion.championship import SEASONS, CarEntry, Season  # noqa: E402

DIR = Path(__file__).parent / "season-1961"
CARS = (CarEntry("red", "Ana"), CarEntry("green", "Ben"),
        CarEntry("black", legend=True), CarEntry("yellow", legend=True))
SEEDS = (21, 22, 23)
"""One seed per race: the grid of race 1, the Legends deck and the drivers' decks."""


def season_races(seeds: tuple[int, ...] = SEEDS) -> list[dict[str, Any]]:
    season = Season(SEASONS["1961"], CARS)
    docs = []
    for seed in seeds:
        setup = season.next_race_setup(seed=seed)
        run = run_race(setup, seed=seed, driver=SensibleDriver)
        assert run.final is not None and run.final.over
        docs.append(racefile.export(setup, run.actions))
        season = season.with_result(run.final)
    return docs


def write() -> list[Path]:
    DIR.mkdir(exist_ok=True)
    paths = []
    for number, doc in enumerate(season_races(), start=1):
        path = DIR / f"race-{number}.json"
        path.write_text(dump_race(doc), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: season_1961.py --write")
    for written in write():
        print(written)
