"""A race log made by the code of the tree it runs in: a finished race, an unfinished one with
Garage upgrades, and a 1961 season with race 1 under way.

``log-schema3-1975965.sqlite3`` beside it (the schema 3 -> 4 migration test's file,
``tests/storage/test_drafts.py``) was made by main at 1975965, the last commit before the draft
tables, with::

    git archive 1975965 | tar -x -C OLD && cd OLD && python THIS_FILE OUT
"""
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, ".")
from bench import racegen  # noqa: E402
from companion.championship import SEASONS  # noqa: E402
from companion.engine import CarEntry  # noqa: E402
from companion.session import RaceLog  # noqa: E402
from companion.storage.seasons import SeasonStore  # noqa: E402

out = Path(sys.argv[1])
with RaceLog(out) as log:
    done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2), race_id="olddone",
                        created="2024-06-01T20:00:00+02:00")
    racegen.drive(done, 5000)
    assert done.state.over
    setup = racegen.setup(humans=3, legends=1, laps=1, seed=4)
    cars = tuple(c if c.legend else dataclasses.replace(
        c, upgrades=("rpm-1", "cooling-3", "body-5")) for c in setup.cars)
    running = log.new_race(dataclasses.replace(setup, cars=cars), race_id="oldrun",
                           created="2024-06-02T20:00:00+02:00")
    racegen.drive(running, 25)
    assert not running.state.over
with SeasonStore(out) as store:
    season_id = store.create_season(
        SEASONS["1961"], (CarEntry("red", "Ana"), CarEntry("blue", "Ben"),
                          CarEntry("black", legend=True)),
        season_id="oldseason", created="2024-06-03T20:00:00+02:00")
    season = store.season(season_id).season
    first = season.next_race_setup(seed=7, grid=tuple(season.next_grid(7)))
    race = store.start_race(season_id, first, race_id="oldseas1",
                            created="2024-06-03T20:05:00+02:00")
    racegen.drive(race, 10)
print(out)
