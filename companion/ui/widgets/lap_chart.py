"""The lap chart: every car's position after every round."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line
from kivy.properties import ObjectProperty, StringProperty

from companion.i18n import _

from .line_chart import LineChart


class LapChartView(LineChart):
    chart: Any = ObjectProperty(None, allownone=True)
    """A :class:`~companion.ui.views.results.LapChart`."""
    test_name = StringProperty("lap chart")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, chart=self.redraw, labels=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        app = App.get_running_app()
        with self.canvas:
            self._background(app)
            chart = self.chart
            if chart is None or not chart.cars:
                return
            fs = app.fs_small
            cars = len(chart.cars)
            rounds = max(1, chart.rounds)
            left = self.x + fs * 2.2
            right = self.right - fs * 7.5
            top = self.top - fs * 1.8
            bottom = self.y + fs * 2.2
            self._text(_("Lap chart: position after each round"), fs, app.c_fg,
                       self.center_x, self.top - fs * 0.9)

            def xy(round_no: int, position: int) -> tuple[float, float]:
                x = left + (right - left) * round_no / rounds
                y = top - (top - bottom) * (position - 1) / max(1, cars - 1)
                return x, y

            Color(*app.c_muted)
            for position in range(1, cars + 1):
                x0, y = xy(0, position)
                x1, _y = xy(rounds, position)
                Line(points=[x0, y, x1, y], width=1, dash_length=4, dash_offset=4)
                self._text(str(position), fs, app.c_muted, left - fs * 1.1, y)
            step = max(1, rounds // 10)
            for round_no in range(0, rounds + 1, step):
                x, _y = xy(round_no, cars)
                self._text(str(round_no), fs, app.c_muted, x, bottom - fs * 1.1)
            for car in chart.cars:
                points: list[float] = []
                for round_no, position in enumerate(chart.positions[car]):
                    points += xy(round_no, position)
                self._car_line(app, car, points, self.name(car))
