"""The lap chart: every car's position after every round (an eliminated car's until it left)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty

from companion.i18n import _

from .chart_names import FittedName
from .line_chart import NAMES_GAP, LineChart


def out_label(name: str) -> str:
    """What the chart writes at the end of an eliminated car's line (the line ends at the last
    round the car completed: it has no position after it, docs/rules.md §3.3)."""
    return _("{car} (out)").format(car=name)


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
            fs = app.fs_small
            self._text(_("Position after each round"), fs, app.c_fg, self.center_x,
                       self.top - fs * 0.9)
            if chart is None or not chart.cars:
                return
            cars = len(chart.cars)
            rounds = max(1, chart.rounds)
            top = self.top - fs * 2.2
            bottom = self.y + fs * 2.4
            # every name whole with its mark: smaller down to the floor, else on two lines
            # (the second more than the name's last letter: "歐陽娜娜司馬長風上官婉" / "兒
            # （淘汰）" read badly, and cut on one line, "歐陽娜娜司馬長風上…（淘汰）", it did
            # not read at all; both found by a table test), as the points chart's names
            names = self.fitted_names(app, {car: out_label if car in chart.out else str
                                            for car in chart.cars},
                                      bottom - fs * 0.5, top + fs * 0.5)
            left = self.x + fs * 2.2
            right = self.right - self.names_width(app, list(names.values()))

            def xy(round_no: int, position: int) -> tuple[float, float]:
                x = left + (right - left) * round_no / rounds
                y = top - (top - bottom) * (position - 1) / max(1, cars - 1)
                return x, y

            for position in range(1, cars + 1):
                x0, y = xy(0, position)
                x1, _y = xy(rounds, position)
                self._gridline(app, x0, x1, y)
                self._text(str(position), fs, app.c_muted, left - fs * 1.1, y)
            self._x_numbers(app, rounds, left, right, bottom - fs * 1.2)
            lines: dict[str, tuple[list[float], FittedName]] = {}
            for car in chart.cars:
                points: list[float] = []
                for round_no, position in enumerate(chart.positions[car]):
                    points += xy(round_no, position)
                lines[car] = (points, names[car])
            # a car out of the race: its name at its place in the results, in the rows no
            # line reaches at the last round (the cars out come last), with no leader
            # across the lines of the cars that raced on (found by a table test); but the
            # last car out when every car went out, whose line reaches the last round as
            # a finisher's does, is joined to its name as one is: its name's dot sat
            # beside its line's last dot ("●●", found by a table test)
            keyed = {car: xy(rounds, chart.cars.index(car) + 1)[1] for car in chart.out
                     if len(chart.positions[car]) - 1 < rounds}
            self._car_lines(app, lines, right + fs * NAMES_GAP, bottom - fs * 0.5,
                            top + fs * 0.5, keyed)
