"""``heat-companion championship`` (companion/championship_cli.py): JSON and CSV from race files
and from the log, and one line with exit status 2 on bad input."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from season_1961 import CARS, SEEDS
from strategies import SensibleDriver, run_race

from companion.championship import SEASONS
from companion.championship_cli import add_parser, main
from companion.storage.seasons import SeasonStore

DIR = Path(__file__).parent / "season-1961"
FILES = [str(DIR / f"race-{n}.json") for n in (1, 2, 3)]

# Hand-checked in test_championship_1961.py.
CSV_1961 = """\
rank,car,name,legend,points,race1_place,race1_points,race2_place,race2_points,race3_place,race3_points
1,black,black,yes,24,1,9,3,4,1,11
2,red,Ana,no,16,3,4,2,6,2,6
3,yellow,yellow,yes,16,4,3,1,9,3,4
4,green,Ben,no,12,2,6,4,3,4,3
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_files_json() -> None:
    code, out, err = run("--files", *FILES, "--season", "1961")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["format"] == "heat-standings/1"
    assert doc["season"] == {"id": "1961", "name": "1961", "verified": True, "note": "",
                             "races": 3, "played": 3, "over": True}
    assert [(s["rank"], s["car"], s["points"]) for s in doc["standings"]] == [
        (1, "black", 24), (2, "red", 16), (3, "yellow", 16), (4, "green", 12)]
    black = doc["standings"][0]
    assert black["races"][2] == {"race": 3, "place": 1, "status": "placed", "points": 9,
                                 "bonus": 2, "total": 11, "sponsors": 0}
    assert [r["source"] for r in doc["races"]] == FILES
    assert doc["races"][2]["winner_bonus"] == 2 and doc["next"] is None


