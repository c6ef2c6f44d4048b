"""What the lap chart and the points chart share: one line per car in its colour, a dot at
every point, the car's name in a column right of the plot (never on a gridline, never on
another name; a leader line joins it to the car's last point, or one leader and a bracket
join the names of cars whose lines end at one point, drawn as one dot in their colours), all
drawn on an opaque background so ``export_to_png`` gives a picture that reads in any viewer;
and the PNG written once the chart has been laid out.

Every line must read on both themes: a car colour too close to the background (Black on the
dark theme, Yellow and Grey on the light one) gets a casing in the text colour; the others get a
thin casing in the background colour, which keeps crossing lines apart. Black itself is drawn
in the theme's text colour (black on Light, white on Dark), as ink on paper.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ObjectProperty
from kivy.uix.widget import Widget

from ..views.names import COLOUR_RGB
from .chart_names import FittedName, fit_column, label_height, label_width, whole_name
from .text_fit import FIT

GREY = (0.5, 0.5, 0.5)
"""The marker colour of a car id that is not one of the six colours."""
LINE_CONTRAST = 3.0
"""WCAG 2 non-text contrast: a line or a marker against its background."""
TEXT_CONTRAST = 4.5
"""WCAG 2 text contrast: a car's name in its colour, else in the text colour."""

Rgba = tuple[float, float, float, float]
Box = tuple[float, float, float, float]
"""x, y, width, height."""


