"""Clearance on the map (Kivy-free): how far boxes and segments are from each other, and
:class:`Clearance`, what is drawn so far (segments with a half width, and boxes) in a grid of
cells, so that a spot is checked only against what is near it. Boxes are ``(left, bottom,
right, top)`` in canvas pixels. Used by :mod:`.map_spots` and :mod:`.map_labels`."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]

TRACK = -1
"""Owner of the band, the space boundaries and the finish line in a :class:`Clearance`."""


def pairs(points: list[Point]) -> list[tuple[Point, Point]]:
    """The segments of a closed polyline."""
    return list(zip(points, points[1:] + points[:1], strict=True))


def box_gap(a: Box, b: Box) -> float:
    """Distance between two boxes (0 when they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)


def point_box(p: Point, box: Box) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def point_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx
                                                    + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _crosses_box(a: Point, b: Point, box: Box) -> bool:
    """The segment has a point inside the box (Liang-Barsky clipping)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]),
                 (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return True


def segment_box(a: Point, b: Point, box: Box) -> float:
    """Distance between a segment and a box (0 when they meet)."""
    if _crosses_box(a, b, box):
        return 0.0
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    return min(point_box(a, box), point_box(b, box),
               *(point_segment(c, a, b) for c in corners))


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segment_segment(a: Point, b: Point, c: Point, d: Point) -> float:
    """Distance between two segments (0 when they cross)."""
    if (_orient(a, b, c) * _orient(a, b, d) < 0) and (_orient(c, d, a) * _orient(c, d, b) < 0):
        return 0.0
    return min(point_segment(a, c, d), point_segment(b, c, d),
               point_segment(c, a, b), point_segment(d, a, b))


@dataclass(frozen=True)
class _Segment:
    a: Point
    b: Point
    half_width: float
    owner: int
    """What drew it: :data:`TRACK`, or a corner (the space its line follows) for its line
    and leader."""
    reach: Box
    """The box the segment's stroke lies in."""


def _comes_near(item: _Segment | Box, box: Box, grown: Box, gap: float,
                ignore: frozenset[int]) -> bool:
    """``item`` (a segment whose owner is not in ``ignore``, or a box) comes within ``gap``
    of ``box`` (``grown``: ``box`` grown by ``gap``, for the segment's quick reach test)."""
    if isinstance(item, _Segment):
        r = item.reach
        if (item.owner in ignore or r[0] >= grown[2] or r[2] <= grown[0]
                or r[1] >= grown[3] or r[3] <= grown[1]):
            return False
        return segment_box(item.a, item.b, box) < item.half_width + gap
    return box_gap(item, box) < gap


