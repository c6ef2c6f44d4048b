"""The app's table hardware and systemd wiring: the hardware looked for after the first frame,
its queue drained on the main thread (a Clock trigger fired by the queue, plus a slow interval
for LED timers) into :class:`~companion.ui.hardware_bridge.HardwareBridge`, the status shown, the
"touch-only" banner, and the systemd ready/watchdog notifications.

:class:`HardwareMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty

from companion import i18n

HARDWARE_POLL_S = 0.25
"""The slow hardware interval: LED timers and hub status (inputs are drained at once)."""
TOAST_S = 8.0

HardwareFactory = Callable[[Any], Any]
"""``factory(queue) -> hardware``: ``hardware.detect`` by default; tests pass a FakeTable."""


def touch_only_reason(reason: str) -> str:
    """The hardware layer's reason without its own "running touch-only" (we say it first)."""
    text = re.sub(r"[,;:]?\s*running touch-only\s*[:;,]?", "", reason).strip()
    return text or reason


class HardwareMixin:
    """Hardware, watchdog and banner (uses the app's ``sm``, ``controller`` and ``seat_map``)."""

    hardware_status = StringProperty("")
    hardware_detail = StringProperty("")
    """What the hardware layer said (its own words, shown as data)."""
    hardware_ready = BooleanProperty(False)
    """True once the hardware was looked for (found or not)."""

    sm: Any
    controller: Any
    seat_map: dict[int, str]
    first_frame_done: bool

    def _init_hardware(self, factory: HardwareFactory | None) -> None:
        self.hardware: Any = None
        self.hw_bridge: Any = None
        self._hardware_factory = factory
        self._hw_found: tuple[str, str] | None = None
        self._hw_events: list[Any] = []
        self._hw_trigger: Any = None
        self._told_touch_only = False
        self.toast: Any = None
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
        if self.toast is not None and self.toast.parent is not None:
            self.toast.parent.remove_widget(self.toast)

    def start_hardware(self) -> None:
        """Look for the table hardware (once; after the first frame keeps start-up lean)."""
        if self.hardware_ready:
            return
        self.hardware_ready = True
        try:
            import hardware

            from ..hardware_bridge import HardwareBridge
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
        from ..widgets.basic import Toast

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
