"""The log keeps what heat-race/2 adds: modules, the mechanics' choice, upgrades, Sponsorship
cards in hand; logs written before them still read."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import tracks
from companion.engine import CarEntry, RaceSetup
from companion.engine.modules import RaceModules, Road, Weather
from companion.session import RaceLog
from companion.storage import codec


def full_setup() -> RaceSetup:
    track = tracks.load_track("usa")
    modules = RaceModules(event="consulting-mechanics", weather=Weather.RAIN,
                          road=MappingProxyType({12: Road.OVERHEAT, 33: Road.FREE_BOOST}),
                          press_corners=(33,), tournament=True)
    cars = (CarEntry("red", "Ana", mechanics=1, upgrades=("wings-6", "heat"), sponsor_cards=2),
            CarEntry("blue", "Bo", mechanics=-1, handicap=1), CarEntry("black", legend=True))
    return RaceSetup(track=track, cars=cars, seed=5, modules=modules)


def test_setup_round_trip_keeps_everything() -> None:
    setup = full_setup()
    doc = json.loads(codec.dumps(codec.setup_to_doc(setup)))
    assert codec.setup_from_doc(doc, setup.track) == setup


def test_a_setup_without_extras_is_written_as_before() -> None:
    setup = RaceSetup(track=tracks.load_track("usa"), cars=(CarEntry("red"),))
    doc = codec.setup_to_doc(setup)
    assert "modules" not in doc and set(doc["cars"][0]) == {"id", "name", "legend", "handicap"}


def test_race_with_modules_reopens_identically(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    with RaceLog(path) as log:
        race = log.new_race(full_setup())
        expected = race.state
    with RaceLog(path) as log:
        again = log.open_race(race.race_id)
        assert again.state == expected and again.setup == full_setup()
