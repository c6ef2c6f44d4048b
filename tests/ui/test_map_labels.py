"""Where the map's words go (:func:`companion.ui.views.map_labels.plan_labels`, Kivy-free):
a number the other words crowd out is placed before them on a later try, the corner spaces'
numbers first, and a try that writes fewer corner numbers never wins; a number still with no
room beside its space is joined to it by a leader; one crowded out even so takes a spot that
a word or two placed before it move away from (and the words moved keep the map's rules).

The sizes are the app's at 800x480 (the race screen's map and the map a tap opens over the
whole window), rounded: markers of about 37 x 19.6 px / 46 x 24.5 px, numbers 10 / 13 px tall;
and, for the crowded maps at every table size, as the app measured them (``TABLES``).
"""

from __future__ import annotations

import math
from functools import cache

import pytest
from test_track_map import CLEAR, LEADER_EM, NEAR_EM, _box_gap, _leader_problems, _line_gap

import tracks
from companion.ui.views.map_clearance import pairs, point_box, point_segment, segment_box
from companion.ui.views.map_labels import MARGINS, Plan, fitted_plan, plan_labels
from companion.ui.views.map_spots import (
    BAND_STEPS,
    CORNER_LINE,
    CORNER_LINE_WIDTH,
    FINISH_LINE,
    FINISH_LINE_WIDTH,
    LEADER_WIDTH,
    MAX_GAP_EM,
)
from companion.ui.views.track_shapes import MapGeometry, geometry_for
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


# --- the crowded maps at every table size ------------------------------------------------------

TABLES = {
    "800x480": {"left": 4.5, "right": 361.129, "top": 423.0, "label": 14.25,
                "bottoms": (80.85, 107.1, 133.35, 159.6, 185.85, 212.1), "marker": 19.5875,
                "height": 10.0, "reserved": ((6.5, 398.0, 29.5, 421.0),)},
    "1280x720": {"left": 7.0, "right": 577.934, "top": 633.0, "label": 21.85,
                 "bottoms": (124.15, 164.4, 204.65, 244.9, 285.15, 325.4), "marker": 28.3275,
                 "height": 14.0, "reserved": ((9.0, 596.0, 44.0, 631.0),)},
}
"""The race screen's map in a window of each size, as the app lays it out for 1 to 6 cars (the
fewer cars race, the taller it is): its left, right and top edges, its bottom edge per table
size, the corners' label size (its margin, as ``TrackMap._fit``), the markers' height, the
numbers' ink height and the magnifier's box."""

_ESPANA_800 = (
    [(11, 38.18), (15, 36.43), (29, 36.43), (32, 36.43), (44, 36.43), (65, 38.18), (85, 36.43),
     (92, 38.18), (95, 36.43), (98, 39.05), (103, 38.8)],
    {11: 13, 15: 15, 29: 15, 32: 16, 44: 15, 65: 16, 85: 16, 92: 16, 95: 16, 98: 16, 103: 23,
     5: 8, 10: 15, 20: 15, 25: 15, 30: 16, 35: 16, 40: 15, 45: 15, 50: 16, 55: 16, 60: 16,
     70: 15, 75: 15, 80: 16, 90: 16, 100: 23, 105: 23})
_ESPANA_1280 = (
    [(space, 53.85) for space in (11, 15, 29, 32, 44, 65, 85, 92, 95, 98, 103)],
    {11: 17, 15: 20, 29: 20, 32: 20, 44: 22, 65: 20, 85: 20, 92: 20, 95: 20, 98: 21, 103: 31,
     5: 9, 10: 21, 20: 21, 25: 20, 30: 21, 35: 20, 40: 21, 45: 20, 50: 21, 55: 20, 60: 21,
     70: 21, 75: 20, 80: 21, 90: 21, 100: 32, 105: 31})
_SOUTH_AFRICA_1280 = (
    [(space, 53.85) for space in (11, 19, 24, 35, 46, 55, 61)],
    {11: 17, 19: 20, 24: 22, 35: 20, 46: 21, 55: 20, 61: 17, 5: 9, 10: 21, 15: 20, 20: 21,
     25: 20, 30: 21, 40: 21, 45: 20, 50: 21, 60: 21, 65: 20, 70: 21})
TABLE_MEASURED = {
    ("espana", "800x480"): _ESPANA_800,
    ("south-africa", "800x480"): MEASURED["south-africa", "race screen"],
    ("espana", "1280x720"): _ESPANA_1280,
    ("south-africa", "1280x720"): _SOUTH_AFRICA_1280,
}
"""The markers' widths and the numbers' ink widths as the app measured them (en) on the two
crowded maps: España and South Africa."""

