"""``heat-companion demo``: a scripted race (two humans, two Legends, USA, one lap) played
through the real screens by simulated touches.

``--headless`` runs offscreen with a pin-free table (``hardware.fakes.FakeTable``, seats 1-4):
the drivers' gears are dialled and Ready is pressed on that table, everything else is tapped on
the screen. It writes a PNG of every screen into ``--out`` (``--size WxH``: the window, 800x480
by default), including the Hardware check screen
and the race screen in Traditional Chinese and Korean. Without ``--headless`` the demo runs in a
real window as an attract mode (a press every 0.7 s, starting over at the end), with whatever
table hardware is found.
"""

from __future__ import annotations

import os
import sys
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import Any

LEGENDS = 2
SEED = 20240601


class TablePlayer:
    """Presses the app's buttons by ``test_name``, as fingers on the touchscreen would."""

    def __init__(self, app: Any, pump: Callable[[], None], table: Any = None) -> None:
        self.app = app
        self.pump = pump
        self.table = table
        """A ``FakeTable``: when set, gears are dialled and Ready pressed on it."""

    def root(self) -> Any:
        return self.app.sm.current_screen

    def find(self, name: str) -> Any:
        from .widgets import find

        return find(self.root(), name)

    def press(self, name: str, *, touch: bool = True) -> None:
        """Tap the button ``name``: a real touch when it is on screen, else its release."""
        widget = self.find(name)
        if widget.disabled:
            raise AssertionError(f"button {name!r} is disabled")
        x, y = widget.to_window(*widget.center)
        window = self.app.root_window
        inside = 0 <= x < window.width and 0 <= y < window.height and self._visible(widget)
        if touch and inside:
            from kivy.tests.common import UnitTestTouch

            released: list[bool] = []

            def seen(*_args: Any) -> None:
                released.append(True)

            widget.bind(on_release=seen)
            tap = UnitTestTouch(x, y)
            tap.touch_down()
            tap.touch_up()
            self.pump()
            widget.unbind(on_release=seen)
            if released:
                return
        widget.dispatch("on_press")
        widget.dispatch("on_release")
        self.pump()

    @staticmethod
    def _visible(widget: Any) -> bool:
        """False when a ScrollView clips the widget away."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        wx, wy = widget.to_window(*widget.center)
        while parent is not None and parent is not parent.parent:
            if isinstance(parent, ScrollView):
                px, py = parent.to_window(parent.x, parent.y)
                if not (px <= wx <= px + parent.width and py <= wy <= py + parent.height):
                    return False
            parent = parent.parent
        return True

    # --- the scripted race ---------------------------------------------------------------------

    def set_up_race(self, names: tuple[str, str] = ("Ana", "Ben")) -> None:
        """From the start screen: New race, first-race suggestion, two names, two Legends."""
        self.press("new race")
        self.press("first race")
        for index, name in enumerate(names):
            self.find(f"name {index}").text = name
        for _ in range(LEGENDS):
            self.press("legends plus")
        screen = self.app.sm.current_screen
        screen.form.seed = SEED
        screen.refresh()
        self.pump()

    def step(self) -> str | None:
        """Press the next button of the script; None when the race is over."""
        from .demo_script import next_press

        name = next_press(self.app.controller)
        if name is not None and name.startswith("gear ") and self.table is not None:
            _gear, car, gear = name.split()
            seat = next((s for s, c in self.app.seat_map.items() if c == car), None)
            if seat is not None and seat in self.table.seats:
                self.table.turn_dial(seat, int(gear))
                self.table.press_ready(seat)
                self.app.poll_hardware()
                self.pump()
                return name
        if name is not None:
            self.press(name)
        return name

    def play_to_end(self, on_step: Callable[[str], None] | None = None,
                    limit: int = 2000) -> int:
        presses = 0
        while self.app.controller is not None and not self.app.controller.state.over:
            name = self.step()
            if name is None:
                break
            if self.app.controller.error:
                raise AssertionError(f"{name}: {self.app.controller.error}")
            presses += 1
            if on_step is not None:
                on_step(name)
            if presses > limit:
                raise AssertionError("the scripted race does not finish")
        return presses


def _headless_env() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)`` (``--size WxH``)."""
    width, sep, height = text.strip().lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit() or not (
            int(width) > 0 and int(height) > 0):
        raise ValueError(f"--size must be WIDTHxHEIGHT in pixels, e.g. 1280x720, not {text!r}")
    return int(width), int(height)


