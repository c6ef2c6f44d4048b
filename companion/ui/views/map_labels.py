"""Where the map writes its words (Kivy-free): each corner's marker and the space numbers, clear
of the track band (every leg of it, not only the space a word is about), of the lines drawn
across it, of each other and of the map's edges.

:func:`plan_labels` places, in this order:

1. **Corner markers**, every one (a corner is never left unmarked): beside its Corner Line,
   outside the loop first, then inside, a step further out or turned along the track at each
   try; a marker that had to move off its line is joined to it by a leader
   (:attr:`CornerPlace.leader`). Should nothing beside the line be clear, the nearest clear
   spot within :data:`LEADER_EM` marker heights is taken, its leader crossing nothing, else
   crossing only the track (a thin line over the band; never over a word or a marker).
2. **Space numbers**, the corner spaces' first (the rulings name them), then every fifth:
   beside the space, inside the loop first, then the other side, a little further out or
   turned along the track (where it is not wedged against another leg of the track, if it
   can), else the clear spot nearest the band of all around it; never
   nearer another space's centre than its own (it would read as that space's number) and
   never more than :data:`MAX_GAP_EM` text heights off the band.
3. **A number still left out** (the map is small and crowded: España on the race screen) sits
   up to :data:`LEADER_NUMBER_EM` text heights off the band, the nearest clear spot, joined to
   its space by a thin leader (:attr:`Plan.leaders`: from the band's edge by the space, no
   other space's centre nearer, at 30 degrees or more to it) that crosses nothing drawn: not
   another leg of the band, a line, a word or another leader.
4. **A number left out even so** sits up to :data:`LEADER_FAR_EM` text heights off the band,
   its leader leaving its own band as in step 3 but free to cross other legs of the band
   (a thin line over them, as a corner marker's may), each at 30 degrees or more, never
   along one, and never a line, a word or another leader; the number itself stands clear of
   the other legs and words (:data:`_FAR_LEGS_EM`, :data:`FAR_APART_EM`: beside them, far
   from its own space, it would read as theirs).
5. **A number crowded out by the words placed before it** takes a spot of its own that one
   of them stands in the way of, else two, and they move to other spots of their own, by the
   rules above and a little more (:mod:`.map_repair`: a marker moves along its leader, a
   number to the other side or off with a leader; the first four numbers left out are
   searched: :data:`.map_repair.SEARCHED`). Only a number with no such move is left
   out ...
6. ... and then the track is drawn a little smaller and its words placed anew
   (:func:`fitted_plan`: with a tenth, then a fifth more margin, when one or two are left
   out). On the race screen at 800x480 this writes España's 80 with 3 or 4 cars, whose
   spots lay where 92's number has its only ones: every corner space's number and every
   fifth is written on every bundled track with 1 to 6 cars, at 800x480 and 1280x720
   (``tests/ui/test_map_labels.py``).

A number crowded out by the words placed before it is placed before them on the next try
(up to :data:`_ATTEMPTS` tries): the corner spaces' first, the others once no corner space's is
left out; the plan with the most markers clear, then corner numbers, then numbers wins (a try
that writes more numbers but fewer corner spaces' loses: ``tests/ui/test_map_labels.py``);
the numbers it leaves out are then given leaders (steps 3 and 4), corner spaces' first, and
those still left out room (step 5).

What is drawn before the words (the band, its lines, the space centres) is the same on every
try, so :class:`TrackSpots` works out once, lazily, which spots are clear of it; a try only
checks them against the words placed so far (:class:`LabelPlanner`, :mod:`.map_planner`'s,
as :data:`FAR_APART_EM`). A text's box is its ink (the glyphs as drawn), not the transparent
rows above and below them. :class:`TrackSpots` and the distances named above but
:data:`FAR_APART_EM` and :data:`_ATTEMPTS` are :mod:`.map_spots`'.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from .map_clearance import Box, Point
from .map_planner import LabelPlanner, Plan
from .map_repair import repaired
from .map_spots import TrackSpots
from .track_shapes import MapGeometry

__all__ = ["GAP", "Plan", "fitted_plan", "plan_labels"]

GAP = 2.0
"""Clear pixels between a word and anything else drawn on the map."""
_ATTEMPTS = 5
"""Tries at most (each only when the one before left a number out that a bare track has room
for): five write every number of every bundled track on the map over the whole window."""
MARGINS = (1.1, 1.2)
"""A track whose words leave a number out is drawn again with these times its margin, a
little smaller (:func:`fitted_plan`) ..."""
MARGIN_TRIED_LEFT_OUT = 2
"""... when it leaves out at most this many numbers (a window far too small for its words
leaves more out whatever the margin, and each try costs a whole plan: up to a second
there)."""


def plan_labels(geometry: MapGeometry, bounds: Box,
                corners: Sequence[tuple[int, float, float]],
                numbers: Sequence[tuple[int, float, float]], gap: float = GAP,
                reserved: Sequence[Box] = ()) -> Plan:
    """A marker for each corner (the space its line follows, the marker's width and height)
    and the numbers (space, ink width, ink height; the corner spaces' first), placed as the
    module says, none of them over a ``reserved`` box (something else drawn on the map)."""
    spots = TrackSpots(geometry, bounds, [c[0] for c in corners], gap)
    corner_spaces = {c[0] for c in corners}
    wanted = [s for s, _w, _h in numbers]
    # A number with no spot on the bare track has none once words are down.
    placeable = [n for n in numbers if next(iter(spots.number_spots(*n)), None) is not None]
    best: tuple[tuple[float, ...], Plan] | None = None
    early: list[int] = []
    for _attempt in range(_ATTEMPTS):
        planner = LabelPlanner(spots)
        for box in reserved:
            planner.words.add_box(box)
        boxes = planner.numbers([n for n in placeable if n[0] in early])
        places = tuple(planner.corner(*c) for c in corners)
        boxes |= planner.numbers([n for n in placeable if n[0] not in early])
        plan = Plan(corners=places, numbers=boxes,
                    left_out=tuple(s for s in wanted if s not in boxes))
        score = (sum(p.clear for p in places), len(corner_spaces & set(boxes)), len(boxes),
                 -sum(math.dist(*p.leader) for p in places if p.leader))
        if best is None or score > best[0]:
            best = (score, plan)
        # A number the words crowded out goes before them next time: a corner space's
        # first (the rulings name them), then any.
        crowded = [s for s, _w, _h in placeable if s in plan.left_out and s not in early]
        missing = [s for s in crowded if s in corner_spaces] or crowded
        if not missing:
            break
        early += missing
    assert best is not None
    plan = _led(spots, best[1], [c[0] for c in corners], numbers, reserved)
    return repaired(spots, plan, corners, numbers, reserved)


def fitted_plan(geometry_at: Callable[[float], MapGeometry],
                plan_at: Callable[[MapGeometry], Plan]) -> tuple[MapGeometry, Plan]:
    """The track as large as its words let it be, and their plan: ``geometry_at(1.0)`` (the
    track fitted into the map with its usual margin), unless its plan leaves a number out
    (at most :data:`MARGIN_TRIED_LEFT_OUT`), then the first of ``geometry_at(m)`` for ``m`` in
    :data:`MARGINS` whose plan leaves none out, else of them all the one that leaves out
    fewest (the largest of those). A track drawn a little smaller has its words placed
    anew, and a slightly different map can have room where the first had none: España's 80
    on the race screen at 800x480 with 3 or 4 cars has no spot clear of 92's (its only
    spots), but with the track 2% smaller both are written
    (``tests/ui/test_map_labels.py``). A map that leaves nothing out is drawn as before."""
    geometry = geometry_at(1.0)
    plan = plan_at(geometry)
    if not plan.left_out or len(plan.left_out) > MARGIN_TRIED_LEFT_OUT:
        return geometry, plan
    best = geometry, plan
    for margin in MARGINS:
        geometry = geometry_at(margin)
        plan = plan_at(geometry)
        if len(plan.left_out) < len(best[1].left_out):
            best = geometry, plan
        if not plan.left_out:
            break
    return best


def _led(spots: TrackSpots, plan: Plan, corner_lines: Sequence[int],
         numbers: Sequence[tuple[int, float, float]], reserved: Sequence[Box]) -> Plan:
    """``plan`` with the numbers it leaves out placed away from their spaces, with leaders
    where they find room (in the order asked: the corner spaces' first), those still left out
    then further off, over other legs of the band (steps 3 and 4 of the module's order)."""
    if not plan.left_out:
        return plan
    planner = LabelPlanner(spots)
    for box in [*reserved, *plan.numbers.values()]:
        planner.words.add_box(box)
    for place, line_after in zip(plan.corners, corner_lines, strict=True):
        planner.take_corner(line_after, place)
    boxes = dict(plan.numbers)
    leaders: dict[int, tuple[Point, Point]] = {}
    for over_legs in (False, True):
        for space, width, height in numbers:
            if space in plan.left_out and space not in boxes:
                found = planner.led_space(space, width, height, over_legs)
                if found is not None:
                    boxes[space], leaders[space] = found
    return replace(plan, numbers=boxes, leaders=leaders,
                   left_out=tuple(s for s in plan.left_out if s not in boxes))
