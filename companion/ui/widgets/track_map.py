"""A schematic map of the track drawn with canvas instructions.

The track is a stadium-shaped loop of ``L`` spaces, two spots per space, run anticlockwise from
the finish line at the bottom centre. Drawn: the track band, every space boundary, the Race Line
(per sector, from the track's ``race_line_lane``), each Corner Line with its speed limit, the
finish line, and every car on its space and spot; the car whose turn it is has a ring.

The track (some 150 canvas instructions) is drawn once into an :class:`~kivy.graphics.Fbo` and
shown as a single textured rectangle, redrawn only when the size, track or theme change: every
frame then costs one quad for the track plus the car markers, which keeps a tap's frame short
on software GL (llvmpipe) and cheap on the Pi's GPU.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    Line,
    Mesh,
    Rectangle,
    Translate,
)
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.engine import RaceState, Track

from ..views.names import COLOUR_RGB


def stadium_point(t: float, cx: float, cy: float, rx: float, ry: float) -> tuple[
    float, float, float
]:
    """Point and heading (radians) at fraction ``t`` of a stadium (two straights, two half
    circles), starting at the bottom centre, running anticlockwise (to the right)."""
    r = ry
    straight = max(0.0, 2 * (rx - r))
    total = 2 * straight + 2 * math.pi * r
    s = (t % 1.0) * total
    half = straight / 2
    if s < half:
        return cx + s, cy - r, 0.0
    s -= half
    arc = math.pi * r
    if s < arc:
        a = -math.pi / 2 + s / r
        return cx + half + r * math.cos(a), cy + r * math.sin(a), a + math.pi / 2
    s -= arc
    if s < straight:
        return cx + half - s, cy + r, math.pi
    s -= straight
    if s < arc:
        a = math.pi / 2 + s / r
        return cx - half + r * math.cos(a), cy + r * math.sin(a), a + math.pi / 2
    s -= arc
    return cx - half + s, cy - r, 0.0


def race_line_lane(track: Track, space: int) -> int:
    """Lane (1 = inside, 2 = outside) carrying the Race Line on ``space``."""
    lane = 1
    corners = sorted(track.corners, key=lambda c: c.line_after)
    if corners and corners[-1].race_line_lane:
        lane = corners[-1].race_line_lane
    for corner in corners:
        if corner.line_after < space and corner.race_line_lane:
            lane = corner.race_line_lane
    return lane


class TrackMap(Widget):  # type: ignore[misc]
    state: Any = ObjectProperty(None, allownone=True)
    current = StringProperty("")
    test_name = StringProperty("track map")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, state=self.redraw, current=self.redraw)
        self.marker_positions: dict[str, tuple[float, float]] = {}
        self._static_key: tuple[object, ...] | None = None
        self._fbo: Any = None

    def _geometry(self) -> tuple[float, float, float, float, float]:
        pad = max(10.0, min(self.width, self.height) * 0.08)
        cx, cy = self.center_x, self.center_y
        ry = max(10.0, self.height / 2 - pad)
        rx = max(ry + 1, self.width / 2 - pad)
        band = max(12.0, min(ry * 0.36, 44.0))
        return cx, cy, rx, ry, band

    def _point(self, space_pos: float, lane_offset: float) -> tuple[float, float]:
        """``space_pos`` in spaces from the finish line (fractional), lane offset -1..1 (inside
        to outside) -> canvas coordinates."""
        track: Track = self.state.track
        cx, cy, rx, ry, band = self._geometry()
        x, y, heading = stadium_point(space_pos / track.spaces, cx, cy, rx, ry)
        nx, ny = math.sin(heading), -math.cos(heading)  # outward normal (right of travel)
        off = lane_offset * band / 2
        return x + nx * off, y + ny * off

    def _text(self, text: str, size: float, rgba: Any, cx: float, cy: float) -> None:
        label = CoreLabel(text=text, font_size=size, color=rgba)
        label.refresh()
        texture = label.texture
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size,
                  pos=(cx - texture.width / 2, cy - texture.height / 2))

    def redraw(self, *_args: Any) -> None:
        """Cars on every call; the track itself only when size, track or theme change."""
        self.canvas.clear()
        self.marker_positions = {}
        state: RaceState | None = self.state
        if state is None or self.width < 20 or self.height < 20:
            return
        app = App.get_running_app()
        key = (tuple(self.pos), tuple(self.size), state.track, tuple(app.c_track), app.fs)
        if key != self._static_key:
            self.canvas.before.clear()
            self._fbo = self._render_track(state, app)
            with self.canvas.before:
                Color(1, 1, 1, 1)
                Rectangle(texture=self._fbo.texture, pos=self.pos, size=self._fbo.size)
            self._static_key = key
        self._draw_cars(state, app)

    def _render_track(self, state: RaceState, app: Any) -> Any:
        """The track drawn once into an offscreen texture the size of the widget."""
        size = (max(1, int(math.ceil(self.width))), max(1, int(math.ceil(self.height))))
        fbo = Fbo(size=size, with_stencilbuffer=False)
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            Translate(-self.x, -self.y)
        self._draw_track(state, app, fbo)
        fbo.draw()
        return fbo

    def _draw_track(self, state: RaceState, app: Any, target: Any) -> None:
        track = state.track
        n = track.spaces
        with target:
            # The band, as a strip of quads.
            Color(*app.c_track)
            steps = max(n * 2, 120)
            vertices: list[float] = []
            indices: list[int] = []
            for i in range(steps + 1):
                pos = n * i / steps
                for side in (-1.0, 1.0):
                    x, y = self._point(pos, side)
                    vertices += [x, y, 0, 0]
            for i in range(steps):
                a = 2 * i
                indices += [a, a + 1, a + 2, a + 1, a + 3, a + 2]
            Mesh(vertices=vertices, indices=indices, mode="triangles")
            # Space boundaries.
            Color(*app.c_track_edge)
            for space in range(n):
                x1, y1 = self._point(space, -1)
                x2, y2 = self._point(space, 1)
                Line(points=[x1, y1, x2, y2], width=1)
            # The Race Line, space by space, in its lane.
            Color(0.95, 0.95, 0.95, 0.55)
            for space in range(1, n + 1):
                off = -0.5 if race_line_lane(track, space) == 1 else 0.5
                x1, y1 = self._point(space - 1, off)
                x2, y2 = self._point(space, off)
                Line(points=[x1, y1, x2, y2], width=1.5)
            # Finish line (between space L and 1).
            Color(1, 1, 1, 1)
            x1, y1 = self._point(0, -1.25)
            x2, y2 = self._point(0, 1.25)
            Line(points=[x1, y1, x2, y2], width=3)
            # Corner lines and limits.
            for corner in track.corners:
                Color(*app.c_warn)
                x1, y1 = self._point(corner.line_after, -1.3)
                x2, y2 = self._point(corner.line_after, 1.3)
                Line(points=[x1, y1, x2, y2], width=2.5)
                lx, ly = self._point(corner.line_after, -2.6)
                Color(1, 1, 1, 1)
                self._text(str(corner.limit), app.fs, app.c_warn, lx, ly)

    def _draw_cars(self, state: RaceState, app: Any) -> None:
        track = state.track
        _cx, _cy, _rx, _ry, band = self._geometry()
        with self.canvas:
            radius = max(5.0, band * 0.26)
            for car in state.cars:
                if not car.on_track:
                    continue
                space = track.space_of(car.distance)
                lane = race_line_lane(track, space)
                on_inside = (lane == 1) == car.race_line
                x, y = self._point(space - 0.5, -0.5 if on_inside else 0.5)
                self.marker_positions[car.id] = (x, y)
                if car.id == self.current:
                    Color(*app.c_accent)
                    Line(circle=(x, y, radius + 4), width=2.5)
                Color(*app.c_fg)
                if car.legend:
                    Rectangle(pos=(x - radius - 1, y - radius - 1),
                              size=(2 * radius + 2, 2 * radius + 2))
                    Color(*COLOUR_RGB.get(car.id, (0.5, 0.5, 0.5)), 1)
                    Rectangle(pos=(x - radius + 1, y - radius + 1),
                              size=(2 * radius - 2, 2 * radius - 2))
                else:
                    Ellipse(pos=(x - radius - 1.5, y - radius - 1.5),
                            size=(2 * radius + 3, 2 * radius + 3))
                    Color(*COLOUR_RGB.get(car.id, (0.5, 0.5, 0.5)), 1)
                    Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
