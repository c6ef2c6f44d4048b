"""The lap chart: every car's position after every round, drawn on an opaque background so
``export_to_png`` gives a picture that reads in any viewer."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.i18n import _

from .words import COLOUR_RGB


class LapChartView(Widget):  # type: ignore[misc]
    chart: Any = ObjectProperty(None, allownone=True)
    """A :class:`~companion.ui.results_model.LapChart`."""
    labels: Any = ObjectProperty(None, allownone=True)
    """Car id -> the name to print at the end of its line."""
    test_name = StringProperty("lap chart")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, chart=self.redraw, labels=self.redraw)

    def _text(self, text: str, size: float, rgba: Any, x: float, y: float,
              anchor: str = "center") -> None:
        label = CoreLabel(text=text, font_size=size, color=rgba)
        label.refresh()
        texture = label.texture
        left = x - texture.width / 2 if anchor == "center" else (
            x if anchor == "left" else x - texture.width)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size, pos=(left, y - texture.height / 2))

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        app = App.get_running_app()
        with self.canvas:
            Color(*app.c_panel)
            Rectangle(pos=self.pos, size=self.size)
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
                rgb = COLOUR_RGB.get(car, (0.5, 0.5, 0.5))
                points: list[float] = []
                for round_no, position in enumerate(chart.positions[car]):
                    points += xy(round_no, position)
                Color(*app.c_fg)
                Line(points=points, width=4.5)
                Color(*rgb, 1)
                Line(points=points, width=3)
                for i in range(0, len(points), 2):
                    Ellipse(pos=(points[i] - 5, points[i + 1] - 5), size=(10, 10))
                name = (self.labels or {}).get(car, car)
                self._text(name, fs, (*rgb, 1) if car not in ("black",) else app.c_fg,
                           points[-2] + fs * 0.6, points[-1], anchor="left")
