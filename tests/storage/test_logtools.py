"""``heat-companion races`` and ``heat-companion export``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bench import racegen
from companion import cli, racefile
from companion.engine import RaceState, Rejection, play, start_race
from companion.session import RaceLog, RaceSession


@pytest.fixture
def data(tmp_path: Path) -> Path:
    with RaceLog(tmp_path / "races.sqlite3") as log:
        done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2),
                            created="2024-06-01T20:00", race_id="abc123")
        racegen.drive(done, 5000)
        running = log.new_race(racegen.setup(humans=2, legends=0, laps=2),
                               created="2024-06-02T20:00", race_id="abd999")
        racegen.drive(running, 30)
    return tmp_path


def test_races_table(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--data", str(data), "races"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "created", "track", "cars", "rounds", "status"]
    assert lines[1].startswith("abd999  2024-06-02T20:00  usa (2 laps)")
    assert "running" in lines[1]
    assert lines[2].startswith("abc123") and "over, won by" in lines[2]
    assert "black (Legend)" in lines[2]


def test_races_without_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--data", str(tmp_path / "none"), "races"]) == 0
    assert "no races yet" in capsys.readouterr().out
    assert not (tmp_path / "none").exists()


def test_export_to_a_file_replays(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "race.json"
    assert cli.main(["--data", str(data), "export", "abc", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    with RaceLog(data / "races.sqlite3") as log:
        state = log.open_race("abc123").state
    final = list(racefile.replay(racefile.parse(doc)))[-1]
    assert racefile.state_document(final) == racefile.state_document(state)
    replayed = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(out)],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(replayed.stdout) == racefile.state_document(state)


def test_export_to_stdout(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--data", str(data), "export", "abd999"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "heat-race/1"


def test_data_folder_from_the_environment(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HEAT_COMPANION_DATA", str(data))
    assert cli.main(["races"]) == 0
    assert "abc123" in capsys.readouterr().out


@pytest.mark.parametrize(("race", "message"), [
    ("nope", "unknown race 'nope' (see `heat-companion races`)"),
    ("ab", "race id 'ab' is ambiguous: abc123, abd999"),
    ("", "unknown race ''"),
])
def test_bad_race_id(data: Path, capsys: pytest.CaptureFixture[str], race: str,
                     message: str) -> None:
    assert cli.main(["--data", str(data), "export", race]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_export_without_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--data", str(tmp_path), "export", "abc"]) == 2
    assert "unknown race 'abc'" in capsys.readouterr().err


def test_unreadable_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "races.sqlite3").write_bytes(b"garbage" * 1000)
    assert cli.main(["--data", str(tmp_path), "races"]) == 1
    err = capsys.readouterr().err
    assert "not a race log" in err and err.count("\n") == 1


# --- issue 13 -------------------------------------------------------------------------------


def _cli(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_data_after_the_command(data: Path, tmp_path: Path) -> None:
    """``--data`` is accepted before or after every command (it was refused after ``races``
    while ``championship`` took it there)."""
    before = _cli("--data", str(data), "races")
    assert before[0] == 0 and "abc123" in before[1]
    assert _cli("races", "--data", str(data)) == before
    exported = _cli("--data", str(data), "export", "abc")
    assert _cli("export", "abc", "--data", str(data)) == exported
    assert exported[0] == 0 and json.loads(exported[1])["format"] == "heat-race/1"
    # after the command wins over before it
    assert _cli("--data", str(tmp_path / "empty"), "races", "--data", str(data)) == before
    assert _cli("championship", "--list", "--data", str(data))[:2] == (0, "[]\n")
    race = tmp_path / "race.json"
    race.write_text(exported[1], encoding="utf-8")
    assert _cli("replay", str(race), "--data", str(data))[0] == 0
    for command in ("app", "demo"):
        args = cli.build_parser().parse_args([command, "--data", str(data)])
        assert args.data == str(data)
    assert cli.build_parser().parse_args(["--data", "x", "app"]).data == "x"


def test_export_of_a_race_stopped_mid_round(data: Path, tmp_path: Path) -> None:
    """Issue 13: a race stopped in round 1 exported ``"rounds": []`` and said nothing. The
    file holds every complete round and replays to the state after the last of them; one line
    on stderr says which inputs of the unfinished round are left out."""
    with RaceLog(data / "races.sqlite3") as log:
        race = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=5),
                            race_id="mid001")
        racegen.drive(race, 4)  # inside round 1
        assert race.state.round == 0  # rounds completed
    code, out, err = _cli("--data", str(data), "export", "mid001")
    assert code == 0
    assert json.loads(out)["rounds"] == []
    assert err.count("\n") == 1
    assert err.startswith("race mid001: round 1 is not finished, so the file has no rounds; "
                          "left out: 4 inputs of round 1: {")
    with RaceLog(data / "races.sqlite3") as log:
        race = log.open_race("mid001")
        while len(_round_states(race)) < 3 or racefile.export_parts(
                race.setup, race.actions())[1] is None:
            racegen.drive(race, 1, seed=len(race.actions()))
        rounds = len(_round_states(race))
        boundary = _round_states(race)[-1]
        pending = len(race.actions()) - _inputs_until(race, rounds)
    path = tmp_path / "mid.json"
    code, _, err = _cli("--data", str(data), "export", "mid001", "--out", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert code == 0 and len(doc["rounds"]) == rounds
    assert err.startswith(f"race mid001: round {rounds + 1} is not finished, so the file ends "
                          f"after round {rounds}; left out: {pending} input")
    left_out = json.loads(err.split(f"of round {rounds + 1}: ", 1)[1])
    assert left_out and set(left_out) <= {"red", "blue"}
    replayed = list(racefile.replay(racefile.parse(doc)))[-1]
    assert racefile.state_document(replayed) == racefile.state_document(boundary)


def _inputs_until(race: RaceSession, rounds: int) -> int:
    """How many of the session's inputs complete its first ``rounds`` rounds."""
    state = start_race(race.setup).state
    for count, action in enumerate(race.actions(), start=1):
        result = play(state, action)
        assert not isinstance(result, Rejection)
        state = result.state
        if state.round >= rounds:
            return count
    raise AssertionError(f"fewer than {rounds} rounds")