class Clearance:
    """What is drawn so far, as segments (with a half width) and boxes, in a grid of cells."""

    def __init__(self, cell: float = 24.0) -> None:
        self.cell = cell
        self._items: list[_Segment | Box] = []
        self._grid: dict[tuple[int, int], list[int]] = {}

    def _cells(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def _add(self, item: _Segment | Box, reach: Box) -> None:
        self._items.append(item)
        index = len(self._items) - 1
        for key in self._cells(reach):
            self._grid.setdefault(key, []).append(index)

    def add_segment(self, a: Point, b: Point, half_width: float, owner: int) -> None:
        w = half_width
        reach = (min(a[0], b[0]) - w, min(a[1], b[1]) - w, max(a[0], b[0]) + w,
                 max(a[1], b[1]) + w)
        self._add(_Segment(a, b, half_width, owner, reach), reach)

    def add_box(self, box: Box) -> None:
        self._add(box, box)

    def __len__(self) -> int:
        """How many things are drawn (the next one added gets this index)."""
        return len(self._items)

    def _near(self, box: Box) -> Iterator[tuple[int, _Segment | Box]]:
        seen: set[int] = set()
        for key in self._cells(box):
            for index in self._grid.get(key, ()):
                if index not in seen:
                    seen.add(index)
                    yield index, self._items[index]

    def box_clear(self, box: Box, gap: float, ignore: frozenset[int] = frozenset()) -> bool:
        """Nothing drawn comes within ``gap`` of ``box`` (segments of the owners in
        ``ignore`` aside). (:meth:`box_hits`' test, stopping at the first: the spots'
        searches ask it most.)"""
        grown = (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)
        seen: set[int] = set()
        items, c = self._items, self.cell
        for i in range(math.floor(grown[0] / c), math.floor(grown[2] / c) + 1):
            for j in range(math.floor(grown[1] / c), math.floor(grown[3] / c) + 1):
                for index in self._grid.get((i, j), ()):
                    if index in seen:
                        continue
                    seen.add(index)
                    if _comes_near(items[index], box, grown, gap, ignore):
                        return False
        return True

    def box_hits(self, box: Box, gap: float,
                 ignore: frozenset[int] = frozenset()) -> Iterator[int]:
        """The indices (in the order added) of what comes within ``gap`` of ``box``
        (segments of the owners in ``ignore`` aside)."""
        grown = (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)
        for index, item in self._near(grown):
            if _comes_near(item, box, grown, gap, ignore):
                yield index

    def segment_clear(self, a: Point, b: Point, half_width: float, gap: float,
                      ignore: frozenset[int] = frozenset()) -> bool:
        """A segment of ``half_width`` from ``a`` to ``b`` comes within ``gap`` of nothing
        drawn (segments of the owners in ``ignore`` aside)."""
        return next(self.segment_hits(a, b, half_width, gap, ignore), None) is None

    def segment_hits(self, a: Point, b: Point, half_width: float, gap: float,
                     ignore: frozenset[int] = frozenset()) -> Iterator[int]:
        """The indices of what comes within ``gap`` of a segment of ``half_width`` from
        ``a`` to ``b`` (segments of the owners in ``ignore`` aside)."""
        w = half_width + gap
        reach = (min(a[0], b[0]) - w, min(a[1], b[1]) - w,
                 max(a[0], b[0]) + w, max(a[1], b[1]) + w)
        for index, item in self._near(reach):
            if isinstance(item, _Segment):
                if item.owner in ignore:
                    continue
                if segment_segment(a, b, item.a, item.b) < item.half_width + w:
                    yield index
            elif segment_box(a, b, item) < w:
                yield index

    def segments_near(self, a: Point, b: Point, distance: float,
                      ignore: frozenset[int] = frozenset()) -> Iterator[tuple[Point, Point]]:
        """The segments drawn (owners in ``ignore`` aside) whose strokes come within
        ``distance`` of the line from ``a`` to ``b``, as their two ends."""
        reach = (min(a[0], b[0]) - distance, min(a[1], b[1]) - distance,
                 max(a[0], b[0]) + distance, max(a[1], b[1]) + distance)
        for _index, item in self._near(reach):
            if (isinstance(item, _Segment) and item.owner not in ignore
                    and segment_segment(a, b, item.a, item.b) < item.half_width + distance):
                yield item.a, item.b


class Centres:
    """Points (space centres, or the band's centre line) in a grid: is any other space nearer
    a spot than its own? is any point near a box?"""

    def __init__(self, points: Iterable[Point], cell: float) -> None:
        self.cell = cell
        self._grid: dict[tuple[int, int], list[tuple[int, Point]]] = {}
        for index, p in enumerate(points, start=1):
            key = (math.floor(p[0] / cell), math.floor(p[1] / cell))
            self._grid.setdefault(key, []).append((index, p))

    def nearest_is(self, spot: Point, space: int, own: Point) -> bool:
        reach = math.dist(spot, own)
        c = self.cell
        for i in range(math.floor((spot[0] - reach) / c), math.floor((spot[0] + reach) / c) + 1):
            for j in range(math.floor((spot[1] - reach) / c),
                           math.floor((spot[1] + reach) / c) + 1):
                for index, p in self._grid.get((i, j), ()):
                    if index != space and math.dist(spot, p) <= reach:
                        return False
        return True

    def any_near(self, box: Box, distance: float) -> bool:
        """Some point lies within ``distance`` of ``box``."""
        c = self.cell
        for i in range(math.floor((box[0] - distance) / c),
                       math.floor((box[2] + distance) / c) + 1):
            for j in range(math.floor((box[1] - distance) / c),
                           math.floor((box[3] + distance) / c) + 1):
                for _index, p in self._grid.get((i, j), ()):
                    if point_box(p, box) < distance:
                        return True
        return False
