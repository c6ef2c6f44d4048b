"""The race screen's action panel, built from a :class:`~companion.ui.views.race_view.RaceView`:
the drivers' gears, the card keypads, React, the Legends' keypad, Next round and Results.
A React button may carry a smaller second line (what the choice takes or declines), and a
choice the rules refuse here shows greyed, saying why when tapped.

Every button of the panel belongs to the prompt on show (``gate``): a touch that began before
that prompt appeared does nothing to it (:mod:`.touch_gate`). A key that cannot be used says why
when tapped (``RaceView.key_why``). Six drivers' gears fit at once at 800x480: two columns of
cells from four drivers on, each cell the driver's name (whole: its font shrinks rather than
cut) over the four gear buttons; "Clogged" only shows for a car that may declare it.

``actions`` is the race controller (any object with its methods); ``on_results`` opens the
results.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.i18n import _

from ..views.race_view import KEYPAD_FAMILY, GearRow, RaceView
from .basic import Btn
from .chart_names import middle_lines
from .lookup import walk
from .measure import READABLE_PX
from .react_grid import ReactGrid
from .slot import SlotBox
from .text_fit import FIT
from .tint import TintBtn, TintLabel
from .touch_box import HitMixin, TouchBox, TouchGrid
from .touch_gate import PromptGate

MIN_NAME_FONT = READABLE_PX
"""A driver's name above its gear buttons shrinks no smaller (the readable floor)."""
MIN_TAP = 48
"""The smallest touch target (px)."""
GEAR_GAP = 0.1
"""The gap between a driver's four gear buttons, in body text sizes (1.8 px at 800x480; the
gap between two drivers' cells is five times as wide). At 0.2 the gears' least width left the
race order 5 px short of six twelve-character Korean or Chinese names at the readable floor in
English, and cut them ("강동…열박", found by a table test)."""


def narrowest(app: Any, name_width: float) -> float:
    """The panel's least width with four or more drivers: two gear cells side by side, each
    with four gear buttons no narrower than :data:`MIN_TAP` and a name ``name_width`` wide
    (the widest driver's at :data:`MIN_NAME_FONT`) whole on its line ("ready" gives way to
    it: :meth:`RacePanel._fit_ready`; beside Clogged the line is a button tall, room for a
    name on two lines: :meth:`RacePanel._clogged_button`). The keypads' and React's buttons
    are fewer to a row."""
    buttons = 4 * MIN_TAP + 3 * app.fs * GEAR_GAP
    named = name_width + app.fs * 0.3
    return float(2 * max(buttons, named) + app.fs * 0.5)


def _ready_width(app: Any) -> float:
    return math.ceil(FIT.width(_("ready"), app.fs_small)) + 2


def _clogged_width(app: Any) -> float:
    return max(MIN_TAP, math.ceil(FIT.width(_("Clogged"), app.fs_small) + dp(8) + app.fs * 0.8))


SPARE_BUTTONS = 48
"""Buttons built with the panel (when a race first opens: ~10 ms here), for the first prompts of
each kind to take instead of building theirs on a tap (0.7 ms a button here): a scripted race of
4 drivers and 2 Legends puts up about 50 buttons in all (the gears, the keypads, the React
choices kept built), and builds 3 more on its taps."""
KEPT_PROMPTS = 8
"""Prompts kept built for when they come back (the gears, each keypad, the usual React
choices); older ones give their buttons back to the pool."""


@dataclass
class BuiltPrompt:
    """A prompt's widgets, built once (:class:`RacePanel`)."""

    widgets: list[Any]
    """The panel's children, in the order they are added."""
    named: dict[str, Any]
    """Its widgets by test name."""
    buttons: list[Btn]
    """Its buttons (back to the pool when the prompt is no longer kept)."""
    grid: Any = None
    """The gears' grid: its cells, one per driver, are put in in the race's order
    (:meth:`RacePanel._arrange`)."""
    react: ReactGrid | None = None
    """A React prompt's choices (what they are laid out as, to update them in place)."""
    laid_out: tuple[object, ...] | None = None
    """Where the panel last laid these widgets out: its width and position, and the height
    they took (:meth:`RacePanel.do_layout`); put up again in the same place, they are where
    that layout left them."""