def _round_states(race: RaceSession) -> list[RaceState]:
    """The state at the end of each complete round of a session, replayed from its inputs."""
    state = start_race(race.setup).state
    out = []
    for action in race.actions():
        result = play(state, action)
        assert not isinstance(result, Rejection)
        if result.state.round > state.round:
            out.append(result.state)
        state = result.state
    return out


def test_a_finished_race_exports_with_nothing_left_out(data: Path) -> None:
    code, out, err = _cli("--data", str(data), "export", "abc123")
    assert (code, err) == (0, "")
    assert json.loads(out)["rounds"]


def _damage(data: Path, statement: str) -> None:
    with sqlite3.connect(data / "races.sqlite3") as db:
        db.execute(statement)


@pytest.mark.parametrize(("column", "value", "problem"), [
    ("laps", "'two'", "race abc123: laps: 'two' is not a whole number"),
    ("rounds", "'seven'", "race abc123: rounds: 'seven' is not a whole number"),
    ("rounds", "2.5", "race abc123: rounds: 2.5 is not a whole number"),
    ("over", "x'00'", "race abc123: over: b'\\x00' is not a whole number"),
    ("results", "'[[1]]'", "race abc123: results: cannot read"),
])
def test_a_damaged_races_row_names_the_race(data: Path, column: str, value: str,
                                            problem: str) -> None:
    """Issue 13: a non-integer ``laps`` or ``rounds`` in the races table gave a traceback in
    ``races`` and ``export``: exit 1 and one line naming the log and the race."""
    _damage(data, f"UPDATE races SET {column} = {value} WHERE id = 'abc123'")
    for argv in (["races"], ["export", "abc123"]):
        code, out, err = _cli("--data", str(data), *argv)
        assert (code, out) == (1, ""), (argv, err)
        assert err.startswith(f"{data / 'races.sqlite3'}: {problem}"), err
        assert err.count("\n") == 1
    code, out, err = _cli("--data", str(data), "export", "abd")  # the other race still exports
    assert (code, json.loads(out)["format"]) == (0, "heat-race/1")


def test_a_damaged_schema_whose_message_is_not_utf8(data: Path) -> None:
    """Issue 13: SQLite's message quoting a table name that is not UTF-8 made Python raise
    UnicodeDecodeError, a traceback in ``races`` and ``export``."""
    from test_open_errors import damage_schema

    damage_schema(data / "races.sqlite3")
    for argv in (["races"], ["export", "abc123"]):
        code, out, err = _cli("--data", str(data), *argv)
        assert (code, out) == (1, "")
        assert err.startswith(f"{data / 'races.sqlite3'}: The race log is damaged (malformed "
                              "database schema (r\\xff)")
        assert err.count("\n") == 1


def test_export_into_a_closed_pipe(data: Path) -> None:
    """``heat-companion export RACE | head -1`` ends quietly."""
    script = f'"{sys.executable}" -m companion --data "{data}" export abc123 | head -1'
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "{\n", "")


def test_a_race_every_car_left_says_no_car_finished() -> None:
    """Title sponsor withdraws can eliminate every car (docs/rules.md §3.3): no winner."""
    from companion.engine import CarEntry
    from companion.logtools import format_table
    from companion.session import RaceSummary

    race = RaceSummary("abc", "2024-06-01T20:05", "italy", 3, (CarEntry("red", "Ana"),), 9,
                       True, ())
    assert format_table([race]).splitlines()[1].endswith("over, no car finished")
