"""Where the map's words go (:func:`companion.ui.views.map_labels.plan_labels`, Kivy-free):
a number the other words crowd out is placed before them on a later try, the corner spaces'
numbers first, and a try that writes fewer corner numbers never wins; a number still with no
room beside its space is joined to it by a leader.

The sizes are the app's at 800x480 (the race screen's map and the map a tap opens over the
whole window), rounded: markers of about 37 x 19.6 px / 46 x 24.5 px, numbers 10 / 13 px tall.
"""

from __future__ import annotations

import math

import tracks
from companion.ui.views.map_clearance import pairs, point_box, point_segment, segment_box
from companion.ui.views.map_labels import Plan, plan_labels
from companion.ui.views.map_spots import BAND_STEPS, MAX_GAP_EM
from companion.ui.views.track_shapes import geometry_for
from companion.ui.widgets.track_map import labelled_spaces

RACE_SCREEN = {"rect": (4.5, 212.1, 356.6, 210.9), "margin": 28.5,
               "bounds": (5.5, 213.1, 360.1, 422.0), "marker": (37.0, 19.6),
               "digit": 8.0, "height": 10.0, "reserved": ((6.5, 398.0, 29.5, 421.0),)}
"""The race screen's map at 800x480 (its magnifier in the top left corner: reserved)."""
ZOOMED = {"rect": (5.4, 30.0, 789.2, 444.6), "margin": 40.0,
          "bounds": (6.4, 31.0, 793.6, 473.6), "marker": (46.2, 24.5),
          "digit": 9.5, "height": 13.0, "reserved": ()}
"""The map over the whole window at 800x480."""


MEASURED = {
    ("great-britain", "zoomed"): (
        [(15, 58.34), (30, 46.21), (37, 46.21), (43, 46.21), (48, 46.21)],
        {15: 19, 30: 20, 37: 20, 43: 18, 48: 19, 5: 9, 10: 19, 20: 19, 25: 19, 35: 20, 40: 19,
         45: 19, 50: 19, 55: 19, 60: 19}),
    ("south-africa", "race screen"): (
        [(11, 36.43), (19, 38.18), (24, 36.43), (35, 38.18), (46, 38.18), (55, 36.43),
         (61, 36.43)],
        {11: 13, 19: 15, 24: 15, 35: 16, 46: 15, 55: 16, 61: 14, 5: 8, 10: 15, 15: 15, 20: 15,
         25: 15, 30: 16, 40: 15, 45: 15, 50: 16, 60: 16, 65: 16, 70: 15}),
}
"""The markers' widths and the numbers' ink widths as the app measured them (en), where the
outcome hangs on a pixel."""


def _plan(track_id: str, size: dict, measured: str = "") -> tuple[Plan, set[int], list[int]]:
    track = tracks.load_track(track_id)
    geometry = geometry_for(track_id, track.spaces, *size["rect"], size["margin"])
    corner_spaces = {c.line_after for c in track.corners}
    wanted = labelled_spaces(track)  # the corner spaces first, as the map asks
    height = size["marker"][1]
    if measured:
        markers, inks = MEASURED[track_id, measured]
        corners = [(space, width, height) for space, width in markers]
        numbers = [(s, float(inks[s]), size["height"]) for s in wanted]
    else:
        corners = [(c.line_after, *size["marker"]) for c in track.corners]
        numbers = [(s, size["digit"] * len(str(s)), size["height"]) for s in wanted]
    plan = plan_labels(geometry, size["bounds"], corners, numbers, reserved=size["reserved"])
    return plan, corner_spaces, wanted


def test_a_number_crowded_out_by_a_marker_is_placed_before_the_markers() -> None:
    """Great Britain over the whole window: the first try puts corner 4's marker where space
    45's number has its only clear spot; the next places 45 first and the marker elsewhere."""
    plan, _corners, wanted = _plan("great-britain", ZOOMED, "zoomed")
    assert plan.left_out == ()
    assert sorted(plan.numbers) == sorted(wanted)
    assert all(place.clear for place in plan.corners)


