"""The race screen: map, race order, and the panel for the current step of the round.

Widgets are dumb: every button calls the :class:`~companion.ui.controller.RaceController`, and
:meth:`RaceScreen.refresh` redraws from ``controller.view()``.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import _

from ..controller import RaceController
from ..views.names import COLOUR_RGB
from ..views.race_view import GearRow, RaceView
from ..widgets.basic import Btn, Row, Swatch
from ..widgets.lookup import walk
from ..widgets.track_map import TrackMap  # noqa: F401 - used by race.kv
from .base import BaseScreen

KEYPAD_MODES = ("reveal", "flip", "value", "plus", "unpaid")
"""Modes whose keys go to ``controller.key`` and whose typed cards are shown."""
ORDER_COLUMNS = ("lap", "gear", "heat", "stress", "sponsors")
"""Test names of the race order's value cells (``"heat red"``), after the car's name."""


class RaceScreen(BaseScreen):
    @property
    def controller(self) -> RaceController | None:
        return App.get_running_app().controller  # type: ignore[no-any-return]

    def refresh(self) -> None:
        controller = self.controller
        if controller is None:
            return
        view = controller.view()
        self.ids.status.text = view.status
        self.ids.prompt.text = view.prompt
        self.ids.undo.disabled = not view.can_undo
        self.ids.redo.disabled = not view.can_redo
        self.ids.map.state = controller.state
        self.ids.map.current = view.current or ""
        self.ids.map.redraw()
        lines = list(view.messages)
        self.ids.messages.text = "\n".join(lines)
        self.ids.error.text = view.error
        self._order(view)
        self._panel(controller, view)

    # --- race order -----------------------------------------------------------------------------

    def fit_order(self) -> None:
        """Rows as tall as the text wants, but never taller than the table's share of the
        screen (up to seven lines: header and six cars). A plain box, not a ScrollView: a
        stencil costs a measurable part of every frame on software GL."""
        rows = [w for w in self.ids.order.children if getattr(w, "order_line", False)]
        if not rows:
            return
        size = App.get_running_app().fs_small
        height = max(12.0, min(size * 1.7, self.ids.order.height / len(rows)))
        for row in rows:
            row.height = height

    def _order(self, view: RaceView) -> None:
        """The race order table; rows are built once per car count and updated in place."""
        app = App.get_running_app()
        box = self.ids.order
        size = app.fs_small
        rows: list[Any] = getattr(self, "_order_rows", [])
        columns = 6 if view.sponsors else 5
        layout = (len(view.order), size, columns, app.theme_name)  # colours set at build
        if getattr(self, "_order_layout", None) != layout:
            box.clear_widgets()
            header = BoxLayout(size_hint_y=None, height=size * 1.6)
            header.order_line = True
            self._order_header = []
            for index in range(columns):
                label = Label(size_hint_x=1 if index == 0 else None, font_size=size,
                              color=app.c_muted, shorten=True, shorten_from="right",
                              halign="left" if index == 0 else "center", valign="middle")
                label.bind(size=lambda w, s: setattr(w, "text_size", s))
                self._order_header.append(label)
                header.add_widget(label)
            box.add_widget(header)
            rows = []
            for _row in view.order:
                line = Row(size_hint_y=None, height=max(size * 1.7, 24))
                line.order_line = True
                cell = BoxLayout(size_hint_x=1, spacing=4)
                swatch = Swatch()
                swatch.size = (size, size)
                holder = BoxLayout(size_hint_x=None, width=size * 1.3, padding=(2, size * 0.35))
                holder.add_widget(swatch)
                cell.add_widget(holder)
                name = Label(font_size=size, color=app.c_fg, shorten=True, halign="left",
                             valign="middle")
                name.bind(size=lambda w, s: setattr(w, "text_size", s))
                cell.add_widget(name)
                line.add_widget(cell)
                values = []
                for _column in range(columns - 1):
                    label = Label(size_hint_x=None, font_size=size, color=app.c_fg)
                    values.append(label)
                    line.add_widget(label)
                box.add_widget(line)
                rows.append((line, swatch, name, values))
            box.add_widget(Widget())  # takes what the rows leave
            self._order_rows = rows
            self._order_layout = layout
            self.fit_order()
        titles = [_("Car"), _("Lap"), _("Gear"), _("Heat"), _("Stress")]
        if view.sponsors:
            titles.append(_("Sponsors"))
        for label, text in zip(self._order_header, titles, strict=True):
            label.text = text
        for (line, swatch, name, values), row in zip(rows, view.order, strict=True):
            line.test_name = f"order {row.car}"
            line.bg = app.c_panel if row.current else (0, 0, 0, 0)
            swatch.rgba = [*COLOUR_RGB.get(row.car, (0.5, 0.5, 0.5)), 1]
            if row.eliminated:
                name.text = _("{car} (out)").format(car=row.name)
                name.color = app.c_muted
            else:
                place = f"P{row.finished_place}" if row.finished_place else f"{row.position}."
                name.text = f"{place} {row.name}"
                name.color = app.c_fg
            name.test_name = f"order name {row.car}"
            cells = ["-", "-", "-"] if row.legend else [
                str(row.gear), f"{row.engine}/{row.heat}", str(row.stress_taken)]
            if view.sponsors:
                cells.append("-" if row.legend else str(row.sponsors))
            for label, text, column in zip(values, (str(row.lap), *cells), ORDER_COLUMNS,
                                           strict=False):
                label.text = text
                label.test_name = f"{column} {row.car}"
        self._fit_columns(size, rows)

    def _fit_columns(self, size: float, rows: list[Any]) -> None:
        """Each value column as wide as its header or its widest cell, whatever the language
        ("스트레스" is not cut to "스트..."); the car's name takes the rest of the row."""
        from kivy.core.text import Label as CoreLabel

        measure = CoreLabel(font_size=size).get_extents
        header = self._order_header
        pad = size * 0.8
        first = header[0]
        first.padding = (size * 1.3 + 4, 0)  # over the names, after the swatches
        for index, title in enumerate(header[1:]):
            cells = [values[index] for _line, _swatch, _name, values in rows]
            width = max(measure(label.text)[0] for label in (title, *cells)) + pad
            for label in (title, *cells):
                label.width = width

    # --- the action panel ------------------------------------------------------------------------

    def _signature(self, view: RaceView) -> tuple[object, ...]:
        return (view.mode, tuple(r.car for r in view.gear_rows), tuple(k[0] for k in view.keys),
                tuple(b.key for b in view.react), App.get_running_app().fs,
                self.controller)  # the buttons call this race's controller, not the last one's

    def _update_panel(self, view: RaceView) -> None:
        """Same buttons as last time: only their look and labels change."""
        by_name = {w.test_name: w for w in walk(self.ids.panel) if getattr(w, "test_name", "")}
        for row in view.gear_rows:
            for gear in (1, 2, 3, 4):
                chosen = row.planned == gear and not row.clogged
                by_name[f"gear {row.car} {gear}"].role = "selected" if chosen else (
                    "normal" if row.allowed[gear - 1] else "off")
            clog = by_name[f"clogged {row.car}"]
            clog.text = _("Clogged")
            clog.role = "selected" if row.clogged else ("normal" if row.can_clog else "off")
            ready = row.planned is not None
            label = by_name[f"driver {row.car}"]
            label.text = ("[b]" + row.name + "[/b]") if not ready else row.name + " *"
            label.color = App.get_running_app().c_ok if ready else App.get_running_app().c_fg
        for key, text, enabled in view.keys:
            button = by_name[f"key {key}"]
            button.text = text
            button.disabled = not enabled
        if "confirm" in by_name:
            by_name["confirm"].disabled = not view.can_confirm
            by_name["confirm"].text = _("Move")
        for button_view in view.react:
            by_name[f"react {button_view.key}"].text = button_view.label

    def _panel(self, controller: RaceController, view: RaceView) -> None:
        app = App.get_running_app()
        panel = self.ids.panel
        self.ids.entry.text = view.entry
        self.ids.entry.height = app.fs_big * 1.5 if view.mode in KEYPAD_MODES else 0
        signature = self._signature(view)
        if signature == getattr(self, "_panel_signature", None) and (
                getattr(self, "_panel_language", None) == app.language):
            self._update_panel(view)
            return
        self._panel_signature = signature
        self._panel_language = app.language
        panel.clear_widgets()
        if view.mode in ("gears", "turn_gear"):
            for gear_row in view.gear_rows:
                panel.add_widget(self._gear_row(controller, gear_row))
        elif view.mode in (*KEYPAD_MODES, "boost", "legend_card"):
            cols = 5 if view.mode == "legend_card" else 4
            grid = GridLayout(cols=cols, spacing=app.fs * 0.3, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for key, label, enabled in view.keys:
                button = Btn(text=label, disabled=not enabled, test_name=f"key {key}",
                             size_hint_y=None, height=app.tap,
                             font_size=app.fs_small if key.startswith("up:") else app.fs_big)
                if view.mode == "boost":
                    button.bind(on_release=lambda _b, k=key: controller.boost_value(int(k)))
                elif view.mode == "legend_card":
                    button.bind(on_release=lambda _b, k=key: controller.legend_card(int(k)))
                else:
                    button.bind(on_release=lambda _b, k=key: controller.key(k))
                grid.add_widget(button)
            panel.add_widget(grid)
            if view.mode in ("reveal", "unpaid"):
                move = Btn(text=_("Move"), role="accent", disabled=not view.can_confirm,
                           test_name="confirm", size_hint_y=None, height=app.tap,
                           font_size=app.fs_big)
                move.bind(on_release=lambda _b: controller.confirm())
                panel.add_widget(move)
            elif view.mode == "boost":
                cancel = Btn(text=_("Cancel"), test_name="boost cancel", size_hint_y=None,
                             height=app.tap)
                cancel.bind(on_release=lambda _b: controller.boost_cancel())
                panel.add_widget(cancel)
        elif view.mode == "react":
            grid = GridLayout(cols=2, spacing=app.fs * 0.3, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for button_view in view.react:
                button = Btn(text=button_view.label, test_name=f"react {button_view.key}",
                             role="accent" if button_view.key == "end" else "normal",
                             size_hint_y=None, height=app.tap)
                button.bind(on_release=lambda _b, k=button_view.key: controller.react(k))
                grid.add_widget(button)
            panel.add_widget(grid)
        elif view.mode == "run_round":
            button = Btn(text=_("Next round"), role="accent", test_name="run round",
                         size_hint_y=None, height=app.tap)
            button.bind(on_release=lambda _b: controller.run_round())
            panel.add_widget(button)
        elif view.mode == "over":
            button = Btn(text=_("Results"), role="accent", test_name="to results",
                         size_hint_y=None, height=app.tap)
            button.bind(on_release=lambda _b: app.show("results"))
            panel.add_widget(button)

    def _gear_row(self, controller: RaceController, row: GearRow) -> Any:
        app = App.get_running_app()
        line = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.25)
        ready = row.planned is not None
        name = Label(text=("[b]" + row.name + "[/b]") if not ready else row.name + " *",
                     markup=True, font_size=app.fs, size_hint_x=1.1, shorten=True,
                     color=app.c_ok if ready else app.c_fg, halign="left", valign="middle")
        name.bind(size=lambda w, s: setattr(w, "text_size", s))
        name.test_name = f"driver {row.car}"
        line.add_widget(name)
        for gear in (1, 2, 3, 4):
            chosen = row.planned == gear and not row.clogged
            role = "selected" if chosen else ("normal" if row.allowed[gear - 1] else "off")
            button = Btn(text=str(gear), role=role, font_size=app.fs_big,
                         test_name=f"gear {row.car} {gear}")
            button.bind(on_release=lambda _b, g=gear, c=row.car: controller.choose_gear(c, g))
            line.add_widget(button)
        clog = Btn(text=_("Clogged"), role="selected" if row.clogged else (
            "normal" if row.can_clog else "off"), size_hint_x=1.3, font_size=app.fs_small,
            test_name=f"clogged {row.car}")
        clog.bind(on_release=lambda _b, c=row.car: controller.clogged(c))
        line.add_widget(clog)
        return line
