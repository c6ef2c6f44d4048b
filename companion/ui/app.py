"""The Kivy app: composition root (screens, race log, settings, hardware seam).

``heat-companion`` (``companion.cli``) calls :func:`main`. Start-up is kept lean: only the start
screen's kv is loaded before the first frame, and the engine, the race log (SQLite), the table
hardware and the systemd notifications are all brought in right after it
(:meth:`HeatApp._after_first_frame`) or on first need (:meth:`HeatApp.log`). Every other screen
is imported and built the first time it is shown.

All changes to a race go input -> :class:`~companion.ui.controller.RaceController` ->
``session.submit`` -> screen refresh, on the main thread. The table hardware's queue is drained
on the main thread (a Clock trigger fired by the queue, plus a slow interval for LED timers)
and mapped to the same controller calls by :class:`~companion.ui.hwbridge.HardwareBridge`.
"""

from __future__ import annotations

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")  # our flags must never reach Kivy's getopt

import importlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from argparse import Namespace  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.text import DEFAULT_FONT, LabelBase  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.properties import (  # noqa: E402
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from companion import i18n  # noqa: E402

from .lang import tr  # noqa: E402
from .theme import DEFAULT_THEME, THEMES  # noqa: E402

HERE = Path(__file__).parent
SCREENS: dict[str, tuple[str, str]] = {
    "start": ("start", "StartScreen"),
    "newrace": ("newrace", "NewRaceScreen"),
    "race": ("race", "RaceScreen"),
    "results": ("results", "ResultsScreen"),
    "races": ("races", "RacesScreen"),
    "settings": ("settings", "SettingsScreen"),
    "hwcheck": ("hwcheck", "HardwareCheckScreen"),
    "draft": ("draft", "DraftScreen"),
    "seasons": ("seasons", "SeasonsScreen"),
    "newseason": ("newseason", "NewSeasonScreen"),
    "nextrace": ("nextrace", "NextRaceScreen"),
    "standings": ("standings", "StandingsScreen"),
}
"""Screen name -> (module in this package, class); each module has a .kv beside it."""
SEATS_FILE = "seats.json"
"""Seat -> car of every race started in the app, by race id (the table's wiring, not the
race's rules, so it lives beside the log rather than in it)."""
HARDWARE_POLL_S = 0.25
"""The slow hardware interval: LED timers and hub status (inputs are drained at once)."""
TOAST_S = 8.0

HardwareFactory = Callable[[Any], Any]
"""``factory(queue) -> hardware``: ``hardware.detect`` by default; tests pass a FakeTable."""

_font_registered = False


def storage_paths() -> Any:
    """:mod:`companion.storage.paths` (where the data folder is), without running its package's
    ``__init__``, which imports the engine and the log's fold (some 30 ms before the first
    frame). The module is standard-library only; it is registered under its own name, so a
    later ``import companion.storage`` reuses this very module."""
    name = "companion.storage.paths"
    if name in sys.modules:
        return sys.modules[name]
    import companion

    spec = importlib.util.spec_from_file_location(
        name, Path(companion.__file__).parent / "storage" / "paths.py")
    if spec is None or spec.loader is None:  # pragma: no cover - an unusual installation
        return importlib.import_module(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def register_font() -> None:
    """Our Latin + Chinese + Korean font replaces Kivy's default for every label."""
    global _font_registered
    if not _font_registered:
        path = str(i18n.FONT_PATH)
        LabelBase.register(DEFAULT_FONT, path, path, path, path)
        _font_registered = True


def touch_only_reason(reason: str) -> str:
    """The hardware layer's reason without its own "running touch-only" (we say it first)."""
    text = re.sub(r"[,;:]?\s*running touch-only\s*[:;,]?", "", reason).strip()
    return text or reason


class HeatApp(App):  # type: ignore[misc]
    title = "Heat Companion"
    c_bg = ColorProperty(THEMES[DEFAULT_THEME]["bg"])
    c_panel = ColorProperty(THEMES[DEFAULT_THEME]["panel"])
    c_fg = ColorProperty(THEMES[DEFAULT_THEME]["fg"])
    c_muted = ColorProperty(THEMES[DEFAULT_THEME]["muted"])
    c_btn = ColorProperty(THEMES[DEFAULT_THEME]["btn"])
    c_btn_fg = ColorProperty(THEMES[DEFAULT_THEME]["btn_fg"])
    c_accent = ColorProperty(THEMES[DEFAULT_THEME]["accent"])
    c_accent_fg = ColorProperty(THEMES[DEFAULT_THEME]["accent_fg"])
    c_ok = ColorProperty(THEMES[DEFAULT_THEME]["ok"])
    c_warn = ColorProperty(THEMES[DEFAULT_THEME]["warn"])
    c_off = ColorProperty(THEMES[DEFAULT_THEME]["off"])
    c_off_fg = ColorProperty(THEMES[DEFAULT_THEME]["off_fg"])
    c_track = ColorProperty(THEMES[DEFAULT_THEME]["track"])
    c_track_edge = ColorProperty(THEMES[DEFAULT_THEME]["track_edge"])
    fs = NumericProperty(18)
    """Body text size in pixels (grows with the window)."""
    fs_small = NumericProperty(15)
    fs_big = NumericProperty(26)
    tap = NumericProperty(56)
    """Minimum touch target in pixels (never below 48)."""
    theme_name = StringProperty(DEFAULT_THEME)
    language = StringProperty(i18n.DEFAULT_LANGUAGE)
    hardware_status = StringProperty("")
    hardware_detail = StringProperty("")
    """What the hardware layer said (its own words, shown as data)."""
    hardware_ready = BooleanProperty(False)
    """True once the hardware was looked for (found or not)."""
    race_log = ObjectProperty(None, allownone=True)
    """The race log, once opened (:meth:`log` opens it)."""
    _loaded_kv: set[str] = set()
    """kv files already given to the Builder (its rules are global: load each once per
    process, however many times the app is built, e.g. in tests)."""

    def __init__(
        self,
        data: str | os.PathLike[str] | None = None,
        hardware_factory: HardwareFactory | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.data_path = storage_paths().data_dir(data)
        self.controller: Any = None
        self.session: Any = None
        self.hardware: Any = None
        self.hw_bridge: Any = None
        self._hardware_factory = hardware_factory
        self._hw_found: tuple[str, str] | None = None
        self._hw_events: list[Any] = []
        self._hw_trigger: Any = None
        self._told_touch_only = False
        self.toast: Any = None
        self.first_frame_done = False
        self.seat_map: dict[int, str] = {}
        self._intervals: list[Any] = []
        """Clock events to cancel when the app stops (hardware poll, watchdog)."""
        self.season_store_: Any = None
        self.season_id: str | None = None
        """The Championship season being looked at or played (its race is ``session``)."""
        self.draft_flow: Any = None
        """The Garage draft the Draft screen guides (``companion.ui.draftflow.DraftFlow``)."""

    # --- start-up -----------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        register_font()
        tr.reset()
        self._load_settings()
        Window.bind(size=self._resize)
        self._resize(Window, Window.size)
        self._load_kv("common")
        self.sm = ScreenManager(transition=NoTransition())
        self.show("start")
        return self.sm

    def on_start(self) -> None:
        Window.bind(on_flip=self._first_flip)

    def _first_flip(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._first_flip)
        self.first_frame_done = True
        Clock.schedule_once(self._after_first_frame, 0)

    def _after_first_frame(self, _dt: float = 0) -> None:
        """What the first frame did not need: systemd, the race log, the hardware."""
        self._notify_systemd()
        self.log()
        if self.sm.current == "start":
            self.sm.current_screen.refresh()
        self.start_hardware()

    def _notify_systemd(self) -> None:
        from hardware import sdnotify

        sdnotify.ready()
        interval = sdnotify.watchdog_interval()
        if interval:
            self._intervals.append(
                Clock.schedule_interval(lambda _dt: sdnotify.watchdog(), interval))

    def on_stop(self) -> None:
        notify = sys.modules.get("hardware.sdnotify")
        if notify is not None and self.first_frame_done:
            notify.stopping()
        for event in self._intervals:
            event.cancel()
        self._intervals.clear()
        if self._hw_trigger is not None:
            self._hw_trigger.cancel()
        if self.hardware is not None:
            try:
                self.hardware.close()
            finally:
                self.hardware = None
        if self.toast is not None and self.toast.parent is not None:
            self.toast.parent.remove_widget(self.toast)
        if self.race_log is not None:
            self.race_log.close()
            self.race_log = None
        if self.season_store_ is not None:
            self.season_store_.close()
            self.season_store_ = None
        i18n.remove_listener(self._language_changed)
        tr.reset()

    def _resize(self, _window: Any, size: tuple[int, int]) -> None:
        width, height = size
        base = min(height / 26.0, width / 44.0)
        self.fs = max(16, round(base))
        self.fs_small = max(14, round(base * 0.82))
        self.fs_big = max(22, round(base * 1.45))
        self.tap = max(48, round(min(height / 8.5, width / 14.0)))

    def _load_kv(self, name: str) -> None:
        if name not in self._loaded_kv:
            Builder.load_file(str(HERE / f"{name}.kv"))
            self._loaded_kv.add(name)

    def log(self) -> Any:
        """The race log, opened on first need (it brings in the engine and SQLite)."""
        if self.race_log is None:
            from companion.session import RaceLog

            self.data_path.mkdir(parents=True, exist_ok=True)
            self.race_log = RaceLog(self.data_path / storage_paths().LOG_FILE)
        return self.race_log

    def season_store(self) -> Any:
        """The Championship seasons of the race log file, opened on first need (the first
        opening adds the season tables to the file: ``companion.storage.seasons``)."""
        if self.season_store_ is None:
            from companion.storage.seasons import SeasonStore

            self.data_path.mkdir(parents=True, exist_ok=True)
            self.season_store_ = SeasonStore(self.data_path / storage_paths().LOG_FILE)
        return self.season_store_

    def has_seasons(self) -> bool:
        """True when the log file has the season tables (without adding them)."""
        if self.season_store_ is not None:
            return True
        import sqlite3

        path = self.data_path / storage_paths().LOG_FILE
        if not path.exists():
            return False
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'season_races'")
            return row.fetchone() is not None
        finally:
            db.close()

    def season_of(self, race_id: str) -> tuple[str, int] | None:
        return self.season_store().season_of(race_id) if self.has_seasons() else None

    # --- settings ----------------------------------------------------------------------------

    @property
    def settings_path(self) -> Path:
        return self.data_path / "settings.json"

    def _load_settings(self) -> None:
        try:
            saved = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = {}
        self.set_theme(saved.get("theme", DEFAULT_THEME), save=False)
        language = saved.get("language", i18n.DEFAULT_LANGUAGE)
        i18n.add_listener(self._language_changed)
        i18n.set_language(language if language in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE)

    def _save_settings(self) -> None:
        self.data_path.mkdir(parents=True, exist_ok=True)
        doc = {"theme": self.theme_name, "language": self.language}
        self.settings_path.write_text(json.dumps(doc), encoding="utf-8")

    def set_theme(self, name: str, save: bool = True) -> None:
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
        self.refresh_all()

    # --- screens -----------------------------------------------------------------------------

    def screen(self, name: str) -> Any:
        """The screen ``name``, imported and built on first use."""
        if not self.sm.has_screen(name):
            module_name, class_name = SCREENS[name]
            self._load_kv(module_name)
            module = importlib.import_module(f"companion.ui.{module_name}")
            self.sm.add_widget(getattr(module, class_name)(name=name))
        return self.sm.get_screen(name)

    def show(self, name: str) -> Any:
        screen = self.screen(name)
        screen.refresh()
        self.sm.current = name
        if self.hw_bridge is not None:
            self.hw_bridge.mode = {"race": "race", "hwcheck": "check"}.get(name, "idle")
            self.hw_bridge.update_leds()
        return screen

    def refresh_all(self) -> None:
        if hasattr(self, "sm"):
            for screen in self.sm.screens:
                screen.refresh()

    # --- races ---------------------------------------------------------------------------------

    def open_session(self, session: Any) -> None:
        """Make ``session`` the race on the race screen (or its results, if it is over)."""
        from .controller import RaceController

        self.session = session
        self.controller = RaceController(session, on_change=self._race_changed)
        self.seat_map = self.load_seats(session)
        if self.hw_bridge is not None:
            self.hw_bridge.seat_map = self.seat_map
        self.show("results" if session.state.over else "race")

    def continue_race(self) -> None:
        """Resume the unfinished race; a season's race through its season (its event and
        Press Corners checked, ``SeasonStore.open_race``)."""
        race_id = self.log().unfinished_race()
        if race_id is None:
            return
        link = self.season_of(race_id)
        if link is not None:
            self.season_id = link[0]
            self.open_session(self.season_store().open_race(race_id))
        else:
            self.season_id = None
            self.open_session(self.log().open_race(race_id))

    def _race_changed(self) -> None:
        if self.controller is None:
            return
        if self.controller.state.over and self.sm.current == "race":
            self.show("results")
        elif self.sm.current == "race":
            self.sm.get_screen("race").refresh()
        if self.hw_bridge is not None:
            self.hw_bridge.update_leds()

    # --- seats ---------------------------------------------------------------------------------

    def _read_seats(self) -> dict[str, dict[str, str]]:
        try:
            doc = json.loads((self.data_path / SEATS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}

    def save_seats(self, race_id: str, seats: dict[int, str]) -> None:
        """Remember which seat plays which car in race ``race_id`` (written atomically)."""
        doc = self._read_seats()
        doc[race_id] = {str(seat): car for seat, car in sorted(seats.items())}
        self.data_path.mkdir(parents=True, exist_ok=True)
        path = self.data_path / SEATS_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        tmp.replace(path)

    def load_seats(self, session: Any) -> dict[int, str]:
        """The race's seats as saved, else the human drivers in grid order from seat 1."""
        state = session.state
        humans = [c.id for c in state.cars if not c.legend]
        saved = self._read_seats().get(session.race_id)
        if isinstance(saved, dict):
            seats = {int(s): c for s, c in saved.items()
                     if str(s).isdigit() and c in humans}
            if seats:
                return seats
        return {seat: car for seat, car in enumerate(humans, start=1)}

    # --- hardware ----------------------------------------------------------------------------

    def start_hardware(self) -> None:
        """Look for the table hardware (once; after the first frame keeps start-up lean)."""
        if self.hardware_ready:
            return
        self.hardware_ready = True
        try:
            import hardware

            from .hwbridge import HardwareBridge
        except Exception as error:  # pragma: no cover - hardware package missing or broken
            self._hw_found = ("missing", str(error))
            self._show_hardware()
            self._tell_touch_only(str(error))
            return
        queue = hardware.InputQueue()
        try:
            if self._hardware_factory is not None:
                found = self._hardware_factory(queue)
            else:
                found = hardware.detect(queue)
        except Exception as error:  # detect() never raises; a broken factory must not either
            found = hardware.Hardware(queue, reason=f"{type(error).__name__}: {error}")
        self.hardware = found
        self.hw_bridge = HardwareBridge(found, lambda: self.controller)
        self.hw_bridge.seat_map = self.seat_map
        self.hw_bridge.mode = {"race": "race", "hwcheck": "check"}.get(self.sm.current, "idle")
        available = bool(getattr(found, "available", True))
        reason = str(getattr(found, "reason", "") or "")
        if not available:
            self._hw_found = ("none", reason)
            self._show_hardware()
            self._tell_touch_only(reason)
            self._refresh_check()
            return
        self._hw_found = ("found", ", ".join(str(s) for s in found.seats))
        self._show_hardware()
        if reason:  # partly there: say once what is missing
            self._tell(i18n._("Table hardware: {reason}").format(reason=reason))
        queue = getattr(found, "queue", queue)
        self._hw_trigger = Clock.create_trigger(self.poll_hardware, 0)
        queue.on_put = self._hw_trigger
        try:
            found.start()
        except Exception as error:  # a table that cannot start leaves the touchscreen working
            self._tell(i18n._("Table hardware failed to start: {error}").format(error=error))
        self._intervals.append(Clock.schedule_interval(self.poll_hardware, HARDWARE_POLL_S))
        self.poll_hardware()

    def _show_hardware(self) -> None:
        if self._hw_found is None:
            return
        kind, detail = self._hw_found
        if kind == "missing":
            self.hardware_status = i18n._("Hardware support is not installed: {error}").format(
                error=detail)
        elif kind == "none":
            self.hardware_status = i18n._("No table hardware: touch only.")
            self.hardware_detail = detail
        else:
            self.hardware_status = i18n._("Table hardware found: seats {seats}.").format(
                seats=detail)

    def _tell_touch_only(self, reason: str) -> None:
        """Say "touch-only: <reason>" once per session (never again, whatever happens)."""
        if self._told_touch_only:
            return
        self._told_touch_only = True
        self._tell(i18n._("Touch-only: {reason}").format(reason=touch_only_reason(reason)))

    def _tell(self, text: str) -> None:
        """A banner over the current screen; tap it or wait :data:`TOAST_S` to close it."""
        from .widgets import Toast

        if self.toast is None:
            self.toast = Toast()
        toast = self.toast
        toast.text = text
        if toast.parent is None:
            Window.add_widget(toast)
        toast.opacity = 1
        Clock.unschedule(toast.close)
        Clock.schedule_once(toast.close, TOAST_S)

    def poll_hardware(self, _dt: float = 0) -> None:
        """Drain the table's queue into the bridge (main thread) and advance LED timers."""
        if self.hardware is None or self.hw_bridge is None:
            return
        queue = getattr(self.hardware, "queue", None)
        before = self.hw_bridge.version
        if queue is not None:
            for event in queue.drain():
                self.hw_bridge.handle(event)
        self.hw_bridge.tick()
        status = self.hw_bridge.status
        if status is not None:
            self.hardware_detail = status()
        if self.hw_bridge.version != before:
            self._refresh_check()

    def _refresh_check(self) -> None:
        if hasattr(self, "sm") and self.sm.current == "hwcheck":
            self.sm.current_screen.refresh()


def main(args: Namespace | None = None) -> int:
    """Run the app (``args.data``: optional data folder)."""
    data = getattr(args, "data", None) if args is not None else None
    HeatApp(data=data).run()
    return 0