@cache
def _table_plan(track_id: str, size: str, cars: int) -> tuple[Plan, MapGeometry, list[int]]:
    """The plan of the race screen's map for ``cars`` cars in a ``size`` window (worked out
    once for both tests)."""
    table = TABLES[size]
    track = tracks.load_track(track_id)
    left, right, top = table["left"], table["right"], table["top"]
    bottom = table["bottoms"][cars - 1]
    width, height = right - left, top - bottom
    margin = max(8.0, min(width, height) * 0.09, table["label"] * 2.0)
    markers, inks = TABLE_MEASURED[track_id, size]
    corners = [(space, marker_width, table["marker"]) for space, marker_width in markers]
    numbers = [(s, float(inks[s]), table["height"]) for s in labelled_spaces(track)]
    geometry, plan = fitted_plan(
        lambda times: geometry_for(track_id, track.spaces, left, bottom, width, height,
                                   margin * times),
        lambda geometry: plan_labels(geometry, (left + 1, bottom + 1, right - 1, top - 1),
                                     corners, numbers, reserved=table["reserved"]))
    return plan, geometry, [space for space, _width in markers]


@pytest.mark.parametrize("size", TABLES)
def test_every_fifth_number_at_every_table_size(size: str) -> None:
    """España and South Africa, the crowded maps, on the race screen with 1 to 6 cars: every
    corner space's number and every fifth written. Before the track could be drawn a little
    smaller (:func:`fitted_plan`), España's 80 was left out at 800x480 with three or four
    cars (its spots lie between the legs by 90 and 92, where 92's number has its only
    spots). Before the words placed could move to make room: at 800x480 España 100 at every
    table size and 80 with 1 or 2 cars, South Africa 20 with 5 or 6; at 1280x720 España 80
    with 2 cars, 25 with 5, 75 and 100 with 6."""
    for track_id in ("espana", "south-africa"):
        for cars in range(1, 7):
            plan, _geometry, _lines = _table_plan(track_id, size, cars)
            assert plan.left_out == (), (track_id, cars)


def test_a_track_is_drawn_smaller_only_for_a_number_left_out() -> None:
    """:func:`fitted_plan`: a plan that leaves nothing out keeps the track's usual size; one
    that leaves a number out tries the track smaller, in order, and takes the first that
    leaves none out, else the one that leaves fewest (the larger on a tie); one that leaves
    out more than a few is not tried again (a window far too small for its words)."""
    def run(left_out: dict[float, tuple[int, ...]]) -> tuple[float, list[float]]:
        tried: list[float] = []

        def geometry_at(times: float) -> MapGeometry:
            tried.append(times)
            return MapGeometry(centres=((times, 0.0), (1.0, 1.0), (0.0, 1.0)), band=6.0,
                               inside=1.0, lane_1_left=True)

        def plan_at(geometry: MapGeometry) -> Plan:
            return Plan(corners=(), numbers={}, left_out=left_out[geometry.centres[0][0]])

        geometry, _plan = fitted_plan(geometry_at, plan_at)
        return geometry.centres[0][0], tried

    assert MARGINS == (1.1, 1.2)
    assert run({1.0: ()}) == (1.0, [1.0])
    assert run({1.0: (80,), 1.1: (), 1.2: ()}) == (1.1, [1.0, 1.1])
    assert run({1.0: (80,), 1.1: (80, 95), 1.2: ()}) == (1.2, [1.0, 1.1, 1.2])
    assert run({1.0: (80, 95), 1.1: (100,), 1.2: (100,)}) == (1.1, [1.0, 1.1, 1.2])
    assert run({1.0: (80,), 1.1: (100,), 1.2: (80, 95)}) == (1.0, [1.0, 1.1, 1.2])
    assert run({1.0: (5, 80, 95)}) == (1.0, [1.0])


@pytest.mark.parametrize("size", TABLES)
def test_the_words_moved_to_make_room_keep_the_map_s_rules(size: str) -> None:
    """The same maps (their words moved to make room): every number's leader passes the
    drawn map's checks (``test_track_map._leader_problems``: from the band's edge by its own
    space at 30 degrees or more, short, crossing no line and no marker, other legs only
    across them, a far number apart from the other words and legs); a number without one is
    nearer its own space's centre than any other's and close to its band; a marker's leader
    is short; no word touches another, the band or a line but its own leader."""
    for track_id in ("espana", "south-africa"):
        for cars in range(1, 7):
            plan, geometry, lines = _table_plan(track_id, size, cars)
            problems = _plan_problems(plan, geometry, lines)
            assert not problems, (track_id, cars, problems)


