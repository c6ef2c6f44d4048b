"""Room for a number still left out (Kivy-free): step 5 of :mod:`.map_labels`' order.

After steps 1-4 a number is left out only where the words placed before it took every spot it
has. For each such number (in the order asked: the corner spaces' first; the first
:data:`SEARCHED` only), the spots of its own (beside its space, else with a leader: steps 2-4)
that one word placed stands in the way of are tried, that word (a space number, or a corner's
marker with its leader) put back at its own first spot then clear (a number beside its space or
with a leader, a marker beside its Corner Line or with a leader, by the rules of steps 1-4);
where none of these will do, the spots that two words stand in the way of, the two put back in
either order. Of the moves that work, the one that costs least is made (the fewest steps
further from the words' own spots, :meth:`_Repair.step`, then the least leader added); nothing
else moves, and a number with no such move stays left out. On the race screen: España's 100
takes the spot of corner 10's marker, which moves further along its leader; South Africa's 20
that of corner 2's marker.

Whatever moves keeps to the rules of steps 1-4, and to more, so that it reads as its own:

* a number a move puts beside its space is nearer its space's centre than any other leg's by
  :data:`OWN_BY_EM` text heights (half-way between two legs, it could be either's);
* a number a move puts away from its space (with a leader) stands
  :data:`.map_planner.FAR_APART_EM` text heights clear of every other word (so that "80" does
  not run into "92"; a marker that moves keeps only the gap from it, a square and a ring do
  not run into a number, but if its leader crosses other legs, as in step 4); so does a
  number a move puts beside its space from a number whose leader crosses other legs;
* a marker's leader that comes to cross the track crosses each leg at 30 degrees or more, as a
  far number's does (unless the marker's leader crossed it already).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import permutations

from .map_clearance import Box, Clearance, Point, box_gap
from .map_planner import FAR_APART_EM, LabelPlanner, Plan
from .map_spots import LEADER_WIDTH, OWN, CornerPlace, Lazy, TrackSpots, crossing

Leader = tuple[Point, Point]
Word = int
"""A word on the map: a space's number (the space, above 0) or a corner's marker (-1 less its
index in the plan's corners)."""

MOVED = 2
"""Words moved at most to make room for a number left out (one if that will do)."""
_SPOTS = 6
"""Spots tried for a word, per set of words in their way."""
SEARCHED = 4
"""Numbers left out searched for room at most (the first, in the order asked): a search costs
70-130 ms at 800x480 here. At 800x480, 1024x600, 1280x720, 1366x768 and 1920x1080, steps 1-4
leave at most 3 out on any bundled track with 1 to 6 cars (4 at 720x720), so every one is
searched; in a map far too small for its words (a portrait 480x800 window: España leaves
18-19 out) the searches took 2.2 s to place 6, now 0.4 s to place 3 (2026-12-06)."""
OWN_BY_EM = 0.5
"""A number a move puts beside its space is nearer its own space's centre than any other leg's
(a space more than :data:`.map_spots.OWN` away) by this many text heights (wedged between two
legs, half-way, it could be either's)."""


@dataclass(frozen=True)
class _Spot:
    """A spot for a word: a number's box (and leader) or a marker's place; ``gap``: how
    clear of another word its box stays."""

    box: Box
    leader: Leader | None
    gap: float
    place: CornerPlace | None = None


@dataclass(frozen=True)
class _Blocked:
    """A spot for a word, and the words in its way."""

    words: frozenset[Word]
    spot: _Spot


_Blocking = Callable[[Iterable[int]], "frozenset[Word] | None"]
"""The words (at most so many, none reserved) that drew the things of a clearance given by
their indices, else None."""

Placed = list[tuple[Word, _Spot]]
"""The words a move puts somewhere new, in order: the number left out first."""


def _length(leader: Leader | None) -> float:
    return 0.0 if leader is None else math.dist(*leader)


class _Repair:
    """A plan, and the moves that write a number it leaves out."""

    def __init__(self, spots: TrackSpots, plan: Plan,
                 corners: Sequence[tuple[int, float, float]],
                 numbers: Sequence[tuple[int, float, float]], reserved: Sequence[Box]) -> None:
        self.spots = spots
        self.plan = plan
        self.corners = corners
        self.sizes = {space: (width, height) for space, width, height in numbers}
        self.reserved = reserved
        self.far = {space: box for space, box in plan.numbers.items()
                    if self.step(space, plan.leaders.get(space)) == 2}
        """The numbers whose leaders cross other legs (step 4)."""
        self._options: dict[tuple[frozenset[Word], Word], Lazy[_Spot]] = {}

    def planner(self, away: Collection[Word] = (),
                owners: dict[int, Word] | None = None) -> LabelPlanner:
        """The plan's words in a planner, but those ``away`` (``owners``: filled with the
        word each thing in the planner's clearance belongs to, the reserved boxes aside)."""
        planner = LabelPlanner(self.spots)
        for box in self.reserved:
            planner.words.add_box(box)
        for index, (place, (line_after, _w, _h)) in enumerate(
                zip(self.plan.corners, self.corners, strict=True)):
            if -1 - index not in away:
                start = len(planner.words)
                planner.take_corner(line_after, place)
                if owners is not None:
                    owners.update(dict.fromkeys(range(start, len(planner.words)), -1 - index))
        for space, box in self.plan.numbers.items():
            if space not in away:
                start = len(planner.words)
                planner.take_number(space, box, self.plan.leaders.get(space))
                if owners is not None:
                    owners.update(dict.fromkeys(range(start, len(planner.words)), space))
        return planner

    def step(self, word: Word, leader: Leader | None) -> int:
        """How far a word is from its own spot: 0 beside its space or on its Corner Line's
        end; 1 joined to it by a leader; 2 by one that crosses other legs of the band (a
        number's, step 4) or the track (a marker's)."""
        if leader is None:
            return 0
        if word > 0:
            own = frozenset({word, (word - 2) % self.spots.geometry.spaces + 1})
            clear = self.spots.legs.segment_clear(*leader, LEADER_WIDTH, 1.0, ignore=own)
        else:
            part = self.spots.leader_part(leader)
            clear = part is None or self.spots.track.segment_clear(
                *part, LEADER_WIDTH, 1.0, ignore=frozenset({self.corners[-1 - word][0]}))
        return 1 if clear else 2

    def apart(self, space: int) -> float:
        """How clear of other words the number of ``space`` stands, away from its space."""
        return self.spots.gap + FAR_APART_EM * self.sizes[space][1]

    # --- the spots of a word -----------------------------------------------------------------

    def options(self, away: frozenset[Word], word: Word) -> Lazy[_Spot]:
        """The spots for ``word`` (one of ``away``) clear of the words but those ``away``,
        best first (worked out once, as far as asked)."""
        key = (away, word)
        if key not in self._options:
            self._options[key] = Lazy(self._clear_spots(self.planner(away), word))
        return self._options[key]

    def _clear_spots(self, planner: LabelPlanner, word: Word) -> Iterator[_Spot]:
        if word < 0:
            line_after, width, height = self.corners[-1 - word]
            for place, crosses in planner.corner_spots(line_after, width, height):
                if not crosses or self._may_cross(word, place):
                    yield _Spot(place.box, place.leader, self.spots.gap, place)
            return
        width, height = self.sizes[word]
        for box, leader, step in planner.anywhere(word, width, height, FAR_APART_EM):
            yield _Spot(box, leader, self.spots.gap if step == 2 else self.apart(word))

    def _may_cross(self, marker: Word, place: CornerPlace) -> bool:
        """A marker's leader may come to cross the track at ``place``: across each leg (30
        degrees or more), or anyhow if the marker's leader crossed it already."""
        index = -1 - marker
        if self.step(marker, self.plan.corners[index].leader) == 2:
            return True
        part = self.spots.leader_part(place.leader)
        if part is None:
            return True
        (ax, ay), (bx, by) = part
        length = math.hypot(bx - ax, by - ay)
        direction = ((bx - ax) / length, (by - ay) / length)
        return all(crossing(direction, leg) for leg in self.spots.legs.segments_near(
            *part, LEADER_WIDTH + 1.0, ignore=frozenset({self.corners[index][0]})))

    def blocked(self, space: int) -> list[_Blocked]:
        """The spots for the number of ``space`` (by the rules of steps 2-4 and the
        module's) that :data:`MOVED` or fewer of the words placed stand in the way of, best
        first."""
        owners: dict[int, Word] = {}
        words = self.planner(owners=owners).words

        def blocking(hits: Iterable[int]) -> frozenset[Word] | None:
            found: set[Word] = set()
            for index in hits:
                if index not in owners:  # a reserved box: nothing moves it
                    return None
                found.add(owners[index])
                if len(found) > MOVED:
                    return None
            return frozenset(found)

        return [_Blocked(found, spot) for found, spot in self._number_spots(space, words,
                                                                            blocking) if found]

    def _number_spots(self, space: int, words: Clearance, blocking: _Blocking,
                      ) -> Iterator[tuple[frozenset[Word] | None, _Spot]]:
        """Each spot for the number of ``space`` (one with a leader standing apart from the
        words, :meth:`apart`) and the words in its way (``blocking``: of what is in ``words``;
        a leader is looked for only to a box that some are in the way of)."""
        width, height = self.sizes[space]
        gap, apart = self.spots.gap, self.apart(space)
        for box in self.spots.number_spots(space, width, height):
            yield blocking(words.box_hits(box, gap)), _Spot(box, None, gap)
        in_way: dict[Box, frozenset[Word] | None] = {}

        def usable(box: Box) -> bool:
            in_way[box] = blocking(words.box_hits(box, apart))
            return in_way[box] is not None

        for over_legs in (False, True):
            for box, leader in self.spots.led_number_spots(space, width, height, over_legs,
                                                           usable):
                found, across = in_way[box], blocking(words.segment_hits(*leader, LEADER_WIDTH,
                                                                         1.0))
                yield (None if found is None or across is None else found | across,
                       _Spot(box, leader, apart))

    # --- moves -------------------------------------------------------------------------------

    def moves(self, space: int, moved: int) -> Iterator[tuple[tuple[int, float], Plan]]:
        """Each way to write the number of ``space`` at one of its spots that ``moved`` words
        stand in the way of, those put back, with its cost."""
        groups: dict[frozenset[Word], list[_Spot]] = {}
        for blocked in self.blocked(space):
            if len(blocked.words) == moved:
                group = groups.setdefault(blocked.words, [])
                if len(group) < _SPOTS:
                    group.append(blocked.spot)
        for words, spots in groups.items():
            for away in permutations(sorted(words)):
                for spot in spots:
                    placed = self._put_back([(space, spot)], words, away)
                    if placed is not None:
                        yield self._result(placed)

    def _put_back(self, placed: Placed, words: frozenset[Word],
                  away: Sequence[Word]) -> Placed | None:
        """``placed`` (the number left out) and the words ``away`` (all of ``words``, in that
        order) each at its first spot clear of what moved before it; None if one has none."""
        if not self._fits([], *placed[0], words):
            return None
        for word in away:
            found = next((o for o in self.options(words, word)
                          if self._fits(placed, word, o, words)), None)
            if found is None:
                return None
            placed = [*placed, (word, found)]
        return placed

    def _fits(self, placed: Placed, word: Word, spot: _Spot, gone: frozenset[Word]) -> bool:
        """``spot`` for ``word`` (clear of the words that stayed: all but those ``gone``) is
        clear of what ``placed`` moved (as a planner would check it) and stands apart from
        the far numbers (step 4) that stayed and, a number's, from the numbers with a leader
        that moved; a number beside its space reads as its own (:meth:`_own`)."""
        if word > 0 and spot.leader is None and not self._own(word, spot.box):
            return False
        apart = [(box, self.apart(space)) for space, box in self.far.items()
                 if space not in gone]
        # (a marker, a square and a ring, does not run into a number: apart from far ones)
        apart += [(s.box, self.apart(w)) for w, s in placed if w > 0 and s.leader is not None
                  and (word > 0 or self.step(w, s.leader) == 2)]
        if any(box_gap(spot.box, box) < far for box, far in apart):
            return False
        drawn = Clearance(cell=self.spots.track.cell)
        for mover, other in placed:
            drawn.add_box(other.box)
            if other.leader is not None:
                drawn.add_segment(*other.leader, LEADER_WIDTH,
                                  owner=-mover if mover > 0 else self.corners[-1 - mover][0])
        if not drawn.box_clear(spot.box, spot.gap):
            return False
        if spot.place is not None:  # (a marker's leader but where it leaves its line)
            part = self.spots.leader_part(spot.leader)
            return part is None or drawn.segment_clear(
                *part, LEADER_WIDTH, 1.0, ignore=frozenset({self.corners[-1 - word][0]}))
        return spot.leader is None or drawn.segment_clear(*spot.leader, LEADER_WIDTH, 1.0)

    def _own(self, space: int, box: Box) -> bool:
        """A number in ``box`` beside ``space`` reads as its own: nearer its space's centre
        than any other's, and by :data:`OWN_BY_EM` nearer than any other leg's."""
        g = self.spots.geometry
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        own = math.dist(middle, g.centre(space))
        by = OWN_BY_EM * self.sizes[space][1]
        for other in range(1, g.spaces + 1):
            apart = abs(other - space)
            leg = min(apart, g.spaces - apart) > OWN
            if other != space and math.dist(middle, g.centre(other)) <= own + (by if leg else 0):
                return False
        return True

    def _result(self, placed: Placed) -> tuple[tuple[int, float], Plan]:
        """The plan with the words ``placed`` moved, and the move's cost: how many steps
        further from their own spots the words are, then how much longer their leaders."""
        plan = self.plan
        numbers = dict(plan.numbers)
        leaders = dict(plan.leaders)
        corners = list(plan.corners)
        steps, added = 0, 0.0
        for word, spot in placed:
            if spot.place is not None:
                old = corners[-1 - word].leader
                corners[-1 - word] = spot.place
            else:
                old = leaders.pop(word, None)
                numbers[word] = spot.box
                if spot.leader is not None:
                    leaders[word] = spot.leader
            steps += self.step(word, spot.leader) - self.step(word, old)
            added += _length(spot.leader) - _length(old)
        left_out = tuple(s for s in plan.left_out if s != placed[0][0])
        return (steps, added), replace(plan, corners=tuple(corners), numbers=numbers,
                                       leaders=leaders, left_out=left_out)


def repaired(spots: TrackSpots, plan: Plan, corners: Sequence[tuple[int, float, float]],
             numbers: Sequence[tuple[int, float, float]], reserved: Sequence[Box]) -> Plan:
    """``plan`` with each number it leaves out written where moving other words makes room
    (the module's order)."""
    for space in plan.left_out[:SEARCHED]:
        repair = _Repair(spots, plan, corners, numbers, reserved)
        for moved in range(1, MOVED + 1):
            best = min(repair.moves(space, moved), key=lambda move: move[0], default=None)
            if best is not None:
                plan = best[1]
                break
    return plan
