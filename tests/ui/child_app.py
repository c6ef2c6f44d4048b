"""The app in a child process, killed with SIGKILL (a power cut) at a point the child reaches by
its own steps, never by time: the child says what it shows on its standard output, line by line,
then waits on its standard input for the kill (``test_draft_kill.py``, ``test_seats_kill.py``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT = 25.0
"""Longest wait for the child to end once killed."""

CHILD_START = r"""
import json, sys
from companion.ui.headless import use_headless_kivy
use_headless_kivy("heat-child-kivy-")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "0")
Config.set("graphics", "multisamples", "0")
from kivy.base import EventLoop, runTouchApp
from companion.ui.app import HeatApp
from companion.ui.demo.player import TablePlayer

def pump(frames=2):
    for _ in range(frames):
        EventLoop.idle()

def start_app(data, seed=None):
    app = HeatApp(data=data, hardware_factory=None)
    if seed is not None:
        app.race_seed = seed
    app._run_prepare()
    runTouchApp(embedded=True)
    pump()
    return app, TablePlayer(app, pump)
"""
"""The start of a child's code: headless Kivy at 800x480 (as ``conftest.py``), ``pump`` and
``start_app(data, seed=None) -> (app, player)``."""


def read_then_kill(code: str, args: Sequence[str],
                   enough: Callable[[list[str]], bool]) -> list[str]:
    """Run ``code`` (after :data:`CHILD_START`) with ``args`` in a child Python, read its lines
    until ``enough(lines)``, then SIGKILL it (the power cut, right after the last line read)
    and check it died of it; the lines read. A child that stops first fails the test with its
    standard error."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD_START + code, *args],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        while not enough(lines):
            line = proc.stdout.readline()
            assert line, f"the child stopped: {proc.stderr.read() if proc.stderr else ''}"
            lines.append(line)
        os.kill(proc.pid, signal.SIGKILL)  # the power cut
        assert proc.wait(timeout=CHILD_TIMEOUT) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=CHILD_TIMEOUT)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    return lines
