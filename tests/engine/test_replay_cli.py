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
    assert line == "round 3, car red: gear 2 plays exactly 2 cards, not 3"


def test_a_rejection_counts_its_nouns(tmp_path: Path) -> None:
    """A rejection said "gear 2 plays exactly 2 card(s)" (the engine's template as written):
    the replay prints the noun in the number its count takes, "1 card", "2 cards"."""
    doc = copy.deepcopy(RACE)
    doc["rounds"][3] = {"red": {"gear": 1, "cards": [3, 4]}}
    line = assert_rejected(run(["replay", str(write(tmp_path, doc))]), "round 4, car red: ")
    assert line == "round 4, car red: gear 1 plays exactly 1 card, not 2"
    assert "(s)" not in line


def test_rejected_input_each_round_prints_only_the_rounds_before(tmp_path: Path) -> None:
    """docs/race-file.md: "except, with --each-round, the rounds completed before the bad one"."""
    doc = bad_round_3()
    proc = run(["replay", str(write(tmp_path, doc)), "--each-round"])
    assert proc.returncode == 2
    lines = proc.stdout.splitlines()
    assert [json.loads(line) for line in lines] == expected_states(RACE)[:2]
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("round 3, car red: ")


@pytest.mark.parametrize(
    ("change", "start"),
    [
        (lambda d: d["rounds"][2]["red"].update(boosts=1), "round 3, car red: unknown key"),
        (lambda d: d["rounds"].__setitem__(2, ["red"]), "round 3: must be an object"),
        (lambda d: d["rounds"][2].__setitem__("red", 3), "round 3, car red: must be an object"),
    ],
)
def test_badly_shaped_round_each_round_prints_the_rounds_before(
    tmp_path: Path, change: Any, start: str
) -> None:
    """docs/race-file.md: "except, with --each-round, the rounds completed before the bad one":
    a round whose shape is wrong stops the replay where a refused input would, at that round."""
    doc = copy.deepcopy(RACE)
    change(doc)
    proc = run(["replay", str(write(tmp_path, doc)), "--each-round"])
    assert proc.returncode == 2
    assert [json.loads(line) for line in proc.stdout.splitlines()] == expected_states(RACE)[:2]
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(start)


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


# --- files that are not race files at all (issue 13, "The readers") -------------------------


def _v2(modules: object) -> bytes:
    doc = copy.deepcopy(RACE)
    doc["format"] = "heat-race/2"
    doc["modules"] = modules
    return json.dumps(doc).encode()


def _car_named(car_id: str) -> bytes:
    doc = copy.deepcopy(RACE)
    doc["rounds"][0] = {car_id: doc["rounds"][0]["red"]}
    return json.dumps(doc).encode()


NASTY_FILES = [
    ("latin-1", json.dumps(dict(RACE, cars=[{"id": "red", "name": "Zoë"}]),
                          ensure_ascii=False).encode("latin-1"),
     "{path}: not UTF-8 text (byte 0xeb at offset"),
    ("utf-16", json.dumps(RACE).encode("utf-16"), "{path}: not UTF-8 text (it starts like UTF-16"),
    ("binary", bytes(range(256)), "{path}: not UTF-8 text (byte 0x80 at offset 128)"),
    ("deep", b"[" * 100_000 + b"]" * 100_000, "{path}: nested more than 32 levels deep"),
    ("deep-but-parsable", b"[" * 40 + b"]" * 40, "{path}: nested more than 32 levels deep"),
    ("long-integer", json.dumps(RACE).replace('"seed": 3', '"seed": ' + "9" * 5000).encode(),
     "{path}: a number of more than 4300 digits"),
    ("event-list", _v2({"event": ["new-grandstand"]}), 'modules.event: unknown event ["new-'),
    ("event-object", _v2({"event": {"a": 1}}), 'modules.event: unknown event {"a": 1}'),
    ("weather-list", _v2({"weather": ["fog"]}), 'modules.weather: one of cloud, fog'),
    ("weather-object", _v2({"weather": {}}), "modules.weather: one of cloud, fog"),
    ("road-superscript", _v2({"road": {"²": "limit+1"}}), "modules.road.²: not a corner of"),
    ("road-arabic-digit", _v2({"road": {"١٠": "limit+1"}}), "modules.road.١٠: not a corner"),
    ("road-token-list", _v2({"road": {"10": ["limit+1"]}}), "modules.road.10: one of"),
    ("car-id-newline", _car_named("re\nd"), "round 1, car re\\nd: not a car in this race"),
    ("car-id-line-separator", _car_named("re\u2028d"), "round 1, car re\\u2028d: not a car"),
]


@pytest.mark.parametrize(("data", "start"), [(d, s) for _, d, s in NASTY_FILES],
                         ids=[name for name, _, _ in NASTY_FILES])
def test_any_file_is_exit_2_with_one_line(tmp_path: Path, data: bytes, start: str) -> None:
    """Issue 13: a file that is not UTF-8, nests deeply, holds an integer of thousands of digits,
    or has modules of the wrong type is exit 2 with one line, never a traceback."""
    path = tmp_path / "race.json"
    path.write_bytes(data)
    line = assert_rejected(run(["replay", str(path)]), start.replace("{path}", str(path)))
    assert "Traceback" not in line


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    """RFC 8259, section 8.1: a reader may ignore a UTF-8 byte-order mark (some editors write
    one)."""
    path = tmp_path / "race.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RACE).encode())
    proc = run(["replay", str(path)])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected_states(RACE)[-1]


def test_a_folder_is_exit_2(tmp_path: Path) -> None:
    assert "cannot read" in assert_rejected(run(["replay", str(tmp_path)]), str(tmp_path))


def _first_line_then_close(args: list[str]) -> subprocess.CompletedProcess[str]:
    """``heat-companion ARGS | head -1``: read one line, then close the pipe. The pipe is made
    small (4 KiB), so the command is still writing when it closes: the broken pipe is certain,
    not a matter of timing."""
    import fcntl

    proc = subprocess.Popen([str(console_script()), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    code = proc.wait(timeout=60)
    return subprocess.CompletedProcess(args, code, first, err)


def test_a_closed_pipe_ends_quietly() -> None:
    """Issue 13: ``heat-companion replay … | head -1`` printed a BrokenPipeError traceback. It
    stops quietly, with the status a shell gives a Unix tool stopped by SIGPIPE (141)."""
    done = _first_line_then_close(["replay", str(SOLO / "italy.json"), "--each-round"])
    assert json.loads(done.stdout)["round"] == 1
    assert (done.returncode, done.stderr) == (141, "")
    whole = _first_line_then_close(["replay", str(SOLO / "italy.json")])
    assert whole.stdout == "{\n" and whole.stderr == ""
    assert whole.returncode in (0, 141)  # a final state may fit in the pipe


def test_a_closed_pipe_in_the_shell(tmp_path: Path) -> None:
    """The same through a real shell pipeline, as a user types it."""
    script = f'"{console_script()}" replay "{SOLO / "italy.json"}" --each-round | head -1'
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["round"] == 1
