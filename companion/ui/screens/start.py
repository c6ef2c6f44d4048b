"""Start: Continue an unfinished race, New race, Races (history), Settings."""

from __future__ import annotations

from kivy.app import App

from companion.i18n import _

from ..views.names import track_title
from ..widgets.basic import Btn, TLabel  # noqa: F401 - used by start.kv
from .base import BaseScreen


class StartScreen(BaseScreen):
    def refresh(self) -> None:
        app = App.get_running_app()
        button = self.ids.continue_button
        info = self.ids.continue_info
        if app.race_log is None:  # opened right after the first frame
            button.disabled, button.opacity, info.text = True, 0.35, ""
            return
        race_id = app.race_log.unfinished_race()
        button.disabled = race_id is None
        button.opacity = 1 if race_id else 0.35
        if race_id is None:
            info.text = _("No unfinished race.")
            return
        summary = next((r for r in app.race_log.races() if r.id == race_id), None)
        if summary is None:
            info.text = ""
            return
        info.text = _("{track}, {laps} lap(s), round {round}, {cars} cars").format(
            track=track_title(summary.track_id), laps=summary.laps, round=summary.rounds + 1,
            cars=len(summary.cars))
