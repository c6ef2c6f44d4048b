"""The map of the track, in the track's own shape, in the words the rulings use.

The shape comes from :mod:`companion.ui.views.track_shapes` (the centre of every space as
measured on the board; a stadium for a track without an outline). Drawn: the track band, every
space boundary, the Race Line in its lane sector by sector (the track's ``race_line_lane``), the
finish line, each Corner Line with its **number** as the rulings say it ("corner 2", a filled
square) and its **speed limit** (a ring, as on a road sign), the **space numbers** every fifth
space and at every corner (as the rulings say "space 23"), and every car on its space and spot:
a disc for a driver, a square for a Legend, a ring around the car whose turn it is and a halo
around the cars the last input moved (``moved``).

The track (a few hundred canvas instructions) is drawn once into an :class:`~kivy.graphics.Fbo`
and shown as one textured rectangle, redrawn only when the size, track or theme change: every
frame then costs one quad plus the car markers, which keeps a tap's frame short on software GL
(llvmpipe) and cheap on the Pi's GPU.
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
    Rectangle,
    Translate,
)
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.engine import RaceState, Track

from ..views.names import COLOUR_RGB
from ..views.track_shapes import MapGeometry, geometry_for
from .measure import READABLE_PX


def corner_label_size(app: Any) -> float:
    """The corners' numbers and limits on the map: readable (:data:`.measure.READABLE_PX`)."""
    return max(READABLE_PX, float(app.fs_small) * 0.95)


SPACE_LABEL_EVERY = 5
"""Space numbers are written on every fifth space (and at every corner)."""


def race_line_lane(track: Track, space: int) -> int:
    """Lane (1 or 2) carrying the Race Line on ``space`` (the sector's ``race_line_lane``)."""
    lane = 1
    corners = sorted(track.corners, key=lambda c: c.line_after)
    if corners and corners[-1].race_line_lane:
        lane = corners[-1].race_line_lane
    for corner in corners:
        if corner.line_after < space and corner.race_line_lane:
            lane = corner.race_line_lane
    return lane


def labelled_spaces(track: Track) -> list[int]:
    """The spaces whose number the map writes: every fifth, and the space before each Corner
    Line (where the rulings' corners are)."""
    marks = set(range(SPACE_LABEL_EVERY, track.spaces + 1, SPACE_LABEL_EVERY))
    marks |= {c.line_after for c in track.corners}
    return sorted(marks)