@dataclass
class GearCell:
    """A driver's cell of the gears' grid."""

    box: Any
    """The cell (a :class:`~.slot.SlotBox`: when cars pass and it changes places in the grid,
    nothing in it is laid out again)."""
    top: Any
    """The line of the name, "ready" and Clogged."""
    ready: Any = None
    """The "ready" word (no room for it beside Clogged or beside a name that needs the
    line: the name's colour and the gear lit say it there)."""
    clogged: Btn | None = None
    """Clogged, while the car may declare it."""
    name: str = ""
    """The driver's name (its label may hold it on two lines: :meth:`RacePanel._fit_name`)."""


def button_height(app: Any) -> float:
    """The panel's buttons: 48 px at 800x480 (the smallest comfortable target), more on a
    larger screen."""
    return float(max(48, round(app.tap * 0.86)))


def fit_font(label: Label, size: float, width: float) -> None:
    """``label``'s text whole in ``width``: its font shrinks (to :data:`MIN_NAME_FONT`)
    instead of the text being cut."""
    wanted = FIT.width(label.text, size) if label.text else 0
    label.font_size = max(MIN_NAME_FONT, size * width / wanted) if wanted > width > 0 else size


def _cancel_layout(widget: Any) -> None:
    trigger = getattr(widget, "_trigger_layout", None)
    if trigger is not None:
        trigger.cancel()


def take_down(widget: Any) -> None:
    """Remove ``widget`` from its parent without it being laid out while off screen (a Kivy
    layout lays itself out again when its parent changes; it will be when put back)."""
    if widget.parent is not None:
        widget.parent.remove_widget(widget)
    _cancel_layout(widget)


