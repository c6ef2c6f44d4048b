"""The app's table hardware and systemd wiring: the hardware looked for after the first frame,
its queue drained on the main thread (a Clock trigger fired by the queue, plus a slow interval
for LED timers) into :class:`~companion.ui.hardware_bridge.HardwareBridge`, what was found in
words (``hardware_status``, ``hardware_reasons``, the Start screen's ``hardware_notice``; the
hardware layer's own technical text in ``hardware_reason``), and the systemd ready/watchdog
notifications.

Nothing is shown over the screens: the notice is a line of the Start screen (a tap opens the
Hardware check), so it never covers a control.

:class:`HardwareMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty

from companion import i18n

HARDWARE_POLL_S = 0.25
"""The slow hardware interval: LED timers and hub status (inputs are drained at once)."""

HardwareFactory = Callable[[Any], Any]
"""``factory(queue) -> hardware``: ``hardware.detect`` by default; tests pass a FakeTable."""


class HardwareMixin:
    """Hardware and watchdog (uses the app's ``sm``, ``controller`` and ``seat_map``)."""

    if TYPE_CHECKING:  # provided by the App
        def screen(self, name: str) -> Any: ...

    hardware_status = StringProperty("")
    """What was found, in one translated sentence."""
    hardware_reasons = StringProperty("")
    """Why some or all of the table is missing, in translated sentences (one a line)."""
    hardware_reason = StringProperty("")
    """The hardware layer's own technical text (Hardware check, "Technical details")."""
    hardware_notice = StringProperty("")
    """The Start screen's line about the table ("" when the whole table was found)."""
    hardware_detail = StringProperty("")
    """The table's latest status while it runs (hub online, rejected input), in words."""
    hardware_ready = BooleanProperty(False)
    """True once the hardware was looked for (found or not)."""

    sm: Any
    controller: Any
    seat_map: dict[int, str]
    first_frame_done: bool
    _table_undo_on_results: Callable[[], None]
    """The table's Undo while Results shows (the App's)."""

    def _init_hardware(self, factory: HardwareFactory | None) -> None:
        self.hardware: Any = None
        self.hw_bridge: Any = None
        self._hardware_factory = factory
        self._hw_found: tuple[str, str] | None = None
        self._hw_events: list[Any] = []
        self._hw_trigger: Any = None
        self._hw_failed = ""
        """Why a table that was found did not start ("" when it started)."""
        self._intervals: list[Any] = []
        """Clock events to cancel when the app stops (hardware poll, watchdog)."""

    def _notify_systemd(self) -> None:
        from hardware import sdnotify

        sdnotify.ready()
        interval = sdnotify.watchdog_interval()
        if interval:
            self._intervals.append(
                Clock.schedule_interval(lambda _dt: sdnotify.watchdog(), interval))

    def _stop_hardware(self) -> None:
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

    def start_hardware(self) -> None:
        """Look for the table hardware (once; after the first frame keeps start-up lean)."""
        if self.hardware_ready:
            return
        self.hardware_ready = True
        try:
            import hardware

            from ..hardware_bridge import SCREEN_MODES, HardwareBridge
        except Exception as error:  # pragma: no cover - hardware package missing or broken
            self._hw_found = ("missing", str(error))
            self._show_hardware()
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
        self.hw_bridge.mode = SCREEN_MODES.get(self.sm.current, "idle")
        # the table's Undo on the Garage draft screen: its Undo (the last pick taken back)
        self.hw_bridge.draft_undo = lambda: self.screen("draft").undo()
        self.hw_bridge.results_undo = self._table_undo_on_results
        available = bool(getattr(found, "available", True))
        reason = str(getattr(found, "reason", "") or "")
        if not available:
            self._hw_found = ("none", reason)
            self._show_hardware()
            self._refresh_check()
            return
        self._hw_found = ("found", reason)
        self._show_hardware()
        queue = getattr(found, "queue", queue)
        self._hw_trigger = Clock.create_trigger(self.poll_hardware, 0)
        queue.on_put = self._hw_trigger
        try:
            found.start()
        except Exception as error:  # a table that cannot start leaves the touchscreen working
            self._hw_failed = f"{type(error).__name__}: {error}"
            self._show_hardware()
        self._intervals.append(Clock.schedule_interval(self.poll_hardware, HARDWARE_POLL_S))
        self.poll_hardware()

    def _show_hardware(self) -> None:
        """Say what was found in the current language (again after a language switch)."""
        from ..views.hardware_words import reason_sentences

        if self._hw_found is None:
            return
        kind, reason = self._hw_found
        reasons = reason_sentences(reason)
        technical = [reason] if reason else []
        if kind == "missing":
            self.hardware_status = i18n._("Hardware support is not installed: touch only.")
            self.hardware_notice = i18n._("No table hardware found: touch only")
        elif kind == "none":
            self.hardware_status = i18n._("No table hardware found: touch only.")
            self.hardware_notice = i18n._("No table hardware found: touch only")
        else:
            seats = i18n.listed(str(s) for s in getattr(self.hardware, "seats", ()))
            self.hardware_status = i18n._("Table hardware found: seats {seats}.").format(
                seats=seats)
            self.hardware_notice = (
                i18n._("Table hardware found for seats {seats}; some is missing.").format(
                    seats=seats) if reasons else "")
        if self._hw_failed:
            reasons.append(i18n._("The table hardware did not start: touch only."))
            technical.append(self._hw_failed)
            self.hardware_notice = i18n._("Table hardware did not start: touch only")
        self.hardware_reasons = "\n".join(reasons)
        self.hardware_reason = "\n".join(technical)

    def poll_hardware(self, _dt: float = 0) -> None:
        """Drain the table's queue into the bridge (main thread) and advance LED timers."""
        if self.hardware is None or self.hw_bridge is None:
            return
        queue = getattr(self.hardware, "queue", None)
        before, dials = self.hw_bridge.version, self.hw_bridge.dial_version
        if queue is not None:
            for event in queue.drain():
                self.hw_bridge.handle(event)
        self.hw_bridge.tick()
        self._show_hardware_detail()
        if self.hw_bridge.version != before:
            self._refresh_check()
        if self.hw_bridge.dial_version != dials and self.sm.current == "race":
            # a dial turned: its gear marked in the car's cell (nothing else redrawn)
            self.sm.current_screen.show_dials(self.hw_bridge.dials_by_car())

    def _show_hardware_detail(self) -> None:
        """The bridge's per-seat and per-hub detail, in the current language (at each poll,
        and at once after a language switch)."""
        status = self.hw_bridge.status if self.hw_bridge is not None else None
        if status is not None:
            self.hardware_detail = status()

    def _refresh_check(self) -> None:
        if hasattr(self, "sm") and self.sm.current == "hwcheck":
            self.sm.current_screen.refresh()
