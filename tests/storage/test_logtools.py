"""``heat-companion races`` and ``heat-companion export``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import racegen
from companion import cli, racefile
from companion.session import RaceLog


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
