"""The race order as the table reads it: one row per car, in race order, saying where each car
stands in the rulings' words (space and spot), and which cars the last input moved.

Columns: the car (its colour as a disc for a driver, a square for a Legend, as on the map, and
the driver's name or the Legend's colour), **Space** ("23 RL": space 23 on the Race Line; "23
out": the other spot; "1st": finished, its place; "DNF": out of the race, did not finish, its
name greyed; zh_TW 淘汰, ko 탈락),
Lap, Gear, Heat (in the engine / in all), Stress (cards taken) and, in races with modules,
Sponsorship cards. The Space cell of every car the last input moved is lit (filled in the
accent colour): that is where the table puts it now.
A line under the rows says what the Heat figures are ("Heat: in the engine / in all"): "6/7"
alone is read as a score.

Every column is as wide as its widest cell or header so far in the race (never cut short,
whatever the language; it does not narrow back, so cars leaving the grid's two-digit spaces
move no column and re-render no name); the name takes the rest and its text shrinks to fit
(never below the readable floor, :data:`MIN_NAME_FONT`: a longer name takes two lines, its row
grows) rather than being cut, while the table keeps to :data:`TABLE_SHARE` of the column it
shares with the map; past that, such a name is cut on one line (six twelve-letter Chinese
names on two lines each left the map a thumbnail). The table says how wide it would have to be
for each name to fit on one line (:attr:`RaceTable.values_width`, :attr:`RaceTable.name_widths`):
the race screen widens its column for them when the panel beside it can spare the room.
Where names are cut even then (six twelve-character Korean or Chinese names beside
Sponsorship's column at 800x480), the value columns' titles take two lines by turns, each
reaching over its neighbours', and the columns narrow to their figures for the names.
Rows are built once per car count and updated in place (a plain box, no ScrollView: a
stencil costs a measurable part of every frame on software GL). A tap on a row or on the
header calls ``on_row(car)`` / ``on_header()`` (the screen explains what the row or the
columns say).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import N_, _

from ..views.names import COLOUR_RGB
from ..views.race_view import OrderRow
from .basic import Swatch
from .line_breaks import break_allowed
from .measure import READABLE_PX
from .slot import SlotMixin
from .text_fit import FIT

COLUMNS = ("space", "lap", "gear", "heat", "stress", "sponsors")
"""Test names of the value cells (``"space red"``), after the car's name."""
MIN_NAME_FONT = READABLE_PX
"""The smallest size a name is drawn at: the readable floor (:data:`.measure.READABLE_PX`).
A name too long for one line at this size takes two (its row grows), before it is cut."""
TABLE_SHARE = 0.62
"""The most of its column the table takes with names on two lines (the map has the rest);
past it, a name too long for one line is cut instead."""
NAME_STEP = 0.5
"""How much a two-line name's font shrinks per try."""
NAME_GAP = 0.2
"""The gap between a name and the values, in text sizes (the values' words are as far apart:
the value columns' pad, :meth:`RaceTable._column_widths`)."""


PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"))
"""A finished car's place, as its Space cell says it (six cars at most)."""


def spot_text(row: OrderRow) -> str:
    """Where the car is, as the Space column says it: "23 RL", "23 out", "1st" (finished: its
    place on the podium), "DNF" (out of the race, did not finish: the mark has a column's room,
    where "Out: Konstantinos" before the name took the row two lines; "Out" there read as the
    outside spot's "out", found by a table test), "-"."""
    if row.finished_place:
        place = row.finished_place
        return _(PLACES[place - 1]) if place <= len(PLACES) else f"P{place}"
    if row.eliminated:
        return _("DNF")
    if not row.on_track:
        return "-"
    return f"{row.space} " + (_("RL") if row.race_line else _("out"))


