"""Start-up stays lean, and a tap is shown by the very next frame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
FIRST_FRAME = r"""
import json, os, sys
from kivy.core.window import Window
from companion.ui.app import HeatApp

class Probe(HeatApp):
    def on_start(self):
        super().on_start()
        Window.bind(on_flip=self.first)

    def first(self, *_a):
        Window.unbind(on_flip=self.first)
        seen = {m: m in sys.modules for m in ("companion.engine", "companion.session",
                                              "sqlite3", "hardware", "gpiozero", "serial",
                                              "kivy.uix.textinput", "tracks")}
        print(json.dumps(seen), flush=True)
        self.stop()

Probe(data=sys.argv[1]).run()
"""


def test_first_frame_needs_no_engine_log_or_hardware(tmp_path: Path) -> None:
    script = tmp_path / "probe.py"
    script.write_text(FIRST_FRAME, encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
               KIVY_HOME=str(tmp_path / "kivy"))
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "data")], env=env,
                          capture_output=True, text=True, timeout=60, cwd=REPO)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    assert json.loads(lines[-1]) == dict.fromkeys(json.loads(lines[-1]), False)


def test_the_frame_after_a_tap_shows_it(ui) -> None:
    """Handlers, layout and label textures all run before the next frame is drawn."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from companion.ui.widgets.lookup import find

    ui.player.set_up_race()
    ui.player.press("start race")
    screen = ui.app.sm.current_screen
    button = find(screen, "gear red 2")
    driver = find(screen, "ready red")
    seen: list[tuple[str, str, bool, str]] = []

    def drawing(*_args: object) -> None:
        seen.append((button.role, driver.text, not Clock.get_before_frame_events(),
                     find(screen, "prompt").text))

    Window.bind(on_draw=drawing)
    try:
        x, y = button.to_window(*button.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        EventLoop.idle()
    finally:
        Window.unbind(on_draw=drawing)
    assert seen, "no frame was drawn"
    role, name, settled, prompt = seen[0]
    assert role == "selected" and name == "ready" and settled
    assert prompt == "Pick your gear: 1 driver still to choose."
    assert driver.texture_size[0] > 0
