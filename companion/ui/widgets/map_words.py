"""The words on the track map: each corner's marker (its number in a filled square, its
speed limit in a ring: the limit in force, on a filled sign where a road token changes the
printed one; a Press Corner's square in the text's colour, not the accent's) and the
space numbers at every corner and every fifth space, rendered once per track, size and text
size (:class:`Words`), placed by :func:`companion.ui.views.map_labels.plan_labels` and drawn
into the track's texture (:class:`DrawnWords`), which keeps how to draw each word again over
the cars.

A label's texture has empty rows above and below its digits: the map places the ink
(:func:`ink_box`, read once per text and style), not the texture's box.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle

from companion.engine import Track

from ..views.map_clearance import Box
from ..views.map_labels import Plan, plan_labels
from ..views.map_spots import LEADER_WIDTH, CornerPlace
from ..views.track_shapes import MapGeometry
from .measure import READABLE_PX


def corner_label_size(app: Any) -> float:
    """The corners' numbers and limits on the map: readable (:data:`.measure.READABLE_PX`)."""
    return max(READABLE_PX, float(app.fs_small) * 0.95)


RING_WIDTH = 1.6
"""The line of a corner's speed-limit ring (it reaches this far outside the ring)."""

NUMBER_BACKING = 2.0
"""Pixels of backing around a space number drawn again over a car."""

SPACE_LABEL_EVERY = 5
"""Space numbers are written on every fifth space (and at every corner)."""


def labelled_spaces(track: Track) -> list[int]:
    """The spaces whose number the map writes, in the order they are placed: the space before
    each Corner Line (where the rulings' corners are) first, then every fifth."""
    corners = sorted({c.line_after for c in track.corners})
    fifths = range(SPACE_LABEL_EVERY, track.spaces + 1, SPACE_LABEL_EVERY)
    return corners + [s for s in fifths if s not in corners]


def _label(text: str, size: float, rgba: Any, bold: bool = False) -> Any:
    label = CoreLabel(text=text, font_size=size, color=rgba, bold=bold)
    label.refresh()
    return label


def ink_box(texture: Any) -> tuple[int, int, int, int]:
    """Where the glyphs of a text's texture are inked, from its lower left corner as drawn:
    ``(left, bottom, right, top)`` (a label's texture has empty rows above and below the
    digits; the map places the ink, not the empty rows)."""
    return _ink_box(bytes(texture.pixels), *texture.size)


_INKS: dict[tuple[str, str], tuple[int, int, int, int]] = {}
""":func:`label_ink` by text and style."""


def label_ink(label: Any) -> tuple[int, int, int, int]:
    """:func:`ink_box` of a rendered core label's texture, read once per text and style (font,
    size, boldness...; not its colour: every theme's text colours are opaque, and where an
    opaque colour inks a pixel does not depend on which colour it is). Reading a texture's
    pixels back from the GPU costs about 0.3 ms a text here; a track drawn again with the same
    words (another track, a theme, the map opened over the window) reads none back."""
    style = repr(sorted((k, v) for k, v in label.options.items() if k != "color"))
    key = (label.text, style)
    ink = _INKS.get(key)
    if ink is None:
        if len(_INKS) >= 4096:  # a bound far above the texts the app draws
            _INKS.clear()
        ink = _INKS[key] = ink_box(label.texture)
    return ink


@lru_cache(maxsize=256)
def _ink_box(pixels: bytes, width: int, height: int) -> tuple[int, int, int, int]:
    rows = [y for y in range(height) if any(pixels[(y * width) * 4 + 3:(y + 1) * width * 4:4])]
    columns = [x for x in range(width) if any(pixels[x * 4 + 3::width * 4])]
    if not rows or not columns:
        return 0, 0, width, height
    # The texture's rows run top down; the canvas's y runs up.
    return columns[0], height - rows[-1] - 1, columns[-1] + 1, height - rows[0]


