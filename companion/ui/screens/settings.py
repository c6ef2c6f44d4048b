"""Settings: language, theme, hardware status."""

from __future__ import annotations

from kivy.app import App

from companion import i18n

from ..widgets.basic import Btn, ToneLabel  # noqa: F401 - used by settings.kv
from .base import BaseScreen


class SettingsScreen(BaseScreen):
    languages = i18n.LANGUAGES

    def refresh(self) -> None:
        app = App.get_running_app()
        for code in i18n.LANGUAGES:
            self.ids[f"lang_{code}"].role = "selected" if app.language == code else "normal"
        for name in ("dark", "light"):
            self.ids[f"theme_{name}"].role = "selected" if app.theme_name == name else "normal"
        if not app.hardware_status:
            self.ids.hardware.text = (i18n._("Looking for table hardware...")
                                      if not app.hardware_ready else "")
