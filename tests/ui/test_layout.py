"""Every screen fits the window at 800x480 (the Pi's 7" display) and 1280x720: no button or
label (nor its text) outside the window, every touch target at least 48 px each way.

The demo's tour is played in parts, a subprocess per part and size (a Kivy window's size is
fixed per process; see ``layout_probe.py``), one per test. :data:`PARTS` says what each part
must check and picture; :func:`test_the_parts_cover_every_screen_in_every_language_shown`
that together they check every screen of the app, the race's React prompt in each language,
and every picture of the tour.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("layout_probe.py")
SIZES = ("800x480", "1280x720")
REACT = ("race/react [en]", "race/react [zh_TW]", "race/react [ko]")


class Part(NamedTuple):
    sections: tuple[str, ...]
    """The tour's sections it plays (``companion.ui.demo.run.TOUR``), in one process."""
    checks: frozenset[str]
    """What it must check at least: a screen (a race screen by its prompt) and a language."""
    shots: tuple[str, ...]
    """The pictures it must take (the demo's names, without their number)."""


PARTS = {
    "screens-faults": Part(
        ("screens", "faults"),
        frozenset({"start [en]", "settings [en]", "newrace [en]", "race/gears [en]",
                   "race/reveal [en]", "race/flip [en]", *REACT, "results [en]", "races [en]",
                   "hwcheck [en]", "storagefault [en]", "storagefault [zh_TW]",
                   "storagefault [ko]"}),
        ("start", "settings", "new-race", "race-gears", "race-reveal", "race-flip",
         "race-react", "race-react-zh_TW", "race-react-ko", "results", "races",
         "hardware-check", "storage-full", "storage-full-zh_TW", "storage-full-ko",
         "storage-read-only")),
    "modules-season": Part(
        ("modules", "season"),
        frozenset({"newrace [en]", "draft [en]", "seasons [en]", "newseason [en]",
                   "nextrace [en]", "standings [en]"}),
        ("new-race-modules", "draft", "standings")),
}


def probe(size: str, part: Part) -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory(prefix="heat-layout-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
                   KIVY_HOME=str(Path(tmp) / "kivy"), PYTHONPATH=str(REPO))
        run = subprocess.run(
            [sys.executable, str(PROBE), size, str(Path(tmp) / "shots"),
             ",".join(part.sections)],
            env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        assert run.returncode == 0 and lines, run.stderr[-3000:]
        found: dict[str, list[str]] = json.loads(lines[-1])
        return found


@pytest.mark.parametrize("part", list(PARTS))
@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_the_window_with_big_touch_targets(size: str, part: str) -> None:
    found = probe(size, PARTS[part])
    assert found["problems"] == []
    assert PARTS[part].checks <= set(found["checked"])
    shots = [name.partition("-")[2].removesuffix(".png") for name in found["shots"]]
    assert set(PARTS[part].shots) <= set(shots), shots


def test_the_parts_cover_every_screen_in_every_language_shown() -> None:
    from companion.ui.app import SCREENS
    from companion.ui.demo.run import TOUR

    checks = set().union(*(part.checks for part in PARTS.values()))
    assert {where.split(" ")[0].split("/")[0] for where in checks} == set(SCREENS)
    assert set(REACT) <= checks
    sections = [section for part in PARTS.values() for section in part.sections]
    assert sorted(sections) == sorted(TOUR)  # every section of the tour, once
    shots = [shot for part in PARTS.values() for shot in part.shots]
    assert len(set(shots)) == len(shots) >= 15
