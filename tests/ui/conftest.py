"""Headless Kivy for the UI tests: SDL offscreen, Kivy home and data folder in tmp dirs.

The environment is set before anything imports Kivy. ``ui_app`` starts the
real app without entering Kivy's main loop and pumps frames on demand; ``restart`` tears it down
and starts a fresh one on the same data folder (as after a power cut).
"""

from __future__ import annotations

from companion.ui.headless import use_headless_kivy

use_headless_kivy("heat-ui-kivy-")

from kivy.config import Config  # noqa: E402

# The window is made once per process, by whichever test first imports the App: 800x480 from
# the start, whatever the order the tests run in.
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
# The tests pump frames (``Harness.pump``); none waits for the clock: no frame rate cap (Kivy
# would sleep up to 1/60 s in each frame to hold 60 frames a second).
Config.set("graphics", "maxfps", "0")
# Offscreen, SDL's window asks Mesa's software rasteriser (llvmpipe) for 4 samples a pixel
# (Kivy's default ``multisamples``): every frame was rasterised four times over, most of a UI
# test's time (a scripted race's frames: 39 ms each, 6.4 s of a 10 s test). The tests read
# layouts, texts, textures and colours, none an edge's antialiasing: one sample a pixel.
Config.set("graphics", "multisamples", "0")

from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402
from recycled_views import forget_recycled_views  # noqa: E402

pytestmark = pytest.mark.ui


RACE_SEED = 20240601
"""The seed of every championship race the UI tests start (weather, road tokens, grid, draft)."""


class Harness:
    """The running app plus helpers: ``pump`` frames, ``player`` presses buttons by name."""

    def __init__(self, data: Path, hardware: Callable[[Any], Any] | None = None) -> None:
        self.data = data
        self.hardware = hardware
        """``factory(queue) -> hardware`` given to the app (None: the real ``detect``)."""
        self.app: Any = None
        self.player: Any = None

    def start(self) -> Any:
        forget_recycled_views()
        from kivy.config import Config

        Config.set("graphics", "width", "800")
        Config.set("graphics", "height", "480")
        from kivy.base import runTouchApp

        from companion import i18n
        from companion.ui.app import HeatApp
        from companion.ui.demo.player import TablePlayer

        i18n.set_language("en")
        from companion.ui.widgets.touch_gate import LEDGER

        LEDGER.forget()  # the last test's last tap begins no burst of this one's taps
        self.app = HeatApp(data=self.data, hardware_factory=self.hardware)
        self.app.race_seed = RACE_SEED  # championship races drawn the same way every run
        self.app._run_prepare()
        runTouchApp(embedded=True)
        self.player = TablePlayer(self.app, self.pump)
        self.pump()
        assert self.app.first_frame_done and self.app.race_log is not None
        return self.app

    def pump(self, frames: int = 2) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def stop(self) -> None:
        if self.app is not None:
            self.app._stop()
            self.app = None
        forget_recycled_views()

    def restart(self) -> Any:
        self.stop()
        return self.start()


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path / "data")
    harness.start()
    try:
        yield harness
    finally:
        harness.stop()
        from companion import i18n

        i18n.set_language("en")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Harness, Any]]:
    """The app with a pin-free table (``hardware.fakes.FakeTable``, seats 1-4) as its hardware."""
    from hardware import FakeTable

    made: list[Any] = []

    def factory(queue: Any) -> Any:
        made.append(FakeTable(queue, seats=(1, 2, 3, 4)))
        return made[-1]

    harness = Harness(tmp_path / "data", hardware=factory)
    harness.start()
    try:
        yield harness, made[0]
    finally:
        harness.stop()
        from companion import i18n

        i18n.set_language("en")


@pytest.fixture
def make_harness(tmp_path: Path) -> Iterator[Callable[..., Harness]]:
    """``make_harness(hardware=factory)``: an app on its own data folder, stopped afterwards
    (call ``.start()`` on it)."""
    made: list[Harness] = []

    def make(hardware: Callable[[Any], Any] | None = None) -> Harness:
        made.append(Harness(tmp_path / f"data{len(made)}", hardware=hardware))
        return made[-1]

    try:
        yield make
    finally:
        for harness in made:
            harness.stop()
        from companion import i18n

        i18n.set_language("en")


@pytest.fixture
def press(ui: Harness) -> Callable[[str], None]:
    return lambda name: ui.player.press(name)
