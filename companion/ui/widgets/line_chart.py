"""What the lap chart and the points chart share: one line per car in its colour, outlined,
a dot at every point and the car's name at its end, drawn on an opaque background so
``export_to_png`` gives a picture that reads in any viewer; and the PNG written once the chart
has been laid out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ObjectProperty
from kivy.uix.widget import Widget

from ..views.names import COLOUR_RGB

GREY = (0.5, 0.5, 0.5)
"""The marker colour of a car id that is not one of the six colours."""


class LineChart(Widget):  # type: ignore[misc]
    labels: Any = ObjectProperty(None, allownone=True)
    """Car id -> the name to print at the end of its line."""

    def _text(self, text: str, size: float, rgba: Any, x: float, y: float,
              anchor: str = "center") -> None:
        label = CoreLabel(text=text, font_size=size, color=rgba)
        label.refresh()
        texture = label.texture
        left = x - texture.width / 2 if anchor == "center" else (
            x if anchor == "left" else x - texture.width)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size, pos=(left, y - texture.height / 2))

    def _background(self, app: Any) -> None:
        Color(*app.c_panel)
        Rectangle(pos=self.pos, size=self.size)

    def _car_line(self, app: Any, car: str, points: list[float], label: str) -> None:
        """``car``'s line through ``points`` (x, y, x, y...), ``label`` after its last point."""
        rgb = COLOUR_RGB.get(car, GREY)
        fs = app.fs_small
        Color(*app.c_fg)
        if len(points) >= 4:  # a Line needs two points
            Line(points=points, width=4.5)
        Color(*rgb, 1)
        if len(points) >= 4:
            Line(points=points, width=3)
        for i in range(0, len(points), 2):
            Ellipse(pos=(points[i] - 5, points[i + 1] - 5), size=(10, 10))
        self._text(label, fs, (*rgb, 1) if car != "black" else app.c_fg,
                   points[-2] + fs * 0.6, points[-1], anchor="left")

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
