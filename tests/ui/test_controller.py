"""The Kivy-free controller: keypad, entitled buttons, rejections, sentences."""

from __future__ import annotations

from pathlib import Path

import tracks
from companion.engine import STRESS
from companion.session import RaceLog
from companion.ui.controller import RaceController
from companion.ui.views.race_form import RaceForm


def _controller(tmp_path: Path, legends: int = 0) -> RaceController:
    form = RaceForm(seed=3)
    form.first_race()
    form.set_legends(legends)
    log = RaceLog(tmp_path / "races.sqlite3")
    return RaceController(log.new_race(form.setup(tracks.load_track("usa"))))


def test_keypad_stress_prompts_for_flip_and_back_undoes_step_by_step(tmp_path: Path) -> None:
    c = _controller(tmp_path)
    for car in ("red", "blue"):
        c.choose_gear(car, 2)
    view = c.view()
    assert view.mode == "reveal" and not view.can_confirm
    c.key("stress")
    assert c.view().mode == "flip"
    c.key("3")
    c.key("4")
    assert c.entry == ((STRESS, 4), (3,)) and c.view().can_confirm
    c.key("back")
    c.key("back")
    assert c.entry == ((STRESS,), ())
    c.key("2")
    c.key("1")
    result = c.confirm()
    assert result is not None and c.error == ""
    assert c.view().mode == "react"
    assert any("speed 3" in m for m in c.messages)


def test_react_offers_only_what_the_car_is_entitled_to(tmp_path: Path) -> None:
    c = _controller(tmp_path)
    c.choose_gear("red", 1)
    c.choose_gear("blue", 1)
    first = c.state.current_car
    c.key("1")
    c.confirm()
    keys = [b.key for b in c.view().react]
    assert keys[-1] == "end"
    assert "adrenaline" not in keys  # the leader is not the last car
    c.end_turn()
    assert any("to space" in m for m in c.messages)
    second = c.state.current_car
    assert second != first
    c.key("1")
    c.confirm()
    assert "adrenaline" in [b.key for b in c.view().react]


def test_rejection_changes_nothing_and_says_why(tmp_path: Path) -> None:
    c = _controller(tmp_path)
    before = c.state
    c.choose_gear("red", 4)
    assert c.state is before
    assert "two gears" in c.error