class TrackMap(Widget):  # type: ignore[misc]
    state: Any = ObjectProperty(None, allownone=True)
    current = StringProperty("")
    moved = ListProperty([])
    """Cars the last input moved (a halo tells the table to place them)."""
    test_name = StringProperty("track map")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from kivy.clock import Clock

        self._trigger = Clock.create_trigger(self.redraw, -1)  # once, before the next frame
        self.bind(pos=self._trigger, size=self._trigger, state=self._trigger,
                  current=self._trigger, moved=self._trigger)
        self.marker_positions: dict[str, tuple[float, float]] = {}
        self.corner_labels: dict[int, tuple[float, float]] = {}
        """Corner number -> where its badge is (for the tests)."""
        self.space_labels: dict[int, tuple[float, float]] = {}
        self.geometry: MapGeometry | None = None
        self._static_key: tuple[object, ...] | None = None
        self._cars_key: tuple[object, ...] | None = None
        self._fbo: Any = None
        self.texts: list[tuple[str, float]] = []
        """Every text drawn on the track (corner numbers and limits, space numbers) and its
        size in px (the tests check it is readable)."""

    def _fit(self, track: Track) -> MapGeometry:
        app = App.get_running_app()
        # room outside the track for the corners' numbers and limits (drawn outside the loop)
        margin = max(8.0, min(self.width, self.height) * 0.09, corner_label_size(app) * 2.0)
        return geometry_for(track.id, track.spaces, self.x, self.y, self.width, self.height,
                            margin)

    def _text(self, text: str, size: float, rgba: Any, cx: float, cy: float,
              bold: bool = False) -> tuple[float, float]:
        self.texts.append((text, size))
        label = CoreLabel(text=text, font_size=size, color=rgba, bold=bold)
        label.refresh()
        texture = label.texture
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size,
                  pos=(round(cx - texture.width / 2), round(cy - texture.height / 2)))
        return texture.size  # type: ignore[no-any-return]

    def redraw(self, *_args: Any) -> None:
        """The cars when where they stand, the car to play or the cars moved changed (not on
        every input: a gear chosen moves no car); the track itself only when size, track or
        theme change."""
        state: RaceState | None = self.state
        if state is None or self.width < 20 or self.height < 20:
            self.canvas.clear()
            self.marker_positions = {}
            self._cars_key = None
            return
        app = App.get_running_app()
        key = (tuple(self.pos), tuple(self.size), state.track, app.theme_name, app.fs)
        cars_key = (key, tuple((c.id, c.on_track, c.distance, c.race_line) for c in state.cars),
                    tuple(self.moved), self.current)
        if cars_key == self._cars_key:
            return
        self._cars_key = cars_key
        self.canvas.clear()
        self.marker_positions = {}
        if key != self._static_key:
            self.geometry = self._fit(state.track)
            self.canvas.before.clear()
            self.texts = []
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
        self._draw_track(state.track, app, fbo)
        fbo.draw()
        return fbo

    def _band(self, geometry: MapGeometry, app: Any) -> None:
        """The track: a thick closed line along the smooth centre line."""
        path = geometry.path(4)
        Color(*app.c_track)
        Line(points=[v for point in path for v in point], width=geometry.band / 2, close=True,
             joint="round", cap="none")

    def _draw_track(self, track: Track, app: Any, target: Any) -> None:
        geometry = self.geometry
        assert geometry is not None
        band = geometry.band
        with target:
            self._band(geometry, app)
            # Space boundaries, across the band.
            Color(*app.c_track_edge)
            for space in range(1, track.spaces + 1):
                (x, y), (nx, ny) = geometry.line_after(space)
                Line(points=[x - nx * band / 2, y - ny * band / 2,
                             x + nx * band / 2, y + ny * band / 2], width=1)
            # The Race Line in its lane, one polyline per sector.
            Color(0.95, 0.95, 0.95, 0.7)
            points: list[float] = []
            for space in range(1, track.spaces + 2):
                points += geometry.spot(space, race_line_lane(track, space))
            Line(points=points)
            # The finish line (after the last space), chequered white.
            (x, y), (nx, ny) = geometry.line_after(track.spaces)
            Color(1, 1, 1, 1)
            Line(points=[x - nx * band * 0.7, y - ny * band * 0.7,
                         x + nx * band * 0.7, y + ny * band * 0.7], width=2.5)
            taken: list[tuple[tuple[float, float], float]] = []
            self._corners(track, geometry, app, taken)
            self._space_numbers(track, geometry, app, taken)

    def _corners(self, track: Track, geometry: MapGeometry, app: Any,
                 taken: list[tuple[tuple[float, float], float]]) -> None:
        """Each Corner Line across the track, its number in a filled square and its limit in
        a ring beside it, outside the loop when there is room."""
        band = geometry.band
        size = corner_label_size(app)
        self.corner_labels = {}
        for number, corner in enumerate(track.corners, start=1):
            (x, y), (nx, ny) = geometry.line_after(corner.line_after)
            Color(*app.c_warn)
            Line(points=[x - nx * band * 0.75, y - ny * band * 0.75,
                         x + nx * band * 0.75, y + ny * band * 0.75], width=2.2)
            cx, cy = geometry.label_at(corner.line_after + 0.5, size * 1.25, taken,
                                       prefer_inside=False)
            self.corner_labels[number] = (cx, cy)
            box = size * 1.15
            # The corner's number (as the rulings say it): a filled square.
            Color(*app.c_accent)
            Rectangle(pos=(cx - box - 1, cy - box / 2), size=(box, box))
            self._text(str(number), size, app.c_accent_fg, cx - box / 2 - 1, cy, bold=True)
            # Its speed limit: a ring, as on a road sign.
            Color(*app.c_bg)
            Ellipse(pos=(cx + 1, cy - box / 2), size=(box, box))
            Color(*app.c_warn)
            Line(circle=(cx + 1 + box / 2, cy, box / 2), width=1.6)
            self._text(str(corner.limit), size, app.c_fg, cx + 1 + box / 2, cy,
                       bold=True)

    def _space_numbers(self, track: Track, geometry: MapGeometry, app: Any,
                       taken: list[tuple[tuple[float, float], float]]) -> None:
        size = max(READABLE_PX, app.fs_small * 0.9)
        self.space_labels = {}
        for space in labelled_spaces(track):
            cx, cy = geometry.label_at(space, size * 0.75, taken, prefer_inside=True)
            self.space_labels[space] = (cx, cy)
            self._text(str(space), size, app.c_muted, cx, cy)

    def _draw_cars(self, state: RaceState, app: Any) -> None:
        track = state.track
        geometry = self.geometry
        assert geometry is not None
        with self.canvas:
            radius = max(4.5, min(geometry.band * 0.42, 9.0))
            for car in state.cars:
                if not car.on_track:
                    continue
                space = track.space_of(car.distance)
                lane = race_line_lane(track, space)
                if not car.race_line:
                    lane = 3 - lane
                x, y = geometry.spot(space, lane)
                self.marker_positions[car.id] = (x, y)
                if car.id in self.moved:
                    Color(*app.c_accent[:3], 0.45)
                    Ellipse(pos=(x - radius - 5, y - radius - 5),
                            size=(2 * radius + 10, 2 * radius + 10))
                if car.id == self.current:
                    Color(*app.c_accent)
                    Line(circle=(x, y, radius + 4), width=2.2)
                Color(*app.c_fg)
                colour = (*COLOUR_RGB.get(car.id, (0.5, 0.5, 0.5)), 1)
                if car.legend:
                    Rectangle(pos=(x - radius - 1, y - radius - 1),
                              size=(2 * radius + 2, 2 * radius + 2))
                    Color(*colour)
                    Rectangle(pos=(x - radius + 1, y - radius + 1),
                              size=(2 * radius - 2, 2 * radius - 2))
                else:
                    Ellipse(pos=(x - radius - 1.5, y - radius - 1.5),
                            size=(2 * radius + 3, 2 * radius + 3))
                    Color(*colour)
                    Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
