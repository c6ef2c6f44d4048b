"""The engine's fast copy of frozen state values behaves like ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses

import pytest

import tracks
from companion.engine import CarEntry, RaceSetup, start_race
from companion.engine.evolve import evolve


def test_evolve_equals_replace() -> None:
    state = start_race(RaceSetup(track=tracks.load_track("usa"), cars=(CarEntry("red"),))).state
    car = state.car("red")
    assert evolve(car, distance=5, engine=2) == dataclasses.replace(car, distance=5, engine=2)
    assert evolve(state, round=3) == dataclasses.replace(state, round=3)
    assert evolve(car) == car and evolve(car) is not car


def test_evolve_rejects_unknown_fields_and_validating_classes() -> None:
    state = start_race(RaceSetup(track=tracks.load_track("usa"), cars=(CarEntry("red"),))).state
    with pytest.raises(TypeError, match="no field 'distanse'"):
        evolve(state.car("red"), distanse=5)
    with pytest.raises(TypeError, match="__post_init__"):
        evolve(state.track, laps=3)
