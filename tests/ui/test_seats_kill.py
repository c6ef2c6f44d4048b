"""A power cut as a race is stored: the race's seats (which seat plays which car, set on the New
race form) survive with the race. The app runs in a child process, sets the seats, presses Start
race and is killed with SIGKILL at a point inside storing it; the test then starts the app again
on the same data folder, as after the power came back.

Before, the seat file was written after the race's own transaction: killed in between, the race
was stored and its seats were not, and Continue sat the drivers in the default seats (seat 1,
2, ... in grid order), not those the table had set. Now the seats are written (and synced)
inside the race's transaction, before it commits: killed after the commit, both are kept;
killed before it, the race is not stored and the seats written are an entry no race has, which
nothing reads (a race started afterwards writes its own). The kill points are reached by the
child's own steps, never by time (the child waits to be killed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT = 25.0

CHILD = r"""
import json, sys
from companion.ui.headless import use_headless_kivy
use_headless_kivy("heat-seats-kivy-")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "0")
from kivy.base import EventLoop, runTouchApp
from companion.session import RaceLog
from companion.ui.app import HeatApp
from companion.ui.demo.player import TablePlayer

data, where = sys.argv[1], sys.argv[2]

def pump(frames=2):
    for _ in range(frames):
        EventLoop.idle()

def wait_for_the_kill(said):
    print(json.dumps(said), flush=True)
    sys.stdin.readline()  # the SIGKILL comes here
    raise SystemExit("not killed")

if where == "after-commit":  # the race's transaction committed, nothing after it done
    new_race = RaceLog.new_race
    def stored(self, *args, **kwargs):
        session = new_race(self, *args, **kwargs)
        wait_for_the_kill({"at": where, "race": session.race_id})
    RaceLog.new_race = stored
else:  # "before-commit": the seats written, the race's transaction not committed
    save_seats = HeatApp.save_seats
    def written(self, race_id, seats):
        save_seats(self, race_id, seats)
        wait_for_the_kill({"at": where, "race": race_id})
    HeatApp.save_seats = written

app = HeatApp(data=data, hardware_factory=None)
app._run_prepare()
runTouchApp(embedded=True)
pump()
player = TablePlayer(app, pump)
player.set_up_race(("Maximilianus", "Bartholomew"))
player.press("seat 0")  # not the default seats
player.press("seat 1")
print(json.dumps(app.sm.current_screen.form.seat_map()), flush=True)
player.press("start race")
"""


def _start_race_then_kill(data: Path, where: str) -> tuple[dict[int, str], str]:
    """The seats the child set, and the id of the race it was storing when killed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data), where],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[Any] = []
    try:
        while len(lines) < 2:
            line = proc.stdout.readline()
            assert line, f"the child stopped: {proc.stderr.read() if proc.stderr else ''}"
            lines.append(json.loads(line))
        os.kill(proc.pid, signal.SIGKILL)  # the power cut
        assert proc.wait(timeout=CHILD_TIMEOUT) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=CHILD_TIMEOUT)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    seats, killed = lines
    assert killed["at"] == where
    return {int(seat): car for seat, car in seats.items()}, str(killed["race"])


def _saved_seats(data: Path) -> dict[str, Any]:
    path = data / "seats.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def test_a_race_stored_keeps_the_seats_the_table_set(make_harness) -> None:
    harness = make_harness()
    seats, race_id = _start_race_then_kill(harness.data, "after-commit")
    defaults = {1: "red", 2: "blue"}
    assert seats != defaults and sorted(seats.values()) == sorted(defaults.values())
    app = harness.start()  # the power is back
    assert [item.id for item in app.unfinished()] == [race_id]
    harness.player.press("continue")
    assert app.sm.current == "race" and app.session.race_id == race_id
    assert app.seat_map == seats  # (it was {1: red, 2: blue}: the default seats)


def test_seats_written_for_a_race_not_stored_are_never_read(make_harness) -> None:
    harness = make_harness()
    seats, race_id = _start_race_then_kill(harness.data, "before-commit")
    app = harness.start()
    assert app.unfinished() == [] and race_id not in app.log().race_ids()
    assert race_id in _saved_seats(harness.data)  # written, and no race has them
    harness.player.set_up_race(("Maximilianus", "Bartholomew"))  # default seats this time
    harness.player.press("start race")
    new_race = app.session.race_id
    assert app.seat_map == {1: "red", 2: "blue"}
    assert _saved_seats(harness.data)[new_race] == {"1": "red", "2": "blue"}
    app = harness.restart()
    harness.player.press("continue")
    assert app.session.race_id == new_race and app.seat_map == {1: "red", 2: "blue"}