def row_cells(row: OrderRow, sponsors: bool) -> list[str]:
    """The value cells. A car out of the race (eliminated) or on the podium (finished: it left
    the track at the end of the round it finished in, docs/rules.md §1.12) has no lap, gear,
    Heat or Stress that counts any more: "-" (its figures at the spin-out or at the line read
    as a car still racing); the Sponsorship cards it won stay its own."""
    gone = row.eliminated or row.finished_place is not None
    cells = [spot_text(row), "-" if gone else str(row.lap)]
    cells += ["-", "-", "-"] if row.legend or gone else [
        str(row.gear), f"{row.engine}/{row.heat}", str(row.stress_taken)]
    if sponsors:
        cells.append("-" if row.legend else str(row.sponsors))
    return cells


class OrderCell(Label):  # type: ignore[misc]
    """A value cell; ``lit`` fills it in the accent colour (the car to place now)."""

    test_name = StringProperty("")
    lit = BooleanProperty(False)
    fill = ColorProperty([0, 0, 0, 0])


class TableRow(BoxLayout):  # type: ignore[misc]
    test_name = StringProperty("")
    car = StringProperty("")
    bg = ColorProperty([0, 0, 0, 0])


class RowSlot(SlotMixin, TableRow):
    """A car's row: it follows its car, and when cars pass it moves by a translation, nothing
    in it laid out again (:mod:`.slot`)."""


