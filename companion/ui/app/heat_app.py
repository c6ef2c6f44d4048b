"""The Kivy app: composition root (screen registry, lazy loading, start-up and races).

``heat-companion`` (``companion.cli``) calls :func:`main`. Start-up is kept lean: only the start
screen's kv is loaded before the first frame, and the engine, the race log (SQLite), the table
hardware and the systemd notifications are all brought in right after it
(:meth:`HeatApp._after_first_frame`) or on first need (:meth:`HeatApp.log`). Every other screen
is imported and built the first time it is shown.

All changes to a race go input -> :class:`~companion.ui.controller.RaceController` ->
``session.submit`` -> screen refresh, on the main thread. The app's other concerns are its
bases: :mod:`.settings` (theme, fonts, settings), :mod:`.data` (race log, seasons, seats),
:mod:`.drafts` (the Garage drafts recorded pick by pick) and :mod:`.table_hardware` (table
hardware, watchdog, banner).
"""

from __future__ import annotations

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")  # our flags must never reach Kivy's getopt

import contextlib  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
from argparse import Namespace  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.properties import ObjectProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from companion import i18n  # noqa: E402
from companion.storage import paths as storage_paths  # noqa: E402
from companion.storage.errors import StorageError  # noqa: E402

from ..widgets import kv_rules, text_cache  # noqa: E402
from ..widgets.touch_gate import LEDGER, screen_changed  # noqa: E402
from ..widgets.translation import tr  # noqa: E402
from .data import DataMixin  # noqa: E402
from .drafts import DraftMixin  # noqa: E402
from .frame_end_gc import FrameEndCollector  # noqa: E402
from .offscreen import finish_every_frame_offscreen  # noqa: E402
from .settings import SettingsMixin, register_font  # noqa: E402
from .storage_faults import FaultMixin  # noqa: E402
from .table_hardware import HardwareFactory, HardwareMixin  # noqa: E402

__all__ = ["SCREENS", "HeatApp", "main"]

UI = Path(__file__).parent.parent
SCREENS_PACKAGE = "companion.ui.screens"
SCREENS_DIR = UI / "screens"
COMMON_KV = UI / "widgets" / "common.kv"
"""The styles of the shared widgets (loaded before the first screen)."""
SCREENS: dict[str, tuple[str, str]] = {
    "start": ("start", "StartScreen"),
    "newrace": ("new_race", "NewRaceScreen"),
    "race": ("race", "RaceScreen"),
    "results": ("results", "ResultsScreen"),
    "races": ("races", "RacesScreen"),
    "settings": ("settings", "SettingsScreen"),
    "hwcheck": ("hardware_check", "HardwareCheckScreen"),
    "draft": ("draft", "DraftScreen"),
    "seasons": ("seasons", "SeasonsScreen"),
    "newseason": ("new_season", "NewSeasonScreen"),
    "nextrace": ("next_race", "NextRaceScreen"),
    "standings": ("standings", "StandingsScreen"),
    "storagefault": ("storage_fault", "StorageFaultScreen"),  # FAULT_SCREEN
}
"""Screen name -> (module in :mod:`companion.ui.screens`, class); each module has a .kv of the
same name beside it."""


