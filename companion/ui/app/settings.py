"""The app's look and settings: theme colours, font sizes that grow with the window, the
bundled font, and ``settings.json`` in the data folder: theme, language, and the race the table
played last (what Continue opens).

:class:`SettingsMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases; kv rules read its
properties as ``app.c_fg``, ``app.fs``, ``app.tap``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.window import Window
from kivy.logger import Logger
from kivy.properties import ColorProperty, NumericProperty, StringProperty

from companion import i18n

from .theme import DEFAULT_THEME, THEMES

_font_registered = False


def register_font() -> None:
    """Our Latin + Chinese + Korean font replaces Kivy's default for every label."""
    global _font_registered
    if not _font_registered:
        path = str(i18n.FONT_PATH)
        LabelBase.register(DEFAULT_FONT, path, path, path, path)
        _font_registered = True


def _colour(key: str) -> Any:
    return ColorProperty(THEMES[DEFAULT_THEME][key])


class SettingsMixin:
    """Theme, font sizes and saved settings (uses the app's ``data_path``, ``refresh_all``,
    ``_show_hardware`` and ``_show_hardware_detail``)."""

    data_path: Path
    refresh_all: Any
    _show_hardware: Any
    _show_hardware_detail: Any

    c_bg = _colour("bg")
    c_panel = _colour("panel")
    c_fg = _colour("fg")
    c_muted = _colour("muted")
    c_btn = _colour("btn")
    c_btn_fg = _colour("btn_fg")
    c_accent = _colour("accent")
    c_accent_fg = _colour("accent_fg")
    c_ok = _colour("ok")
    c_warn = _colour("warn")
    c_off = _colour("off")
    c_off_fg = _colour("off_fg")
    c_track = _colour("track")
    c_track_edge = _colour("track_edge")
    fs = NumericProperty(18)
    """Body text size in pixels (grows with the window)."""
    fs_small = NumericProperty(15)
    fs_big = NumericProperty(26)
    tap = NumericProperty(56)
    """Minimum touch target in pixels (never below 48)."""
    theme_name = StringProperty(DEFAULT_THEME)
    """Set last by :meth:`set_theme`, after every colour: what follows the theme in Python
    (the charts) binds to it."""
    language = StringProperty(i18n.DEFAULT_LANGUAGE)
    last_race: str | None = None
    """The race the table played last (Continue opens it while it is unfinished)."""

    def _resize(self, _window: Any, size: tuple[int, int]) -> None:
        width, height = size
        base = min(height / 26.0, width / 44.0)
        before = (self.fs, self.fs_small, self.fs_big, self.tap)
        self.fs = max(16, round(base))
        self.fs_small = max(14, round(base * 0.82))
        self.fs_big = max(22, round(base * 1.45))
        self.tap = max(48, round(min(height / 8.5, width / 14.0)))
        if (self.fs, self.fs_small, self.fs_big, self.tap) != before:
            self._sizes_changed()

    def _sizes_changed(self) -> None:
        """Text and touch sizes followed the window: every screen re-renders before the next
        frame (what a screen sizes in Python, the race order's height, the keypad's line,
        the prompts built in the old size, reads the new sizes; before, they kept the old
        ones until the next tap: at 1920x1080 the race order stayed as tall as at 800x480,
        its rows cut). Nothing before the screens exist (the window's first size, in
        ``build``)."""
        if not hasattr(self, "sm"):
            return
        trigger = getattr(self, "_refresh_sized", None)
        if trigger is None:
            from kivy.clock import Clock

            trigger = self._refresh_sized = Clock.create_trigger(
                lambda _dt: self.refresh_all(), -1)
        trigger()

    @property
    def settings_path(self) -> Path:
        return self.data_path / "settings.json"

    def _load_settings(self) -> None:
        try:
            saved = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = {}
        self.set_theme(saved.get("theme", DEFAULT_THEME), save=False)
        last = saved.get("last_race")
        self.last_race = last if isinstance(last, str) else None
        # the language chosen in Settings, else (a new table) the system's
        language = saved.get("language") or i18n.system_language(os.environ)
        i18n.add_listener(self._language_changed)
        i18n.set_language(language if language in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE)

    def _save_settings(self) -> None:
        """Keep the theme, the language and the last race for the next start. Not on read-only
        storage, and a failure (a full disk) only costs the preference, so it is logged, not
        raised."""
        if getattr(self, "storage_read_only", False):
            return
        doc = {"theme": self.theme_name, "language": self.language, "last_race": self.last_race}
        tmp = self.settings_path.with_suffix(".json.tmp")
        try:
            self.data_path.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(doc), encoding="utf-8")
            tmp.replace(self.settings_path)
        except OSError as error:
            Logger.warning("heat-companion: settings not saved: %s", error)

    def remember_race(self, race_id: str) -> None:
        """``race_id`` is the race the table plays now (Continue opens it next time)."""
        if self.last_race != race_id:
            self.last_race = race_id
            self._save_settings()

    def set_theme(self, name: str, save: bool = True) -> None:
        """Every kv rule bound to a colour follows at once (``app.c_fg``, a ``ToneLabel``'s
        ``tone``, a ``Btn``'s ``role``); then ``theme_name`` changes (the charts redraw) and
        every screen re-renders (what a screen builds in Python reads the new colours)."""
        palette = THEMES.get(name, THEMES[DEFAULT_THEME])
        for key, colour in palette.items():
            setattr(self, f"c_{key}", colour)
        self.theme_name = name if name in THEMES else DEFAULT_THEME
        Window.clearcolor = palette["bg"]
        if save:
            self._save_settings()
            self.refresh_all()

    def set_language(self, language: str) -> None:
        i18n.set_language(language)
        self._save_settings()

    def _language_changed(self, language: str) -> None:
        self.language = language
        self._show_hardware()
        self._show_hardware_detail()
        self.refresh_all()