def luminance(colour: Sequence[float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG 2 contrast ratio of two colours (1-21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@dataclass(frozen=True)
class CarInk:
    """How one car is drawn on a background: its line's core and casing, its name's colour."""

    core: Rgba
    casing: Rgba
    casing_width: float
    """Extra width on each side of the core."""
    text: Rgba


def car_ink(car: str, background: Sequence[float], text: Sequence[float]) -> CarInk:
    """The colours of ``car``'s line and name on ``background`` (``text``: the theme's text
    colour)."""
    core: Rgba = (*COLOUR_RGB.get(car, GREY), 1.0)
    if car == "black":
        core = (text[0], text[1], text[2], 1.0)
    if contrast(core, background) >= LINE_CONTRAST:
        casing: Rgba = (background[0], background[1], background[2], 1.0)
        width = 1.0
    else:
        casing, width = (text[0], text[1], text[2], 1.0), 1.5
    name = core if contrast(core, background) >= TEXT_CONTRAST else (
        text[0], text[1], text[2], 1.0)
    return CarInk(core, casing, width, name)


def spread(wanted: list[float], heights: list[float], low: float, high: float) -> list[float]:
    """Label centres as close to ``wanted`` as they can be, each label (``heights`` tall, its
    gap to the next included) clear of the others, every label within ``low``..``high``
    (centres, any order in, same order out)."""
    order = sorted(range(len(wanted)), key=lambda i: -wanted[i])
    placed: dict[int, float] = {}
    edge = high
    for i in order:  # top down: push each below the one above it
        placed[i] = min(wanted[i], edge - heights[i] / 2)
        edge = placed[i] - heights[i] / 2
    floor = low
    for i in reversed(order):  # bottom up: push back above the floor
        placed[i] = max(placed[i], floor + heights[i] / 2)
        floor = placed[i] + heights[i] / 2
    return [placed[i] for i in range(len(wanted))]


def axis_step(count: int, width: float, label: float) -> int:
    """Every how many rounds or races the x axis is numbered: 1, 2, 5, 10, 20... whichever
    first leaves each number ``label`` px (the widest, with a gap) where ``width`` px hold
    ``count`` of them (15 rounds in a chart 380 px wide at 800x480: "10111213" ran together;
    a twelve-race season's points chart: "0123456789101112")."""
    for step in (1, 2, 5, 10, 20, 50, 100):
        if step * width / max(1, count) >= label:
            return step
    return max(1, count)


def axis_numbers(count: int, width: float, label: float) -> list[int]:
    """The numbers of an x axis of ``count`` steps (0 to ``count``) in ``width`` px, each
    number ``label`` px wide with its gap: every :func:`axis_step` th, or every n-th for an n
    between the least that fits and that step that divides ``count`` (a twelve-race season
    numbered 0, 3, … 12 rather than 0, 5, 10: the axis ends on its number); the last too when
    it has the room."""
    step = axis_step(count, width, label)
    per = width / max(1, count)
    least = next((n for n in range(1, step + 1) if n * per >= label), step)
    step = next((n for n in range(least, step) if count % n == 0), step)
    numbers = list(range(0, count + 1, step))
    if numbers[-1] != count and (count - numbers[-1]) * per >= label:
        numbers.append(count)
    return numbers


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


NAMES_SHARE = 0.45
"""The most of the chart's width right of the plot: the leaders to the names, the names, a
margin (it was 40 % for the names with a margin of 1.6 text sizes; the names gained the
margin)."""
WIDER_STEP = 0.02
"""How much wider, as a share of the chart, each try of a wider name column is (a chart that
has room for it widens its names' column only as far as keeps its names whole)."""
NAMES_GAP = 1.0
"""From the plot's edge to the names, in the chart's text sizes (the leaders)."""
KEYS_GAP = 1.0
"""More room between the plot and the names, in the chart's text sizes, where a bracket and
dots join names to a point several lines end at (:meth:`LineChart._bracket`): clear of that
point's dot when it is at the plot's edge."""
NAMES_MARGIN = 0.5
"""Right of the names, to the chart's edge, in the chart's text sizes."""
AXIS_GAP = 0.6
"""The least room between two numbers of the x axis, in the chart's text sizes."""
NAME_PITCH = 1.3
"""How far apart names of one line are centred, at the least, in the chart's text sizes (the
column's height is counted from it)."""


DASH = 8.0
"""The pieces, in px, in which cars whose lines run along the same stretch share it."""
SHARED_DOT = 16.0
"""The width, in px, of a dot several lines pass through: one dot in as many pieces, one in
each car's colour (a car's own dot is 12 px)."""


@dataclass(frozen=True)
class _Shared:
    segments: dict[tuple[int, int, int, int], list[str]]
    """A stretch between two points (rounded px) -> the cars whose lines run along it, in
    drawing order, where more than one does."""
    points: dict[tuple[int, int], list[str]]
    """A point (rounded px) -> the cars whose lines pass it, where more than one does."""


def _segment_key(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    return round(x0), round(y0), round(x1), round(y1)


def _shared(lines: dict[str, tuple[list[float], Any]]) -> _Shared:
    """Where the cars' lines (``car -> (points x, y, x, y…, …)``) run together."""
    segments: dict[tuple[int, int, int, int], list[str]] = {}
    points: dict[tuple[int, int], list[str]] = {}
    for car, (xy, _name) in lines.items():
        for i in range(0, len(xy), 2):
            points.setdefault((round(xy[i]), round(xy[i + 1])), []).append(car)
            if i + 3 < len(xy):
                segments.setdefault(_segment_key(*xy[i:i + 4]), []).append(car)
    return _Shared({k: v for k, v in segments.items() if len(v) > 1},
                   {k: v for k, v in points.items() if len(v) > 1})


def first_line(box: Box, lines: int) -> float:
    """The y of the middle of the first of a name's ``lines`` drawn in ``box``: where its dot
    goes, before the name as a bullet before a list's item, its second line hanging under the
    first (the dot of a name on two lines stood between its lines, beside no text)."""
    return box[1] + box[3] - box[3] / (2 * max(1, lines))


class LineChart(Widget):  # type: ignore[misc]
    labels: Any = ObjectProperty(None, allownone=True)
    """Car id -> the name to print at the end of its line."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gridlines: list[Box] = []
        """Where the last drawing put its gridlines (thin boxes), for the layout tests."""
        self.name_boxes: dict[str, Box] = {}
        """Where the last drawing put each car's name."""
        self.name_texts: dict[str, str] = {}
        """What the last drawing wrote at the end of each car's line ("\\n" where two lines)."""
        self.name_sizes: dict[str, float] = {}
        """The font size of each car's name in the last drawing."""
        self.x_numbers: list[tuple[str, Box]] = []
        """The numbers of the x axis the last drawing wrote, and where."""
        self.inks: dict[str, CarInk] = {}
        self.names_share = NAMES_SHARE
        """The most of the width the names took in the last drawing (:meth:`fitted_names`)."""
        app = App.get_running_app()
        if app is not None and hasattr(app, "theme_name"):
            app.bind(theme_name=self._theme_changed)  # a weak reference: no leak

    def _theme_changed(self, *_args: Any) -> None:
        self.redraw()

    def redraw(self, *_args: Any) -> None:  # pragma: no cover - every chart draws itself
        raise NotImplementedError

    def _texture(self, text: str, size: float, rgba: Any) -> Any:
        label = CoreLabel(text=text, font_size=size, color=rgba)
        label.refresh()
        return label.texture

    def _text(self, text: str, size: float, rgba: Any, x: float, y: float,
              anchor: str = "center") -> Box:
        texture = self._texture(text, size, rgba)
        left = x - texture.width / 2 if anchor == "center" else (
            x if anchor == "left" else x - texture.width)
        box = (left, y - texture.height / 2, texture.width, texture.height)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size, pos=box[:2])
        return box

    def _background(self, app: Any) -> None:
        Color(*app.c_panel)
        Rectangle(pos=self.pos, size=self.size)
        self.gridlines = []
        self.name_boxes = {}
        self.name_texts = {}
        self.name_sizes = {}
        self.x_numbers = []
        self.inks = {}

    def _gridline(self, app: Any, x0: float, x1: float, y: float) -> None:
        Color(*app.c_muted)
        Line(points=[x0, y, x1, y], width=1, dash_length=4, dash_offset=4)
        self.gridlines.append((x0, y - 1, x1 - x0, 2))

    def _x_numbers(self, app: Any, count: int, left: float, right: float, y: float) -> None:
        """The x axis's numbers (:func:`axis_numbers`) from 0 at ``left`` to ``count`` at
        ``right``, centred on ``y``, none touching the next."""
        fs = app.fs_small
        label = FIT.width(str(count), fs) + fs * AXIS_GAP
        for number in axis_numbers(count, right - left, label):
            x = left + (right - left) * number / max(1, count)
            self.x_numbers.append((str(number),
                                   self._text(str(number), fs, app.c_muted, x, y)))

    @staticmethod
    def names_gap(app: Any, keys: bool = False) -> float:
        """From the plot's edge to the names (:data:`NAMES_GAP`, and :data:`KEYS_GAP` more
        where names are joined by a bracket: ``keys``)."""
        return float(app.fs_small * (NAMES_GAP + (KEYS_GAP if keys else 0.0)))

    def fitted_names(self, app: Any, labels: dict[str, Callable[[str], str]], low: float,
                     high: float, two_lines: bool = True,
                     keys: bool = False) -> dict[str, FittedName]:
        """Every car's ``label(name)`` fitted to the name column (at most :data:`NAMES_SHARE`
        of the chart; :func:`~.chart_names.fit_column`: smaller, then on two lines, before it
        is shortened), as many on two lines as the column's height holds (``low``..``high``:
        where a name of one line is centred); none on two lines without ``two_lines``
        (``keys``: :meth:`names_gap`)."""
        fs = app.fs_small
        cars = list(labels)
        named = [(self.name(car), labels[car]) for car in cars]

        def fitted_at(share: float) -> list[FittedName]:
            room = self.width * share - self.names_gap(app, keys) - fs * NAMES_MARGIN
            return fit_column(named, fs, room, high - low + fs * NAME_PITCH, two_lines)

        def broken(fitted: list[FittedName]) -> int:
            return sum(not whole_name(name, text)
                       for (name, _label), text in zip(named, fitted, strict=True))

        # a name broken or cut: the column takes what more of the plot's room it needs to
        # keep the names whole, no more (the plot's lines crowded where it took all of it)
        self.names_share = NAMES_SHARE
        fitted = fitted_at(NAMES_SHARE)
        wide = self.widest_names_share(app)
        share = NAMES_SHARE
        while broken(fitted) and share < wide:
            share = min(wide, share + WIDER_STEP)
            wider = fitted_at(share)
            if broken(wider) < broken(fitted):
                fitted, self.names_share = wider, share
        return dict(zip(cars, fitted, strict=True))

    def widest_names_share(self, app: Any) -> float:
        """The most of the chart's width its names may take where :data:`NAMES_SHARE` would
        break or cut a name (a chart that knows the least room its plot needs says more)."""
        return NAMES_SHARE

    def names_width(self, app: Any, names: Sequence[FittedName], keys: bool = False) -> float:
        """The room right of the plot: the leaders, the names, the margin (at most
        :data:`NAMES_SHARE` of the chart; ``keys``: :meth:`names_gap`)."""
        widest = max((label_width(name) for name in names), default=0)
        return float(min(self.width * self.names_share,
                         widest + self.names_gap(app, keys) + app.fs_small * NAMES_MARGIN))

    def _car_lines(self, app: Any, lines: dict[str, tuple[list[float], FittedName]],
                   column_x: float, low: float, high: float,
                   keyed: dict[str, float] | None = None) -> None:
        """Every car's line (``car -> (points x, y, x, y…, name)``), then the names in a
        column from ``column_x``, spread so none touches another (a name's centre within
        ``low``..``high`` when it takes one line), each joined to its line's last point by a
        thin leader; but a ``keyed`` car's name (``car -> the y it is wanted at``) has no
        leader, a dot drawn as its line's are in the leader's place instead (a car that left
        the race early: its leader crossed the lines of the cars still racing)."""
        keyed = keyed or {}
        fs = app.fs_small
        background = app.c_panel
        shared = _shared(lines)
        for car, (points, _name) in lines.items():
            ink = car_ink(car, background, app.c_fg)
            self.inks[car] = ink
            self._line(points, ink, car, shared)
            for i in range(0, len(points), 2):
                if (round(points[i]), round(points[i + 1])) not in shared.points:
                    self._dot(points[i], points[i + 1], ink)
        for (dot_x, dot_y), around in shared.points.items():
            self._shared_dot(dot_x, dot_y, [self.inks[car] for car in around], background)
        cars = [car for car, (points, _n) in lines.items() if points]
        edge = fs * NAME_PITCH / 2  # a one-line name's centre at low..high: its box this beyond
        ys = spread([keyed.get(c, lines[c][0][-1]) for c in cars],
                    [label_height(lines[c][1]) for c in cars], low - edge, high + edge)
        ends: dict[tuple[int, int], list[tuple[str, float]]] = {}
        """A point several lines end at -> those cars and where their names are."""
        for car, y in zip(cars, ys, strict=True):
            points, name = lines[car]
            ink = self.inks[car]
            end = (round(points[-2]), round(points[-1]))
            box = self._text(name.text, name.size, ink.text, column_x, y, anchor="left")
            if car in keyed:
                self._dot(column_x - fs * 0.3 - 3, first_line(box, name.lines), ink)
            elif end in shared.points:
                ends.setdefault(end, []).append((car, first_line(box, name.lines)))
            else:
                Color(*ink.core)
                Line(points=[points[-2] + 6, points[-1], column_x - fs * 0.3, y], width=1)
            self.name_boxes[car] = box
            self.name_texts[car] = name.text
            self.name_sizes[car] = name.size
        for (end_x, end_y), named in ends.items():
            self._bracket(app, end_x, end_y, named, column_x - fs * 0.3 - 3)

    def _bracket(self, app: Any, x: float, y: float, named: list[tuple[str, float]],
                 key_x: float) -> None:
        """One leader from the point (``x``, ``y``) several lines end at to a bracket that
        joins those cars' names (``(car, the y of its name's first line)``), each name with a
        dot in its line's colours before its first line (:func:`first_line`), centred at
        ``key_x``: six cars level at 0 drew six leaders fanning out from one point across the
        plot, read as lines, and a name in the text's colour said nothing of its car's (found
        by a table test)."""
        ys = [name_y for _car, name_y in named]
        bar = key_x - 9
        Color(*app.c_muted)
        Line(points=[bar, min(ys), bar, max(ys)], width=1)
        # to the bracket as flat as it can run (a rising leader read as a car's line)
        Line(points=[x + SHARED_DOT / 2, y, bar, min(max(y, min(ys)), max(ys))], width=1)
        for car, name_y in named:
            Color(*app.c_muted)
            Line(points=[bar, name_y, key_x - 6, name_y], width=1)
            self._dot(key_x, name_y, self.inks[car])

    @staticmethod
    def _shared_dot(x: float, y: float, inks: list[CarInk], background: Sequence[float]) -> None:
        """The dot of a point several cars' lines pass through, in as many pieces, one in each
        car's colour in drawing order, as a stretch they share is drawn in turn (six cars
        level at 0 drew six rings round each other, a target over the axis; found by a table
        test); cased in the text's colour where one of the colours needs it."""
        casing = next((ink.casing for ink in inks if ink.casing_width > 1),
                      (background[0], background[1], background[2], 1.0))
        Color(*casing)
        outer = SHARED_DOT / 2
        Ellipse(pos=(x - outer, y - outer), size=(2 * outer, 2 * outer))
        inner = outer - 1.5
        step = 360 / len(inks)
        for turn, ink in enumerate(inks):
            Color(*ink.core)
            Ellipse(pos=(x - inner, y - inner), size=(2 * inner, 2 * inner),
                    angle_start=turn * step, angle_end=(turn + 1) * step)

    @staticmethod
    def _dot(x: float, y: float, ink: CarInk) -> None:
        """A car's dot at (``x``, ``y``)."""
        Color(*ink.casing)
        Ellipse(pos=(x - 6, y - 6), size=(12, 12))
        Color(*ink.core)
        Ellipse(pos=(x - 4.5, y - 4.5), size=(9, 9))

    @staticmethod
    def _line(points: list[float], ink: CarInk, car: str, shared: _Shared) -> None:
        """``car``'s line through ``points``; along a stretch other cars' lines run too
        (:func:`_shared`) only its own pieces of every :data:`DASH` px, in turn with theirs
        (the first drawn casing the stretch), so each line stays in sight: two cars level
        on points race after race drew one line, the second car's (found by a table
        test)."""
        if len(points) < 4:  # a Line needs two points
            return
        runs: list[list[float]] = [[]]
        for i in range(0, len(points) - 2, 2):
            x0, y0, x1, y1 = points[i:i + 4]
            along = shared.segments.get(_segment_key(x0, y0, x1, y1), [car])
            if len(along) == 1:
                if not runs[-1]:
                    runs[-1] += [x0, y0]
                runs[-1] += [x1, y1]
                continue
            runs.append([])
            turn = along.index(car)
            if turn == 0:
                Color(*ink.casing)
                Line(points=[x0, y0, x1, y1], width=2 + ink.casing_width)
            Color(*ink.core)
            pieces = max(len(along), round(math.dist((x0, y0), (x1, y1)) / DASH))
            for piece in range(turn, pieces, len(along)):
                a, b = piece / pieces, (piece + 1) / pieces
                Line(points=[x0 + (x1 - x0) * a, y0 + (y1 - y0) * a,
                             x0 + (x1 - x0) * b, y0 + (y1 - y0) * b], width=2)
        for run in runs:
            if len(run) >= 4:
                Color(*ink.casing)
                Line(points=run, width=2 + ink.casing_width)
                Color(*ink.core)
                Line(points=run, width=2)

    def name(self, car: str) -> str:
        return str((self.labels or {}).get(car, car))

    def export_png(self, path: Path, tries: int = 20,
                   done: Callable[[], None] | None = None) -> None:
        """Write the chart to ``path`` once it has been laid out (retried every 50 ms, up to
        ``tries`` times); ``done`` is called after it is written."""
        if self.width < 50 or self.height < 50:
            if tries > 0:
                Clock.schedule_once(lambda _dt: self.export_png(path, tries - 1, done), 0.05)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self.export_to_png(str(path))
        if done is not None:
            done()
