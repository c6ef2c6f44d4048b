"""The ``replay`` command (docs/race-file.md): ``heat-companion replay FILE [--each-round]`` and
``python -m companion replay FILE``; exit status 0, or 2 with one line on stderr."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import racefile

SOLO = Path(__file__).parent / "solo"

RACE: dict[str, Any] = {
    "format": "heat-race/1",
    "track": {"id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
              "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                          {"line_after": 20, "limit": 3, "legend_line_after": 16}]},
    "seed": 3,
    "cars": [{"id": "red", "name": "Ana"}, {"id": "green", "legend": True}],
    "legends": {"cards": [3, 3, 3, 3, 3]},
    "rounds": [{"red": {"gear": 3, "cards": [2, 3, "stress"], "stress": [3]}},
               {"red": {"cards": [1, 1, 2], "adrenaline": True, "cooldown": 1, "boost": 2}},
               {"red": {"gear": 2, "cards": [1, 4]}},
               {"red": {"gear": 1, "cards": [3]}},
               {"red": {"gear": 3, "cards": [4, 4, 5]}}],
}


def console_script() -> Path:
    venv_bin = Path(sys.executable).parent
    found = shutil.which("heat-companion", path=os.pathsep.join(
        [str(venv_bin), os.environ.get("PATH", "")]))
    script = Path(found) if found else venv_bin / "heat-companion"
    assert script.exists(), "the heat-companion console script is installed with the project"
    return script


def run(args: list[str], *, module: bool = False, cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "companion", *args] if module else [
        str(console_script()), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=cwd)


def write(tmp_path: Path, doc: object, name: str = "race.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def expected_states(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]


def assert_rejected(proc: subprocess.CompletedProcess[str], start: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr starting with ``start``."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(start), lines[0]
    return lines[0]


def test_replay_prints_the_final_state(tmp_path: Path) -> None:
    """docs/race-file.md: "prints the final state (heat-race-state/1 JSON)"; exit status 0."""
    proc = run(["replay", str(write(tmp_path, RACE))])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    state = json.loads(proc.stdout)
    assert state == expected_states(RACE)[-1]
    assert state["format"] == "heat-race-state/1"
    assert state["over"] is True
    assert [r["car"] for r in state["results"]] == ["red", "green"]


def test_python_m_companion_replay_is_the_same(tmp_path: Path) -> None:
    """docs/race-file.md: "python -m companion replay RACE.json  # the same, without the console
    script"."""
    path = write(tmp_path, RACE)
    by_module = run(["replay", str(path)], module=True)
    by_script = run(["replay", str(path)])
    assert by_module.returncode == by_script.returncode == 0
    assert by_module.stdout == by_script.stdout
    assert json.loads(by_module.stdout) == expected_states(RACE)[-1]


def test_each_round_prints_json_lines(tmp_path: Path) -> None:
    """docs/race-file.md: "--each-round   # one state object per line (JSON Lines), after each
    round"."""
    proc = run(["replay", str(write(tmp_path, RACE)), "--each-round"])
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(RACE["rounds"])
    states = [json.loads(line) for line in lines]
    assert [s["round"] for s in states] == [1, 2, 3, 4, 5]
    assert states == expected_states(RACE)


def bad_round_3() -> dict[str, Any]:
    doc = copy.deepcopy(RACE)
    doc["rounds"][2] = {"red": {"gear": 2, "cards": [1, 4, 4]}}
    return doc


def test_rejected_input_exit_2_one_line_naming_round_and_car(tmp_path: Path) -> None:
    """docs/race-file.md: "exit status 2 and one line on stderr that names the round, the car and
    the reason ... Nothing is printed on stdout for a rejected file"."""
    proc = run(["replay", str(write(tmp_path, bad_round_3()))])
    line = assert_rejected(proc, "round 3, car red: ")
    assert "2 cards, not 3" in line


def test_rejected_input_each_round_prints_only_the_rounds_before(tmp_path: Path) -> None:
    """docs/race-file.md: "except, with --each-round, the rounds completed before the bad one"."""
    doc = bad_round_3()
    proc = run(["replay", str(write(tmp_path, doc)), "--each-round"])
    assert proc.returncode == 2
    lines = proc.stdout.splitlines()
    assert [json.loads(line) for line in lines] == expected_states(RACE)[:2]
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("round 3, car red: ")


def test_invalid_json(tmp_path: Path) -> None:
    """docs/race-file.md: "A file that is not valid ... exit status 2 and one line on stderr"."""
    proc = run(["replay", str(write(tmp_path, '{"format": "heat-race/1",\n "track": }'))])
    line = assert_rejected(proc, str(tmp_path / "race.json"))
    assert "not JSON" in line and "line 2" in line


def test_missing_file(tmp_path: Path) -> None:
    """docs/race-file.md: exit status 2 with one line on stderr."""
    missing = tmp_path / "nope.json"
    line = assert_rejected(run(["replay", str(missing)]), str(missing))
    assert "cannot read" in line


def test_unknown_format(tmp_path: Path) -> None:
    """docs/race-file.md: "a reader must reject an unknown format with a clear message"."""
    doc = dict(RACE, format="heat-race/9")
    line = assert_rejected(run(["replay", str(write(tmp_path, doc))]), "format: ")
    assert "heat-race/9" in line and "unknown race-file format" in line


@pytest.mark.parametrize(
    ("change", "start", "key"),
    [
        (lambda d: d.update(lapz=2), "race file: unknown key", "lapz"),
        (lambda d: d["cars"][0].update(colour="red"), "cars[0]: unknown key", "colour"),
        (lambda d: d["rounds"][1]["red"].update(boots=2), "round 2, car red: unknown key",
         "boots"),
        (lambda d: d["legends"].update(card=[1]), "legends: unknown key", "card"),
    ],
)
def test_unknown_key(tmp_path: Path, change: Any, start: str, key: str) -> None:
    """docs/race-file.md: "must reject unknown keys (a typo must not be silently ignored)"."""
    doc = copy.deepcopy(RACE)
    change(doc)
    line = assert_rejected(run(["replay", str(write(tmp_path, doc))]), start)
    assert repr(key) in line


def test_replay_a_solo_race_file(tmp_path: Path) -> None:
    """A full solo race (tests/engine/solo) replays to the end through the console script."""
    path = SOLO / "italy.json"
    proc = run(["replay", str(path)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)
    assert state["over"] is True
    assert [r["place"] for r in state["results"]] == [1, 2, 3, 4, 5, 6]
    assert len({r["car"] for r in state["results"]}) == 6
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert state["round"] == len(doc["rounds"])
