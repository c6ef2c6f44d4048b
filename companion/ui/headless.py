"""Kivy with no screen and no table hardware, for the tests, the probes and the benches.

:func:`use_headless_kivy` must run before anything imports Kivy (Kivy reads these variables
when it is first imported). Imports nothing but the standard library.
"""

from __future__ import annotations

import os
import tempfile


def use_headless_kivy(kivy_home_prefix: str | None = None) -> None:
    """SDL draws offscreen; Kivy reads no command line, config file or log file and logs
    nothing to the console; gpiozero uses mock pins and no wiring file is found, so the app
    starts touch only. ``kivy_home_prefix``: Kivy's home in a new temporary folder so named
    (unless ``KIVY_HOME`` is set already)."""
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):
        os.environ.setdefault(name, "1")
    if kivy_home_prefix is not None and "KIVY_HOME" not in os.environ:
        os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix=kivy_home_prefix)
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    os.environ.setdefault("HEAT_COMPANION_WIRING", "/nonexistent/wiring.toml")


def offscreen() -> bool:
    """SDL draws into an offscreen buffer (no display): the tests, the probes, the demo's
    ``--headless`` pictures and the benches."""
    return os.environ.get("SDL_VIDEODRIVER") == "offscreen"

