"""Every registered screen opens as the first screen (issue 10 point 12): in a fresh process
(a cold start: nothing imported or built before it), and after Continue of a stored race, in
en, zh_TW and ko (``first_screen_probe.py`` does the opening; Races first used to crash with
``Unknown class <NameInput>``). ``test_layering.py`` checks the same statically."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("first_screen_probe.py")


def registered_screens() -> list[str]:
    """The names in the App's screen registry, read without importing Kivy (importing it at
    collection would open the window before the tests choose its size)."""
    tree = ast.parse((REPO / "companion" / "ui" / "app" / "heat_app.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "SCREENS":
            assert node.value is not None
            return sorted(ast.literal_eval(node.value))
    raise AssertionError("no SCREENS registry in heat_app.py")


@pytest.fixture(scope="module")
def stored_races(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data folder with an unfinished race and, created after it, an unfinished race 1 of a
    1961 season (what Continue opens), built without Kivy."""
    import tracks
    from companion.championship import SEASONS
    from companion.engine import ChooseGear
    from companion.session import RaceLog
    from companion.storage import paths
    from companion.storage.seasons import SeasonStore
    from companion.ui.views.next_race import plan_next_race
    from companion.ui.views.race_form import RaceForm
    from companion.ui.views.season_form import SeasonForm

    data = tmp_path_factory.mktemp("first-screens") / "data"
    data.mkdir()
    form = RaceForm(seed=7)
    form.first_race()
    form.set_legends(2)
    with RaceLog(data / paths.LOG_FILE) as log:
        session = log.new_race(form.setup(tracks.load_track("usa")))
        session.submit(ChooseGear("red", 2))
    store = SeasonStore(data / paths.LOG_FILE)
    try:
        season_id = store.create_season(SEASONS["1961"], SeasonForm(kind="1961").cars())
        plan = plan_next_race(store, season_id, seed=7)
        assert plan is not None
        store.start_race(season_id, plan.setup({}))
    finally:
        store.close()
    yield data


def test_the_registry_is_read_whole() -> None:
    from companion.ui.app import SCREENS

    assert registered_screens() == sorted(SCREENS) and len(SCREENS) >= 12


@pytest.mark.parametrize("screen", registered_screens())
def test_every_screen_opens_first_cold_and_after_continue(stored_races: Path, tmp_path: Path,
                                                          screen: str) -> None:
    data = tmp_path / "data"
    shutil.copytree(stored_races, data)
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
               KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, str(PROBE), screen, str(data)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    opened = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0, done.stderr[-3000:]
    assert [(o["after"], o["language"]) for o in opened] == [
        (after, language) for after in ("cold", "continue") for language in ("en", "zh_TW", "ko")]
    for result in opened:
        assert result["error"] == "", (result["after"], result["language"], result["error"])
        assert result["shown"], result
