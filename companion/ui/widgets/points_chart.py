"""The points-by-race chart of a season: every car's total after each race."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty

from companion.i18n import _

from .line_chart import KEYS_GAP, NAMES_GAP, NAMES_MARGIN, NAMES_SHARE, LineChart
from .text_fit import FIT

Y_AXIS = 2.6
"""Left of the plot: the points' numbers, in the chart's text sizes."""
RACE_PX = 20.0
"""The least room a race takes on the plot: a dot (12 px) and a gap most of one as wide (a
twelve-race season had 11 px a race, at 800x480, its lines and dots crowded together)."""

WIDEST_NAMES = 0.65
"""The most of the chart's width its names take where a name would otherwise be broken."""


def name_label(name: str, points: int) -> str:
    """What the chart writes at the end of a car's line: its name and its points."""
    return _("{car}: {points}").format(car=name, points=points)


def ends_level(totals: Iterable[int]) -> bool:
    """Two cars or more end on the same points (``totals``: each car's last): their names are
    joined by a bracket, the wider gap before the names (:data:`~.line_chart.KEYS_GAP`)."""
    last = list(totals)
    return len(set(last)) < len(last)


def least_width(races: int, labels: list[str], size: float, level: bool = False) -> float:
    """The least width of a points chart of ``races`` races, its names' ``labels`` at text
    ``size``: the points' numbers, :data:`RACE_PX` a race, then the names' column (the
    widest label on one line, or :data:`~.line_chart.NAMES_SHARE` of the chart where the
    names are written on two lines instead), after the gap the chart draws before it: the
    wider one where cars end ``level`` (:func:`ends_level`; it was not counted, and the
    plot drawn a text size narrower than its races need)."""
    plot = size * Y_AXIS + max(1, races) * RACE_PX
    gap = NAMES_GAP + (KEYS_GAP if level else 0.0)
    one_line = max((FIT.width(label, size) for label in labels), default=0.0) + size * (
        gap + NAMES_MARGIN)
    return float(min(plot + one_line, plot / (1 - NAMES_SHARE)))


class PointsChartView(LineChart):
    series: Any = ObjectProperty(None, allownone=True)
    """Car id -> its points total after race 0 (0), 1, 2…"""
    races: Any = ObjectProperty(0)
    """Races in the season (the x axis runs to the last one)."""
    test_name = StringProperty("points chart")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw, labels=self.redraw)

    def widest_names_share(self, app: Any) -> float:
        """Where a name would be broken or cut, the names take what the plot does not need
        (its numbers and :data:`RACE_PX` a race), up to :data:`WIDEST_NAMES`: a 12-letter
        Chinese or Korean name whole on its line ("김수한무거북이와두루" / "미삼: 11" at 800x480,
        found by a table test)."""
        races = max(1, int(self.races or 1))
        plot = app.fs_small * Y_AXIS + races * RACE_PX
        return max(NAMES_SHARE, min(WIDEST_NAMES, 1 - plot / max(1.0, self.width)))

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        app = App.get_running_app()
        with self.canvas:
            self._background(app)
            series = self.series or {}
            fs = app.fs_small
            self._text(_("Points after each race"), fs, app.c_fg, self.center_x,
                       self.top - fs * 0.9)
            if not series:
                return
            races = max(1, int(self.races or 1))
            top_points = max(1, max(max(v) for v in series.values()))
            top, bottom = self.top - fs * 2.6, self.y + fs * 2.4
            # cars level on points at the last race: their names joined by a bracket
            level = ends_level(totals[-1] for totals in series.values())
            names = self.fitted_names(app, {
                car: lambda name, points=totals[-1]: name_label(name, points)
                for car, totals in series.items()}, bottom - fs * 0.5, top + fs * 0.5,
                keys=level)
            left = self.x + fs * Y_AXIS
            right = self.right - self.names_width(app, list(names.values()), level)

            def xy(race: int, points: int) -> tuple[float, float]:
                return (left + (right - left) * race / races,
                        bottom + (top - bottom) * points / top_points)

            step = max(1, top_points // 5)
            for points in range(0, top_points + 1, step):
                x0, y = xy(0, points)
                x1, _y = xy(races, points)
                self._gridline(app, x0, x1, y)
                self._text(str(points), fs, app.c_muted, left - fs * 1.2, y)
            self._x_numbers(app, races, left, right, bottom - fs * 1.2)
            lines = {car: ([c for race, points in enumerate(totals)
                            for c in xy(race, points)], names[car])
                     for car, totals in series.items()}
            self._car_lines(app, lines, right + self.names_gap(app, level), bottom - fs * 0.5,
                            top + fs * 0.5)
