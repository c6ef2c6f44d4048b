"""A tap re-renders and rebuilds only what it changed (issue 10, "Speed, measured honestly"):
counted, not timed. Every label texture brought up to date (``Label.texture_update``: rendered,
or taken from the kept textures of :mod:`companion.ui.widgets.text_cache`) and every widget
built during a tap, to the frame that shows it, are counted by test name; the bounds are what
the tap must change on screen, so a regression (a panel rebuilt, a row rewritten, a text set
that re-renders the same words) fails here whatever the host's speed. ``bench/app.py`` times
the same taps."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from spies import calls_to

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina")


@dataclass
class Counts:
    renders: Counter[str] = field(default_factory=Counter)
    """Label textures rendered, by the label's test name (its class name when it has none)."""
    built: Counter[str] = field(default_factory=Counter)
    """Widgets built, by class name."""


@contextmanager
def counting() -> Iterator[Counts]:
    """Count what Kivy renders and builds inside the block."""
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    counts = Counts()

    def rendered(label: Any) -> None:
        counts.renders[getattr(label, "test_name", "") or type(label).__name__] += 1

    def built(widget: Any) -> None:
        counts.built[type(widget).__name__] += 1

    with calls_to(Label, "texture_update", rendered), calls_to(Widget, "__init__", built):
        yield counts


def tap(ui: Any, name: str) -> Counts:
    """Tap ``name`` as a finger would and draw the frames that show it; what it cost."""
    ui.pump()
    with counting() as counts:
        ui.player.press(name)
        ui.pump()
    return counts


def step(ui: Any) -> tuple[str, Counts]:
    """The scripted table's next tap; what it cost."""
    from companion.ui.demo.script import next_press

    name = next_press(ui.app.controller)
    assert name is not None, "the race is over"
    return name, tap(ui, name)


def test_a_prompt_that_comes_back_is_put_up_as_built(ui) -> None:
    """The gears come back every round (in a new race order), each car's card keypad every
    turn: their widgets are the ones built the first time, and no widget is built for them."""
    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    controller = app.controller
    cells = {row.car: find(screen, f"driver {row.car}").parent.parent
             for row in controller.view().gear_rows}
    keypad: dict[str, Any] = {}
    seen_modes: list[str] = []
    while controller.state.round == 0:
        before = controller.view().mode
        name, counts = step(ui)
        mode = controller.view().mode
        if mode == "reveal":
            keys = {key: find(screen, f"key {key}") for key, _label, _on in
                    controller.view().keys}
            if keypad and before != "reveal":  # the next car's keypad: the same keys
                assert keys == keypad, "the card keypad was built again"
                assert not counts.built, f"{name}: {counts.built}"
            keypad = keypad or keys
        seen_modes.append(mode)
    assert "react" in seen_modes and "reveal" in seen_modes
    view = controller.view()
    assert view.mode == "gears"
    assert [r.car for r in view.gear_rows] != list(cells), "the order did not change"
    assert {r.car: find(screen, f"driver {r.car}").parent.parent
            for r in view.gear_rows} == cells, "a gear cell was built again"
    assert not counts.built, f"{name} built {counts.built}"
    order = [cell for cell in reversed(cells[view.gear_rows[0].car].parent.children)]
    assert order == [cells[r.car] for r in view.gear_rows], "cells not in the race order"


def _table_words(app: Any) -> dict[str, tuple[object, ...]]:
    """What each label of the race order says (and whether it is lit), by test name; for a
    name, the room it has too (a name is laid out in its room: when a column widens, the names
    have less)."""
    from companion.ui.widgets.race_table import COLUMNS, row_cells, spot_text

    rows = app.controller.view().order
    sponsors = app.controller.view().sponsors
    screen = app.sm.current_screen
    words: dict[str, tuple[object, ...]] = {}
    for row in rows:
        name = find(screen, f"order name {row.car}")
        words[f"order name {row.car}"] = (row.label, row.eliminated, name.width, name.height)
        for column, text in zip(COLUMNS, row_cells(row, sponsors), strict=False):
            lit = column == "space" and row.moved and row.on_track
            words[f"{column} {row.car}"] = (text, lit)
        assert words[f"space {row.car}"][0] == spot_text(row)
    return words


