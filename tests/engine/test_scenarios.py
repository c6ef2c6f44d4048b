"""Every rule scenario in ``scenarios/`` replayed as a race file.

A scenario is ``{"rule", "source", "race": <heat-race/1>, "expect" | "rejected" [, "each_round"]}``:
``expect`` is a partial ``heat-race-state/1`` document the final state must match, ``each_round``
one such partial document per round, and ``rejected`` the start of the one-line reason a replay
must stop with.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import racefile

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def assert_matches(actual: Any, expected: Any, path: str = "state") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            assert_matches(actual[key], value, f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    assert scenario["rule"] and scenario["source"], "every scenario names its rule and source"
    race = scenario["race"]
    if "rejected" in scenario:
        with pytest.raises(racefile.RaceFileError) as caught:
            list(racefile.replay(racefile.parse(race)))
        message = str(caught.value)
        assert message.lower().startswith(scenario["rejected"].lower()), message
        assert "\n" not in message
        return
    states = [racefile.state_document(s) for s in racefile.replay(racefile.parse(race))]
    assert len(states) == len(race["rounds"])
    if "each_round" in scenario:
        assert len(scenario["each_round"]) == len(states)
        pairs = zip(states, scenario["each_round"], strict=True)
        for r, (state, expected) in enumerate(pairs, start=1):
            assert_matches(state, expected, f"round {r}")
    if "expect" in scenario:
        assert_matches(states[-1], scenario["expect"])
