"""The examples of ``docs/race-file.md`` are true: its sample files replay to what it says.

The contract document shows a ``heat-race-state/1`` object for ``race-files/slipstream-over-
corner.json`` and gives the spaces after two rounds of ``race-files/usa-first-rounds.json``; both
are checked here against the engine, so the document cannot drift from what ``replay`` prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion import racefile

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs/race-file.md"
SAMPLES = ROOT / "docs/race-files"


def final_state(name: str) -> dict[str, Any]:
    race = racefile.parse(json.loads((SAMPLES / name).read_text(encoding="utf-8")))
    states = list(racefile.replay(race))
    return racefile.state_document(states[-1])


def json_blocks(text: str) -> list[Any]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_the_state_example_is_what_replay_prints() -> None:
    documented = [b for b in json_blocks(CONTRACT.read_text(encoding="utf-8"))
                  if b.get("format") == "heat-race-state/1"]
    assert len(documented) == 1
    assert final_state("slipstream-over-corner.json") == documented[0]


def test_the_race_example_is_the_sample_file_and_ends_as_stated() -> None:
    text = CONTRACT.read_text(encoding="utf-8")
    documented = [b for b in json_blocks(text) if b.get("format") == "heat-race/1"]
    sample = json.loads((SAMPLES / "usa-first-rounds.json").read_text(encoding="utf-8"))
    assert documented == [sample]
    said = re.search(r"the Legend\s+`black` is on space (\d+), `blue` on (\d+) and `red` on (\d+)",
                     text)
    assert said is not None
    cars = final_state("usa-first-rounds.json")["cars"]
    assert [cars[c]["space"] for c in ("black", "blue", "red")] == [int(n) for n in said.groups()]