class Marker:
    """A corner's marker as drawn: its number's square and its limit's ring, each as wide as
    its text needs (a two-digit limit makes the ring an oval) and never under the readable
    size. A Press Corner's (``press``: a championship race's Sponsorship cards are won there,
    docs/rules.md §3.3) square is filled in the text's colour (white on the dark theme, black
    on the light) with its number in the map's: the others' are the accent's orange.

    ``limit`` is the limit in force for the drivers, the one their corner checks use: the
    printed one +1 or -1 by a road token (docs/rules.md §5.2). Where it is not the printed
    one (``printed``), the ring is filled in its line's colour and the limit written in the
    map's, so it reads as changed (the map over the window says so; the Legends keep the
    printed limit, docs/rules.md §2, and their rulings say it). Before, the ring showed the
    printed limit beside rulings naming the other ("limit-3 corner (printed 4, road token
    -1)")."""

    def __init__(self, number: int, limit: int, app: Any, scale: float = 1.0,
                 press: bool = False, printed: int | None = None) -> None:
        size = corner_label_size(app) * scale
        self.number = number
        self.press = press
        self.limit = limit
        self.changed = printed is not None and printed != limit
        """The road token changes the printed limit: the ring is filled."""
        self.fill = tuple(app.c_fg if press else app.c_accent)
        """The square's colour."""
        self.box = size * 1.15
        """The square's height (and the ring's)."""
        self.number_label = _label(str(number), size,
                                   app.c_bg if press else app.c_accent_fg, bold=True)
        self.limit_label = _label(str(limit), size, app.c_bg if self.changed else app.c_fg,
                                  bold=True)
        self.number_ink = label_ink(self.number_label)
        """Where the number's glyphs are inked (:func:`ink_box`): found once, used at every
        drawing of the marker, over the cars too."""
        self.limit_ink = label_ink(self.limit_label)
        x0, y0, x1, y1 = self.number_ink
        self.square = max(self.box, x1 - x0 + 4)
        x0, y0, x1, y1 = self.limit_ink
        # The ink's corners inside the ring's line: (w/2 / a)^2 + (h/2 / b)^2 <= 1.
        b = self.box / 2 - RING_WIDTH - 0.5
        room = 1 - ((y1 - y0) / 2 / b) ** 2
        a = (x1 - x0) / 2 / math.sqrt(room) if room > 0.05 else self.box
        self.ring = max(self.box, 2 * (a + RING_WIDTH + 0.5))

    @property
    def width(self) -> float:
        return self.square + 2 + self.ring + RING_WIDTH

    @property
    def height(self) -> float:
        return self.box + 2 * RING_WIDTH


@lru_cache(maxsize=32)
def _plan(geometry: MapGeometry, bounds: tuple[float, float, float, float],
          corners: tuple[tuple[int, float, float], ...],
          numbers: tuple[tuple[int, float, float], ...],
          reserved: tuple[tuple[float, float, float, float], ...] = ()) -> Plan:
    """The words' places, worked out once per track, size and font (not again when only the
    theme changes)."""
    return plan_labels(geometry, bounds, corners, numbers, reserved=reserved)


def zoom_badge_box(left: float, top: float, app: Any) -> tuple[float, float, float, float]:
    """Where a map that opens larger on a tap draws its magnifier: in its top left corner
    (away from the prompt beside the map's right edge), a corner marker and a half tall."""
    size = round(corner_label_size(app) * 1.6)
    return left + 2, top - 2 - size, left + 2 + size, top - 2


class Words:
    """The words a track's map writes (each corner's marker, the space numbers), rendered
    once for the plans a drawing tries (:func:`.map_labels.fitted_plan`); ``track_map``: the
    :class:`~.track_map.TrackMap` they are for (its size, text scale and magnifier)."""

    def __init__(self, track: Track, app: Any, track_map: Any,
                 press: frozenset[int] = frozenset(),
                 limits: tuple[int, ...] | None = None) -> None:
        """``press``: the Corner Lines (``line_after``) of the race's Press Corners;
        ``limits``: each corner's limit in force, in the track's order (the printed ones if
        None)."""
        scale = track_map.text_scale
        self.number_size = max(READABLE_PX, app.fs_small * 0.9) * scale
        self.numbers = {space: _label(str(space), self.number_size, app.c_muted)
                        for space in labelled_spaces(track)}
        self.inks = {space: label_ink(label) for space, label in self.numbers.items()}
        in_force = limits if limits is not None else tuple(c.limit for c in track.corners)
        self.markers = [Marker(number, limit, app, scale, press=corner.line_after in press,
                               printed=corner.limit)
                        for number, (corner, limit)
                        in enumerate(zip(track.corners, in_force, strict=True), start=1)]
        self.corners = tuple((c.line_after, m.width, m.height)
                             for c, m in zip(track.corners, self.markers, strict=True))
        self.sizes = tuple((space, x1 - x0, y1 - y0)
                           for space, (x0, y0, x1, y1) in self.inks.items())
        badge = (zoom_badge_box(track_map.x, track_map.top, app) if track_map.zoom_badge
                 else None)
        self.reserved = (badge,) if badge is not None else ()

    def plan(self, track_map: Any, geometry: MapGeometry) -> Plan:
        """Where the words go on the track drawn as ``geometry`` in ``track_map``."""
        bounds = (track_map.x + 1, track_map.y + 1, track_map.right - 1, track_map.top - 1)
        return _plan(geometry, bounds, self.corners, self.sizes, self.reserved)


