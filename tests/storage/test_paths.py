"""Where the log lives: --data, then HEAT_COMPANION_DATA, then the XDG data dir."""

from __future__ import annotations

from pathlib import Path

from companion.storage.paths import data_dir, default_log_path


def test_option_wins() -> None:
    env = {"HEAT_COMPANION_DATA": "/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/pi"}
    assert data_dir("/opt/data", environ=env) == Path("/opt/data")
    assert default_log_path("/opt/data", environ=env) == Path("/opt/data/races.sqlite3")


def test_environment_variable() -> None:
    env = {"HEAT_COMPANION_DATA": "/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/pi"}
    assert data_dir(None, environ=env) == Path("/env")
    assert data_dir("", environ=env) == Path("/env")


def test_xdg_data_home() -> None:
    env = {"XDG_DATA_HOME": "/xdg", "HOME": "/home/pi"}
    assert data_dir(environ=env) == Path("/xdg/heat-companion")


def test_home_fallback_and_relative_xdg_ignored() -> None:
    assert data_dir(environ={"HOME": "/home/pi"}) == Path("/home/pi/.local/share/heat-companion")
    env = {"XDG_DATA_HOME": "relative", "HOME": "/home/pi", "HEAT_COMPANION_DATA": ""}
    assert data_dir(environ=env) == Path("/home/pi/.local/share/heat-companion")