def _plan_problems(plan: Plan, geometry: MapGeometry, corner_lines: list[int]) -> list[str]:
    """What is wrong with a plan's words, checked as ``test_track_map`` checks the drawn map
    (the lines as the map draws them; a marker as its whole box)."""
    band = {"points": [list(p) for p in geometry.path(BAND_STEPS)],
            "half_width": geometry.band / 2, "closed": True}

    def line(a, b, half_width: float) -> dict:
        return {"points": [list(a), list(b)], "half_width": max(half_width, 1.0),
                "closed": False}

    drawn_lines = [band]
    for line_after, reach, width in [*((s, CORNER_LINE, CORNER_LINE_WIDTH) for s in corner_lines),
                                     (geometry.spaces, FINISH_LINE, FINISH_LINE_WIDTH)]:
        (x, y), (nx, ny) = geometry.line_after(line_after)
        r = geometry.band * reach
        drawn_lines.append(line((x - nx * r, y - ny * r), (x + nx * r, y + ny * r), width))
    number_leaders = {space: line(*ends, LEADER_WIDTH) for space, ends in plan.leaders.items()}
    marker_leaders = [line(*p.leader, LEADER_WIDTH) for p in plan.corners if p.leader]
    drawn_lines += [*number_leaders.values(), *marker_leaders]
    drawn = {"centres": [list(c) for c in geometry.centres], "lines": drawn_lines}
    markers = [p.box for p in plan.corners]
    words = [*plan.numbers.values(), *markers]
    problems = []
    for space, box in plan.numbers.items():
        label = f"number {space}"
        if space in number_leaders:
            problems += _leader_problems(label, number_leaders[space], space, drawn, band, box,
                                         markers, words)
        else:
            middle = _middle(box)
            if _nearest_space(geometry, geometry.spaces, middle) != space:
                problems.append(f"{label} is nearer another space's centre")
            off = point_box(geometry.centre(space), box) - geometry.band / 2
            if off > NEAR_EM * (box[3] - box[1]):
                problems.append(f"{label} is {off:.0f} px off the band")
        own = number_leaders.get(space)
        problems += [f"{label} touches a line" for drawn_line in drawn_lines
                     if drawn_line is not own and _line_gap(drawn_line, box) < CLEAR]
    for place, line_after in zip(plan.corners, corner_lines, strict=True):
        height = place.box[3] - place.box[1]
        if place.leader and math.dist(*place.leader) > LEADER_EM * height:
            problems.append(f"corner {line_after}'s leader is long")
        if _line_gap(band, place.box) < 0:
            problems.append(f"corner {line_after}'s marker is on the band")
    for i, a in enumerate(words):
        problems += [f"{a} touches {b}" for b in words[i + 1:] if _box_gap(a, b) < CLEAR]
    return problems


def test_a_map_far_too_small_for_its_words_searches_room_for_a_few_numbers(monkeypatch) -> None:
    """Step 5 looks for room for the first :data:`~.map_repair.SEARCHED` numbers left out
    only: each search costs up to a tenth of a second here, and a map far too small for its
    words (España's race-screen map with the text of a window 1.6 times larger) leaves
    11 out after step 4: all 11 were searched. The rest stay left out."""
    from companion.ui.views import map_labels, map_repair

    searched: list[int] = []
    moves = map_repair._Repair.moves

    def recorded(self, space: int, moved: int):
        if space not in searched:
            searched.append(space)
        return moves(self, space, moved)

    monkeypatch.setattr(map_repair._Repair, "moves", recorded)
    before: list[tuple[int, ...]] = []
    repaired = map_labels.repaired

    def seen(spots, plan, *args):
        before.append(plan.left_out)
        return repaired(spots, plan, *args)

    monkeypatch.setattr(map_labels, "repaired", seen)
    scale = 1.6
    crowded = dict(RACE_SCREEN, marker=(37.0 * scale, 19.6 * scale), digit=8.0 * scale,
                   height=10.0 * scale)
    plan, _corner_spaces, wanted = _plan("espana", crowded)
    assert len(before) == 1 and len(before[0]) > map_repair.SEARCHED, before
    assert searched == list(before[0][:map_repair.SEARCHED])
    assert set(before[0][map_repair.SEARCHED:]) <= set(plan.left_out)
    assert sorted([*plan.numbers, *plan.left_out]) == sorted(wanted)
