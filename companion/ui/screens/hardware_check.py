"""Hardware check: every seat's dial, last input and LED, live; Identify; the hub's health.

Reached from Settings. While it is shown the table's inputs are only displayed, never played
(:class:`~companion.ui.hardware_bridge.HardwareBridge` mode ``check``): a seat's LED lights for a
moment after each of its inputs, and Identify blinks it fast for two seconds. With no hardware
the screen says why in the player's language; the hardware layer's own technical text is one
tap away ("Technical details").
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _, listed

from ..views.hardware_words import reason_technical, reason_text
from ..views.names import car_label
from ..widgets.basic import (
    Btn,
    Cell,
    MoreBelow,  # noqa: F401 - hardware_check.kv
    Row,
    Swatch,
    ToneLabel,
)
from ..widgets.chart_names import fit_cell
from ..widgets.text_fit import FIT
from .base import BaseScreen


def led_text(pattern: str) -> str:
    words = {"off": _("off"), "on": _("on"), "blink": _("blinking"), "fast": _("fast blink")}
    return words.get(pattern, pattern)


class HardwareCheckScreen(BaseScreen):
    technical = BooleanProperty(False)
    """True while the hardware layer's own text is shown."""
    back_to = StringProperty("settings")
    """The screen Back returns to: the one that opened this (Settings, or Start's notice)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: dict[int, tuple[Any, ...]] = {}
        self._layout: tuple[object, ...] = ()

    def refresh(self) -> None:
        app = App.get_running_app()
        bridge = app.hw_bridge
        hardware = app.hardware
        if not app.hardware_ready:
            self.ids.summary.text = _("Looking for table hardware...")
        else:
            self.ids.summary.text = app.hardware_status
        self.ids.reason.text = app.hardware_reasons
        self.ids.technical_button.text = (_("Hide technical details") if self.technical
                                          else _("Technical details"))
        hub_reason = bridge.hub.reason if bridge is not None else None
        technical = "\n".join(text for text in (
            app.hardware_reason,
            reason_technical(hub_reason) if hub_reason is not None else "") if text)
        self.ids.technical_button.disabled = not technical
        self.ids.technical_button.why_disabled = _(
            "No technical details: nothing went wrong looking for the table hardware.")
        self.ids.technical_text.text = technical if self.technical else ""
        self._hub(bridge, hardware)
        if bridge is not None and bridge.buttons:
            self.ids.buttons.text = bridge.buttons()
        elif hardware is None or not getattr(hardware, "available", True):  # touch only
            self.ids.buttons.text = _("No shared buttons.")
        else:
            self.ids.buttons.text = _("Shared buttons: none pressed yet.")
        self._seats(app, bridge)

    def toggle_technical(self) -> None:
        self.technical = not self.technical
        self.refresh()

    def _hub(self, bridge: Any, hardware: Any) -> None:
        hub = getattr(hardware, "hub", None) if hardware is not None else None
        if hub is None or bridge is None:
            self.ids.hub.text = _("No serial hub.")
            self.ids.hub_stats.text = ""
            return
        info = bridge.hub
        online = bool(getattr(hub, "online", info.online))
        state = _("online") if online else (
            _("offline: {reason}").format(
                reason=reason_text(info.reason) if info.reason is not None else "")
            if info.online is False
            else _("waiting"))
        self.ids.hub.text = _("Hub {hub} (seats {seats}): {state}").format(
            hub=info.name or getattr(hub, "name", ""),
            seats=listed(str(s) for s in getattr(hub, "seats", ())) or "-", state=state)
        stats = getattr(hub, "stats", None)
        if stats is None:
            self.ids.hub_stats.text = ""
            return
        self.ids.hub_stats.text = _(
            "{lines} lines, {accepted} accepted, {rejected} rejected, {duplicates} duplicates, "
            "{gaps} gaps, {lost} presses lost, {connects} connects, {disconnects} disconnects"
        ).format(lines=stats.lines, accepted=stats.accepted, rejected=stats.rejected,
                 duplicates=stats.duplicates, gaps=stats.gaps, lost=stats.lost_presses,
                 connects=stats.connects, disconnects=stats.disconnects)

    def _seats(self, app: Any, bridge: Any) -> None:
        box = self.ids.seats
        seats = sorted(bridge.seats) if bridge is not None else []
        layout = (tuple(seats), app.fs, app.language)
        if layout != self._layout:
            self._layout = layout
            box.clear_widgets()
            self._rows = {}
            if not seats:
                empty = ToneLabel(text=_("No seats: the table is touch-only."), tone="muted")
                empty.test_name = "hw no seats"
                box.add_widget(empty)
            for seat in seats:
                self._rows[seat] = self._row(app, bridge, seat)
                box.add_widget(self._rows[seat][0])
        for seat, (line, car, swatch, led, dial, last, _button) in self._rows.items():
            info = bridge.seats[seat]
            car.name = self._car(app, seat)
            _fit_name(car)
            if bridge.hub_offline(seat):
                # the app's wish is not what the seat shows: its hub is not there to light it
                # (Identify on such a seat claimed "fast blink"; found by a table test)
                led.text, swatch.rgba = _("hub offline"), app.c_off
            else:
                led.text = led_text(info.led)
                swatch.rgba = {"on": app.c_ok, "blink": app.c_accent, "fast": app.c_warn}.get(
                    info.led, app.c_off)
            dial.text = (_("Gear {gear}").format(gear=info.dial) if info.dial is not None
                         else _("Gear ?"))
            last.text = (f"{info.last()} (#{info.events})" if info.last is not None
                         else _("No input yet."))
            _fit_row(line, last)

    def _row(self, app: Any, bridge: Any, seat: int) -> tuple[Any, ...]:
        line = Row(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3,
                   test_name=f"hw seat {seat}")
        size = app.fs_small

        def cell(hint: float, name: str, **kw: Any) -> Any:
            label = Cell(size_hint_x=hint, **kw)
            label.test_name = f"hw {name} {seat}"
            line.add_widget(label)
            return label

        cell(0.12, "seat", text=_("Seat {seat}").format(seat=seat))
        car = cell(0.15, "car")
        car.name = ""
        car.bind(width=lambda label, _w: _fit_name(label))
        holder = BoxLayout(size_hint_x=None, width=size * 1.4, padding=(2, (app.tap - size) / 2))
        swatch = Swatch()
        swatch.size = (size, size)
        holder.add_widget(swatch)
        line.add_widget(holder)
        led = cell(0.15, "led")
        dial = cell(0.11, "dial")
        last = cell(0.3, "last", shorten=False)
        last.bind(width=lambda *_a: _fit_row(line, last))  # its lines at the width it is given
        button = Btn(text=_("Identify"), size_hint_x=0.17, scale="small",
                     test_name=f"identify {seat}")
        button.bind(on_release=lambda _b, s=seat: self.identify(s))
        line.add_widget(button)
        return line, car, swatch, led, dial, last, button

    @staticmethod
    def _car(app: Any, seat: int) -> str:
        car = app.seat_map.get(seat)
        if car is None or app.controller is None:
            return "-"
        return car_label(app.controller.state, car)

    def identify(self, seat: int) -> None:
        app = App.get_running_app()
        if app.hw_bridge is not None:
            app.hw_bridge.identify(seat)
            self.refresh()


def _fit_name(car: Any) -> None:
    """A seat's driver whole in its cell: on two lines, or smaller down to the readable floor
    (:func:`~companion.ui.widgets.chart_names.fit_cell`); cut with "…" only where neither
    serves."""
    app = App.get_running_app()
    fitted = fit_cell(car.name, app.fs_small, max(1.0, car.width))
    car.text, car.font_size, car.shorten = fitted.text, fitted.size, fitted.lines == 1


def _fit_row(line: Any, last: Any) -> None:
    """A seat's row as tall as its last input needs, whole on as many lines as it takes: it
    is the one sentence that explains a refusal (a table test saw it cut to "기어 …렸습니다")."""
    app = App.get_running_app()
    lines = FIT.lines(last.text, last.font_size, max(1.0, last.width))
    line.height = max(app.tap, lines * FIT.line_height(last.font_size) + 8)