def test_the_race_order_renders_only_the_cells_that_changed(ui) -> None:
    """Two rounds of a race, tap by tap: a label of the race order is rendered again only when
    what it says changed (its car moved, heated...), never because another car changed or
    because cars changed places."""
    from companion.ui.widgets.race_table import COLUMNS

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    table_label = (*(f"{c} " for c in COLUMNS), "order name ")
    passes = 0
    while app.controller.state.round < 2:
        before = _table_words(app)
        order = [r.car for r in app.controller.view().order]
        name, counts = step(ui)
        after = _table_words(app)
        passes += order != [r.car for r in app.controller.view().order]
        changed = {label for label, said in after.items() if before.get(label) != said}
        rendered = {label for label in counts.renders
                    if label.startswith(table_label) and len(label.split()) == 2
                    or label.startswith("order name ")}
        assert rendered <= changed, f"{name}: rendered {sorted(rendered - changed)} unchanged"
    assert passes, "no car passed another: the test proves nothing about the order"


def test_a_gear_and_an_undo_render_only_the_words_that_changed(ui) -> None:
    """The bench's taps (``bench/app.py``): a gear chosen, then Undo. What changes in words is
    the prompt, the driver's "ready" and the ruling; a button greyed out or selected and the
    driver's name turning green are drawn in another colour (``TintBtn`` / ``TintLabel``),
    nothing rendered again; nothing is built."""
    app = ui.app
    start(app, NAMES[:2], 2)
    ui.pump()
    car = app.controller.view().gear_rows[0].car
    for name in (f"gear {car} 2", "undo") * 2:
        counts = tap(ui, name)
        assert not counts.built, f"{name} built {counts.built}"
        assert set(counts.renders) <= {"prompt", f"ready {car}", "Label"}, (name, counts.renders)
        assert sum(counts.renders.values()) <= 3, (name, counts.renders)


def test_clogged_comes_and_goes_in_the_drivers_own_cell(ui) -> None:
    """When a car may declare a clogged hand, its cell gets Clogged (a full-size button: the
    name's line grows to a button's height); the cell is the one built at the start, not a new
    one, and Clogged declares it. A later round without it takes the button out again."""
    from companion.ui.widgets.race_panel import button_height

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    controller = app.controller
    cells = {row.car: find(screen, f"driver {row.car}").parent.parent
             for row in controller.view().gear_rows}
    assert find_all(screen, "clogged ") == []
    while not any(r.can_clog for r in controller.view().gear_rows if r.planned is None):
        step(ui)
        assert not controller.state.over, "no car could declare a clogged hand"
    view = controller.view()
    row = next(r for r in view.gear_rows if r.can_clog and r.planned is None)
    clogged = find(screen, f"clogged {row.car}")
    assert clogged.parent.parent is cells[row.car]
    assert clogged.height >= button_height(app) and clogged.parent.height >= clogged.height
    assert {r.car: find(screen, f"driver {r.car}").parent.parent
            for r in view.gear_rows} == cells, "a gear cell was built again"
    counts = tap(ui, f"clogged {row.car}")
    assert not counts.built
    assert next(r for r in controller.view().gear_rows if r.car == row.car).clogged
    assert find(screen, f"clogged {row.car}").role == "selected"
    # a view where the car may no longer declare it (as in a later round): out it goes
    view = controller.view()
    without = dataclasses.replace(view, gear_rows=tuple(
        dataclasses.replace(r, can_clog=False, clogged=False) if r.car == row.car else r
        for r in view.gear_rows))
    panel = screen.ids.panel
    with counting() as counts:
        panel.show(without)
        ui.pump()
    assert find_all(screen, f"clogged {row.car}") == [] and not counts.built
    assert find(screen, f"driver {row.car}").parent.parent is cells[row.car]
    assert cells[row.car].height < clogged.height * 2
    with counting() as counts:
        panel.show(view)
        ui.pump()
    assert find(screen, f"clogged {row.car}") is clogged and not counts.built


