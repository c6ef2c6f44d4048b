"""The map of the track, in the track's own shape, in the words the rulings use.

The shape comes from :mod:`companion.ui.views.track_shapes` (the centre of every space as
measured on the board; a stadium for a track without an outline). Drawn: the track band, every
space boundary, the Race Line in its lane sector by sector (the track's ``race_line_lane``), the
finish line, each Corner Line with its **number** as the rulings say it ("corner 2", a filled
square: orange, a Press Corner's in the text's colour) and its **speed limit** (a ring, as on a
road sign: the drivers' limit in force, on a filled ring where a road token changes it), the
**space numbers** at every corner and every fifth space (as the rulings say "space 23"), and
every car on its space and spot: a disc for a driver, a square for a Legend,
a ring around the car whose turn it is and a halo around the cars the last input moved
(``moved``). Where the markers and numbers go is
:func:`companion.ui.views.map_labels.plan_labels`'s: clear of the track and of each other, a
number with no room beside its space a little further off, joined to it by a thin leader of
the numbers' colour (a corner marker's is dashed, in the ring's colour), else left out rather
than drawn over something. A car is drawn bigger than its lane (to be seen from across the
table) and may reach over the words beside its spot: a word a car overlaps is drawn again
over the cars (a number on a backing of the map's colour, a corner's marker whole), so the
space a car stands on keeps its number in sight. The words themselves, rendered, placed and
drawn, are :mod:`.map_words`'s.

The track (a few hundred canvas instructions) is drawn once into an :class:`~kivy.graphics.Fbo`
and shown as one textured rectangle, redrawn only when the size, track, theme or text size
change (at once, not at the next tap); the words' places are kept per track, size and text
size, so a theme change does not work them out again. Every frame then costs one quad plus the
car markers, which keeps a tap's frame short on software GL (llvmpipe) and cheap on the Pi's
GPU (``bench/map.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.app import App
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    Line,
    Quad,
    Rectangle,
    Translate,
)
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.widget import Widget

from companion.engine import RaceState, Track, corner_limit

from ..views.map_clearance import Box
from ..views.map_labels import Plan, fitted_plan
from ..views.map_spots import (
    BAND_STEPS,
    CORNER_LINE,
    CORNER_LINE_WIDTH,
    FINISH_LINE,
    FINISH_LINE_WIDTH,
)
from ..views.names import COLOUR_RGB
from ..views.track_shapes import MapGeometry, geometry_for
from .car_marks import HALO, RING_GAP, TURN_RING_WIDTH, CarMarks, CarSpot
from .map_words import (  # noqa: F401 - labelled_spaces: the map's words, as the tests read them
    DrawnWords,
    Words,
    corner_label_size,
    labelled_spaces,
    zoom_badge_box,
)


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


WATER_RGB = (0.22, 0.5, 0.92)
"""Flooded spaces are the band mixed with this blue (the board paints them as water) ..."""
WATER_SHARE = 0.75
TUNNEL_SHADE = 0.5
"""... tunnel spaces the band this much darker (the board draws the tunnels' roofs). Both
opaque: a translucent fill in the track's texture would let the window show through."""

MAX_WAITS = 6
"""Passes of the before-frame triggers the track's drawing waits at most for the layouts above
the map (:meth:`TrackMap._size_unsettled`)."""


class TrackMap(Widget):  # type: ignore[misc]
    state: Any = ObjectProperty(None, allownone=True)
    current = StringProperty("")
    moved = ListProperty([])
    """Cars the last input moved (a halo tells the table to place them)."""
    test_name = StringProperty("track map")
    zoom_badge = BooleanProperty(False)
    """Draw a magnifier in the top left corner: a tap opens the map larger
    (:attr:`on_tap`)."""
    text_scale = NumericProperty(1.0)
    """The words and cars drawn this many times their size on the race screen (the map over
    the whole window draws them larger: :mod:`.map_zoom`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from kivy.clock import Clock

        self._trigger = Clock.create_trigger(self.redraw, -1)  # once, before the next frame
        self.bind(pos=self._trigger, size=self._trigger, state=self._trigger,
                  current=self._trigger, moved=self._trigger, text_scale=self._trigger,
                  zoom_badge=self._trigger)
        app = App.get_running_app()
        if app is not None:  # a new theme or text size redraws the track at once
            app.bind(theme_name=self._restyle, fs=self._restyle)
        self.on_tap: Callable[[], None] | None = None
        """Called on a tap on the map (a touch that starts and ends on it)."""
        self.marker_positions: dict[str, tuple[float, float]] = {}
        self.geometry: MapGeometry | None = None
        self.special: dict[str, list[int]] = {}
        """The spaces drawn apart at the last drawing of the track: ``flooded``, ``tunnel``."""
        self.press: list[int] = []
        """The corners (numbered as the rulings say them) drawn as Press Corners."""
        self.limits: list[tuple[int, bool]] = []
        """Each corner's limit as drawn and whether its ring is filled (a road token's)."""
        self._static_key: tuple[object, ...] | None = None
        self._cars_key: tuple[object, ...] | None = None
        self._waited = 0
        """Passes of the before-frame triggers the track's drawing has waited for a layout
        above the map (:meth:`_size_unsettled`)."""
        self._fbo: Any = None
        self._cars = CarMarks(self.canvas)
        self.words_over_cars: list[str] = []
        """The words drawn again over the cars at the last redraw (``space 5``, ``corner 2``;
        for the tests)."""
        self.words = DrawnWords()
        """The words of the track as last drawn: their texts, places and how to draw each
        again over the cars (:class:`.map_words.DrawnWords`)."""

    @property
    def texts(self) -> list[tuple[str, float]]:
        """Every text drawn on the track and its size in px."""
        return self.words.texts

    @property
    def corner_labels(self) -> dict[int, tuple[float, float]]:
        """Corner number -> where its badge is."""
        return self.words.corner_labels

    @property
    def space_labels(self) -> dict[int, tuple[float, float]]:
        """Space -> the middle of its number, for the spaces whose number is drawn."""
        return self.words.space_labels

    @property
    def spaces_left_out(self) -> list[int]:
        """Spaces whose number found no clear spot (left out rather than drawn over)."""
        return self.words.spaces_left_out

    def _restyle(self, *_args: Any) -> None:
        self._trigger()

    def _fit(self, track: Track, margin_times: float = 1.0,
             size: tuple[float, float] | None = None) -> MapGeometry:
        """``track`` fitted into the map (or into a map of ``size``)."""
        app = App.get_running_app()
        width, height = size if size is not None else (self.width, self.height)
        # room outside the track for the corners' numbers and limits (drawn outside the loop)
        margin = max(8.0, min(width, height) * 0.09,
                     corner_label_size(app) * self.text_scale * 2.0)
        return geometry_for(track.id, track.spaces, self.x, self.y, width, height,
                            margin * margin_times)

    def band_at(self, track: Track, width: float, height: float) -> float:
        """How wide ``track``'s band would be drawn in a map of ``width`` x ``height``: its
        scale, to compare sizes of the map by."""
        return self._fit(track, size=(width, height)).band

    def redraw(self, *_args: Any) -> None:
        """The cars when where they stand, the car to play or the cars moved changed (not on
        every input: a gear chosen moves no car); the track itself only when size, track or
        theme change."""
        state: RaceState | None = self.state
        if state is None or self.width < 20 or self.height < 20:
            self._cars.clear()
            self.marker_positions = {}
            self._cars_key = None
            return
        app = App.get_running_app()
        press = frozenset(state.modules.press_corners)
        limits = tuple(corner_limit(state, corner) for corner in state.track.corners)
        key = (tuple(self.pos), tuple(self.size), state.track, press, limits, app.theme_name,
               app.fs, self.text_scale, self.zoom_badge)
        cars_key = (key, tuple((c.id, c.on_track, c.distance, c.race_line) for c in state.cars),
                    tuple(self.moved), self.current)
        if cars_key == self._cars_key:
            return
        if key != self._static_key and self._size_unsettled():
            self._trigger()  # after those layouts, in this frame: the size they give the map
            return
        self._waited = 0
        self._cars_key = cars_key
        self.marker_positions = {}
        if key != self._static_key:
            words = Words(state.track, app, self, press, limits)
            self.press = [m.number for m in words.markers if m.press]
            self.limits = [(m.limit, m.changed) for m in words.markers]
            self.geometry, plan = fitted_plan(partial(self._fit, state.track),
                                              partial(words.plan, self))
            self.canvas.before.clear()
            self.words = DrawnWords()
            self._fbo = self._render_track(state, words, plan, app)
            with self.canvas.before:
                Color(1, 1, 1, 1)
                Rectangle(texture=self._fbo.texture, pos=self.pos, size=self._fbo.size)
                if self.zoom_badge:  # over the track's texture (its words keep clear of it)
                    self._magnifier(zoom_badge_box(self.x, self.top, app), app)
            self._static_key = key
        self._draw_cars(state, app)

    def _size_unsettled(self) -> bool:
        """A layout above the map is due before this frame is drawn: it may give the map
        another size, so the track (and the words' places, worked out per size: up to seconds
        for a size the text does not fit) waits for it, drawn once at the size it settles on.
        When the window grows, the text grows first (the app's font size follows the window
        at once) and the map's boxes take their new sizes one layout pass after another:
        drawn at each, España's words were placed three times going from 800x480 to
        1366x768: 2.0 s and 1.7 s in the two maps on the way, too small for the new text,
        0.12 s in the last. Waits at most :data:`MAX_WAITS` passes (Kivy runs 10 before a
        frame)."""
        if self._waited >= MAX_WAITS or self.parent is None:
            return False
        from kivy.clock import Clock

        above = set()
        widget = self.parent
        while widget is not None and id(widget) not in above:
            above.add(id(widget))
            widget = widget.parent
        for event in Clock.get_before_frame_events():
            owner = getattr(event.get_callback(), "__self__", None)
            if owner is not None and id(owner) in above:
                self._waited += 1
                return True
        return False

    def _render_track(self, state: RaceState, words: Words, plan: Plan, app: Any) -> Any:
        """The track drawn once into an offscreen texture the size of the widget, its words
        where ``plan`` puts them."""
        size = (max(1, int(math.ceil(self.width))), max(1, int(math.ceil(self.height))))
        fbo = Fbo(size=size, with_stencilbuffer=False)
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            Translate(-self.x, -self.y)
        self._draw_track(state.track, words, plan, app, fbo)
        fbo.draw()
        return fbo

    def _band(self, geometry: MapGeometry, app: Any) -> None:
        """The track: a thick closed line along the smooth centre line."""
        path = geometry.path(BAND_STEPS)
        Color(*app.c_track)
        Line(points=[v for point in path for v in point], width=geometry.band / 2, close=True,
             joint="round", cap="none")

    def _special_spaces(self, track: Track, geometry: MapGeometry) -> None:
        """The spaces the rules treat apart, as the board shows them: flooded spaces (Japan:
        a shift down there costs Heat) in water's blue, tunnels (España) darker, each space
        filled between its boundaries across the band (a quad: not a line, which words and
        leaders keep clear of). :attr:`special` lists them."""
        self.special = {"flooded": sorted(track.flooded), "tunnel": sorted(track.tunnels)}
        half = geometry.band / 2
        band = App.get_running_app().c_track[:3]
        water = [w * WATER_SHARE + b * (1 - WATER_SHARE) for w, b in zip(WATER_RGB, band,
                                                                          strict=True)]
        tunnel = [b * TUNNEL_SHADE for b in band]
        for kind, colour in (("tunnel", tunnel), ("flooded", water)):
            Color(*colour, 1.0)
            for space in self.special[kind]:
                (ax, ay), (anx, any_) = geometry.line_after(space - 1)
                (bx, by), (bnx, bny) = geometry.line_after(space)
                Quad(points=[ax - anx * half, ay - any_ * half, ax + anx * half,
                             ay + any_ * half, bx + bnx * half, by + bny * half,
                             bx - bnx * half, by - bny * half])

    def _draw_track(self, track: Track, words: Words, plan: Plan, app: Any,
                    target: Any) -> None:
        geometry = self.geometry
        assert geometry is not None
        band = geometry.band
        with target:
            self._band(geometry, app)
            self._special_spaces(track, geometry)
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
            reach = band * FINISH_LINE
            Line(points=[x - nx * reach, y - ny * reach, x + nx * reach, y + ny * reach],
                 width=FINISH_LINE_WIDTH)
            # Each Corner Line across the track.
            Color(*app.c_warn)
            reach = band * CORNER_LINE
            for corner in track.corners:
                (x, y), (nx, ny) = geometry.line_after(corner.line_after)
                Line(points=[x - nx * reach, y - ny * reach, x + nx * reach, y + ny * reach],
                     width=CORNER_LINE_WIDTH)
            self.words.draw(words, plan, app)

    def _magnifier(self, box: tuple[float, float, float, float], app: Any) -> None:
        """A magnifying glass in ``box``: the map opens larger on a tap."""
        left, bottom, right, top = box
        size = right - left
        radius = size * 0.3
        cx, cy = left + radius + 2, top - radius - 2
        Color(*app.c_accent)
        Line(circle=(cx, cy, radius), width=1.6)
        reach = radius * 0.55
        Line(points=[cx - reach, cy, cx + reach, cy], width=1.3)
        Line(points=[cx, cy - reach, cx, cy + reach], width=1.3)
        edge = radius * math.sqrt(0.5) + 1.5
        Line(points=[cx + edge, cy - edge, right - 2, bottom + 2], width=2.4, cap="round")

    def on_touch_down(self, touch: Any) -> bool:
        if self.on_tap is not None and self.collide_point(*touch.pos):
            touch.ud[self._touch_key] = True
            return True
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.ud.get(self._touch_key) and self.collide_point(*touch.pos):
            if self.on_tap is not None:
                self.on_tap()
            return True
        return bool(super().on_touch_up(touch))

    @property
    def _touch_key(self) -> str:
        return f"track map {id(self)}"

    def _draw_cars(self, state: RaceState, app: Any) -> None:
        """Every car on its spot (:class:`.car_marks.CarMarks`: moved in place), then the words
        a car reaches drawn again over the cars."""
        track = state.track
        geometry = self.geometry
        assert geometry is not None
        self.words_over_cars = []
        reaches: list[Box] = []
        spots = []
        radius = max(4.5, min(geometry.band * 0.42, 9.0 * self.text_scale))
        shared = Counter(track.space_of(c.distance) for c in state.cars if c.on_track)
        for car in state.cars:
            colour = (*COLOUR_RGB.get(car.id, (0.5, 0.5, 0.5)), 1.0)
            if not car.on_track:
                spots.append(CarSpot(car.id, car.legend, False, 0.0, 0.0, False, False, colour))
                continue
            space = track.space_of(car.distance)
            lane = race_line_lane(track, space)
            if not car.race_line:
                lane = 3 - lane
            x, y = geometry.spot(space, lane)
            if shared[space] > 1:  # two cars on one space: drawn bigger than their lanes, the
                # one on the Race Line (ahead in the race order) a little forward along the
                # track and the other a little back, so each shows its colour
                dx, dy = geometry.direction(space)
                step = radius * SHARED_STEP * (1.0 if car.race_line else -1.0)
                x, y = x + dx * step, y + dy * step
            self.marker_positions[car.id] = (x, y)
            moved, current = car.id in self.moved, car.id == self.current
            reach = radius + 1.5
            if moved:
                reach = radius + HALO
            if current:
                reach = max(reach, radius + RING_GAP + TURN_RING_WIDTH)
            reaches.append((x - reach, y - reach, x + reach, y + reach))
            spots.append(CarSpot(car.id, car.legend, True, x, y, moved, current, colour))
        again = []
        for box, name, draw in self.words.drawn:
            if any(_overlap(box, car) for car in reaches):
                again.append(partial(draw, app))
                self.words_over_cars.append(name)
        self._cars.place(spots, radius, self._static_key or (), app.c_accent, app.c_fg, again)


SHARED_STEP = 0.6
"""Two cars on one space stand this many car radii forward and back along the track."""


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
