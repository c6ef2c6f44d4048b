"""One try at placing the map's words (Kivy-free): :class:`LabelPlanner` puts each word at
its first spot (of :class:`.map_spots.TrackSpots`) clear of the words placed before it, and
lists the spots still clear for a word; :class:`Plan` is where every word goes. The order the
words are placed in is :mod:`.map_labels`'; :mod:`.map_repair` uses a planner to try moves."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .map_clearance import Box, Clearance, Point
from .map_spots import LEADER_WIDTH, CornerPlace, TrackSpots

FAR_APART_EM = 0.8
"""A number placed far off (step 4 of :mod:`.map_labels`' order) stands at least this many
text heights from any other word ("92" beside "5" would read as "925")."""


@dataclass(frozen=True)
class Plan:
    """Where every word of the map goes."""

    corners: tuple[CornerPlace, ...]
    """One per corner, in the order given."""
    numbers: dict[int, Box]
    """Space -> the box of its number's ink, for the numbers drawn."""
    left_out: tuple[int, ...]
    """Spaces whose number found no clear spot."""
    leaders: dict[int, tuple[Point, Point]] = field(default_factory=dict)
    """Space -> a line from the band by the space to its number, for a number that sits away
    from its space (steps 3-5 of :mod:`.map_labels`' order)."""


class LabelPlanner:
    """One try: the words placed one at a time, each at its first spot (of
    :class:`TrackSpots`) clear of the words placed before it."""

    def __init__(self, spots: TrackSpots) -> None:
        self.spots = spots
        self.words = Clearance(cell=spots.track.cell)

    def corner(self, line_after: int, width: float, height: float) -> CornerPlace:
        """A spot for the marker (``width`` x ``height``) of the corner whose line follows
        ``line_after``; always one."""
        for place, _crosses in self.corner_spots(line_after, width, height):
            return self.take_corner(line_after, place)
        return self.take_corner(line_after,
                                 self.spots.first_marker_spot(line_after, width, height))

    def corner_spots(self, line_after: int, width: float,
                     height: float) -> Iterator[tuple[CornerPlace, bool]]:
        """The marker's spots clear of the words placed, best first, each with whether its
        leader crosses the track (:meth:`TrackSpots.marker_spots`)."""
        gap = self.spots.gap
        mine = frozenset({line_after})
        for place, crosses in self.spots.marker_spots(line_after, width, height):
            if self.words.box_clear(place.box, gap) and TrackSpots._leader_clear(
                    place, self.words, mine):
                yield place, crosses

    def take_corner(self, line_after: int, place: CornerPlace) -> CornerPlace:
        """Marks ``place`` (a marker and its leader) as taken."""
        self.words.add_box(place.box)
        if place.leader is not None:
            self.words.add_segment(*place.leader, LEADER_WIDTH, owner=line_after)
        return place

    def numbers(self, numbers: Iterable[tuple[int, float, float]]) -> dict[int, Box]:
        """Space -> where its number goes, for those of ``numbers`` that find a spot."""
        boxes = {}
        for space, width, height in numbers:
            box = self.space(space, width, height)
            if box is not None:
                boxes[space] = box
        return boxes

    def space(self, space: int, width: float, height: float) -> Box | None:
        """A clear spot for the number of ``space`` (its ink ``width`` x ``height``), or None
        (the number is left out)."""
        box = next(self.beside(space, width, height), None)
        if box is not None:
            self.words.add_box(box)
        return box

    def beside(self, space: int, width: float, height: float) -> Iterator[Box]:
        """The spots beside ``space`` clear of the words placed (step 2), best first."""
        for box in self.spots.number_spots(space, width, height):
            if self.words.box_clear(box, self.spots.gap):
                yield box

    def led_space(self, space: int, width: float, height: float,
                  over_legs: bool = False) -> tuple[Box, tuple[Point, Point]] | None:
        """A clear spot away from ``space`` for its number and its leader, or None
        (``over_legs``: further off, the leader crossing other legs of the band)."""
        found = next(self.led(space, width, height, over_legs), None)
        if found is not None:
            self.take_number(space, *found)
        return found

    def led(self, space: int, width: float, height: float, over_legs: bool = False,
            apart_em: float = 0.0) -> Iterator[tuple[Box, tuple[Point, Point]]]:
        """The spots away from ``space`` (step 3, or 4 ``over_legs``), each with its leader,
        clear of the words placed (by ``apart_em`` text heights more, or
        :data:`FAR_APART_EM` ``over_legs``), best first."""
        gap = self.spots.gap + (FAR_APART_EM if over_legs else apart_em) * height

        def usable(box: Box) -> bool:  # the spots' search yields no box that fails this
            return self.words.box_clear(box, gap)

        for box, leader in self.spots.led_number_spots(space, width, height, over_legs, usable):
            if self.words.segment_clear(*leader, LEADER_WIDTH, 1.0):
                yield box, leader

    def anywhere(self, space: int, width: float, height: float,
                 apart_em: float = 0.0) -> Iterator[tuple[Box, tuple[Point, Point] | None, int]]:
        """Every spot for the number of ``space`` clear of the words placed, in the order of
        steps 2-4 (beside it, then led, ``apart_em`` from other words, then led over other
        legs), each with its leader and its step."""
        for box in self.beside(space, width, height):
            yield box, None, 2
        for box, leader in self.led(space, width, height, apart_em=apart_em):
            yield box, leader, 3
        for box, leader in self.led(space, width, height, over_legs=True):
            yield box, leader, 4

    def take_number(self, space: int, box: Box, leader: tuple[Point, Point] | None) -> None:
        """Marks the number of ``space`` in ``box`` (and its leader) as taken."""
        self.words.add_box(box)
        if leader is not None:
            self.words.add_segment(*leader, LEADER_WIDTH, owner=-space)
