"""A prompt built on a tap (the next car's card keypad after the gears, a React whose choices
were not shown before) is laid out in one pass of its grid's height: its grids take the panel's
width and are laid out before the panel, so the panel is laid out at most twice on that tap
(once with the new grids, once at its new height), not also at the height a grid had before
it was laid out. Counted, never timed."""

from __future__ import annotations

from typing import Any

import pytest
from spies import calls_to

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import walk

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina")


def test_a_prompt_built_on_a_tap_lays_the_panel_out_at_most_twice(ui) -> None:
    from companion.ui.demo.script import next_press
    from companion.ui.widgets.race_panel import RacePanel

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    panel = next(w for w in walk(screen) if isinstance(w, RacePanel))
    passes: list[tuple[float, float]] = []

    def laid_out(widget: Any) -> None:
        if widget is panel:
            passes.append((widget.width, widget.height))

    built = 0
    with calls_to(RacePanel, "do_layout", laid_out):
        while app.controller.state.round < 2:
            name = next_press(app.controller)
            assert name is not None
            ui.pump()
            kept = set(map(id, panel._built.values()))
            passes.clear()
            ui.player.press(name)
            ui.pump()
            if panel._current is not None and id(panel._current) not in kept:
                built += 1  # a prompt built on this tap
                assert len(passes) <= 2, f"{name}: the panel laid out {len(passes)} times"
                assert panel.height == panel.minimum_height
    assert built >= 3, "no prompt was built on a tap: the test proves nothing"
