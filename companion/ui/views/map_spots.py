"""Where each word of the race screen's map may go, clear of what is drawn before the words
(Kivy-free): :class:`TrackSpots` lists, nearest and best first, the spots beside a corner's
Corner Line for its marker and beside a space for its number, and the spots further off for a
number joined to its space by a leader (steps 1-4 of :mod:`.map_labels`, which picks among them
the first clear of the words already placed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .map_clearance import (
    TRACK,
    Box,
    Centres,
    Clearance,
    Point,
    pairs,
    point_box,
)
from .track_shapes import MapGeometry

MAX_GAP_EM = 1.0
"""A space number sits at most this many text heights (plus the gap, :data:`.map_labels.GAP`)
off the band."""
CORNER_LINE = 0.75
"""A Corner Line reaches this many band widths either side of the centre line."""
FINISH_LINE = 0.7
"""The finish line reaches this many band widths either side of the centre line."""
CORNER_LINE_WIDTH = 2.2
FINISH_LINE_WIDTH = 2.5
"""Kivy line widths (a line is drawn this far either side of its points)."""
LEADER_WIDTH = 1.0
"""The leader from a Corner Line to its marker: a Kivy line of this width (drawn this far
either side of its points)."""
LEADER_EM = 5.0
"""A marker with no clear spot beside its line sits at most this many marker heights from it
(its leader may then cross the track, never a word or another marker)."""
_LEADER_FREE = 3.0
"""Pixels of a leader, from the end of its Corner Line, that may pass near the band."""
_SPACE_TURNS = (0.0, 25.0, -25.0, 50.0, -50.0)
"""Degrees a space number's direction from its space turns along the track, in order."""
_SPACE_STEPS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""How far beyond the band a space number may go, in text heights (up to MAX_GAP_EM)."""
_CORNER_TURNS = (0.0, 20.0, -20.0, 40.0, -40.0, 60.0, -60.0, 80.0, -80.0)
_CORNER_STEPS = (0.0, 0.35, 0.7, 1.05)
"""How far beyond the band a corner marker goes first, in marker heights (then the nearest
clear spot around its line)."""
LEADER_NUMBER_EM = 3.0
"""A number with no clear spot beside its space may sit this many text heights off the band,
joined to its space by a leader."""
LEADER_FAR_EM = 6.0
"""A number with no such spot either may sit this many text heights off the band, its leader
crossing other legs of the band (step 4 of :mod:`.map_labels`' order) ..."""
_FAR_LEGS_EM = 1.5
"""... at least this many text heights from any leg of the band but its own stretch (beside
another leg, far from its own, it would read as that leg's number)."""
_LEADER_ACROSS = 0.5
"""A number's leader leaves the band at no less than 30 degrees to it (the sine of that)."""
BAND_STEPS = 4
"""Points per space of the band's centre line (:meth:`MapGeometry.path`), as drawn."""
OWN = 3
"""A space's number may come near the band this many spaces either side of it ..."""
_APART_EM = 1.2
"""... and, if it can, no nearer than this many text heights to any other leg."""


@dataclass(frozen=True)
class _LedSearch:
    """The boxes a led number's search tries (:meth:`TrackSpots.led_number_spots`), the
    leader found to each box tried so far (None: none) and what every leader is worked out
    from."""

    boxes: list[Box]
    leaders: dict[Box, tuple[Point, Point] | None]
    stretch: list[tuple[float, float, float, float, float]]
    """The band's centre line by the space (:meth:`TrackSpots._band_stretch`), each piece as
    its start, its run and the square of its length."""
    anchors: list[Point]
    """Where a leader may leave from: the space's centre, then a quarter of the way to either
    neighbour's."""
    own: frozenset[int]
    """The band either side of the space (its leader may start on it)."""
    near: frozenset[int]
    """The spaces within :data:`OWN` of it."""


@dataclass(frozen=True)
class CornerPlace:
    """Where a corner's marker goes."""

    centre: Point
    box: Box
    leader: tuple[Point, Point] | None
    """From the end of the Corner Line to the marker, when the marker sits off the line."""
    clear: bool = True
    """False only when no spot near the corner was clear (the marker is drawn all the same)."""


T = TypeVar("T")


class Lazy(Generic[T]):
    """An iterator's items, worked out once, as far as anyone has asked."""

    def __init__(self, items: Iterator[T]) -> None:
        self._items = items
        self._seen: list[T] = []

    def __iter__(self) -> Iterator[T]:
        index = 0
        while True:
            if index < len(self._seen):
                yield self._seen[index]
            else:
                item = next(self._items, None)
                if item is None:
                    return
                self._seen.append(item)
                yield item
            index += 1


def _support(direction: Point, width: float, height: float) -> float:
    """How far a ``width`` x ``height`` box reaches from its centre along ``direction``."""
    return abs(direction[0]) * width / 2 + abs(direction[1]) * height / 2


def _turned(normal: Point, along: Point, degrees: float) -> Point:
    a = math.radians(degrees)
    return (normal[0] * math.cos(a) + along[0] * math.sin(a),
            normal[1] * math.cos(a) + along[1] * math.sin(a))


def _box(centre: Point, width: float, height: float) -> Box:
    """The box of that size around ``centre``, its corner on whole pixels."""
    left = round(centre[0] - width / 2)
    bottom = round(centre[1] - height / 2)
    return float(left), float(bottom), left + width, bottom + height


def _middle(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def crossing(direction: Point, leg: tuple[Point, Point]) -> bool:
    """A line along ``direction`` (a unit vector) crosses ``leg`` of the band at
    :data:`_LEADER_ACROSS` of a right angle or more (a point-long piece: it does)."""
    (ax, ay), (bx, by) = leg
    length = math.hypot(bx - ax, by - ay)
    if length == 0.0:
        return True
    return abs(direction[0] * (by - ay) - direction[1] * (bx - ax)) / length >= _LEADER_ACROSS


class TrackSpots:
    """The spots for each word that are clear of what is drawn before the words (the band,
    the space boundaries, the finish line, the Corner Lines), in the order they are
    preferred; each list worked out once, as far as it is needed."""

    def __init__(self, geometry: MapGeometry, bounds: Box, corner_lines: Iterable[int],
                 gap: float) -> None:
        self.geometry = geometry
        self.bounds = bounds
        self.gap = gap
        self.track = Clearance(cell=max(8.0, geometry.band))
        band = geometry.band
        self.legs = Clearance(cell=max(8.0, geometry.band))
        """The band again, each piece owned by its space (to tell other legs from one's own)."""
        self.lines = Clearance(cell=max(8.0, geometry.band))
        """The lines that reach beyond the band (the Corner Lines and the finish line)."""
        path = geometry.path(BAND_STEPS)
        self._centre_line = path
        self._path = Centres(path, cell=max(8.0, band))
        """The band's centre line: a box near one of its points is on the band (a quick
        no before the exact test)."""
        for index, (a, b) in enumerate(pairs(path)):
            self.track.add_segment(a, b, band / 2, TRACK)
            self.legs.add_segment(a, b, band / 2, index // BAND_STEPS + 1)
        corners = set(corner_lines)
        for line_after in sorted(corners):  # owned by their corner: its marker may touch it
            self._add_line(line_after, CORNER_LINE, CORNER_LINE_WIDTH, owner=line_after)
        self._add_line(geometry.spaces, FINISH_LINE, FINISH_LINE_WIDTH, owner=TRACK)
        for space in range(1, geometry.spaces + 1):  # the space boundaries, across the band
            # (under a Corner Line, the boundary is its corner's too)
            self._add_line(space, 0.5, 1.0, owner=space if space in corners else TRACK)
        steps = sorted(math.dist(geometry.centre(s), geometry.centre(s + 1))
                       for s in range(1, geometry.spaces + 1))
        self.centres = Centres(geometry.centres, cell=max(8.0, steps[len(steps) // 2] * 2))
        self._numbers: dict[tuple[int, float, float], Lazy[Box]] = {}
        self._markers: dict[tuple[int, float, float], Lazy[tuple[CornerPlace, bool]]] = {}
        self._led: dict[tuple[int, float, float, bool], _LedSearch] = {}

    def _add_line(self, line_after: int, reach: float, half_width: float, owner: int) -> None:
        (x, y), (nx, ny) = self.geometry.line_after(line_after)
        r = self.geometry.band * reach
        ends = (x - nx * r, y - ny * r), (x + nx * r, y + ny * r)
        self.track.add_segment(*ends, half_width, owner)
        if reach > 0.5:
            self.lines.add_segment(*ends, half_width, owner)

    def _clear(self, box: Box, ignore: frozenset[int] = frozenset()) -> bool:
        """Nothing drawn before the words comes within the gap of ``box``."""
        return (not self._path.any_near(box, self.geometry.band / 2)
                and self.track.box_clear(box, self.gap, ignore))

    def _inside(self, box: Box) -> bool:
        b = self.bounds
        return box[0] >= b[0] and box[1] >= b[1] and box[2] <= b[2] and box[3] <= b[3]

    def _beside(self, anchor: Point, normal: Point, along: Point, sides: tuple[float, ...],
                turns: tuple[float, ...], steps: Sequence[float], step_px: float,
                width: float, height: float, keep_side: int = 0) -> Iterator[Box]:
        """Boxes beside ``anchor``: for each distance beyond the band, each side, each turn;
        the first ``keep_side`` distances on the first side before any on the other."""
        order = ([(side, step) for side in sides for step in steps[:keep_side]]
                 + [(side, step) for step in steps[keep_side:] for side in sides])
        for side, step in order:
            for turn in turns:
                dx, dy = _turned((normal[0] * side, normal[1] * side), along, turn)
                off = (self.geometry.band / 2 + self.gap + _support((dx, dy), width, height)
                       + step * step_px)
                yield _box((anchor[0] + dx * off, anchor[1] + dy * off), width, height)

    def _around(self, anchor: Point, width: float, height: float, reach: float,
                step: float, key: Callable[[Box], float], least: float = 0.0) -> list[Box]:
        """Boxes inside the map on a grid of ``step`` around ``anchor`` whose ``key`` is
        between ``least`` and ``reach``, by ``key``."""
        n = int((reach + max(width, height)) / step)
        half = math.hypot(width, height) / 2
        keyed = []
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                # A box's nearest point to the anchor is no nearer than its centre less half
                # its diagonal, and no further than its centre.
                middle = math.hypot(i * step, j * step)
                if middle < least or middle - half > reach:
                    continue
                box = _box((anchor[0] + i * step, anchor[1] + j * step), width, height)
                if self._inside(box):
                    k = key(box)
                    if least <= k <= reach:
                        keyed.append((k, box))
        return [b for _k, b in sorted(keyed)]

    # --- space numbers ---------------------------------------------------------------------

    def number_spots(self, space: int, width: float, height: float) -> Lazy[Box]:
        key = (space, width, height)
        if key not in self._numbers:
            self._numbers[key] = Lazy(self._number_spots(space, width, height))
        return self._numbers[key]

    def _number_spots(self, space: int, width: float, height: float) -> Iterator[Box]:
        g = self.geometry
        anchor = g.centre(space)
        reach = g.band / 2 + self.gap + MAX_GAP_EM * height + 1.0
        seen: set[Box] = set()

        def fits(box: Box) -> bool:
            if box in seen:
                return False
            seen.add(box)
            return (self._inside(box) and point_box(anchor, box) <= reach
                    and self.centres.nearest_is(_middle(box), space, anchor)
                    and self._clear(box))

        beside = self._beside(anchor, g.left(space), g.direction(space), (g.inside, -g.inside),
                              _SPACE_TURNS, _SPACE_STEPS, height, width, height)

        def grid() -> Iterator[Box]:  # worked out only if nothing beside the space will do
            yield from self._around(anchor, width, height, reach, 2.0,
                                    key=lambda b: point_box(anchor, b),
                                    least=g.band / 2 + self.gap)

        # Beside the space clear of other legs first (not wedged between two, reading as
        # either's), then beside it anyway, then anywhere around it.
        near = frozenset((space - 1 + k) % g.spaces + 1 for k in range(-OWN, OWN + 1))
        wedged: list[Box] = []
        for box in filter(fits, beside):
            if self.legs.box_clear(box, self.gap + _APART_EM * height, near):
                yield box
            else:
                wedged.append(box)
        yield from wedged
        yield from filter(fits, grid())

    def led_number_spots(self, space: int, width: float, height: float, over_legs: bool = False,
                         usable: Callable[[Box], bool] = lambda _box: True,
                         ) -> Iterator[tuple[Box, tuple[Point, Point]]]:
        """Spots for a number away from its space (nearest first), each with its leader: from
        the band at the space (its centre, else a quarter of the way to either neighbour's,
        still its own stretch of band: a Corner Line may wall in the straight way out; where it
        leaves the band, no other space's centre nearer) to the nearest point of the number's
        box; the box clear of the track and the leader crossing
        nothing drawn before the words (``over_legs``: up to :data:`LEADER_FAR_EM` text
        heights off, the leader crossing other legs of the band but no line); only boxes
        ``usable`` (clear of the words placed: checked before any leader is looked for, and
        each box's leader looked for once, the answer kept for the next search)."""
        key = (space, width, height, over_legs)
        search = self._led.get(key)
        if search is None:
            edge = self.geometry.band / 2
            reach = edge + self.gap + (LEADER_FAR_EM if over_legs else LEADER_NUMBER_EM) * height
            g = self.geometry
            anchor = g.centre(space)
            search = self._led[key] = _LedSearch(
                self._around(anchor, width, height, reach, max(2.0, height / 3),
                             key=lambda b: point_box(anchor, b), least=edge + self.gap),
                {}, [(a[0], a[1], b[0] - a[0], b[1] - a[1],
                      (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2)
                     for a, b in self._band_stretch(space)],
                [anchor] + [(anchor[0] + (p[0] - anchor[0]) * 0.25,
                             anchor[1] + (p[1] - anchor[1]) * 0.25)
                            for p in (g.centre(space - 1), g.centre(space + 1))],
                frozenset({space, (space - 2) % g.spaces + 1}),
                frozenset((space - 1 + k) % g.spaces + 1 for k in range(-OWN, OWN + 1)))
        for box in search.boxes:
            if box in search.leaders:
                leader = search.leaders[box]
                if leader is not None and usable(box):
                    yield box, leader
            elif usable(box):
                leader = search.leaders[box] = self._led_leader(space, box, height, over_legs,
                                                                search)
                if leader is not None:
                    yield box, leader

    def _led_leader(self, space: int, box: Box, height: float, over_legs: bool,
                    search: _LedSearch) -> tuple[Point, Point] | None:
        """The leader to a number in ``box`` away from ``space`` (:meth:`led_number_spots`),
        or None (the box is not clear of the track, or no leader to it is)."""
        g = self.geometry
        if not self._clear(box) or (over_legs and not self.legs.box_clear(
                box, self.gap + _FAR_LEGS_EM * height, search.near)):
            return None  # over legs: beside another leg, far from its own, it would read as theirs
        anchor = search.anchors[0]
        edge = g.band / 2
        own = search.own
        left = g.left(space)
        for a in search.anchors:
            end = (min(max(a[0], box[0]), box[2]), min(max(a[1], box[1]), box[3]))
            length = math.dist(a, end)
            if length == 0.0:
                continue
            ux, uy = (end[0] - a[0]) / length, (end[1] - a[1]) / length
            # It starts where it leaves the band, at no less than _LEADER_ACROSS of a right
            # angle to it, and touches no other leg and no line: tried first from where a
            # straight band would end (quick), then from where the band does.
            across = abs(ux * left[0] + uy * left[1])
            if across < _LEADER_ACROSS or not self._leader_clear_from(
                    a, (ux, uy), edge / across, end, own, over_legs):
                continue
            out = self._band_exit(search.stretch, a, (ux, uy), length)
            if out is None:
                continue
            begin = (a[0] + ux * out, a[1] + uy * out)
            if not self.centres.nearest_is(begin, space, anchor) or (
                    over_legs  # at its own space's edge, not inside another leg
                    and not self.legs.segment_clear(begin, begin, 0.0, -1.0, ignore=own)):
                continue
            if self._leader_clear_from(a, (ux, uy), out, end, own, over_legs):
                return begin, end
        return None

    def _leader_clear_from(self, start: Point, direction: Point, out: float, end: Point,
                           own: frozenset[int], over_legs: bool = False) -> bool:
        """The leader from ``out`` along ``direction`` from ``start`` to ``end`` is long enough
        to be seen and touches no leg but ``own`` (any leg, ``over_legs``) and no line."""
        begin = (start[0] + direction[0] * out, start[1] + direction[1] * out)
        if over_legs:  # across other legs, never along one (it would read as theirs)
            legs_ok = all(crossing(direction, leg) for leg in self.legs.segments_near(
                begin, end, LEADER_WIDTH + self.gap, ignore=own))
        else:
            legs_ok = self.legs.segment_clear(begin, end, LEADER_WIDTH, 1.0, ignore=own)
        return (math.dist(begin, end) > _LEADER_FREE and legs_ok
                and self.lines.segment_clear(begin, end, LEADER_WIDTH, 1.0))

    def _band_stretch(self, space: int) -> list[tuple[Point, Point]]:
        """The band's centre line from the space before ``space`` to two after it."""
        n = len(self._centre_line)
        first = (space - 2) * BAND_STEPS
        points = [self._centre_line[(first + k) % n] for k in range(3 * BAND_STEPS + 1)]
        return list(zip(points[:-1], points[1:], strict=True))

    def _band_exit(self, stretch: list[tuple[float, float, float, float, float]],
                   start: Point, direction: Point, reach: float) -> float | None:
        """How far from ``start`` (on the band) the way along ``direction`` leaves the band
        along ``stretch`` of its centre line (:attr:`_LedSearch.stretch`), to a tenth of a
        pixel (None: not within ``reach``)."""
        edge = self.geometry.band / 2

        def outside(t: float) -> bool:  # (point_segment to each piece, written out)
            px, py = start[0] + direction[0] * t, start[1] + direction[1] * t
            for ax, ay, dx, dy, length2 in stretch:
                u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx
                                                               + (py - ay) * dy) / length2))
                if math.hypot(px - ax - u * dx, py - ay - u * dy) < edge:
                    return False
            return True

        if not outside(reach):
            return None
        low, high = 0.0, reach
        while high - low > 0.1:
            middle = (low + high) / 2
            low, high = (low, middle) if outside(middle) else (middle, high)
        return high

    # --- corner markers --------------------------------------------------------------------

    def marker_spots(self, line_after: int, width: float,
                     height: float) -> Lazy[tuple[CornerPlace, bool]]:
        """Spots for a marker clear of the track, each with its leader and whether that
        leader crosses the track (the last resort)."""
        key = (line_after, width, height)
        if key not in self._markers:
            self._markers[key] = Lazy(self._marker_spots(line_after, width, height))
        return self._markers[key]

    def first_marker_spot(self, line_after: int, width: float, height: float) -> CornerPlace:
        """The spot tried first (beside the line, outside the loop), clear or not."""
        box = next(self._marker_boxes(line_after, width, height))
        return self._marker(line_after, box, clear=False)

    def _marker_boxes(self, line_after: int, width: float, height: float) -> Iterator[Box]:
        g = self.geometry
        anchor, normal = g.line_after(line_after)
        along = (normal[1], -normal[0])
        # line_after's normal points left of travel, as MapGeometry.left does: outside first
        return self._beside(anchor, normal, along, (-g.inside, g.inside), _CORNER_TURNS,
                            _CORNER_STEPS, height, width, height, keep_side=3)

    def _marker_spots(self, line_after: int, width: float,
                      height: float) -> Iterator[tuple[CornerPlace, bool]]:
        mine = frozenset({line_after})
        anchor, _normal = self.geometry.line_after(line_after)
        seen: set[Box] = set()
        for box in self._marker_boxes(line_after, width, height):
            if box not in seen and self._inside(box) and self._clear(box, mine):
                seen.add(box)
                place = self._marker(line_after, box)
                if self._leader_clear(place, self.track, mine):
                    yield place, False
        near = self._around(anchor, width, height, LEADER_EM * height, max(2.0, height / 4),
                            key=lambda b: math.dist(_middle(b), anchor))
        crossing = []
        for box in near:
            if self._clear(box, mine):
                place = self._marker(line_after, box)
                if self._leader_clear(place, self.track, mine):
                    yield place, False
                else:
                    crossing.append(place)
        for place in crossing:
            if self._leader_clear(place, self.track, mine | {TRACK}):
                yield place, True

    def _marker(self, line_after: int, box: Box, clear: bool = True) -> CornerPlace:
        """The marker in ``box`` and its leader from the end of the Corner Line on its side."""
        anchor, normal = self.geometry.line_after(line_after)
        centre = _middle(box)
        side = 1.0 if ((centre[0] - anchor[0]) * normal[0]
                       + (centre[1] - anchor[1]) * normal[1]) >= 0 else -1.0
        reach = self.geometry.band * CORNER_LINE
        start = (anchor[0] + normal[0] * reach * side, anchor[1] + normal[1] * reach * side)
        end = (min(max(start[0], box[0]), box[2]), min(max(start[1], box[1]), box[3]))
        leader = (start, end) if math.dist(start, end) > 1.0 else None
        return CornerPlace(centre=centre, box=box, leader=leader, clear=clear)

    @staticmethod
    def leader_part(leader: tuple[Point, Point] | None) -> tuple[Point, Point] | None:
        """The part of a marker's ``leader`` that must keep clear: all but where it leaves the
        end of its Corner Line (None: it is no longer than that)."""
        if leader is None:
            return None
        start, end = leader
        length = math.dist(start, end)
        if length <= _LEADER_FREE:
            return None
        t = _LEADER_FREE / length
        return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t), end

    @staticmethod
    def _leader_clear(place: CornerPlace, drawn: Clearance, ignore: frozenset[int]) -> bool:
        """The leader (but where it leaves the end of its Corner Line) is clear of ``drawn``
        (but the owners in ``ignore``)."""
        part = TrackSpots.leader_part(place.leader)
        return part is None or drawn.segment_clear(*part, LEADER_WIDTH, 1.0, ignore=ignore)