def test_every_number_of_every_track_over_the_whole_window() -> None:
    for track_id in tracks.bundled_track_ids():
        plan, _corners, _wanted = _plan(track_id, ZOOMED)
        assert plan.left_out == (), track_id
        assert all(place.clear for place in plan.corners), track_id


def test_the_corner_spaces_go_first_on_the_race_screen() -> None:
    """South Africa on the race screen: placing every crowded-out number first at once writes
    more numbers but loses corner 19's; the corner spaces' numbers are tried first, and a
    plan with fewer of them never wins, whatever else it writes."""
    plan, corners, wanted = _plan("south-africa", RACE_SCREEN, "race screen")
    assert 19 in plan.numbers
    assert not set(plan.left_out) & corners
    assert len(plan.numbers) >= len(wanted) - 1  # (before: 20, 25, 45, 46 left out)


def test_no_word_overlaps_another() -> None:
    for size in (RACE_SCREEN, ZOOMED):
        for track_id in tracks.bundled_track_ids():
            plan, _corners, _wanted = _plan(track_id, size)
            boxes = [p.box for p in plan.corners] + list(plan.numbers.values())
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (
                        track_id, a, b)


def test_a_number_with_no_room_beside_its_space_is_joined_to_it_by_a_leader() -> None:
    """España on the race screen: the corner spaces 85 and 95 have no clear spot beside their
    band once the markers are down; each sits a little further off, joined to its space by a
    leader from the band by that space to the number, crossing no other word."""
    plan, corners, _wanted = _plan("espana", RACE_SCREEN)
    track = tracks.load_track("espana")
    geometry = geometry_for("espana", track.spaces, *RACE_SCREEN["rect"], RACE_SCREEN["margin"])
    assert {85, 95} <= set(plan.leaders) <= set(plan.numbers)
    assert not set(plan.leaders) & set(plan.left_out)
    centre_line = geometry.path(BAND_STEPS)
    words = [p.box for p in plan.corners] + list(plan.numbers.values())
    for space, (start, end) in plan.leaders.items():
        box = plan.numbers[space]
        centre = geometry.centre(space)
        # from the band's edge by its own space: no other space's centre nearer
        assert _nearest_space(geometry, track.spaces, start) == space
        assert abs(min(point_segment(start, a, b) for a, b in pairs(centre_line))
                   - geometry.band / 2) < 0.2
        assert point_box(end, box) < 1e-6  # touching its number
        # away from its space: beside it (at most MAX_GAP_EM off the band) was no room
        assert point_box(centre, box) - geometry.band / 2 > MAX_GAP_EM * RACE_SCREEN["height"] \
            or _nearest_space(geometry, track.spaces, _middle(box)) != space
        for other in words:
            if other != box:
                assert segment_box(start, end, other) > 1.0, (space, other)
    # No corner space is left out: 92, walled in by its Corner Line and its neighbours' words,
    # sits further off, its leader across the straight below (step 4).
    assert not set(plan.left_out) & corners
    assert 92 in plan.leaders


def test_every_corner_space_is_numbered_on_the_race_screen() -> None:
    """The rulings name a corner's space: on the race screen's small map every bundled
    track's corner spaces are written (USA 57 and España 92 only with a leader that crosses
    another leg of the band, across it), and no number stands near another word far from its
    own space."""
    for track_id in tracks.bundled_track_ids():
        plan, corners, _wanted = _plan(track_id, RACE_SCREEN)
        assert not set(plan.left_out) & corners, track_id
    usa, _corners, _wanted = _plan("usa", RACE_SCREEN)
    assert 57 in usa.leaders


def _nearest_space(geometry, spaces: int, point: tuple[float, float]) -> int:
    return min(range(1, spaces + 1), key=lambda s: math.dist(geometry.centre(s), point))


def _middle(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
