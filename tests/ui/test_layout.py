"""Every screen fits the window at 800x480 (the Pi's 7" display) and 1280x720: no button or
label (nor its text) outside the window, every touch target at least 48 px each way.

The demo is played in a subprocess per size (a Kivy window's size is fixed per process; see
``layout_probe.py``), one per test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("layout_probe.py")
SIZES = ("800x480", "1280x720")


@pytest.fixture(params=SIZES)
def layout(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, list[str]]]]:
    """One size's probe per test (each well under 30 s on a loaded 2-core host; both at once
    took 34 s on a quiet one)."""
    size: str = request.param
    with tempfile.TemporaryDirectory(prefix="heat-layout-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
                   KIVY_HOME=str(Path(tmp) / "kivy"), PYTHONPATH=str(REPO))
        run = subprocess.run(
            [sys.executable, str(PROBE), size, str(Path(tmp) / size)], env=env, cwd=REPO,
            capture_output=True, text=True, timeout=300)
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        assert run.returncode == 0 and lines, run.stderr[-3000:]
        yield size, json.loads(lines[-1])


def test_every_screen_fits_the_window_with_big_touch_targets(
        layout: tuple[str, dict[str, list[str]]]) -> None:
    from companion.ui.app import SCREENS

    size, found = layout
    screens = {where.split(" ")[0].split("/")[0] for where in found["checked"]}
    assert screens == set(SCREENS)
    assert {"race/react [en]", "race/react [zh_TW]", "race/react [ko]"} <= set(found["checked"])
    assert found["problems"] == []
    assert len(found["shots"]) >= 15