class RacePanel(HitMixin, BoxLayout):  # type: ignore[misc]
    """The panel; :meth:`show` a view (built when the prompt's buttons change, or put up as
    it was built before; else updated in place)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        super().__init__(**kwargs)
        from kivy.core.window import Window

        self.gate = PromptGate(window=Window)
        self.actions: Any = None
        self.on_results: Callable[[], None] = lambda: None
        self._signature: tuple[object, ...] | None = None
        self._built: OrderedDict[tuple[object, ...], BuiltPrompt] = OrderedDict()
        """The prompts built lately, by signature, the one on show last: a prompt that comes
        back (the gears every round, each car's keypad) is put up again as it was, nothing
        built, laid out from scratch or rendered again."""
        self._look: tuple[object, ...] | None = None
        """The font size, language and theme the kept prompts were built in."""
        self._pool: dict[str, list[Btn]] = {}
        """Buttons of prompts no longer kept, by test name, for the next prompts to reuse
        (building a Kivy button is most of a tap's cost on a small CPU; a button that comes
        back under its own name usually shows the same text: nothing to render)."""
        self._pool[""] = [self._new_button() for _spare in range(SPARE_BUTTONS)]
        self._in_use: list[Btn] = []
        self._current: BuiltPrompt | None = None
        self._cells: dict[tuple[str, str], GearCell] = {}
        """Each driver's gear cell (name, "ready", Clogged, the four gears), by car and name:
        built once, put back in the gears' grid every round in the race's order (the order
        changes as cars pass: no cell is built again for it)."""
        self.dials: dict[str, int] = {}
        """The seats' gear dials as last read (:meth:`show_dials`)."""
        self._view: RaceView | None = None
        """The view last shown (its gear rows: where a dial's mark goes)."""
        self._named: dict[str, Any] = {}
        """The panel's widgets by test name (found once per build, not on every input)."""
        self.react_grid = ReactGrid(self)

    # --- building ---------------------------------------------------------------------------

    def _signature_of(self, view: RaceView) -> tuple[object, ...]:
        """What the panel's widgets are built from (the rest is updated in place); the font
        size, language and theme last."""
        app = App.get_running_app()
        return (view.mode in KEYPAD_FAMILY or view.mode, len(view.gear_rows),
                tuple(k[0] for k in view.keys), tuple(b.key for b in view.react),
                round(self.width) if view.react else 0,  # a busy React is packed to it
                app.fs, app.language, app.theme_name)

    def show(self, view: RaceView) -> None:
        self.gate.show(view.prompt_id)
        signature = self._signature_of(view)
        if signature != self._signature:
            self._signature = signature
            self._put_up(signature, view)
        grid = self._current.grid if self._current is not None else None
        if grid is not None and self._arrange(grid, view):
            self._settle(grid)
        self._update(view)

    def _settle(self, grid: GridLayout) -> None:
        """The gears' grid laid out now, and the panel given the height it takes with it: its
        cells changed (a new race order, Clogged in or out), so its height may have, and a
        height left to the frame reaches the column one layout at a time (the grid, then the
        panel, then the column, then the rulings' box, each laid out again at each step)."""
        if grid.parent is not self or self.width <= 1:
            return
        grid.do_layout()
        _cancel_layout(grid)
        self.do_layout()
        self._trigger_layout.cancel()

    def _put_up(self, signature: tuple[object, ...], view: RaceView) -> None:
        """Show the prompt of ``signature``: the one kept from before, else built now."""
        for widget in list(self.children):
            take_down(widget)
        look = signature[-3:]
        if look != self._look:  # built in another size, language or theme: none is kept
            for old in self._built.values():
                self._release(old)
            self._built.clear()
            self._cells.clear()
            self._look = look
        built = self._built.pop(signature, None)
        if built is None:
            built = self._build(view)
            self._lay_out_fresh()
        else:
            for widget in built.widgets:
                self.add_widget(widget)
            self._as_laid_out(built)
        if built.react is not None:
            self.react_grid = built.react
        self._built[signature] = built
        while len(self._built) > KEPT_PROMPTS:
            self._release(self._built.popitem(last=False)[1])
        self._current = built
        self._named = built.named

    def do_layout(self, *largs: Any) -> None:
        super().do_layout(*largs)
        if self._current is not None:
            self._current.laid_out = (self.width, tuple(self.pos), self.minimum_height)

    def _lay_out_fresh(self) -> None:
        """A prompt just built: its grids take the panel's width now and are laid out before
        the panel (Kivy lays out in the order the layouts were asked for, the panel's first:
        it would place them at a height they do not have yet, then again once they have it)."""
        for widget in self.children:
            if widget.size_hint_x is not None:
                widget.width = self.width
        self._trigger_layout.cancel()
        self._trigger_layout()

    def _as_laid_out(self, built: BuiltPrompt) -> None:
        """A kept prompt put back at the width and place it was laid out at: its widgets are
        where that layout left them (nothing in them moved while they were off: their own
        layouts had all run before they were taken down), so the panel takes the height they
        took then, and neither it nor they are laid out again (a React choice often brings
        back a prompt shown before: ``tests/ui/test_tap_work.py``)."""
        if built.laid_out is None or built.laid_out[:2] != (self.width, tuple(self.pos)):
            return
        self.minimum_height = built.laid_out[2]  # the panel's height follows (race.kv)
        self._trigger_layout.cancel()
        for widget in built.widgets:  # a grid put back in its place: laid out as it was
            _cancel_layout(widget)

    def _build(self, view: RaceView) -> BuiltPrompt:
        self._in_use = []
        grid = None
        if view.mode in ("gears", "turn_gear"):
            grid = self._gears(view)
        elif view.mode in (*KEYPAD_FAMILY, "boost", "legend_card"):
            self._keypad(view)
        elif view.mode == "react":
            self.react_grid = ReactGrid(self)  # its own: a React kept built keeps its layout
            self._react(view)
        elif view.mode == "run_round":
            self._single(_("Next round"), "run round", lambda: self.actions.run_round())
        elif view.mode == "over":
            self._single(_("Results"), "to results", lambda: self.on_results())
        return BuiltPrompt(
            widgets=list(reversed(self.children)),
            named={w.test_name: w for w in walk(self) if getattr(w, "test_name", "")},
            buttons=self._in_use, grid=grid,
            react=self.react_grid if view.mode == "react" else None)

    def _release(self, built: BuiltPrompt) -> None:
        """A prompt no longer kept: its buttons go back to the pool."""
        for button in built.buttons:
            if button.parent is not None:
                parent = button.parent
                parent.remove_widget(button)
                _cancel_layout(parent)  # a container of a prompt gone: not laid out again
            self._pool.setdefault(button.test_name, []).append(button)

    def _button(self, text: str, name: str, action: Callable[[], Any], *,
                role: str = "normal", font_size: float | None = None,
                width: float | None = None, height: float | None = None,
                one_line: bool = False) -> Btn:
        """A button of the panel (from the pool when there is one, the same name first),
        ``action`` on release; ``one_line``: its text kept on one line, the font shrinking as
        far as it must (``Btn.one_line``)."""
        app = App.get_running_app()
        spare = self._pool.get(name) or next((b for b in self._pool.values() if b), None)
        if spare:
            button = spare.pop()
            button.one_line = 0
        else:
            button = self._new_button()
        button.action = action
        button.text = text
        button.test_name = name
        button.role = role
        button.disabled = False
        button.markup = False
        button.line_height = 1.0
        button.why_disabled = ""
        button.state = "normal"
        button.font_size = font_size or app.fs
        button.size_hint_min_x = app.tap
        button.size_hint_y = None
        button.height = height or button_height(app)
        button.size_hint_x = None if width is not None else 1
        if width is not None:
            button.width = width
        if one_line:
            button.one_line = button.font_size
        self._in_use.append(button)
        return button

    def _new_button(self) -> Btn:
        button = TintBtn(gate=self.gate)
        button.bind(on_release=lambda b: b.action())
        return button

    def _single(self, text: str, name: str, action: Callable[[], Any]) -> None:
        self.add_widget(self._button(text, name, action, role="accent"))

    def _gears(self, view: RaceView) -> GridLayout:
        """The gears' grid (empty: :meth:`_arrange` puts the drivers' cells in)."""
        app = App.get_running_app()
        cols = 1 if len(view.gear_rows) <= 3 else 2
        grid = TouchGrid(cols=cols, spacing=(app.fs * 0.5, app.fs * 0.25),  # as narrowest()
                         size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.add_widget(grid)
        return grid

    def _arrange(self, grid: GridLayout, view: RaceView) -> bool:
        """The drivers' gear cells in ``grid``, in the order of the view's rows (built the
        first time a driver's cell is asked for), each with Clogged when it may be declared.
        True when a cell changed or moved."""
        cells = []
        changed = False
        for row in view.gear_rows:
            key = (row.car, row.name)
            cell = self._cells.get(key)
            if cell is None:
                cell = self._cells[key] = self._gear_cell(row)
            changed |= self._clogged_button(cell, row)
            cells.append(cell)
        if grid.children[::-1] != [cell.box for cell in cells]:
            changed = True
            grid.clear_widgets()
            for cell in cells:
                if cell.box.parent is not None:
                    cell.box.parent.remove_widget(cell.box)
                grid.add_widget(cell.box)
        if changed:
            named = {w.test_name: w for w in walk(self) if getattr(w, "test_name", "")}
            self._named = named
            if self._current is not None:
                self._current.named = named
        if len(self._cells) > 2 * len(cells) + 8:  # cars of races gone by: drop the rest
            self._cells = {k: c for k, c in self._cells.items() if c in cells}
        return changed

    def _gear_cell(self, row: GearRow) -> GearCell:
        """A driver's cell: the name and "ready" over the four gears (Clogged is put in and
        taken out as the car may declare it: :meth:`_clogged_button`)."""
        app = App.get_running_app()
        height = button_height(app)
        line = app.fs * 1.35
        box = SlotBox(orientation="vertical", size_hint_y=None, height=line + height)
        top = TouchBox(size_hint_y=None, height=line, spacing=app.fs * 0.3)
        name = TintLabel(text=row.name, font_size=app.fs, bold=True, halign="left",
                         valign="middle", color=app.c_fg)  # turns green, rendered once
        name.bind(size=lambda w, s: setattr(w, "text_size", s))
        name.test_name = f"driver {row.car}"
        top.add_widget(name)
        # "ready" has its room from the start: the name does not move or shrink when a gear is
        # chosen (no second layout and no name rendered again on the tap's frame)
        ready = Label(text="", font_size=app.fs_small, color=app.c_ok, size_hint_x=None,
                      width=_ready_width(app),
                      halign="right", valign="middle")
        ready.bind(size=lambda w, s: setattr(w, "text_size", s))
        ready.test_name = f"ready {row.car}"
        top.add_widget(ready)
        box.add_widget(top)
        buttons = TouchBox(size_hint_y=None, height=height,
                           spacing=app.fs * GEAR_GAP)  # narrowest()
        built, self._in_use = self._in_use, []
        for gear in (1, 2, 3, 4):
            button = self._button(str(gear), f"gear {row.car} {gear}",
                                  lambda c=row.car, g=gear: self.actions.choose_gear(c, g),
                                  font_size=app.fs_big)
            button.size_hint_min_x = MIN_TAP  # four to a cell, two cells a row at 800x480
            buttons.add_widget(button)
        self._in_use = built  # a cell's buttons stay in the cell
        box.add_widget(buttons)
        box.keep_texts_whole()
        cell = GearCell(box, top, ready, name=row.name)
        top.bind(width=lambda *_a: self._fit_ready(cell))
        name.bind(width=lambda *_a: self._fit_name(cell))
        return cell

    @staticmethod
    def _fit_name(cell: GearCell) -> None:
        """The driver's name whole on its line: at the body size, or smaller down to the
        readable floor (:func:`fit_font`). Beside Clogged a twelve-letter Chinese or Korean
        name does not fit one line at the floor (168 px; at 800x480 a cell is 199-213 px wide
        and Clogged takes at least a 48 px target, and a line of its own above Clogged would
        want 3 x 24 px more than the six drivers' panel has): the line is a button tall there,
        and the name takes two lines broken at the letter nearest its middle (a syllable:
        "제갈공명선생 / 의후손이라네", :func:`.chart_names.middle_lines`), as large as the line
        allows, rather than where the first line filled up ("제갈공명선생의후 / 손이라네",
        found by a table test)."""
        app = App.get_running_app()
        label = cell.top.children[-1]
        room = label.width
        if cell.clogged is not None and room > 1 and FIT.width(cell.name, MIN_NAME_FONT) > room:
            size = float(app.fs)
            while size >= MIN_NAME_FONT:
                lines = middle_lines(cell.name, size, room)
                if lines is not None and 2 * FIT.line_height(size) <= cell.top.height:
                    label.text, label.font_size = lines, size
                    return
                size -= 0.5
        label.text = cell.name
        fit_font(label, app.fs, room)

    @staticmethod
    def _fit_ready(cell: GearCell) -> None:
        """"ready" beside the name only while the name keeps its line whole beside it, at
        the readable floor at least, and Clogged is not there: else it gives its room to the
        name (a twelve-letter Chinese name wrapped, half cut, beside the English "ready" at
        800x480: found by a table test). It is decided by the line's width, not by the
        driver's choice: the name never moves when a gear is chosen."""
        app = App.get_running_app()
        room = cell.top.width - cell.top.spacing - _ready_width(app)
        wanted = cell.clogged is None and (
            not cell.name or FIT.width(cell.name, MIN_NAME_FONT) <= room)
        cell.ready.width = _ready_width(app) if wanted else 0
        cell.ready.opacity = 1 if wanted else 0

    def _clogged_button(self, cell: GearCell, row: GearRow) -> bool:
        """Clogged in the cell when the car may declare it (or has): a full-size target, so
        the name's line is as tall as a button then. True when the cell changed."""
        wanted = row.can_clog or row.clogged
        if wanted == (cell.clogged is not None):
            return False
        app = App.get_running_app()
        height = button_height(app)
        line = height if wanted else app.fs * 1.35
        cell.top.height = line
        cell.box.height = line + height
        if cell.clogged is not None:
            take_down(cell.clogged)
            self._pool.setdefault(cell.clogged.test_name, []).append(cell.clogged)
            cell.clogged = None
        else:
            built, self._in_use = self._in_use, []
            try:  # as wide as its word needs: the rest of the line is the driver's name
                word = _("Clogged")
                cell.clogged = self._button(word, f"clogged {row.car}",
                                            lambda c=row.car: self.actions.clogged(c),
                                            width=_clogged_width(app), font_size=app.fs_small)
            finally:
                self._in_use = built  # the cell's button, not the prompt's
            cell.top.add_widget(cell.clogged)
        self._fit_ready(cell)
        self._fit_name(cell)
        cell.box.keep_texts_whole()
        return True

    def _keypad(self, view: RaceView) -> None:
        app = App.get_running_app()
        cols = 5 if view.mode == "legend_card" else 4
        grid = TouchGrid(cols=cols, spacing=app.fs * 0.25, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        method = {"boost": "boost_value", "legend_card": "legend_card"}.get(view.mode, "key")
        for key, label, _enabled in view.keys:
            value: object = key if method == "key" else int(key)
            grid.add_widget(self._button(  # the race's controller when tapped, not when built
                label, f"key {key}",
                lambda m=method, v=value: getattr(self.actions, m)(v),
                font_size=app.fs_small if key.startswith("up:") else app.fs_big, one_line=True))
        self.add_widget(grid)
        if view.mode == "boost":
            self.add_widget(self._button(_("Cancel"), "boost cancel",
                                         lambda: self.actions.boost_cancel()))

    def _react(self, view: RaceView) -> None:
        self.react_grid.build(view)

    # --- updating in place ------------------------------------------------------------------

    def show_dials(self, dials: dict[str, int]) -> None:
        """The seats' gear dials as last read (car id -> gear): while the drivers pick their
        gears, the dialled gear of a car not yet ready is marked in its cell (role
        ``dialled``), so the table sees what Ready will choose."""
        if dials == self.dials:
            return
        self.dials = dials
        if self._view is not None:
            self._gear_roles(self._view)

    def _gear_roles(self, view: RaceView) -> None:
        by_name = self._named
        dials = self.dials
        for row in view.gear_rows:
            dialled = dials.get(row.car) if row.planned is None else None
            for gear in (1, 2, 3, 4):
                button = by_name.get(f"gear {row.car} {gear}")
                if button is None:
                    continue
                chosen = row.planned == gear and not row.clogged
                button.role = "selected" if chosen else (
                    "off" if not row.allowed[gear - 1] else (
                        "dialled" if gear == dialled else "normal"))

    def _update(self, view: RaceView) -> None:
        """Same buttons as last time: only their look, labels and reasons change."""
        app = App.get_running_app()
        by_name = self._named
        self._view = view
        self._gear_roles(view)
        for row in view.gear_rows:
            clog = by_name.get(f"clogged {row.car}")
            if clog is not None:
                clog.role = "selected" if row.clogged else ("normal" if row.can_clog else "off")
            ready = row.planned is not None
            by_name[f"driver {row.car}"].color = app.c_ok if ready else app.c_fg
            by_name[f"ready {row.car}"].text = _("ready") if ready else ""
        for key, text, enabled in view.keys:
            button = by_name[f"key {key}"]
            button.text = text
            button.disabled = not enabled
            button.why_disabled = view.why(key)
        self.react_grid.update(view)
