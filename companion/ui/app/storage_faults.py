"""The app on storage faults: every storage error becomes the storage fault screen, and the app
never exits on bad storage.

Errors reach :meth:`FaultMixin.storage_fault` by three roads:

* explicitly, where the app knows what to offer: opening the log at start-up and on Retry, a
  screen's refresh (:meth:`~companion.ui.app.HeatApp.show`), Continue, and every race input,
  undo and redo (the controller's ``on_fault``: the input was not recorded, Retry submits it
  again, exactly once);
* from anything else run by Kivy's loop (a button of a screen, a Clock callback): a handler in
  Kivy's :class:`~kivy.base.ExceptionManager` takes each ``StorageError``, and each ``OSError``
  on a file (an export on a full disk), shows the screen and lets the loop go on;
* a damaged log is copied beside itself the first time it is met (``LogAccess.keep_copy``).

What the screen offers (:mod:`companion.ui.views.storage_fault`): Retry (the same thing
again), Back, View races (read-only storage: the log is reopened to read only), Start a new
log (a damaged file or one that is not a race log: after a confirmation, the file is renamed
aside and an empty log started), Reopen race (another writer changed the race), End the draft
(a Garage draft the log cannot read or replay: abandoned, its picks kept; a season's draft leads
to the season's Next race, drawn as the draft's was when that can be read).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.logger import Logger

from companion.storage.errors import StorageError, StorageKind

from ..log_access import as_storage_error
from ..views.storage_fault import Fault, FaultView, confirm_view, fault_view, new_log_view

FAULT_SCREEN = "storagefault"
CURRENT = "<current>"
"""``storage_fault(back=CURRENT)``: Back returns to the screen shown when the fault happened."""


class _RouteToFaultScreen(ExceptionHandler):  # type: ignore[misc]
    """Kivy's last resort: a storage error nobody caught becomes the fault screen."""

    def __init__(self, app: FaultMixin) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> Any:
        error = as_storage_error(inst)
        if error is None:
            return ExceptionManager.RAISE
        Logger.warning("heat-companion: storage fault: %s", error)
        try:
            self.app.storage_fault(error)
        except Exception:  # the fault screen itself failed: let Kivy report it
            Logger.exception("heat-companion: cannot show the storage fault")
            return ExceptionManager.RAISE
        return ExceptionManager.PASS


