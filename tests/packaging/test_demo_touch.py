"""The demo drives the real screens with touches of its own: an installed app has no pytest, so
nothing it imports may need the test tools (``kivy.tests`` imports pytest; issue 12)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP_PACKAGES = ("companion", "hardware", "tracks")
TEST_ONLY = ("pytest", "_pytest", "hypothesis", "kivy.tests", "mypy")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_app_imports_no_test_tool() -> None:
    offenders = []
    for package in APP_PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            for name in imported_modules(path):
                if any(name == bad or name.startswith(bad + ".") for bad in TEST_ONLY):
                    offenders.append(f"{path.relative_to(REPO)}: import {name}")
    assert offenders == []


TAP_PROBE = """
from kivy.base import EventLoop
EventLoop.ensure_window()
from kivy.core.window import Window
from kivy.uix.button import Button
from companion.ui.demo.player import tap_screen

events = []
button = Button(size_hint=(None, None), size=(120, 60), pos=(40, 30))
button.bind(on_press=lambda *_: events.append("press"),
            on_release=lambda *_: events.append("release"))
Window.add_widget(button)
EventLoop.idle()
tap_screen(100, 60)
EventLoop.idle()
print("on the button:", events)
tap_screen(300, 260)
EventLoop.idle()
print("beside it:", events)
import sys
print("test tools loaded:", sorted({"pytest", "kivy.tests"} & set(sys.modules)))
"""


@pytest.mark.ui
def test_a_demo_tap_reaches_the_button_under_the_finger(tmp_path: Path) -> None:
    """One tap: the button under it gets exactly one press and one release; a tap beside it
    gets nothing (the demo only falls back to dispatching on_release when a tap misses). In a
    child process: Kivy's window is one per process, and the UI tests size theirs."""
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "SDL_VIDEODRIVER": "offscreen",
           "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    result = subprocess.run([sys.executable, "-c", TAP_PROBE], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["on the button: ['press', 'release']",
                                          "beside it: ['press', 'release']",
                                          "test tools loaded: []"]
