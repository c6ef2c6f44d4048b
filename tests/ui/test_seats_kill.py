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
from pathlib import Path
from typing import Any

import pytest
from child_app import read_then_kill

pytestmark = pytest.mark.ui

CHILD = r"""
from companion.session import RaceLog

data, where = sys.argv[1], sys.argv[2]

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

app, player = start_app(data)
player.set_up_race(("Maximilianus", "Bartholomew"))
player.press("seat 0")  # not the default seats
player.press("seat 1")
print(json.dumps(app.sm.current_screen.form.seat_map()), flush=True)
player.press("start race")
"""


def _start_race_then_kill(data: Path, where: str) -> tuple[dict[int, str], str]:
    """The seats the child set, and the id of the race it was storing when killed."""
    lines = read_then_kill(CHILD, [str(data), where], lambda lines: len(lines) >= 2)
    seats, killed = (json.loads(line) for line in lines)
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
