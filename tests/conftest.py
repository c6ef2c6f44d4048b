"""Test-wide environment, set before anything imports Kivy or gpiozero (SDL offscreen, mock
pins)."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="heat-kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("HEAT_COMPANION_DATA", tempfile.mkdtemp(prefix="heat-data-"))
