"""The React choices on the race screen's panel, laid out by
:func:`~companion.ui.views.react_layout.react_rows`. A few choices are whole buttons two to a
row, each with its label and, smaller under it, its detail ("with Sun +2"); one whose words do
not fit half the row has the whole row ("behind" a twelve-letter Chinese or Korean name wrapped
to a third line in half a row at 800x480: found by a table test). A busy React
(more choices than four rows of two) shows each long run of amounts as a block, its name then a
key per amount ("Slipstream, with Sun +2: +4 +5 +6 +7"), on as many rows as the panel's width
needs, the rows even (:func:`~companion.ui.views.react_layout.run_columns`; Cooldown 6 in two
rows of three), and packs the other choices below,
End turn last: two, three or one to a row, each as wide as its words need (a third, a half or
the whole row), so every line stays whole. A choice the rules refuse here shows greyed and says
why when tapped.

The buttons are the panel's (pooled, gated to the prompt on show): ``panel`` is the
:class:`~companion.ui.widgets.race_panel.RacePanel`.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from ..views.race_view import RaceView, ReactButton
from ..views.react_layout import FEW, ReactRow, react_rows, run_columns
from .text_fit import FIT

HALVES = (3,)
"""A few choices are two to a row (a half each) or one (the whole row): never a third."""
ROW_GAP = 0.15
"""Between the rows of a busy React, in font sizes (the panel's own spacing is 0.25); and of
a few choices packed into more than :data:`FEW_ROWS` rows."""
FEW_ROWS = 4
"""Rows of a few choices that fit at 800x480 under a two-line prompt with the panel's own
spacing between them; a fifth (a Draft "behind" a twelve-character name takes a whole row)
brings the rows closer, as a busy React's: in Korean the five rows ran 3.8 px past the panel,
which scrolled for End turn's last pixels (found by a table test)."""
ROW_UNITS = 6
"""A packed row of a busy React is six units wide: a choice takes two (a third), three (a
half) or six (the whole row), as its words need."""

CAPTION_SHARE = 1 / 3
"""A run's name takes this share of the panel's width, its keys the rest."""

TWO_LINES = 0.9
"""The line height of a React button with a detail line: both lines inside 48 px (the CJK
font's lines are tall)."""


def react_text(button: ReactButton, small: float) -> str:
    """A React button's text (markup): its label, and under it its detail in the ``small``
    size; two lines fit a 48 px button."""
    return two_lines(button.label, button.detail, small)


def two_lines(text: str, detail: str, small: float) -> str:
    """``text`` and, under it in the ``small`` size, ``detail`` (markup)."""
    shown = str(escape_markup(text))
    if detail:
        shown += f"\n[size={round(small)}]{escape_markup(detail)}[/size]"
    return shown


def units(button: ReactButton, room: float, spacing: float, size: float,
          small: float, shares: tuple[int, ...] = (2, 3)) -> int:
    """How much of a packed row ``button`` needs (:data:`ROW_UNITS`), for a row ``room`` px
    wide: its label at ``size`` and its detail at ``small``, each on one line; the least of
    ``shares`` that holds them, else the whole row."""
    need = FIT.width(button.label, size)
    if button.detail:
        need = max(need, FIT.width(button.detail, small))
    need += dp(8) + 2  # the button's text inset (common.kv), and rounding
    for share in shares:
        parts = ROW_UNITS // share
        if need <= (room - spacing * (parts - 1)) / parts:
            return share
    return ROW_UNITS


def least_key(amounts: list[str], size: float, height: float) -> float:
    """A run's keys are at least this wide: a touch target (``MIN_TAP``; no narrower than
    they are tall on a larger screen), and each amount whole at ``size``."""
    from .race_panel import MIN_TAP

    widest = max((FIT.width(amount, size) for amount in amounts), default=0.0)
    return float(max(MIN_TAP, height, math.ceil(widest + dp(8) + 2)))


def pack(shares: list[int]) -> list[list[int]]:
    """The indexes of ``shares`` row by row, in order: a row takes the next one while they
    fit in :data:`ROW_UNITS`."""
    rows: list[list[int]] = []
    used = ROW_UNITS
    for index, share in enumerate(shares):
        if used + share > ROW_UNITS:
            rows.append([])
            used = 0
        rows[-1].append(index)
        used += share
    return rows


class ReactGrid:
    """Builds the React choices into ``panel`` and updates them in place."""

    def __init__(self, panel: Any) -> None:
        self.panel = panel
        self.in_runs: frozenset[str] = frozenset()
        """The choices shown as a key of a run (their text is their amount)."""
        self._whole: list[tuple[ReactButton, Any]] = []
        """A busy React's whole choices and their buttons, packed into rows by width."""
        self._rows: list[BoxLayout] = []
        self._runs: list[tuple[BoxLayout, GridLayout, float]] = []
        """A busy React's runs: each line, the grid of its keys, and their least width."""
        self._box: BoxLayout | None = None
        """A busy React's rows."""
        self._packed_for = 0.0
        self._shares: tuple[int, ...] = (2, 3)
        """The shares of a row a whole choice may take short of the whole row: a third or a
        half in a busy React, a half (two columns) in a few choices."""
        self._packed_shares: list[int] = []
        panel.bind(width=self._width_changed)

    def build(self, view: RaceView) -> None:
        runs, whole = react_rows(view.react)
        self.in_runs = frozenset(b.key for row in runs for b in row.buttons)
        self._whole, self._rows, self._runs, self._box = [], [], [], None
        few = len(view.react) <= FEW
        self._shares = HALVES if few else (2, 3)
        # a busy React's rows (or a few choices' five) a little closer than the panel's own
        # spacing: five rows of 48 px fit under a two-line prompt at 800x480
        # (tests/ui/test_react_busy.py, test_react_eight.py; set by _pack)
        box = self._box = BoxLayout(orientation="vertical", size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        for row in runs:
            box.add_widget(self._run(row))
        self._whole = [(button, self._button(button, button.label)) for button in whole]
        self._pack()
        self.panel.add_widget(box)

    def _pack(self) -> None:
        """(Re)pack a busy React for the panel's width: its runs' keys into even rows, its
        whole choices into rows by the width of their words."""
        app = App.get_running_app()
        box = self._box
        assert box is not None
        for row in self._rows:
            row.clear_widgets()
            box.remove_widget(row)
        spacing = app.fs * 0.25
        room = self.panel.width
        self._packed_for = room
        for line, keys, least in self._runs:
            count = len(keys.children)
            keys.cols = run_columns(count, (room - spacing) * (1 - CAPTION_SHARE), least,
                                    spacing)
            rows = math.ceil(count / keys.cols)
            line.height = rows * keys.children[0].height + (rows - 1) * keys.spacing[1]
        shares = self._packed_shares = self._units(room)
        self._rows = []
        for indexes in pack(shares):
            row = BoxLayout(size_hint_y=None, height=self._whole[indexes[0]][1].height,
                            spacing=spacing)
            for index in indexes:
                widget = self._whole[index][1]
                widget.size_hint_x = shares[index]
                row.add_widget(widget)
            self._rows.append(row)
            box.add_widget(row)
        few = self._shares == HALVES and len(self._rows) + len(self._runs) <= FEW_ROWS
        box.spacing = spacing if few else max(2.0, app.fs * ROW_GAP)

    def _units(self, room: float) -> list[int]:
        """Each whole choice's share of a row ``room`` px wide, as its words are now."""
        app = App.get_running_app()
        return [units(b, room, app.fs * 0.25, app.fs, app.fs_small, self._shares)
                for b, _w in self._whole]

    def _width_changed(self, _panel: Any, width: float) -> None:
        shown = self._box is not None and self._box.parent is self.panel
        if shown and abs(width - self._packed_for) > 0.5:
            self._pack()

    def _button(self, button: ReactButton, text: str) -> Any:
        return self.panel._button(
            text, f"react {button.key}", lambda k=button.key: self.panel.actions.react(k),
            role=_role(button))

    def _run(self, row: ReactRow) -> BoxLayout:
        """A run of amounts: its name (and the detail its amounts share), then their keys in
        a grid, as many to a row as the panel's width holds (:meth:`_pack`)."""
        app = App.get_running_app()
        spacing = app.fs * 0.25
        keys = [self._button(button, button.amount) for button in row.buttons]
        line = BoxLayout(size_hint_y=None, height=keys[0].height, spacing=spacing)
        caption = Label(text=two_lines(row.caption, row.detail, app.fs_small), markup=True,
                        font_size=app.fs, color=app.c_fg, halign="left", valign="middle",
                        line_height=TWO_LINES if row.detail else 1.0,
                        size_hint_x=CAPTION_SHARE)
        caption.bind(size=lambda w, s: setattr(w, "text_size", s))
        caption.test_name = f"run {row.buttons[0].key}"
        line.add_widget(caption)
        amounts = GridLayout(cols=len(keys), size_hint_x=1 - CAPTION_SHARE,
                             spacing=(spacing, max(2.0, app.fs * ROW_GAP)))
        for key in keys:
            key.size_hint_min_x = None  # as wide as the grid's columns (least_key at least)
            amounts.add_widget(key)
        line.add_widget(amounts)
        self._runs.append((line, amounts, least_key(
            [button.amount for button in row.buttons], app.fs, keys[0].height)))
        return line

    def update(self, view: RaceView) -> None:
        """Same choices as last time: only their look, labels and reasons change."""
        app = App.get_running_app()
        named = self.panel._named
        for button_view in view.react:
            button = named[f"react {button_view.key}"]
            greyed = bool(button_view.why)
            button.disabled = greyed  # a tap says why (Btn)
            button.why_disabled = button_view.why
            button.role = _role(button_view)
            if button_view.key in self.in_runs:
                button.markup = False
                button.font_size = app.fs
                button.line_height = 1.0
                button.text = button_view.amount
                continue
            # Kivy draws a disabled label's text nearly invisible with markup or with a line
            # height under 1: a greyed button shows both lines plain, in the smaller size
            button.markup = not greyed
            button.font_size = app.fs_small if greyed and button_view.detail else app.fs
            button.text = (f"{button_view.label}\n{button_view.detail}".strip() if greyed
                           else react_text(button_view, app.fs_small))
            button.line_height = TWO_LINES if button_view.detail and not greyed else 1.0
        self._repack(view)

    def _repack(self, view: RaceView) -> None:
        """The whole choices packed again if their words now need other shares of a row (the
        car ahead is another, with a longer name)."""
        if self._box is None or not self._whole:
            return
        fresh = {b.key: b for b in view.react}
        self._whole = [(fresh.get(b.key, b), widget) for b, widget in self._whole]
        if self._units(self.panel.width) != self._packed_shares:
            self._pack()


def _role(button: ReactButton) -> str:
    """End turn in the accent colour, unless greyed (the engine would refuse it: grey, as
    every greyed button, not an orange that says "tap me")."""
    return "accent" if button.key == "end" and not button.why else "normal"