class FaultMixin:
    """The storage fault screen's state and buttons (uses the app's screens and data)."""

    sm: Any
    session: Any
    controller: Any
    season_id: str | None
    log_access: Any

    fault: Fault | None = None
    """The fault shown (None: none)."""
    fault_confirming: bool = False
    """Asking whether to start a new log."""
    _fault_retry: Callable[[], object] | None = None
    _fault_then: Callable[[], object] | None = None
    _fault_aside: Path | None = None
    _new_log: Path | None = None
    """The name the old log took when a new one was started (said until OK)."""
    _fault_back_to: str | None = "start"
    """Where Back of the last fault led (kept while its Retry or Back runs)."""
    _fault_handler: _RouteToFaultScreen | None = None

    if TYPE_CHECKING:  # provided by the App and its other bases
        @property
        def storage_read_only(self) -> bool: ...
        def show(self, name: str) -> Any: ...
        def open_storage(self) -> None: ...
        def view_read_only(self, why: Any) -> None: ...
        def start_new_log(self, aside: Path) -> Path: ...
        def open_session(self, session: Any) -> None: ...
        def log(self) -> Any: ...
        def season_of(self, race_id: str) -> tuple[str, int] | None: ...
        def season_store(self) -> Any: ...
        def end_damaged_draft(self, draft_id: str) -> tuple[str, int | None] | None: ...
        def screen(self, name: str) -> Any: ...

    # --- wiring -------------------------------------------------------------------------------

    def _route_faults(self) -> None:
        """From now on, a storage error nobody caught shows the fault screen."""
        if self._fault_handler is None:
            self._fault_handler = _RouteToFaultScreen(self)
            ExceptionManager.add_handler(self._fault_handler)

    def _unroute_faults(self) -> None:
        if self._fault_handler is not None:
            ExceptionManager.remove_handler(self._fault_handler)
            self._fault_handler = None

    def open_log_at_start(self) -> None:
        """Open the race log after the first frame; a fault shows its screen (Retry opens it
        again, then goes to the start screen)."""
        try:
            self.open_storage()
        except StorageError as error:
            self.storage_fault(error, context="open", retry=self.open_storage,
                               then=lambda: self.show("start"), back=None)

    # --- showing a fault ----------------------------------------------------------------------

    def storage_fault(
        self, error: StorageError, *, context: str = "action",
        retry: Callable[[], object] | None = None, then: Callable[[], object] | None = None,
        back: str | None = CURRENT,
    ) -> None:
        """Show ``error`` on the fault screen. ``retry`` does the failed thing again (it shows
        its own fault if it fails again, or raises), then ``then`` runs (e.g. shows the race);
        ``back``: the screen Back returns to (``CURRENT``: the one shown now; None: no Back)."""
        if back == CURRENT:
            back = self.sm.current
        if back == FAULT_SCREEN:
            back = self.fault.back if self.fault is not None else self._fault_back_to
        if error.kind == StorageKind.DAMAGED:
            self.log_access.keep_copy()
        since = ""
        if error.kind == StorageKind.LOCKED:
            found = self.log_access.holder()
            since = found.since if found is not None else ""
        access = self.log_access
        # here, not at the top: the drafts' module loads SQLite, which the first frame must
        # not wait for (tests/ui/test_startup.py)
        from companion.storage.drafts import DamagedDraftError

        self.fault = Fault(
            error=error, context=context, can_retry=retry is not None, back=back,
            viewing=self.storage_read_only, copy=access.copy, copy_problem=access.copy_problem,
            since=since, own_pid=os.getpid(), own_host=socket.gethostname(),
            race_open=self.session is not None,
            draft=str(getattr(error, "draft_id", "")) if isinstance(error, DamagedDraftError)
            else "")
        self._fault_retry, self._fault_then = retry, then
        self._fault_back_to = back
        self.fault_confirming = False
        self.show(FAULT_SCREEN)

    def fault_view(self) -> FaultView | None:
        """What the fault screen shows now (None: no fault)."""
        if self.fault is None:
            if self._new_log is not None:
                return new_log_view(self._new_log.name, str(self._new_log.parent))
            return None
        if self.fault_confirming and self._fault_aside is not None:
            return confirm_view(self.fault, self._fault_aside.name)
        return fault_view(self.fault)

    def input_fault(self, error: Exception) -> bool:
        """The controller's ``on_fault``: a race input, undo or redo the log did not record.
        True when it is a storage fault (shown; the controller keeps the input for Retry)."""
        if not isinstance(error, StorageError):
            return False
        if self.storage_read_only and error.kind == StorageKind.READ_ONLY:
            return True  # viewing a read-only log: the race screen says the input was refused
        controller = self.controller
        self.storage_fault(error, context="input", retry=controller.retry,
                           then=self._show_race, back="race")
        return True

    def _show_race(self) -> None:
        if self.controller is not None:
            self.show("results" if self.controller.state.over else "race")

    def refresh_failed(self, name: str, error: StorageError) -> None:
        """Showing screen ``name`` failed: the fault, with Retry showing it again. Back goes
        where the user came from, or to the start screen (never in a circle)."""
        came_from = self.sm.current
        if came_from == FAULT_SCREEN:  # Retry or Back of the fault before
            came_from = self._fault_back_to or ""
        back = came_from if came_from not in (name, "") else (
            "start" if name != "start" else None)
        self.storage_fault(error, context="read", retry=lambda: self.show(name), back=back)

    # --- the screen's buttons -----------------------------------------------------------------

    def fault_action(self, key: str) -> None:
        """A button of the fault screen (its ``key``: see ``views.storage_fault.ACTIONS``)."""
        handlers: dict[str, Callable[[], None]] = {
            "retry": self.fault_retry, "back": self.fault_back, "view": self.fault_view_races,
            "new-log": self.fault_ask_new_log, "confirm-new-log": self.fault_new_log,
            "cancel": self.fault_cancel, "reopen": self.fault_reopen, "done": self.fault_done,
            "end-draft": self.fault_end_draft,
        }
        handlers[key]()

    def _clear_fault(self) -> Fault | None:
        self._new_log = None
        fault = self.fault
        self.fault = None
        self.fault_confirming = False
        return fault

    def fault_retry(self) -> None:
        """Do the failed thing again; a new failure shows its own fault."""
        fault = self._clear_fault()
        retry, then = self._fault_retry, self._fault_then
        if fault is None or retry is None:
            return
        try:
            retry()
        except StorageError as error:
            self.storage_fault(error, context=fault.context, retry=retry, then=then,
                               back=fault.back)
            return
        if self.fault is not None:  # it failed again, and said so
            return
        if then is not None:
            then()
        elif self.sm.current == FAULT_SCREEN:
            self.show(fault.back or "start")

    def fault_back(self) -> None:
        fault = self._clear_fault()
        self.show(fault.back if fault is not None and fault.back else "start")

    def fault_view_races(self) -> None:
        """Read-only storage: browse the races (the log reopened to read only)."""
        fault = self.fault
        if fault is None:
            return
        if not self.storage_read_only:
            self.session = None
            self.controller = None
            try:
                self.view_read_only(fault.error)
            except StorageError as error:
                self.storage_fault(error, context="open", retry=self.open_storage,
                                   then=lambda: self.show("start"), back=None)
                return
        self._clear_fault()
        self.show("races")

    def fault_ask_new_log(self) -> None:
        fault = self.fault
        if fault is None:
            return
        label = "damaged" if fault.kind == StorageKind.DAMAGED else "not-a-race-log"
        self._fault_aside = Path(self.log_access.aside_name(label))
        self.fault_confirming = True
        self.show(FAULT_SCREEN)

    def fault_cancel(self) -> None:
        self.fault_confirming = False
        self.show(FAULT_SCREEN)

    def fault_new_log(self) -> None:
        """Confirmed: set the file aside (renamed, never deleted) and start an empty log."""
        aside = self._fault_aside
        if self.fault is None or aside is None:
            return
        self.session = None
        self.controller = None
        self.season_id = None
        try:
            taken = self.start_new_log(aside)
        except StorageError as error:
            self.storage_fault(error, context="open", retry=self.open_storage,
                               then=lambda: self.show("start"), back=None)
            return
        self._clear_fault()
        self._new_log = taken
        self.show(FAULT_SCREEN)  # says where the old file is; OK goes to the start screen

    def fault_done(self) -> None:
        self._new_log = None
        self.show("start")

    def fault_end_draft(self) -> None:
        """End the Garage draft the log cannot read (abandoned: its picks stay in the log).
        A season's draft: the season's Next race (drawn from the draft's seed when its start
        reads; Back as from where the fault came); a single race's: where the fault came from
        (Start, or the New race form)."""
        fault = self.fault
        if fault is None or not fault.draft:
            return
        try:
            season = self.end_damaged_draft(fault.draft)
        except StorageError as error:
            self.storage_fault(error, back=fault.back)
            return
        self._clear_fault()
        if season is None:
            self.show(fault.back or "start")
            return
        season_id, seed = season
        self.season_id = season_id
        self.screen("nextrace").prepare(seed, back_to="start" if fault.back == "start"
                                        else "standings")
        self.show("nextrace")

    def fault_reopen(self) -> None:
        """Another writer changed the race: open it again as the log holds it."""
        session = self.session
        self._clear_fault()
        if session is None:
            self.show("start")
            return
        race_id = session.race_id
        try:
            link = self.season_of(race_id)
            self.open_session(self.season_store().open_race(race_id) if link
                              else self.log().open_race(race_id))
        except StorageError as error:
            self.storage_fault(error, context="read", back="start")