class RaceTable(BoxLayout):  # type: ignore[misc]
    """The race order; :meth:`show` it the rows of a :class:`RaceView`."""

    test_name = StringProperty("order")
    values_width = NumericProperty(0.0)
    """The width of everything in a row but the name (the swatch, the value columns, their
    spacing), as last fitted."""
    name_widths = ListProperty([])
    """Each row's name as wide as it is on one line at :data:`MIN_NAME_FONT`: at
    ``values_width`` plus the widest of these, no name is cut or takes two lines."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        super().__init__(**kwargs)
        self.on_row: Callable[[str], None] | None = None
        self.on_header: Callable[[], None] | None = None
        self._layout: tuple[object, ...] | None = None
        self._header: list[Label] = []
        self._rows: list[tuple[TableRow, Swatch, Label, list[OrderCell]]] = []
        """The rows' widgets, as built (one per car: a row follows its car when the order
        changes)."""
        self._row_of: dict[str, tuple[TableRow, Swatch, Label, list[OrderCell]]] = {}
        """Each car's row."""
        self._row_shown: dict[str, OrderRow] = {}
        """What each car's row shows now: a row is written only when its car changed."""
        self._words: tuple[object, ...] | None = None
        """The font size, theme, language and columns the rows were written in."""
        self._legend = Label()
        self._header_row = TableRow()
        self._size = 14.0
        """The table's font size (as last built)."""
        self._fitted: tuple[object, ...] | None = None
        self._widths: list[float] = []
        """Each value column's width so far in this race and these words: a column grows to
        its widest cell and keeps that width (a cell that narrows again, "10 out" to "9 RL",
        moves no column: nothing in the table is laid out or rendered again for it)."""
        self._value_font: float | None = None
        """The value columns' font in this race at this width (None: not set yet; see
        :meth:`_fit`)."""
        self._value_font_width = 0.0
        """The table's width when :attr:`_value_font` was chosen."""
        self._staggered = False
        """The value columns' titles on two lines, alternately (:meth:`_staggered_widths`)."""
        self._cell_widths: list[float] = []
        """Each value column's width so far as its cells need it (staggered titles)."""
        self._floor_widths: list[float] = []
        """Each value column's width so far in this race and these words at the floor's font
        (what :attr:`values_width` counts)."""
        self._shown: tuple[object, ...] | None = None
        self.bind(width=lambda *_a: self._fit(), parent=self._watch_column)

    @property
    def header_labels(self) -> list[Label]:
        return self._header

    def on_touch_down(self, touch: Any) -> bool:
        """A tap on a row asks about that car, on the header about the columns (the whole
        table is one touch target: rows are read, not pressed)."""
        if not self.collide_point(*touch.pos):
            return False
        for child in self.children:
            if isinstance(child, TableRow) and child.collide_point(*touch.pos):
                if child.car and self.on_row is not None:
                    self.on_row(child.car)
                elif not child.car and self.on_header is not None:
                    self.on_header()
                return True
        return True

    def on_touch_move(self, touch: Any) -> bool:
        return False  # no cell of the table takes a touch: none is asked (less work a tap)

    def on_touch_up(self, touch: Any) -> bool:
        return False

    def _watch_column(self, *_args: Any) -> None:
        """The column the table shares with the map: its height bounds the table's
        (:data:`TABLE_SHARE`)."""
        if self.parent is not None:
            self.parent.bind(height=lambda *_a: self._fit())

    def row_height(self, size: float) -> float:
        return max(24.0, size * 1.75)

    def legend_height(self, size: float) -> float:
        return size * 1.5

    def preferred_height(self, cars: int) -> float:
        """The header, every row (as tall as its name needs) and the legend."""
        size = float(App.get_running_app().fs_small)
        if self._layout is not None and self._layout[0] == cars and self._layout[2] == size:
            return sum(float(child.height) for child in self.children)
        return size * 1.6 + cars * self.row_height(size) + self.legend_height(size)

    def _build(self, count: int, columns: int, size: float) -> None:
        app = App.get_running_app()
        self.clear_widgets()
        header = TableRow(size_hint_y=None, height=size * 1.6, test_name="order header")
        self._header_row = header
        self._header = []
        for index in range(columns):
            label = Label(size_hint_x=1 if index == 0 else None, font_size=size,
                          color=app.c_muted, halign="left" if index == 0 else "center",
                          valign="middle")
            label.bind(size=self._title_room)
            self._header.append(label)
            header.add_widget(label)
        self.add_widget(header)
        self._rows = []
        for _index in range(count):
            # no spacing: the cells' pad is the space between their words, as in the header
            # (whose cells, with no spacing, stood 2 px a column off the rows')
            line = RowSlot(size_hint_y=None, height=self.row_height(size))
            holder = BoxLayout(size_hint_x=None, width=size * 1.3,
                               padding=(2, (self.row_height(size) - size) / 2))
            swatch = Swatch()
            swatch.size = (size, size)
            holder.add_widget(swatch)
            line.add_widget(holder)
            name = Label(font_size=size, color=app.c_fg, halign="left", valign="middle")
            name.bind(size=lambda w, s: setattr(w, "text_size", s))
            line.add_widget(name)
            # a space between the name and the values (the name may fill its room to the
            # pixel: "…류준열박67 out" read as one)
            line.add_widget(Widget(size_hint_x=None, width=size * NAME_GAP))
            cells = []
            for _column in range(columns - 1):
                cell = OrderCell(size_hint_x=None, font_size=size, color=app.c_fg)
                cells.append(cell)
                line.add_widget(cell)
            line.keep_texts_whole()
            self.add_widget(line)
            self._rows.append((line, swatch, name, cells))
        self._legend = Label(size_hint_y=None, height=self.legend_height(size), font_size=size,
                             color=app.c_muted, halign="left", valign="middle",
                             padding=(size * 0.3, 0), shorten=True)
        self._legend.test_name = "order legend"
        self._legend.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self._legend)
        self._layout = (count, columns, size, app.theme_name)
        self._size = float(size)
        self._row_of, self._row_shown = {}, {}
        self._words = self._fitted = None  # new labels: their words and widths to set
        self._widths, self._floor_widths, self._cell_widths = [], [], []
        self._value_font = None
        self._staggered = False

    def _title_room(self, label: Label, size: Sequence[float]) -> None:
        """A title is laid out in its column; a staggered value column's title is not bound
        to it (it may reach over its neighbours', whose titles are on the other line)."""
        staggered = self._staggered and label is not self._header[0]
        label.text_size = (None, None) if staggered else size

    def show(self, rows: Sequence[OrderRow], sponsors: bool) -> None:
        """Each car's row says what the car's :class:`OrderRow` says, the rows in the race's
        order. A row whose car did not change is not written again; when cars pass, their
        rows change places (nothing is written or rendered again for it)."""
        app = App.get_running_app()
        size = app.fs_small
        columns = 7 if sponsors else 6
        shown = (tuple(rows), sponsors, size, app.theme_name, app.language)
        if shown == self._shown:
            return  # the same rows in the same words (a gear chosen changes none)
        if self._layout != (len(rows), columns, size, app.theme_name):
            self._build(len(rows), columns, size)
        self._shown = shown
        titles = [_("Car"), _("Space"), _("Lap"), _("Gear"), _("Heat"), _("Stress")]
        if sponsors:  # short: with a seventh column the names had no room (the header's
            titles.append(_("Spons."))  # tap says what it counts)
        for label, text in zip(self._header, titles, strict=True):
            label.text = text
        self._legend.text = _("Heat: in the engine / in all")
        words = (sponsors, size, app.theme_name, app.language)
        if words != self._words:  # every row in other words
            self._words = words
            self._row_shown = {}
            self._widths, self._floor_widths, self._cell_widths = [], [], []
            self._value_font = None
        if set(self._row_of) != {row.car for row in rows}:  # other cars (a new race)
            self._row_of = dict(zip((row.car for row in rows), self._rows, strict=True))
            self._row_shown = {}
            self._widths, self._floor_widths, self._cell_widths = [], [], []
            self._value_font = None
        for row in rows:
            if self._row_shown.get(row.car) != row:
                self._write(self._row_of[row.car], row, sponsors)
                self._row_shown[row.car] = row
        order = [self._header_row, *(self._row_of[row.car][0] for row in rows), self._legend]
        if self.children[::-1] != order:
            self.clear_widgets()
            for widget in order:
                self.add_widget(widget)
        self._fit()

    def _write(self, widgets: tuple[TableRow, Swatch, Label, list[OrderCell]], row: OrderRow,
               sponsors: bool) -> None:
        """One car's row: what :meth:`show` says."""
        app = App.get_running_app()
        line, swatch, name, cells = widgets
        line.test_name = f"order {row.car}"
        line.car = row.car
        line.bg = app.c_panel if row.current else (0, 0, 0, 0)
        swatch.rgba = [*COLOUR_RGB.get(row.car, (0.5, 0.5, 0.5)), 1]
        swatch.shape = "square" if row.legend else "disc"
        name.test_name = f"order name {row.car}"
        # a car out of the race: its name alone, greyed, the mark in its Space cell ("Out:
        # Konstantinos" took two lines, a taller row than the others; found by a table test)
        name.text = row.label
        name.color = app.c_muted if row.eliminated else app.c_fg
        for cell, text, column in zip(cells, row_cells(row, sponsors), COLUMNS, strict=False):
            cell.text = text
            cell.test_name = f"{column} {row.car}"
            cell.lit = column == "space" and row.moved and row.on_track
            cell.bold = cell.lit
            cell.color = app.c_accent_fg if cell.lit else app.c_fg
            cell.fill = app.c_accent if cell.lit else (0, 0, 0, 0)

    def _column_widths(self, font: float, widths: list[float] | None = None) -> list[float]:
        """Each value column as wide as its header or its widest cell at ``font`` (and as
        wide as it has been so far at that font: ``widths``, by default :attr:`_widths`)."""
        pad = font * 0.2  # a space's width between the columns' words
        widths = self._widths if widths is None else widths
        for index, title in enumerate(self._header[1:]):
            texts = [title.text, *(cells[index].text for _l, _s, _n, cells in self._rows)]
            _widen(widths, index, _widest(texts, font) + pad)
        return widths

    def _staggered_widths(self, font: float) -> list[float]:
        """Each value column as wide as its widest cell so far, its title on the upper line
        (first, third, fifth column) or the lower (the others), centred over it and reaching
        over its neighbours' columns: a column is as wide as the parts of the titles on both
        sides that reach over it (their titles a space apart); the first column as wide as
        its title (the names' title beside it), the last too (the table's edge)."""
        pad = font * 0.2
        widths = self._cell_widths
        titles = [FIT.width(title.text, font) + pad for title in self._header[1:]]
        for index in range(len(titles)):
            cells = [cells[index].text for _l, _s, _n, cells in self._rows]
            width = _widest(cells, font) + pad
            if index in (0, len(titles) - 1):
                width = max(width, titles[index])
            _widen(widths, index, width)
        for index in range(1, len(titles) - 1):  # each widening narrows only its own title's
            reach = [max(0.0, (titles[i] - widths[i]) / 2) for i in (index - 1, index + 1)]
            widths[index] = max(widths[index], sum(reach))  # reach over its neighbours
        return list(widths)

    def _fit(self) -> None:
        """Each value column as wide as its header or its widest cell, whatever the language
        ("스트레스" is not cut to "스트..."); the name takes the rest, its font shrinking to fit
        a long name (down to :data:`MIN_NAME_FONT`, then cut)."""
        if not self._rows or not self._header:
            return
        size = self._size
        column = float(self.parent.height) if self.parent is not None else 0.0
        texts = (self.width, column, tuple(label.text for label in self._header),
                 tuple((name.text, *(c.text for c in cells))
                       for _line, _swatch, name, cells in self._rows))
        if texts == self._fitted:
            return  # the same words: the same widths
        self._fitted = texts

        # the swatch's box, the gap after the name and a pixel for rounding
        fixed = size * (1.3 + NAME_GAP) + 1
        # What the table needs for its names on one line with the values at the floor: it
        # depends on the words only, not on the width the screen gives (no back and forth
        # between the two: RaceScreen.share_columns)
        self.values_width = sum(self._column_widths(MIN_NAME_FONT, self._floor_widths)) + fixed
        self.name_widths = names = [FIT.width(name.text, MIN_NAME_FONT) if name.text else 0.0
                                    for _line, _swatch, name, _cells in self._rows]
        # Each name that fits on one line at the floor in this width wants its line: while
        # the value columns leave it less, the values' font steps down, to the floor at most
        # (with Sponsors, seven columns left "M..." and "Blac/k" at 800x480; found by a table
        # test). It never steps back up within a race at one width: no column moves back
        # and forth. At another width it is chosen anew (the table is laid out at Kivy's
        # default 100 px before its first real width: the values kept the floor's size at
        # 1280x720 beside "Ana" and "Ben").
        if self.width != self._value_font_width:
            self._value_font, self._value_font_width = None, float(self.width)
            self._widths = []
        # (a name too long for the width even then wants all the floor leaves it: six
        # twelve-character Korean names kept the values' larger font and were cut "강동…열박"
        # in 128 px, where 150 were to be had; found by a table test)
        wanted = max(0.0, min(max(names, default=0.0), self.width - self.values_width))
        value_font = self._value_font or size
        while True:
            widths = self._column_widths(value_font)
            room = self.width - sum(widths) - fixed
            if room >= wanted or value_font <= MIN_NAME_FONT:
                break
            value_font = max(MIN_NAME_FONT, value_font - NAME_STEP)
            self._widths = []  # the columns' memory is for one font
        self._value_font = value_font
        # Names cut even with the values at the floor (six twelve-character Korean names beside
        # Sponsorship's seventh column at 800x480: "강동원공…류준열박" in 126 px of the 169 they
        # need; found by a table test): the titles, wider than their columns' figures, take
        # two lines by turns, each reaching over its neighbours', the columns as narrow as the
        # figures and the titles allow.
        staggered = False
        if value_font <= MIN_NAME_FONT and room < max(names, default=0.0):
            narrow = self._staggered_widths(value_font)
            if self.width - sum(narrow) - fixed > room:
                # as far apart as the names leave them: the room past the widest name goes
                # back to the columns, each a like part of the way to its one-line width
                # ("0 1 6/7 0" read as one figure, the columns at their narrowest)
                # (none narrower than staggering needs: its neighbours' titles reach over it)
                wide = [max(low, high) for low, high in zip(narrow, widths, strict=True)]
                spare = self.width - fixed - max(names) - sum(narrow)
                share = min(1.0, max(0.0, spare / max(1.0, sum(wide) - sum(narrow))))
                widths = [low + (high - low) * share for low, high in zip(narrow, wide,
                                                                          strict=True)]
                staggered = True
                room = self.width - sum(widths) - fixed
        if staggered != self._staggered:
            self._staggered = staggered
            line = FIT.line_height(value_font)
            self._header_row.height = 2 * line + 4 if staggered else size * 1.6
            for index, title in enumerate(self._header):
                title.size_hint_y = None if staggered and index else 1
                title.height = line if staggered and index else self._header_row.height
                # the first value column's title on the upper line, the next on the lower...
                title.pos_hint = ({} if not staggered or not index
                                  else {"top": 1} if index % 2 else {"y": 0})
                self._title_room(title, title.size)
        for index, title in enumerate(self._header[1:]):
            for label in (title, *(cells[index] for _l, _s, _n, cells in self._rows)):
                label.width, label.font_size = widths[index], value_font
        self._header[0].padding = (size * 1.3, 0)  # over the names, after the swatches
        fonts = [name_font(name.text, size, room) for _line, _swatch, name, _cells in self._rows]
        rows = {id(line) for line, _s, _n, _c in self._rows}
        others = sum(float(child.height) for child in self.children if id(child) not in rows)
        tall = others + sum(max(self.row_height(size), FIT.line_height(font) * max(lines, 1) + 4)
                            for font, lines in fonts)
        if column and tall > column * TABLE_SHARE:
            # Two-line names would leave the map a thumbnail (six twelve-letter Chinese names:
            # 60 px of map at 800x480): each such name is cut on one line at the floor instead
            # (the gear panel writes it whole; the colour's disc tells the cars apart).
            fonts = [(MIN_NAME_FONT, 0) if lines == 2 else (font, lines)
                     for font, lines in fonts]
        for (line, _swatch, name, _cells), (font, lines) in zip(self._rows, fonts, strict=True):
            name.font_size = font
            name.shorten = lines == 0
            line.height = max(self.row_height(size), FIT.line_height(font) * max(lines, 1) + 4)
            holder = line.children[-1]
            holder.padding = (2, (line.height - size) / 2)
        self.height = sum(float(child.height) for child in self.children)


