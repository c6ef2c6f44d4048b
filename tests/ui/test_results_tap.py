"""The tap that ends a race opens Results without building a screen (issue 10, "Speed,
measured honestly"): counted, not timed. The Results screen is built ahead, at idle after the
race screen first shows; the tap's frame shows the finishing order, and the next frame the lap
chart (the race file replayed) and the saved results, the same as Results opened any other
way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_tap_work import counting

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomew")


def _touch(ui: Any, name: str) -> None:
    """A finger on button ``name``, and the one frame that shows the tap."""
    from companion.ui.demo.player import TAP_GAP_S, TablePlayer, tap_screen

    widget = find(ui.app.sm.current_screen, name)
    x, y = widget.to_window(*widget.center)
    TablePlayer.last_tap += TAP_GAP_S
    tap_screen(x, y, at=TablePlayer.last_tap)
    ui.pump(1)


def _results(screen: Any) -> dict[str, object]:
    """What the Results screen shows and saved: its words by test name, the lap chart and
    the results file."""
    from companion.ui.widgets.lookup import walk

    words = {w.test_name: w.text for w in walk(screen)
             if getattr(w, "test_name", "") and isinstance(getattr(w, "text", None), str)}
    chart = screen.ids.chart.chart
    return {"words": words, "chart": (chart.cars, dict(chart.positions)),
            "labels": dict(screen.ids.chart.labels),
            "saved": json.loads(screen.saved_json.read_text(encoding="utf-8"))}


def test_the_tap_that_ends_a_race_builds_no_screen_and_shows_the_same_results(ui) -> None:
    from companion.ui.demo.script import next_press
    from companion.ui.screens.results import place_lines
    from companion.ui.views.results import lap_chart

    app = ui.app
    start(app, NAMES, 2)
    ui.pump()
    assert app.sm.has_screen("results"), "Results not built ahead"
    controller = app.controller
    while True:
        name = next_press(controller)
        assert name is not None
        ui.pump()
        with counting() as counts:
            _touch(ui, name)
        if controller.state.over:
            break
    assert app.sm.current == "results", "the race's last tap did not show Results"
    assert not counts.built, f"the last tap built {counts.built}"
    state = app.session.state
    lines = place_lines(state)
    shown = {"results title"} | {n for n, *_rest in lines} | {f"{n} words" for n, *_r in lines}
    assert set(counts.renders) <= shown, counts.renders
    assert sum(counts.renders.values()) <= len(shown) + 2, counts.renders
    screen = app.sm.current_screen
    for name, headline, words, _out in lines:  # the finishing order, on the tap's frame
        assert find(screen, name).text == headline
        assert find(screen, f"{name} words").text == words
    ui.pump(3)  # the lap chart and the saving, on the next frame
    after_tap = _results(screen)
    chart, _replayed = lap_chart(app.session.export())
    assert after_tap["chart"] == (chart.cars, dict(chart.positions))
    assert [r["car"] for r in after_tap["saved"]["results"]] == [c for c, _p, _r in state.results]
    app.show("results")  # Results opened again, all in one frame, as from the Races screen
    ui.pump(3)
    assert _results(app.sm.current_screen) == after_tap