def test_a_prompt_put_back_in_its_place_is_not_laid_out_again(ui) -> None:
    """A React choice often brings back a prompt shown before (the next car's React, its card
    keypad): put back at the width it was laid out at, its widgets are where that layout left
    them, so neither the panel nor the prompt's own grids are laid out again on that tap; the
    panel takes the height it had with them, and every button is where it was."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout

    from companion.ui.demo.script import next_press
    from companion.ui.widgets.lookup import walk

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    panel = next(w for w in walk(screen) if type(w).__name__ == "RacePanel")
    seen: dict[tuple[object, ...], tuple[float, dict[str, tuple[float, ...]]]] = {}
    laid_out: list[Any] = []
    put_back = 0
    with calls_to(BoxLayout, "do_layout", laid_out.append), \
            calls_to(GridLayout, "do_layout", laid_out.append):
        while app.controller.state.round < 2:
            name = next_press(app.controller)
            assert name is not None
            ui.pump()
            before = panel._signature
            laid_out.clear()
            ui.player.press(name)
            signature = panel._signature
            places = {w.test_name: (*w.pos, *w.size) for w in walk(panel)  # (in the panel)
                      if getattr(w, "test_name", "")}
            if signature != before and signature in seen and signature[0] != "gears":
                put_back += 1  # (the gears' cells are put back in a new race order)
                height, was = seen[signature]
                mine = [w for w in laid_out if w is panel or w.parent is panel]
                assert not mine, f"{name}: {[type(w).__name__ for w in mine]} laid out again"
                assert panel.height == height, name
                assert places == was, f"{name}: a widget of the prompt moved"
            seen[signature] = (panel.height, places)
    assert put_back > 10, "no prompt came back: the test proves nothing"


def test_gears_that_change_are_laid_out_once(ui) -> None:
    """The tap that brings the next round's gears back puts the drivers' cells in a new race
    order, with Clogged in or out: the gears' grid and the panel change height. Laid out at
    once, with the panel given that height on the tap, the column under the prompt is laid
    out at its final heights: the grid and the panel once, the column at most twice (its
    labels' new sizes), not once more per level as the height climbs from cell to column."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout

    from companion.ui.demo.script import next_press
    from companion.ui.widgets.lookup import walk

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    screen = app.sm.current_screen
    panel = next(w for w in walk(screen) if type(w).__name__ == "RacePanel")
    column = panel.parent.parent  # the prompt, the entry, the panel's scroller, the rulings
    laid_out: list[Any] = []
    checked = 0
    with calls_to(BoxLayout, "do_layout", laid_out.append), \
            calls_to(GridLayout, "do_layout", laid_out.append):
        while not app.controller.state.over and app.controller.state.round < 5:
            name = next_press(app.controller)
            assert name is not None
            ui.pump()
            grid = panel._current.grid if panel._current is not None else None
            cells = list(grid.children) if grid is not None else None
            clogged = {w.test_name for w in find_all(screen, "clogged ")}
            laid_out.clear()
            ui.player.press(name)
            grid = panel._current.grid if panel._current is not None else None
            if (grid is None or grid.parent is not panel
                    or (list(grid.children) == cells
                        and {w.test_name for w in find_all(screen, "clogged ")} == clogged)):
                continue  # no gears shown, or the same cells as before the tap
            checked += 1
            times = Counter(id(w) for w in laid_out)
            assert times[id(grid)] <= 1, name
            assert times[id(panel)] <= 1, name
            assert times[id(column)] <= 2, name
    assert checked >= 3, "no tap changed the gears' cells: the test proves nothing"