class HeatApp(SettingsMixin, DataMixin, DraftMixin, FaultMixin, HardwareMixin,
              App):  # type: ignore[misc]
    title = "Heat Companion"
    race_seed: int | None = None
    """A fixed seed for championship races (the demo and the UI tests); None draws one."""
    race_log = ObjectProperty(None, allownone=True)
    """The race log, once opened (:meth:`log` opens it)."""
    _loaded_kv: set[Path] = set()
    """kv files already given to the Builder (its rules are global: load each once per
    process, however many times the app is built, e.g. in tests)."""

    def __init__(
        self,
        data: str | os.PathLike[str] | None = None,
        hardware_factory: HardwareFactory | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.data_path = storage_paths.data_dir(data)
        self.controller: Any = None
        self.session: Any = None
        self._init_hardware(hardware_factory)
        self.first_frame_done = False
        self.seat_map: dict[int, str] = {}
        self.season_store_: Any = None
        self.season_id: str | None = None
        """The Championship season being looked at or played (its race is ``session``)."""
        self.frame_end_gc = FrameEndCollector()
        """The garbage collector's work done when a frame has been shown, not in a tap."""
        self.draft_flow: Any = None
        """The Garage draft the Draft screen guides
        (:class:`~companion.ui.views.draft_flow.DraftFlow`)."""

    # --- start-up -----------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        register_font()
        finish_every_frame_offscreen()  # (offscreen, frames that are never finished pile up)
        text_cache.install()  # a text rendered once is not rendered again
        text_cache.keep_names(())  # no race's drivers' names yet (a race opened sets them)
        kv_rules.install()  # kv rules evaluated without formatting Kivy's debug trace
        self.frame_end_gc.install(Window)  # the collector's work after a frame, not in a tap
        tr.reset()
        self._load_settings()
        Window.bind(size=self._resize)
        self._resize(Window, Window.size)
        self._load_kv(COMMON_KV)
        self._route_faults()
        self.sm = ScreenManager(transition=NoTransition())
        LEDGER.install(Window)  # every touch numbered before a widget sees it
        self.sm.bind(current=lambda *_args: screen_changed())
        self.show("start")
        return self.sm

    def on_start(self) -> None:
        Window.bind(on_flip=self._first_flip)

    def _first_flip(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._first_flip)
        self.first_frame_done = True
        Clock.schedule_once(self._after_first_frame, 0)

    def _after_first_frame(self, _dt: float = 0) -> None:
        """What the first frame did not need: systemd, the race log, the hardware. A log that
        cannot be opened shows the storage fault screen; the app goes on."""
        self._notify_systemd()
        self.open_log_at_start()
        if self.sm.current == "start":
            self.sm.current_screen.refresh()
        self.start_hardware()
        # What start-up made lives as long as the app: out of the collector's sight, a full
        # collection (tens of ms, due some time during a race) no longer walks it.
        gc.freeze()

    def on_stop(self) -> None:
        from ..widgets.basic import remove_overlays

        remove_overlays()  # hints and overlays over the window go with the app
        Window.unbind(size=self._resize)  # (a stopped app, a test's, follows no window)
        self.frame_end_gc.uninstall(Window)
        self._stop_hardware()
        self._close_data()
        self._unroute_faults()
        i18n.remove_listener(self._language_changed)
        tr.reset()
        # What was frozen for the app's life (start-up, the first Results screen) goes back in
        # the collector's sight: a stopped app (a test's, or one built again in the same
        # process) is then freed; frozen, every one stayed for good.
        gc.unfreeze()

    def _load_kv(self, path: Path) -> None:
        if path not in self._loaded_kv:
            Builder.load_file(str(path))
            self._loaded_kv.add(path)

    # --- screens -----------------------------------------------------------------------------

    def screen(self, name: str) -> Any:
        """The screen ``name``, imported and built on first use."""
        if not self.sm.has_screen(name):
            module_name, class_name = SCREENS[name]
            self._load_kv(SCREENS_DIR / f"{module_name}.kv")
            module = importlib.import_module(f"{SCREENS_PACKAGE}.{module_name}")
            self.sm.add_widget(getattr(module, class_name)(name=name))
        return self.sm.get_screen(name)

    def show(self, name: str) -> Any:
        """Refresh screen ``name`` and show it; if the refresh meets a storage fault, the fault
        screen is shown instead (its Retry shows ``name`` again)."""
        screen = self.screen(name)
        try:
            screen.refresh()
        except StorageError as error:
            self.refresh_failed(name, error)
            return screen
        self.sm.current = name
        if self.hw_bridge is not None:
            from ..hardware_bridge import SCREEN_MODES

            self.hw_bridge.mode = SCREEN_MODES.get(name, "idle")
            self.hw_bridge.update_leds()
        return screen

    def refresh_all(self) -> None:
        if hasattr(self, "sm"):
            for screen in self.sm.screens:
                try:
                    screen.refresh()
                except StorageError as error:
                    if screen.name == self.sm.current:
                        self.refresh_failed(screen.name, error)

    # --- races ---------------------------------------------------------------------------------

    def open_session(self, session: Any) -> None:
        """Make ``session`` the race on the race screen (or its results, if it is over)."""
        from ..controller import RaceController

        # its drivers' names kept whole on one line where they fit one
        text_cache.keep_names(car.name for car in session.state.cars
                              if car.name and not car.legend)
        self.session = session
        if not session.state.over:  # a race over, opened to read its results, is not the race
            self.remember_race(session.race_id)  # the table plays: Continue stays on that one
        before = self.controller
        # no race on screen since the app started: what was typed on its keypad is lost
        self.controller = RaceController(session, on_change=self._race_changed,
                                         on_fault=self.input_fault, after_stop=before is None)
        if before is not None:  # the same race again (Menu, then Continue): what was typed
            self.controller.keep_typing_of(before)  # on the keypad stays
        self.seat_map = self.load_seats(session)
        if self.hw_bridge is not None:
            self.hw_bridge.seat_map = self.seat_map
        self.show("results" if session.state.over else "race")

    def continue_race(self, race_id: str | None = None) -> None:
        """Resume an unfinished race (default: the one Continue offers, ``continue_target``);
        a season's race through its season (its event and Press Corners checked,
        ``SeasonStore.open_race``). A storage fault shows its screen (Retry tries again)."""
        try:
            self._continue_race(race_id)
        except StorageError as error:
            self.storage_fault(error, context="read",
                               retry=lambda: self._continue_race(race_id))

    def _continue_race(self, race_id: str | None) -> None:
        if race_id is None:
            items = self.unfinished()
            if not items:
                return
            if items[0].kind == "draft":  # a Garage draft cut short: where it was
                self._continue_draft(items[0].id)
                return
            race_id = str(items[0].id)
        link = self.season_of(race_id)
        if link is not None:
            self.season_id = link[0]
            self.open_session(self.season_store().open_race(race_id))
        else:
            self.season_id = None
            self.open_session(self.log().open_race(race_id))

    def why_finish_stands(self) -> Any:
        """Why the Results of the race on show cannot take back the input that finished it
        (a ``Text``; None: it can): the log is read only, or the season's next race has
        started or its Garage draft is under way (``SeasonStore.followed``)."""
        from ..views.results import finish_stands

        session = self.session
        if session is None:
            return None
        read_only = self.storage_read_only
        followed = None
        if not read_only and self.has_seasons():
            followed = self.season_store().followed(session.race_id)
        return finish_stands(followed, read_only)

    def undo_finish(self) -> bool:
        """Results' "Undo last input" (a tap, or the table's Undo while Results shows): the
        input that finished the race on show taken back through the race's own Undo (the
        controller's: an undo event in the log, its words said as the race screen says
        them), then the race screen, the race unfinished (its Redo finishes it again). The
        season's standings follow: a race's result is derived from its log. False: nothing
        was undone (refused, :meth:`why_finish_stands`; or a storage fault, shown)."""
        controller, session = self.controller, self.session
        if controller is None or session is None or not session.state.over:
            return False
        if self.why_finish_stands() is not None:
            return False
        if not controller.undo() or controller.state.over:
            return False
        self._forget_saved_results(session.race_id)
        self.remember_race(session.race_id)  # the table plays it again: Continue leads to it
        self.show("race")
        return True

    def _forget_saved_results(self, race_id: str) -> None:
        """The results file and lap chart saved when the race finished, taken away once an
        undo has made it unfinished (they said it was over; they are derived from the log,
        and the finish saves them again). One that cannot be removed (a read-only folder)
        stays: the log, the record, is right either way."""
        from ..views.results import results_paths

        for path in results_paths(self.data_path, race_id):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)

    def _table_undo_on_results(self) -> None:
        """The table's Undo while Results shows: as a tap on its "Undo last input"; refused,
        the reason shows by the button, as a tap on it greyed shows it."""
        if self.sm.current != "results":
            return
        screen = self.sm.current_screen
        why = self.why_finish_stands()
        if why is not None:
            screen.explain_undo(why())
            return
        self.undo_finish()

    def _race_changed(self) -> None:
        if self.controller is None:
            return
        if self.controller.state.over and self.sm.current == "race":
            self.show("results")
        elif self.sm.current == "race":
            self.sm.get_screen("race").refresh()
        if self.hw_bridge is not None:
            self.hw_bridge.update_leds()


def main(args: Namespace | None = None) -> int:
    """Run the app (``args.data``: optional data folder)."""
    data = getattr(args, "data", None) if args is not None else None
    HeatApp(data=data).run()
    return 0