def run_headless(out: Path, data: str | None, size: tuple[int, int] = (800, 480),
                 on_shot: Callable[[Any, str], None] | None = None) -> list[Path]:
    """Play the demo race offscreen in a ``size`` window; returns the PNGs written.
    ``on_shot(app, name)`` is called before each picture is taken (the layout tests)."""
    _headless_env()
    import tempfile

    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from kivy.base import EventLoop, runTouchApp

    from hardware import FakeTable, TableButton

    from .app import HeatApp

    out.mkdir(parents=True, exist_ok=True)
    tables: list[Any] = []

    def demo_table(queue: Any) -> Any:
        tables.append(FakeTable(queue, seats=(1, 2, 3, 4), source="demo"))
        return tables[-1]

    app = HeatApp(data=data or tempfile.mkdtemp(prefix="heat-demo-"),
                  hardware_factory=demo_table)
    app.race_seed = SEED  # the same championship race every time
    app._run_prepare()
    runTouchApp(embedded=True)

    def pump() -> None:
        for _ in range(3):
            EventLoop.idle()

    shots: list[Path] = []

    def shot(name: str) -> None:
        pump()
        if on_shot is not None:
            on_shot(app, name)
        path = out / f"{len(shots) + 1:02d}-{name}.png"
        app.root_window.screenshot(str(path))
        written = sorted(out.glob(f"{path.stem}*.png"))
        if written and written[-1] != path:  # Window.screenshot adds a counter
            written[-1].replace(path)
        shots.append(path)

    player = TablePlayer(app, pump)
    try:
        pump()
        pump()
        player.table = tables[0] if tables else None
        shot("start")
        player.press("settings")
        shot("settings")
        player.press("back")
        player.set_up_race()
        shot("new-race")
        player.press("start race")
        shot("race-gears")
        seen: set[str] = {"gears"}

        def on_step(_name: str) -> None:
            view = app.controller.view() if app.controller else None
            if view is None or app.sm.current != "race" or view.mode in seen:
                return
            seen.add(view.mode)
            shot(f"race-{view.mode}")
            if view.mode == "react":
                for language in ("zh_TW", "ko"):
                    app.set_language(language)
                    shot(f"race-{view.mode}-{language}")
                app.set_language("en")
                pump()  # lay the rebuilt panel out before the next tap

        player.play_to_end(on_step)
        pump()
        app.screen("results").export_chart()
        shot("results")
        player.press("races")
        shot("races")
        player.press("back")
        player.press("settings")
        player.press("hardware check")
        if player.table is not None:  # a few inputs, as a player checking the table would
            player.table.turn_dial(2, 3)
            player.table.press_ready(1)
            player.table.press(TableButton.CONFIRM)
            app.poll_hardware()
            player.press("identify 3")
        shot("hardware-check")
        from .demo_shots import more_shots

        more_shots(app, player, shot)
    finally:
        app._stop()
    return shots


def run_attract(data: str | None) -> int:
    """The demo in a real window, looping: a press every 0.7 s."""
    import tempfile

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from .app import HeatApp

    app = HeatApp(data=data or tempfile.mkdtemp(prefix="heat-demo-"))
    app.race_seed = SEED
    player = TablePlayer(app, lambda: EventLoop.idle())

    def tick(_dt: float) -> None:
        if app.controller is None or app.sm.current == "start":
            player.set_up_race()
            player.press("start race")
            return
        if app.controller.state.over:
            app.controller = None
            app.show("start")
            return
        player.step()

    Clock.schedule_interval(tick, 0.7)
    app.run()
    return 0


def main(args: Namespace | None = None) -> int:
    headless = bool(getattr(args, "headless", False))
    data = getattr(args, "data", None)
    if headless:
        out = Path(getattr(args, "out", None) or "demo-shots")
        try:
            size = parse_size(getattr(args, "size", None) or "800x480")
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        shots = run_headless(out, data, size)
        print(f"{len(shots)} screens written to {out}")
        return 0
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    return run_attract(data)
