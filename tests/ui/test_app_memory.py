"""What the app keeps: nothing of a frame once it is drawn, nothing of itself once stopped.

The UI test session grew past 5 GB: Mesa's threaded software rasteriser behind SDL's
offscreen window kept 4-9 MB of every frame of the race screen
(``finish_every_frame_offscreen``), and every app a test made stayed, frozen out of the
collector's sight (``gc.freeze`` after the first frame; ``on_stop`` now unfreezes)."""

from __future__ import annotations

import gc
import os
import weakref


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_redrawing_the_race_screen_keeps_no_memory(ui) -> None:
    from kivy.core.window import Window

    from companion.ui.demo.table_shots import start

    start(ui.app, ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina"), 2)
    ui.pump(4)
    for _ in range(10):  # what the first frames of the screen make, made
        Window.canvas.ask_update()
        ui.pump(1)
    before = resident_mb()
    for _ in range(60):
        Window.canvas.ask_update()  # the whole window drawn again, as after any tap
        ui.pump(1)
    grown = resident_mb() - before
    # Unfinished frames kept 4-9 MB each here: 240-540 MB over these 60 frames.
    assert grown < 40, f"60 redraws kept {grown:.0f} MB"


def test_a_stopped_app_is_freed(make_harness) -> None:
    harness = make_harness()
    app = weakref.ref(harness.start())
    harness.pump(2)
    harness.stop()
    harness.player = None  # (the harness's own reference)
    gc.collect()
    assert app() is None, "the stopped app is still alive"
