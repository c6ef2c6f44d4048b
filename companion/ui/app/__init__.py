"""The Kivy App and its wiring: :class:`HeatApp` (:mod:`.heat_app`) and its bases
(:mod:`.settings`: theme, fonts, saved settings; :mod:`.data`: race log, seasons, seats;
:mod:`.table_hardware`: table hardware, watchdog, banner)."""

from .heat_app import SCREENS, HeatApp, main

__all__ = ["SCREENS", "HeatApp", "main"]