class DrawnWords:
    """The words of one drawing of a track: what was written, where, and how to write each
    again over the cars (its box, its name: ``space 5``, ``corner 2``)."""

    def __init__(self) -> None:
        self.drawn: list[tuple[Box, str, Callable[[Any], None]]] = []
        """Every word on the track: its box, its name and how to draw it again."""
        self.texts: list[tuple[str, float]] = []
        """Every text drawn on the track (corner numbers and limits, space numbers) and its
        size in px (the tests check it is readable)."""
        self.corner_labels: dict[int, tuple[float, float]] = {}
        """Corner number -> where its badge is (for the tests)."""
        self.space_labels: dict[int, tuple[float, float]] = {}
        """Space -> the middle of its number, for the spaces whose number is drawn."""
        self.spaces_left_out: list[int] = []
        """Spaces whose number found no clear spot (left out rather than drawn over)."""

    def draw(self, words: Words, plan: Plan, app: Any) -> None:
        """The corners' markers and the space numbers, where ``plan``
        (:func:`.map_labels.plan_labels`) puts them: clear of the track, of each other and of
        the map's edges."""
        markers, numbers, inks = words.markers, words.numbers, words.inks
        number_size = words.number_size
        self.corner_labels = {}
        for marker, place in zip(markers, plan.corners, strict=True):
            self.corner_labels[marker.number] = self.marker(marker, place, app)
            self.drawn.append((place.box, f"corner {marker.number}",
                                      partial(self.marker_again, marker, place)))
        self.space_labels = {}
        self.spaces_left_out = list(plan.left_out)
        for space, (left, bottom, right, top) in plan.numbers.items():
            label = numbers[space]
            x0, y0, _x1, _y1 = inks[space]
            if space in plan.leaders:
                (ax, ay), (bx, by) = plan.leaders[space]
                Color(*app.c_muted)
                Line(points=[ax, ay, bx, by], width=LEADER_WIDTH)
            self.texts.append((str(space), number_size))
            self.space_labels[space] = ((left + right) / 2, (bottom + top) / 2)
            Color(1, 1, 1, 1)
            Rectangle(texture=label.texture, size=label.texture.size,
                      pos=(left - x0, bottom - y0))
            self.drawn.append(
                ((left, bottom, right, top), f"space {space}",
                 partial(self.number_again, label.texture, (left, bottom, right, top),
                         (left - x0, bottom - y0))))

    def marker_again(self, marker: Marker, place: CornerPlace, app: Any) -> None:
        """A corner's marker over the cars (its leader stays under them)."""
        self.marker(marker, place, app, again=True)

    @staticmethod
    def number_again(texture: Any, box: Box, at: tuple[float, float], app: Any) -> None:
        """A space number over the cars: on a backing of the map's colour, a little larger
        than its ink, so it reads over a car's colour."""
        left, bottom, right, top = box
        Color(*app.c_bg[:3], 0.85)
        Rectangle(pos=(left - NUMBER_BACKING, bottom - NUMBER_BACKING),
                  size=(right - left + 2 * NUMBER_BACKING, top - bottom + 2 * NUMBER_BACKING))
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size, pos=at)

    def marker(self, marker: Marker, place: CornerPlace, app: Any,
                again: bool = False) -> tuple[float, float]:
        """A corner's number in a filled square (as the rulings say it) and its speed limit in
        a ring beside it (as on a road sign), in ``place``; joined to its Corner Line by a
        dashed leader when it had to move away. Returns the point between the two. ``again``:
        drawn once more over the cars (no leader, its texts already counted)."""
        if not again and place.leader is not None:
            Color(*app.c_warn)
            Line(points=[*place.leader[0], *place.leader[1]], width=LEADER_WIDTH,
                 dash_length=3, dash_offset=2)
        left, bottom = place.box[0], place.box[1] + RING_WIDTH
        high = marker.box
        Color(*marker.fill)
        Rectangle(pos=(left, bottom), size=(marker.square, high))
        self.draw_label(marker.number_label, marker.number_ink, left + marker.square / 2,
                         bottom + high / 2, again)
        ring = left + marker.square + 2
        Color(*(app.c_warn if marker.changed else app.c_bg))
        Ellipse(pos=(ring, bottom), size=(marker.ring, high))
        Color(*app.c_warn)
        Line(ellipse=(ring, bottom, marker.ring, high), width=RING_WIDTH)
        self.draw_label(marker.limit_label, marker.limit_ink, ring + marker.ring / 2,
                         bottom + high / 2, again)
        return left + marker.square + 1, bottom + high / 2

    def draw_label(self, label: Any, ink: tuple[int, int, int, int], cx: float, cy: float,
                    again: bool = False) -> None:
        """``label`` with the middle of its ``ink`` at (``cx``, ``cy``)."""
        if not again:
            self.texts.append((label.text, label.options["font_size"]))
        x0, y0, x1, y1 = ink
        Color(1, 1, 1, 1)
        Rectangle(texture=label.texture, size=label.texture.size,
                  pos=(round(cx - (x0 + x1) / 2), round(cy - (y0 + y1) / 2)))
