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

from .player import SEED, TablePlayer


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


TOUR = ("screens", "modules", "season", "faults")
"""The tour's sections, in the order played: the screens and a two-driver race with the
table's dials, a New race with modules and its draft, a season's race to its standings, the
storage fault screen. Each starts from the start screen, whatever the sections before it left
(the layout test plays them a few at a time, ``parts=("tour:<section>", ...)``)."""


def save_window(window: Any, path: Path) -> None:
    """The window's picture as a PNG at ``path``. Kivy's own screenshot reads the window's rows
    as packed RGB at GL's alignment of 4 bytes a row: a window whose row is no multiple of 4
    bytes (1366 px wide) came out sheared. Such a window is read as RGBA (always aligned) and
    saved opaque; any other by Kivy's own (the pictures in ``docs/screens`` stay as they
    were)."""
    width, height = (int(v) for v in window.size)
    if width * 3 % 4 == 0:
        window.screenshot(str(path))
        written = sorted(path.parent.glob(f"{path.stem}*.png"))
        if written and written[-1] != path:  # Window.screenshot adds a counter
            written[-1].replace(path)
        return
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
    from kivy.graphics.texture import Texture

    pixels = bytearray(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE))
    pixels[3::4] = b"\xff" * (width * height)  # the window is opaque, whatever its alpha
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
    texture.save(str(path), flipped=True)


def run_headless(out: Path, data: str | None, size: tuple[int, int] = (800, 480),
                 on_shot: Callable[[Any, str], None] | None = None,
                 parts: tuple[str, ...] = ("tour", "table", "react")) -> list[Path]:
    """Play the demo race offscreen in a ``size`` window; returns the PNGs written.
    ``on_shot(app, name)`` is called before each picture is taken (the layout tests).
    ``parts``: ``tour`` (the screens, a two-driver race, modules, a season; or only some of
    its :data:`TOUR` sections, as ``tour:<section>``) and ``table``
    (:mod:`.table_shots`: six drivers and five Legends, every prompt in every language, as
    ``race6-<kind>-<language>.png``) and ``react`` (:mod:`.react_shots`: the React choices
    of the rules' second pass, ``react-<choice>-<language>.png``; and :mod:`.busy_shots`: the
    busiest React and card keypad, ``react-busy-<language>.png``,
    ``keypad-upgrades[-flip]-<language>.png``)."""
    _headless_env()
    import tempfile

    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from kivy.base import EventLoop, runTouchApp

    from hardware import FakeTable

    from ..app import HeatApp

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
    app.set_language("en")  # the pictures in English whatever the system's language

    def pump() -> None:
        for _ in range(3):
            EventLoop.idle()

    shots: list[Path] = []

    def shot(name: str, numbered: bool = True) -> None:
        pump()
        if on_shot is not None:
            on_shot(app, name)
        path = out / (f"{len(shots) + 1:02d}-{name}.png" if numbered else f"{name}.png")
        save_window(app.root_window, path)
        shots.append(path)

    player = TablePlayer(app, pump)
    try:
        pump()
        pump()
        sections = [s for s in TOUR if "tour" in parts or f"tour:{s}" in parts]
        if sections:
            _tour(app, player, tables, shot, pump, sections)
        if "table" in parts:
            from .table_shots import play_legends, play_six

            def table_shot(kind: str) -> None:
                shot(f"race6-{kind}", numbered=False)

            play_six(app, pump, pump, table_shot)
            play_legends(app, pump, pump, table_shot)
        if "react" in parts:
            from .busy_shots import play_busy
            from .react_shots import play_react

            play_react(app, pump, pump, lambda kind: shot(kind, numbered=False))
            play_busy(app, pump, pump, lambda kind: shot(kind, numbered=False))
    finally:
        app._stop()
    return shots


def _tour(app: Any, player: TablePlayer, tables: list[Any], shot: Callable[[str], None],
          pump: Callable[[], None], sections: list[str]) -> None:
    """The ``sections`` of the :data:`TOUR`, in its order."""
    from .tour import modules_shots, season_shots, storage_faults

    player.table = tables[0] if tables else None
    if "screens" in sections:
        _screens(app, player, shot, pump)
    if "modules" in sections:
        modules_shots(app, player, shot)
    if "season" in sections:
        season_shots(app, player, shot)
    if "faults" in sections:
        storage_faults(app, shot)


def _screens(app: Any, player: TablePlayer, shot: Callable[[str], None],
             pump: Callable[[], None]) -> None:
    """The screens and a two-driver race with the table's dials, to the Hardware check."""
    from hardware import TableButton

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


def run_attract(data: str | None) -> int:
    """The demo in a real window, looping: a press every 0.7 s."""
    import tempfile

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from ..app import HeatApp

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
