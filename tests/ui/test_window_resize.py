"""A window that changes size with a race on screen: every screen takes the new text and touch
sizes at once, not at the next tap."""

from __future__ import annotations

import pytest


@pytest.mark.ui
@pytest.mark.parametrize("size", [(1920, 1080), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_race_screen_takes_the_new_sizes_before_the_next_frame(ui, size) -> None:
    """Before, the race order kept its height (set when the screen was refreshed) until the
    next tap: at 1920x1080 it stayed as tall as at 800x480, its rows in the new text cut."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui.demo.table_shots import start
    from companion.ui.widgets.lookup import walk

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina"), 1, track="usa")
    ui.pump(3)
    screen = app.sm.current_screen
    order = screen.ids.order
    cars = len(app.controller.state.cars)
    before = order.height
    try:
        Window.size = size
        ui.pump(3)
        assert app.fs_small > 14
        assert order.height == pytest.approx(order.preferred_height(cars))
        assert order.height > before
        sizes = {round(w.font_size) for w in walk(order) if isinstance(w, Label) and w.text}
        assert app.fs_small in sizes and max(sizes) <= app.fs_small, sizes
        panel_texts = [w for w in walk(screen.ids.panel) if isinstance(w, Label) and w.text]
        assert panel_texts and min(w.height for w in panel_texts
                                   if hasattr(w, "on_press")) >= app.tap * 0.86 - 1
    finally:
        Window.size = (800, 480)
        ui.pump(3)
    assert order.height == pytest.approx(before)
    app.show("start")
    ui.pump(2)


@pytest.mark.ui
def test_a_stopped_app_follows_no_window(make_harness) -> None:
    """An app stopped (a test's, each test has its own) no longer follows the window: before,
    each kept its binding, so every resize re-rendered every screen of every app a test
    session had made (the suite ran three times as long and grew to 11 GB)."""
    from kivy.core.window import Window

    stopped = make_harness()
    app = stopped.start()
    stopped.pump(2)
    stopped.stop()
    refreshed: list[str] = []
    app.refresh_all = lambda: refreshed.append("all")
    fs = app.fs
    running = make_harness()
    running.start()
    try:
        Window.size = (1920, 1080)
        running.pump(3)
        assert app.fs == fs and not refreshed
        assert running.app.fs > fs
    finally:
        Window.size = (800, 480)
        running.pump(3)
