"""When cars pass, the drivers' gear cells and the race order's rows change places: a cell or a
row that only moves is not laid out again, and none of the canvas rules of what is in it runs
(the slot's translation changes, nothing inside it: ``companion/ui/widgets/slot.py``); every
button and row is still where the window shows it, and a finger on it still reaches it.
Counted, never timed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from spies import calls_to

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find, walk

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina")


@dataclasses.dataclass
class Work:
    laid_out: list[Any] = dataclasses.field(default_factory=list)
    """Every box, grid, float layout and slot laid out, in order."""
    drawn_by_rule: list[int] = dataclasses.field(default_factory=list)
    """The widget (``uid``) of every canvas rule expression run (a kv ``pos: self.pos`` of a widget
    that moved, a Label's text placed again...)."""


@contextmanager
def counted() -> Iterator[Work]:
    from kivy.lang import builder
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.gridlayout import GridLayout

    from companion.ui.widgets.slot import SlotMixin

    work = Work()
    original = builder.call_fn

    def call_fn(args: Any, instance: Any, value: Any) -> Any:
        work.drawn_by_rule.append(args[4]["self"].uid)  # (the rule's idmap: its widget)
        return original(args, instance, value)

    builder.call_fn = call_fn  # Builder.sync runs the canvas rules through it, by name
    try:
        with ExitStack() as stack:
            for cls in (BoxLayout, FloatLayout, GridLayout, SlotMixin):
                stack.enter_context(calls_to(cls, "do_layout", work.laid_out.append))
            yield work
    finally:
        builder.call_fn = original


def window_places(root: Any, prefix: str) -> dict[str, tuple[float, float, float, float]]:
    """Where each widget named ``prefix...`` is, in window coordinates."""
    places = {}
    for widget in walk(root):
        name = getattr(widget, "test_name", "")
        if name.startswith(prefix):
            x, y = widget.to_window(widget.x, widget.y)
            places[name] = (round(x, 3), round(y, 3), round(widget.width, 3),
                            round(widget.height, 3))
    return places


def inside(widget: Any, boxes: list[Any]) -> bool:
    """``widget`` (or its ``uid``) is in one of ``boxes`` (or is one)."""
    uid = widget if isinstance(widget, int) else widget.uid
    return any(uid == w.uid for box in boxes for w in walk(box))


def tap(x: float, y: float) -> None:
    from companion.ui.demo.player import TAP_GAP_S, TablePlayer, tap_screen

    TablePlayer.last_tap += TAP_GAP_S
    tap_screen(x, y, at=TablePlayer.last_tap)  # a finger, through the window


def test_gear_cells_that_change_places_are_not_laid_out_again(ui) -> None:
    """The gears in the opposite race order: each cell moves (in the window), nothing in any
    cell is laid out or placed again by a canvas rule, and a finger on a moved gear still
    chooses it."""
    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    panel = screen.ids.panel
    view = app.controller.view()
    assert view.mode == "gears" and len(view.gear_rows) == 4
    before = window_places(screen, "gear ")
    cells = [find(screen, f"driver {row.car}").parent.parent for row in view.gear_rows]
    assert all(cell.parent is cells[0].parent for cell in cells)  # the cells of one grid
    swapped = dataclasses.replace(view, gear_rows=tuple(reversed(view.gear_rows)))
    with counted() as work:
        panel.show(swapped)
        ui.pump()
    after = window_places(screen, "gear ")
    assert set(after) == set(before)
    moved = [name for name in before if before[name][:2] != after[name][:2]]
    assert len(moved) == 16, "the cells did not change places: the test proves nothing"
    assert all(before[name][2:] == after[name][2:] for name in before), "a gear was resized"
    assert [c for c in reversed(cells[0].parent.children)] == cells[::-1]
    laid_out = [w for w in work.laid_out if inside(w, cells)]
    assert not laid_out, f"{len(laid_out)} layouts in the moved cells: {laid_out[:4]}"
    drawn = [w for w in work.drawn_by_rule if inside(w, cells)]
    assert not drawn, f"{len(drawn)} canvas rules run in the moved cells: {drawn[:4]}"
    last = swapped.gear_rows[0]  # the first cell was the last: it moved the farthest
    x, y, w, h = after[f"gear {last.car} 3"]
    chosen: list[tuple[str, int]] = []
    panel.actions = type("Actions", (), {
        "choose_gear": lambda self, car, gear: chosen.append((car, gear))})()
    tap(x + w / 2, y + h / 2)
    ui.pump()
    assert chosen == [(last.car, 3)], "a finger on the moved gear did not choose it"


def test_race_order_rows_that_change_places_are_not_laid_out_again(ui) -> None:
    """The race order reversed with nothing else changed: every row moves (in the window), no
    row is laid out and only each row's own background is placed again (drawn where the row
    is), and a tap on a moved row asks about its car."""
    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    table = find(screen, "order")
    rows = list(app.controller.view().order)
    sponsors = table._shown[1]
    before = window_places(table, "")
    lines = [find(table, f"order {row.car}") for row in rows]
    with counted() as work:
        table.show(tuple(reversed(rows)), sponsors)
        ui.pump()
    after = window_places(table, "")
    moved = [row.car for row in rows
             if before[f"order {row.car}"][:2] != after[f"order {row.car}"][:2]]
    assert len(moved) >= len(rows) - 1, "the rows did not change places: the test proves nothing"
    for row in rows:
        for name in (f"order {row.car}", f"space {row.car}", f"order name {row.car}"):
            assert before[name][2:] == after[name][2:], f"{name} was resized"
    laid_out = [w for w in work.laid_out if inside(w, lines)]
    assert not laid_out, f"{len(laid_out)} layouts in the moved rows: {laid_out[:4]}"
    drawn = [w for w in work.drawn_by_rule
             if inside(w, lines) and w not in {line.uid for line in lines}]
    assert not drawn, f"{len(drawn)} canvas rules run in the moved rows: {drawn[:4]}"
    asked: list[str] = []
    table.on_row = asked.append
    x, y, w, h = after[f"space {rows[0].car}"]
    tap(x + w / 2, y + h / 2)
    ui.pump()
    assert asked == [rows[0].car]
