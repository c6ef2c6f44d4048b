"""The ruling box is filled and laid out once per tap, at its final size (issue 10, "Speed,
measured honestly"): counted, not timed. The box takes the room the rest of the race screen's
right-hand column leaves, so a tap that changes the panel (new React choices, a keypad) resizes
it; filled before the column settled, it would be filled and laid out again at the new size."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from spies import calls_to

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina")


@dataclass
class BoxWork:
    fills: int = 0
    """The box's sentences fitted to its size (``RulingBox._layout``)."""
    layouts: int = 0
    """The box's own layout passes (its labels placed)."""
    sizes: tuple[tuple[float, float], ...] = ()
    """The box's size at each fill."""


@contextmanager
def box_work(box: Any) -> Iterator[BoxWork]:
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets.ruling_box import RulingBox

    work = BoxWork()

    def filled(widget: Any) -> None:
        if widget is box:
            work.fills += 1
            work.sizes += (tuple(widget.size),)

    def laid_out(widget: Any) -> None:
        if widget is box:
            work.layouts += 1

    with calls_to(RulingBox, "_layout", filled), calls_to(BoxLayout, "do_layout", laid_out):
        yield work


def test_the_ruling_box_is_filled_and_laid_out_once_per_tap_at_its_final_size(ui) -> None:
    """A round and more of a race, tap by tap (gears, cards, React, End turn, the Legends):
    the box is filled at most once per tap, at the size it has when the frame is drawn, and
    laid out at most once; a tap that changes the box's size still fills it."""
    from companion.ui.demo.script import next_press

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    box = find(app.sm.current_screen, "messages")  # the widget (``ids`` hold proxies)
    taps = resized = 0
    while app.controller.state.round < 2:
        name = next_press(app.controller)
        assert name is not None
        ui.pump()
        size = tuple(box.size)
        with box_work(box) as work:
            ui.player.press(name)
            ui.pump()
        taps += 1
        assert work.fills <= 1, f"{name}: filled {work.fills} times, at {work.sizes}"
        assert work.layouts <= 1, f"{name}: laid out {work.layouts} times"
        if work.fills:
            assert work.sizes[-1] == tuple(box.size), f"{name}: filled at {work.sizes}"
        if tuple(box.size) != size:
            resized += 1
            assert work.fills == 1, f"{name}: resized to {box.size} but not filled again"
    assert taps > 40 and resized > 5, "the race did not resize the box: the test proves nothing"
