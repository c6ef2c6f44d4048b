"""A race at a real table, by touches (issue 10, "what it must show"): six drivers with names of
up to 12 letters race one lap to the results, every tap a real touch; at each kind of prompt
(gears, card keypad, Stress flip, a greyed key saying why, React, Boost, undo, results) and, in
a race against five Legends, at the Legends' moves and the whole round's rulings, the screen is
pictured at 800x480 and checked in English, then in Chinese and Korean: every button and text
inside the window, every touch target at least 48 px, every greyed button able to say why.
``heat-companion demo --headless`` writes the same pictures to ``docs/screens/``."""

from __future__ import annotations

import pytest
from layout_probe import check_screen
from test_disabled_why import disabled_without_reason

from companion.ui.demo.table_shots import KINDS, play_legends, play_six

pytestmark = pytest.mark.ui


def _fast():
    """Lay out what a tap changed without drawing it (the pictures draw full frames)."""
    from kivy.clock import Clock
    from kivy.lang import Builder

    def pump() -> None:
        Clock.tick_draw()
        Builder.sync()
        Clock.tick_draw()

    return pump


def _camera(ui, tmp_path, problems: list[str], pictures: list[str]):
    app = ui.app

    def shot(name: str) -> None:
        ui.pump(1)
        problems.extend(check_screen(app, name))
        if app.sm.current == "race":
            problems.extend(f"{name}: {n} greyed without a reason"
                            for n in disabled_without_reason(app.sm.current_screen))
        app.root_window.screenshot(str(tmp_path / f"{name}.png"))
        pictures.append(name)

    return shot


def test_six_drivers_race_to_the_end_by_touches_every_prompt_pictured(ui, tmp_path) -> None:
    app = ui.app
    problems: list[str] = []
    pictures: list[str] = []
    shot = _camera(ui, tmp_path, problems, pictures)
    camera = play_six(app, _fast(), lambda: ui.pump(1), shot, track="italy",
                      languages=("en",))
    assert app.controller.state.over
    assert len(app.controller.state.results) == 6
    assert sorted(camera.taken) == sorted(KINDS)
    legends = play_legends(app, _fast(), lambda: ui.pump(1), shot, languages=("en",))
    assert sorted(legends.taken) == ["legends", "map", "rulings"]
    assert problems == []
    assert pictures == [f"{kind}-en" for kind in (*camera.taken, *legends.taken)]
    written = sorted(tmp_path.glob("*.png"))
    assert len(written) == len(pictures) and all(p.stat().st_size > 5000 for p in written)


def test_every_prompt_in_chinese_and_korean(ui, tmp_path) -> None:
    app = ui.app
    problems: list[str] = []
    pictures: list[str] = []
    shot = _camera(ui, tmp_path, problems, pictures)
    camera = play_six(app, _fast(), lambda: ui.pump(1), shot, track="italy",
                      languages=("zh_TW", "ko"), to_the_end=False)
    assert set(camera.taken) == set(KINDS) - {"results"}
    legends = play_legends(app, _fast(), lambda: ui.pump(1), shot,
                           languages=("zh_TW", "ko"))
    assert sorted(legends.taken) == ["legends", "map", "rulings"]
    assert problems == []
    assert len(pictures) == (len(KINDS) - 1 + 3) * 2