def test_files_partial_season_gives_next_grid_and_draft() -> None:
    code, out, _ = run("--files", *FILES[:2], "--season", "1961", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["season"]["played"] == 2
    assert doc["races"][2]["status"] == "to come" and doc["races"][2]["source"] is None
    assert doc["next"] == {"race": 3, "track": "italy", "event": "drivers-strike",
                           "playable": True, "grid": ["black", "yellow", "red", "green"],
                           "draft": {"picks": ["green", "red"], "swap": "green", "market": 5}}


def test_files_csv() -> None:
    assert run("--files", *FILES, "--season", "1961", "--csv") == (0, CSV_1961, "")


def test_custom_season_file(tmp_path: Path) -> None:
    custom = tmp_path / "cup.json"
    races = [{"track": r.track, "event": r.event, "press": list(r.press)}
             for r in SEASONS["1961"].races]
    custom.write_text(json.dumps({"name": "Cup", "races": races}), encoding="utf-8")
    out = tmp_path / "standings.csv"
    assert run("--files", *FILES, "--custom", str(custom), "--csv", "--out", str(out)) == (
        0, "", "")
    assert out.read_text(encoding="utf-8") == CSV_1961
    races[2]["event"] = "corruption"
    custom.write_text(json.dumps({"name": "Cup", "races": races}), encoding="utf-8")
    code, _, err = run("--files", *FILES, "--custom", str(custom))
    assert code == 2 and err.endswith("has event corruption, the file drivers-strike\n")


def _store_season(data: Path, races: int) -> str:
    with SeasonStore(data / "races.sqlite3") as store:
        season_id = store.create_season(SEASONS["1961"], CARS, season_id="c0ffee01")
        for number in range(1, races + 1):
            setup = store.season(season_id).season.next_race_setup(seed=SEEDS[number - 1])
            session = store.start_race(season_id, setup, race_id=f"r{number}")
            actions = run_race(setup, seed=SEEDS[number - 1], driver=SensibleDriver).actions
            for action in actions[: None if number < races else 10]:
                session.submit(action)
    return season_id


def test_stored_season(tmp_path: Path) -> None:
    _store_season(tmp_path, 2)  # race 1 over, race 2 running
    code, out, err = run("--season", "c0ff", "--data", str(tmp_path))
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert [r["status"] for r in doc["races"]] == ["over", "running", "to come"]
    assert [r["source"] for r in doc["races"]] == ["r1", "r2", None]
    assert [(s["car"], s["points"]) for s in doc["standings"]] == [
        ("black", 9), ("green", 6), ("red", 4), ("yellow", 3)]
    code, out, _ = run("--list", "--data", str(tmp_path))
    assert code == 0 and [(s["id"], s["races"], s["started"]) for s in json.loads(out)] == [
        ("c0ffee01", 3, 2)]


def test_wired_like_heat_companion(tmp_path: Path) -> None:
    """The shape of the cli.py patch: a parent parser with --data and the subcommand."""
    _store_season(tmp_path, 1)
    parser = argparse.ArgumentParser(prog="heat-companion")
    parser.add_argument("--data")
    add_parser(parser.add_subparsers(dest="command"))
    for argv in (["--data", str(tmp_path), "championship", "--season", "c0ffee01", "--csv"],
                 ["championship", "--season", "c0ffee01", "--csv", "--data", str(tmp_path)]):
        out = io.StringIO()
        assert main(parser.parse_args(argv), out=out) == 0
        assert out.getvalue().splitlines()[0].startswith("rank,car,name")


def _unfinished(tmp_path: Path) -> str:
    doc: dict[str, Any] = json.loads(Path(FILES[0]).read_text(encoding="utf-8"))
    doc["rounds"] = doc["rounds"][:5]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("argv", "message"), [
    ([], "give --season ID (a stored season) or --files"),
    (["--files", FILES[0]], "--files needs --season YEAR or --custom FILE"),
    (["--custom", "x.json"], "--custom goes with --files"),
    (["--files", FILES[0], "--season", "1961", "--custom", "x.json"], "not both"),
    (["--files", FILES[0], "--season", "1999"], "unknown season '1999'"),
    (["--files", FILES[1], "--season", "1961"], "race 1 of season 1961 is on great-britain, "
                                                "the file on usa"),
    (["--files", *FILES, FILES[0], "--season", "1961"], "4 race files for a season of 3"),
    (["--files", "missing.json", "--season", "1961"], "missing.json: cannot read"),
    (["--files", "{tmp}/bad.json", "--season", "1961"], "bad.json: not JSON: line 1"),
    (["--files", "{short}", "--season", "1961"], "short.json: the race is not over (round 5)"),
    (["--files", FILES[0], "--custom", "{tmp}/bad.json"], "bad.json: not JSON"),
    (["--files", FILES[0], "--custom", "{tmp}/empty.json"], "empty.json: races: required"),
    (["--season", "nope", "--data", "{tmp}"], "unknown season 'nope': no seasons in"),
    (["--csv", "--json"], "not allowed with argument"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, argv: list[str], message: str) -> None:
    (tmp_path / "bad.json").write_text("{oops", encoding="utf-8")
    (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
    short = _unfinished(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{short}", short) for a in argv]
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err, err


def test_stored_bad_ids(tmp_path: Path) -> None:
    _store_season(tmp_path, 0)
    with SeasonStore(tmp_path / "races.sqlite3") as store:
        store.create_season(SEASONS["1962"], CARS, season_id="c0ffee02")
    code, _, err = run("--season", "c0ff", "--data", str(tmp_path))
    assert code == 2 and err == "season id 'c0ff' is ambiguous: c0ffee01, c0ffee02\n"
    code, _, err = run("--season", "beef", "--data", str(tmp_path))
    assert code == 2 and err == "unknown season 'beef' (see --list)\n"


def test_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.championship_cli", "--files", *FILES, "--season",
         "1961", "--csv"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, CSV_1961, "")


def _race_1_with(change: Any) -> bytes:
    doc: dict[str, Any] = json.loads(Path(FILES[0]).read_text(encoding="utf-8"))
    change(doc)
    return json.dumps(doc).encode()


NASTY = [
    ("not-utf8", Path(FILES[0]).read_bytes().replace(b'"Ana"', b'"Zo\xeb"'),
     "not UTF-8 text (byte 0xeb at offset"),
    ("deep", b"[" * 100_000 + b"]" * 100_000, "nested more than 32 levels deep"),
    ("long-integer", Path(FILES[0]).read_bytes().replace(b'"seed": 21', b'"seed": ' + b"1" * 9000),
     "a number of more than 4300 digits"),
    ("event-list", _race_1_with(lambda d: d["modules"].update(event=["new-grandstand"])),
     'modules.event: unknown event ["new-grandstand"]'),
    ("weather-object", _race_1_with(lambda d: d["modules"].update(weather={"fog": 1})),
     "modules.weather: one of cloud, fog"),
    ("road-superscript", _race_1_with(lambda d: d["modules"].update(road={"²": "limit+1"})),
     "modules.road.²: not a corner of great-britain"),
]


@pytest.mark.parametrize(("data", "message"), [(d, m) for _, d, m in NASTY],
                         ids=[name for name, _, _ in NASTY])
def test_damaged_race_file_is_one_line_exit_2(tmp_path: Path, data: bytes, message: str) -> None:
    """Issue 13: ``championship --files`` gave a traceback on these; now exit 2 with one line
    naming the file and what is wrong (the real command, in a child process)."""
    path = tmp_path / "race-1.json"
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "championship", "--files", str(path), *FILES[1:],
         "--season", "1961"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith(f"{path}: {message}"), done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")


def test_damaged_custom_season_is_one_line_exit_2(tmp_path: Path) -> None:
    season = tmp_path / "season.json"
    season.write_text(json.dumps({"format": "heat-season/1", "id": "x", "name": "x", "races": [
        {"track": "great-britain", "event": ["new-grandstand"]}]}), encoding="utf-8")
    code, out, err = run("--files", FILES[0], "--custom", str(season))
    assert (code, out) == (2, "")
    assert err == f"{season}: races[0].event: unknown event ['new-grandstand'] " \
                  "(see docs/race-file-v2.md)\n"


CHECKS = Path(__file__).parent / "season-checks"
"""Race files from the independent check of the standings (found there, kept as cases)."""


def test_a_board_of_its_own_under_a_season_track_s_id_is_not_that_race(tmp_path: Path) -> None:
    """docs/championship.md: a file must match its race's track. A race file may give a track
    of its own, inline, under a bundled id (docs/race-file.md); a 30-space board called
    "great-britain" is not 1961's Great Britain, though it replays."""
    path = str(CHECKS / "inline-board-called-great-britain.json")
    code, out, err = run("--files", path, "--season", "1961")
    assert (code, out) == (2, "")
    assert "is on the bundled great-britain; the file's track of that id is another board " \
           "(30 spaces" in err, err


def test_the_bundled_board_written_inline_is_the_season_s_track() -> None:
    import dataclasses

    import tracks
    from companion.championship import on_season_board

    bundled = tracks.load_track("great-britain")
    assert on_season_board(dataclasses.replace(bundled, name="", unverified=()), "great-britain")
    assert not on_season_board(dataclasses.replace(bundled, spaces=bundled.spaces + 1),
                               "great-britain")
    assert not on_season_board(bundled, "usa")


def test_press_corners_are_matched_as_corners_however_named(tmp_path: Path) -> None:
    """A file naming Press Corner B twice (B, then F, which wraps to B on USA's four) has the
    season race's one Press Corner B: accepted."""
    custom = tmp_path / "season.json"
    custom.write_text(json.dumps({"races": [{"track": "usa", "press": ["B"]}]}),
                      encoding="utf-8")
    code, out, err = run("--files", str(CHECKS / "usa-press-b-named-twice.json"),
                         "--custom", str(custom))
    assert (code, err) == (0, ""), err
    assert json.loads(out)["races"][0]["status"] == "over"


def test_a_file_for_a_race_the_app_cannot_run_is_refused(tmp_path: Path) -> None:
    """A race marked ``playable: false`` is never set up by the app (docs/championship.md), so
    no race file can be its result."""
    custom = tmp_path / "season.json"
    races = [{"track": r.track, "event": r.event, "press": list(r.press)}
             for r in SEASONS["1961"].races]
    races[0] |= {"playable": False, "note": "not in the box"}
    custom.write_text(json.dumps({"races": races}), encoding="utf-8")
    code, out, err = run("--files", FILES[0], "--custom", str(custom))
    assert (code, out) == (2, "")
    assert "(great-britain) cannot be played in the app: not in the box" in err, err