def _widest(texts: Sequence[str], font: float) -> float:
    return max(FIT.width(text, font) for text in texts)


def _widen(widths: list[float], index: int, width: float) -> None:
    """Column ``index`` of ``widths`` (the widths so far: a column never narrows back while
    a race's words stay) at least ``width`` wide."""
    if index < len(widths):
        widths[index] = max(width, widths[index])
    else:
        widths.append(width)


def name_font(text: str, size: float, room: float) -> tuple[float, int]:
    """The font size and lines for a car's name in ``room`` pixels: ``size`` on one line;
    else smaller on one line, down to :data:`MIN_NAME_FONT`; else on two lines (a twelve-letter
    Chinese name), as large as they allow; else (0 lines) cut, at the floor. A word no line
    may break inside (a Latin name) and wider than the room is never split ("Bartholome/us"):
    the text is cut."""
    wanted = FIT.width(text, size) if text else 0.0
    if wanted <= room or room <= 0:
        return size, 1
    if size * room / wanted >= MIN_NAME_FONT:
        return size * room / wanted, 1
    if any(FIT.width(word, MIN_NAME_FONT) > room
           and not any(break_allowed(a, b) for a, b in zip(word, word[1:], strict=False))
           for word in text.split(" ")):
        return MIN_NAME_FONT, 0  # a word no line may break inside ("Bartholomew"): cut
    font = size
    while FIT.lines(text, font, room) > 2 and font - NAME_STEP >= MIN_NAME_FONT:
        font -= NAME_STEP
    if FIT.lines(text, font, room) <= 2:
        return font, 2
    return MIN_NAME_FONT, 0
