"""The points-by-race chart of a season: every car's total after each race."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty

from companion.i18n import _

from .line_chart import NAMES_GAP, LineChart


class PointsChartView(LineChart):
    series: Any = ObjectProperty(None, allownone=True)
    """Car id -> its points total after race 0 (0), 1, 2…"""
    races: Any = ObjectProperty(0)
    """Races in the season (the x axis runs to the last one)."""
    test_name = StringProperty("points chart")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw, labels=self.redraw)

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
            names = self.fitted_names(app, {
                car: lambda name, points=totals[-1]: _("{car}: {points}").format(
                    car=name, points=points) for car, totals in series.items()},
                bottom - fs * 0.5, top + fs * 0.5)
            left = self.x + fs * 2.6
            right = self.right - self.names_width(app, list(names.values()))

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
            self._car_lines(app, lines, right + fs * NAMES_GAP, bottom - fs * 0.5, top + fs * 0.5)
