"""The map matches the words (issue 10, point 7): corners numbered as the rulings number them,
with their speed limit; space numbers every fifth space and at every corner; each car's space
in the race order; and each track in its own shape, not one oval for all."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from race_forms import race_form

import tracks
from companion.ui.views.track_shapes import (
    OUTLINES,
    centre_line,
    fit,
    is_measured,
    outline,
    stadium,
)
from companion.ui.widgets.lookup import find
from companion.ui.widgets.track_map import labelled_spaces, race_line_lane

BUNDLED = [info.track for info in tracks.available_tracks()]


@pytest.mark.parametrize("track", BUNDLED, ids=lambda t: t.id)
def test_every_bundled_track_has_its_measured_outline(track) -> None:
    points = outline(track.id)
    assert len(points) == track.spaces and is_measured(track.id, track.spaces)
    steps = [math.dist(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]
    median = sorted(steps)[len(steps) // 2]
    # Spaces follow each other (one long step is Japan's crossover bridge).
    assert max(steps) < 3 * median and min(steps) > 0.3 * median


def _signature(points) -> tuple[float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    aspect = (max(xs) - min(xs)) / (max(ys) - min(ys))
    area = abs(sum(ax * by - bx * ay for (ax, ay), (bx, by)
                   in zip(points, points[1:] + points[:1], strict=True))) / 2
    perimeter = sum(math.dist(points[i], points[(i + 1) % len(points)])
                    for i in range(len(points)))
    return round(aspect, 2), round(4 * math.pi * area / perimeter ** 2, 2)


def test_the_tracks_have_shapes_of_their_own() -> None:
    shapes = {t.id: _signature(centre_line(t.id, t.spaces)) for t in BUNDLED}
    assert len(set(shapes.values())) == len(BUNDLED), shapes
    assert _signature(stadium(60)) not in shapes.values()
    assert set(OUTLINES) == {t.id for t in BUNDLED}


def test_an_unknown_track_is_drawn_as_a_stadium() -> None:
    assert centre_line("somewhere", 40) == stadium(40)
    geometry = fit(stadium(40), 0, 0, 400, 200, 10)
    assert geometry.inside == 1.0  # run anticlockwise


# --- on the race screen ------------------------------------------------------------------------

def _race(ui, track: str, legends: int = 3) -> None:
    from companion.ui.demo.table_shots import start

    start(ui.app, ("Maximilianus", "Bartholomew"), legends, track=track)
    ui.pump(3)


@pytest.mark.ui
@pytest.mark.parametrize("legends", [1, 2], ids=["3 cars", "4 cars"])
def test_a_crowded_map_is_drawn_a_little_smaller_to_write_every_number(ui, legends: int) -> None:
    """España on the race screen at 800x480 with 3 or 4 cars: its plan at the usual size
    leaves 80 out (its spots lie where 92's number has its only ones); the track drawn a
    little smaller (``map_labels.fitted_plan``) writes every corner space's number and
    every fifth, 80 among them, inside the map. Fails with the track at its usual size
    only (``MARGINS = ()``: 80 left out)."""
    _race(ui, "espana", legends=legends)
    track_map = ui.app.sm.current_screen.ids.map
    assert len(ui.app.controller.state.cars) == 2 + legends
    # the map this case is about: 3 cars leave it 289.65 px tall, each more 26.25 less
    assert tuple(track_map.size) == pytest.approx((356.629, 289.65 - 26.25 * (legends - 1)),
                                                  abs=0.5)
    assert track_map.spaces_left_out == []
    track = ui.app.controller.state.track
    assert sorted(track_map.space_labels) == sorted(labelled_spaces(track))
    assert 80 in track_map.space_labels
    for cx, cy in track_map.space_labels.values():
        assert track_map.x <= cx <= track_map.right and track_map.y <= cy <= track_map.top


@pytest.mark.ui
@pytest.mark.parametrize("track_id", ["usa", "italy", "japan"])
def test_the_map_numbers_corners_and_spaces_and_places_every_car(ui, track_id: str) -> None:
    app = ui.app
    _race(ui, track_id)
    track = app.controller.state.track
    screen = app.sm.current_screen
    track_map = screen.ids.map
    geometry = track_map.geometry
    assert geometry is not None
    assert sorted(track_map.corner_labels) == list(range(1, len(track.corners) + 1))
    # Every number is drawn or left out (never both), the corner spaces' all drawn.
    assert sorted([*track_map.space_labels, *track_map.spaces_left_out]) == sorted(
        labelled_spaces(track))
    assert {c.line_after for c in track.corners} <= set(track_map.space_labels)
    for cx, cy in [*track_map.corner_labels.values(), *track_map.space_labels.values()]:
        assert track_map.x <= cx <= track_map.right and track_map.y <= cy <= track_map.top
    for _ in range(12):  # a few moves, then every car where the engine has it
        ui.player.step()
    ui.pump(2)
    state = app.controller.state
    spaces = [track.space_of(c.distance) for c in state.cars if c.on_track]
    for car in state.cars:
        if not car.on_track:
            continue
        space = track.space_of(car.distance)
        lane = race_line_lane(track, space)
        x, y = geometry.spot(space, lane if car.race_line else 3 - lane)
        if spaces.count(space) > 1:  # two on one space: the Race Line's forward, the other back
            from companion.ui.widgets.track_map import SHARED_STEP

            radius = max(4.5, min(geometry.band * 0.42, 9.0))
            dx, dy = geometry.direction(space)
            step = radius * SHARED_STEP * (1.0 if car.race_line else -1.0)
            x, y = x + dx * step, y + dy * step
        assert math.dist(track_map.marker_positions[car.id], (x, y)) < 0.5
        cell = find(screen, f"space {car.id}").text
        assert cell.split()[0] == str(space)
        assert cell.split()[1] == ("RL" if car.race_line else "out")


@pytest.mark.ui
def test_the_corner_a_ruling_names_is_on_the_map(ui) -> None:
    app = ui.app
    _race(ui, "usa", legends=5)
    named: set[int] = set()
    for _ in range(150):
        for text in app.controller.messages:
            named |= {int(n) for n in re.findall(r"corner (\d+)", text)}
        if named:
            break
        ui.player.step()
    assert named
    assert named <= set(app.sm.current_screen.ids.map.corner_labels)


@pytest.mark.ui
def test_the_track_is_drawn_once_taps_redraw_only_the_cars(ui, monkeypatch) -> None:
    """Placing the words costs more than the cars: the track (and its words) is drawn when the
    track, size, text size or theme change, never on a tap; a theme change redraws it at
    once (not at the next tap)."""
    from companion.ui.widgets.track_map import TrackMap

    drawn: list[str] = []
    render = TrackMap._render_track
    monkeypatch.setattr(TrackMap, "_render_track",
                        lambda self, *args: drawn.append(args[-1].theme_name)
                        or render(self, *args))
    _race(ui, "espana")
    assert drawn == ["dark"]
    track_map = ui.app.sm.current_screen.ids.map
    placed = dict(track_map.space_labels)
    for _ in range(30):
        ui.player.step()
    ui.pump(2)
    assert drawn == ["dark"], "a tap redrew the track"
    ui.app.set_theme("light")
    ui.pump(2)
    assert drawn == ["dark", "light"]
    assert track_map.space_labels == placed  # the same places in every theme
    ui.app.set_theme("dark")
    ui.pump(2)


@pytest.mark.ui
@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_a_larger_window_draws_the_track_once_at_the_size_the_map_settles_on(
        ui, monkeypatch, size: tuple[int, int]) -> None:
    """The text grows with the window at once, the map's box one layout after another: the
    track (and the words' places, seconds of work for a map too small for its text) is drawn
    once, when the map has its new size, not at each size on the way (España: three times,
    about 4 s, at 1366x768)."""
    from kivy.core.window import Window

    from companion.ui.widgets.lookup import walk
    from companion.ui.widgets.track_map import TrackMap

    _race(ui, "espana")
    screen = ui.app.sm.current_screen
    track_map = next(w for w in walk(screen) if isinstance(w, TrackMap))  # not a proxy
    drawn: list[tuple[tuple[float, float], float]] = []
    render = TrackMap._render_track

    def recorded(self, *args):  # (state, words, plan, app)
        if self is track_map:
            drawn.append((tuple(self.size), args[-1].fs))
        return render(self, *args)

    monkeypatch.setattr(TrackMap, "_render_track", recorded)
    try:
        Window.size = size
        ui.pump(3)
        assert drawn == [(tuple(track_map.size), ui.app.fs)], drawn
        assert track_map.width > 500 and not track_map.spaces_left_out
    finally:
        Window.size = (800, 480)
        ui.pump(3)
    assert len(drawn) == 2 and drawn[-1] == (tuple(track_map.size), ui.app.fs)


# --- the words on the map: clear of the track, of each other and of the edges -----------------
#
# Read back from what the map drew (its offscreen canvas's instructions, by ``map_probe.py``)
# at 800x480 and 1280x720 with six cars, on every bundled track, in en, zh_TW and ko. A text's
# box is its ink (the texture's inked pixels where the rectangle draws them).
# One probe process per size, each set up by the first test of its size.

PROBE = Path(__file__).with_name("map_probe.py")
REPO = Path(__file__).resolve().parents[2]
SIZES = ("800x480", "1280x720")
CLEAR = 1.0
"""Pixels that must separate a text from anything else drawn."""
NEAR_EM = 1.5
"""A space number's ink lies within this many of its own heights of its space's band edge."""
LEADER_EM = 5.0
"""A corner marker away from its Corner Line is joined to it by a leader at most this many
marker heights long."""
NUMBER_LEADER_EM = 3.5
"""A space number away from its space is joined to it by a leader at most this many of the
number's heights long ..."""
FAR_LEADER_EM = 6.5
"""... or, where no such spot was clear, one at most this many long that crosses other legs
of the band, each across it (at 30 degrees or more), its number standing apart from other
words by FAR_APART_EM of its height."""
FAR_APART_EM = 0.75
FAR_LEGS_EM = 1.4
"""... and from any leg of the band but its own stretch (the spaces within 3 of its own) by
this many (it would read as that leg's number)."""

Box = tuple[float, float, float, float]


def _box_gap(a: Box, b: Box) -> float:
    return math.hypot(max(a[0] - b[2], b[0] - a[2], 0.0), max(a[1] - b[3], b[1] - a[3], 0.0))


def _point_box(p, box: Box) -> float:
    return math.hypot(max(box[0] - p[0], 0.0, p[0] - box[2]),
                      max(box[1] - p[1], 0.0, p[1] - box[3]))


def _point_segment(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy or 1e-12
    t = min(1.0, max(0.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _cross(a, b, c, d) -> bool:
    """Segments ab and cd cross (or touch)."""
    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return (side(a, b, c) * side(a, b, d) <= 0) and (side(c, d, a) * side(c, d, b) <= 0)


def _segment_box(a, b, box: Box) -> float:
    """Distance from a segment to a box: 0 if it has a point inside the box or crosses a
    side, else the least of its ends' distances to the box and the box's corners' to it."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    if _point_box(a, box) == 0.0 or _point_box(b, box) == 0.0 or any(
            _cross(a, b, corners[i], corners[(i + 1) % 4]) for i in range(4)):
        return 0.0
    return min(_point_box(a, box), _point_box(b, box),
               *(_point_segment(c, a, b) for c in corners))


def _inside(inner: Box, outer: Box, slack: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _grown(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _in_ring(box: Box, ellipse: Box, line: float) -> bool:
    """The box's corners lie inside the ellipse's line (drawn ``line`` either side)."""
    cx, cy = _centre(ellipse)
    a = (ellipse[2] - ellipse[0]) / 2 - line
    b = (ellipse[3] - ellipse[1]) / 2 - line
    return all(((x - cx) / a) ** 2 + ((y - cy) / b) ** 2 <= 1.0
               for x in (box[0], box[2]) for y in (box[1], box[3]))


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _segments(line: dict) -> list[tuple[list[float], list[float]]]:
    points = line["points"]
    pairs = list(zip(points, points[1:], strict=False))
    if line["closed"]:
        pairs.append((points[-1], points[0]))
    return pairs


def _line_gap(line: dict, box: Box) -> float:
    """How far ``box`` is from the stroke of ``line`` (negative: it overlaps the stroke)."""
    reach = line["half_width"]
    grown = (box[0] - reach - 5, box[1] - reach - 5, box[2] + reach + 5, box[3] + reach + 5)
    near = [(a, b) for a, b in _segments(line)
            if _box_gap((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])),
                        grown) == 0.0]
    return min((_segment_box(a, b, box) for a, b in near), default=math.inf) - reach


def _on_band_edge(point, band: dict) -> bool:
    """``point`` lies on the edge of the band (within a pixel and a half)."""
    return abs(min(_point_segment(point, a, b) for a, b in _segments(band))
               - band["half_width"]) < 1.5


def _number_leaders(drawn: dict, band: dict, numbers: list[dict]) -> dict[str, dict]:
    """Number -> the straight line from the band's edge to the number's ink (a number's
    leader), for the numbers that have one."""
    found = {}
    for line in drawn["lines"]:
        if line["closed"] or len(line["points"]) != 2:
            continue
        start, end = line["points"]
        on_edge = _on_band_edge(start, band)
        ending = [t["text"] for t in numbers if _point_box(end, t["box"]) < 1.5]
        if on_edge and len(ending) == 1:
            found[ending[0]] = line
    return found


def _leader_problems(label: str, leader: dict, space: int, drawn: dict, band: dict,
                     box: Box, shapes: list[Box], words: list[Box]) -> list[str]:
    """What is wrong with a space number's leader: it must start at the band's edge by its own
    space (no other space's centre nearer), leave the band at 30 degrees or more, be short,
    and cross no other line and no marker; and either cross no other leg of the band or (a
    longer leader, its number standing apart from the other ``words``) cross each leg it meets
    at 30 degrees or more, never running along one."""
    centres = drawn["centres"]
    start, end = leader["points"]
    problems = []
    nearest = min(range(len(centres)), key=lambda i: math.dist(start, centres[i])) + 1
    if nearest != space or not _on_band_edge(start, band):
        problems.append(f"{label}'s leader starts away from its space")
    n = len(centres)
    back, ahead = centres[(space - 2) % n], centres[space % n]
    along = math.atan2(ahead[1] - back[1], ahead[0] - back[0])
    leaving = math.atan2(end[1] - start[1], end[0] - start[0])
    if abs(math.sin(leaving - along)) < math.sin(math.radians(29.5)):
        problems.append(f"{label}'s leader runs along the band")
    height = box[3] - box[1]
    own = {space, space % n + 1, (space - 2) % n + 1}
    reach = band["half_width"] + leader["half_width"] + CLEAR
    steps = max(2, int(math.dist(start, end)))
    crossed = set()
    for k in range(steps + 1):
        p = (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        on_band = min(_point_segment(p, a, b) for a, b in _segments(band)) < reach
        nearest = min(range(n), key=lambda i: math.dist(p, centres[i])) + 1
        if on_band and nearest not in own:
            crossed.add(nearest)
            a, b = centres[(nearest - 2) % n], centres[nearest % n]
            leg = math.atan2(b[1] - a[1], b[0] - a[0])
            if abs(math.sin(leaving - leg)) < math.sin(math.radians(29.5)):
                problems.append(f"{label}'s leader runs along the band at space {nearest}")
                break
    far = crossed or math.dist(start, end) > NUMBER_LEADER_EM * height
    if math.dist(start, end) > (FAR_LEADER_EM if far else NUMBER_LEADER_EM) * height:
        problems.append(f"{label}'s leader is {math.dist(start, end):.0f} px long")
    if far and any(_box_gap(box, word) < FAR_APART_EM * height for word in words
                   if word != box):
        problems.append(f"{label}, far from its space, stands close to another word")
    if far:
        for a, b in _segments(band):
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            leg = min(range(n), key=lambda i: math.dist(middle, centres[i])) + 1
            gap = _segment_box(a, b, box) - band["half_width"]
            if min((leg - space) % n, (space - leg) % n) > 3 and gap < FAR_LEGS_EM * height:
                problems.append(f"{label}, far from its space, stands beside space {leg}")
                break
    # Any other line (a Corner Line, the finish line, a marker's or a number's leader), but
    # those drawn on the band (the space boundaries, the Race Line: the band test above).
    near = _grown((min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]),
                   max(start[1], end[1])), 5.0)
    for line in drawn["lines"]:
        if line["closed"] or line is leader:
            continue
        if all(_box_gap(near, (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]),
                               max(a[1], b[1]))) > 0 for a, b in _segments(line)):
            continue
        ends = (line["points"][0], line["points"][-1])
        if all(min(_point_segment(p, a, b) for a, b in _segments(band)) < reach - CLEAR
               for p in ends):
            continue
        if any(_segment_segment(start, end, a, b) < line["half_width"] + leader["half_width"]
               for a, b in _segments(line)):
            problems.append(f"{label}'s leader crosses a line")
    if any(_segment_box(start, end, shape) < leader["half_width"] for shape in shapes):
        problems.append(f"{label}'s leader crosses a marker")
    return problems


def _segment_segment(a, b, c, d) -> float:
    if _cross(a, b, c, d):
        return 0.0
    return min(_point_segment(a, c, d), _point_segment(b, c, d), _point_segment(c, a, b),
               _point_segment(d, a, b))


def map_problems(drawn: dict, expected_spaces: set[int], corner_spaces: set[int]) -> list[str]:
    """Everything wrong with the words of one map as drawn (see the section's comment)."""
    from companion.ui.widgets.measure import READABLE_PX

    problems: list[str] = []
    where = f"{drawn['track']} {drawn['size']} {drawn['language']}"
    widget: Box = tuple(drawn["map"])
    band = max((line for line in drawn["lines"] if line["closed"]),
               key=lambda line: line["half_width"])
    lines = drawn["lines"]
    corners = drawn["corners"]
    squares, discs = drawn["squares"], drawn["discs"]
    # Every corner has its marker: a square with its number, a ring with its limit.
    if not (len(squares) == len(discs) == len(drawn["circles"]) == len(corners)):
        return [f"{where}: {len(corners)} corners but {len(squares)} squares, {len(discs)} "
                f"rings"]
    rings = [_grown(r["box"], r["half_width"]) for r in drawn["circles"]]
    ring_lines = [r["half_width"] for r in drawn["circles"]]
    markers = [(s, d, r) for s, d, r in zip(squares, discs, rings, strict=True)]
    marker_texts: dict[int, list[int]] = {}
    numbers: list[int] = []
    texts = drawn["texts"]
    for index, text in enumerate(texts):
        owner = [m for m, shapes in enumerate(markers)
                 if any(_inside(text["box"], shape) for shape in shapes[:2])]
        if owner:
            marker_texts.setdefault(owner[0], []).append(index)
        else:
            numbers.append(index)
    for number, corner in enumerate(corners, start=1):
        square, disc, _ring = markers[number - 1]
        owned = [texts[i] for i in marker_texts.get(number - 1, [])]
        if [t["text"] for t in owned if _inside(t["box"], square)] != [str(number)]:
            problems.append(f"{where}: corner {number}'s square does not read {number}")
        if [t["text"] for t in owned if _inside(t["box"], disc)] != [str(corner["limit"])]:
            problems.append(f"{where}: corner {number}'s ring does not read {corner['limit']}")
        for text in owned:
            if _inside(text["box"], disc) and not _in_ring(text["box"], disc,
                                                           ring_lines[number - 1]):
                problems.append(f"{where}: corner {number}'s limit touches its ring")
    # Everything inside the widget, no text under the readable size.
    for shape in [*squares, *discs, *rings, *(t["box"] for t in texts)]:
        if not _inside(shape, widget):
            problems.append(f"{where}: {shape} is outside the map {widget}")
    if min(drawn["font_sizes"]) < READABLE_PX:
        problems.append(f"{where}: a map text at {min(drawn['font_sizes'])} px")
    # Nothing under the race screen map's magnifier.
    badges: list[Box] = [tuple(drawn["badge"])] if drawn.get("badge") else []
    for shape in [*squares, *discs, *rings, *(t["box"] for t in texts)]:
        if any(_box_gap(shape, badge) < CLEAR for badge in badges):
            problems.append(f"{where}: {[round(v) for v in shape]} is under the magnifier")
    # Markers clear of the band and of each other.
    for m, shapes in enumerate(markers):
        for shape in shapes:
            if _line_gap(band, shape) < 0:
                problems.append(f"{where}: corner {m + 1}'s marker is on the track")
        for other in markers[m + 1:]:
            if any(_box_gap(a, b) == 0.0 for a in shapes for b in other):
                problems.append(f"{where}: corner {m + 1}'s marker touches another")
    # Each marker on its Corner Line's end, or joined to it by a short leader.
    for number, corner in enumerate(corners, start=1):
        shapes = markers[number - 1]
        middle = corner["middle"]
        marker: Box = (min(s[0] for s in shapes), min(s[1] for s in shapes),
                       max(s[2] for s in shapes), max(s[3] for s in shapes))
        height = shapes[0][3] - shapes[0][1]
        line_end = drawn["band"] * 0.75
        if _point_box(middle, marker) <= line_end + 3:
            continue
        joined = [line for line in lines if not line["closed"] and len(line["points"]) == 2
                  and abs(math.dist(line["points"][0], middle) - line_end) < 1.5
                  and _point_box(line["points"][1], marker) < 1.5
                  and math.dist(*line["points"]) <= LEADER_EM * height]
        if not joined:
            problems.append(f"{where}: corner {number}'s marker is away from its line, "
                            f"with no leader to it")
    # A number away from its space: its leader, from the band at its own space to the number.
    number_leaders = _number_leaders(drawn, band, [texts[i] for i in numbers])
    # No text over another text, over a marker (but its own), or over any line drawn (but its
    # own leader).
    for index, text in enumerate(texts):
        box = text["box"]
        label = f"{where}: text {text['text']!r} at {[round(v) for v in box]}"
        own_leader = number_leaders.get(text["text"])
        for other in texts[index + 1:]:
            if _box_gap(box, other["box"]) < CLEAR:
                problems.append(f"{label} touches text {other['text']!r}")
        own = next((m for m, idx in marker_texts.items() if index in idx), None)
        for m, shapes in enumerate(markers):
            if m != own and any(_box_gap(box, shape) < CLEAR for shape in shapes):
                problems.append(f"{label} touches corner {m + 1}'s marker")
        for line in lines:
            if line is not own_leader and _line_gap(line, box) < CLEAR:
                kind = "the track band" if line is band else "a line"
                problems.append(f"{label} touches {kind}")
    # Space numbers: the expected ones, once, each nearer its space than any other.
    centres = drawn["centres"]
    seen: set[int] = set()
    for index in numbers:
        text = texts[index]
        space = int(text["text"])
        label = f"{where}: number {space}"
        if space not in expected_spaces or space in seen:
            problems.append(f"{label} is not a space the map numbers, or drawn twice")
            continue
        seen.add(space)
        leader = number_leaders.get(text["text"])
        if leader is not None:
            problems += _leader_problems(label, leader, space, drawn, band, text["box"],
                                         [*squares, *discs, *rings],
                                         [t["box"] for t in texts] + squares + discs)
            continue
        middle = _centre(text["box"])
        nearest = min(range(len(centres)), key=lambda i: math.dist(middle, centres[i])) + 1
        if nearest != space:
            problems.append(f"{label} is nearer space {nearest}'s centre than its own")
        height = text["box"][3] - text["box"][1]
        off = _point_box(centres[space - 1], text["box"]) - drawn["band"] / 2
        if off > NEAR_EM * height:
            problems.append(f"{label} is {off:.0f} px off the band (> {NEAR_EM} em)")
    # A number left out had no clear spot; a corner space's, not even where an every-fifth
    # number now is.
    for space in sorted(expected_spaces - seen):
        fifths = {i for i in numbers if int(texts[i]["text"]) not in corner_spaces}
        blocking = [t["box"] for i, t in enumerate(texts)
                    if not (space in corner_spaces and i in fifths)]
        spot = _clear_spot(drawn, space, blocking, [*squares, *discs, *rings, *badges], lines,
                           _ink_size(texts, numbers, len(str(space))))
        if spot is not None:
            problems.append(f"{where}: number {space} is left out, but {spot} is clear")
    return problems


SEARCH_CLEAR = 3.0
"""A left-out number must have had no spot this clear of everything (the map's own search
keeps 2 px on a 2 px grid: a spot 4 px clear is one it cannot have missed)."""
SEARCH_EM = 0.9
"""... within this many text heights of its space's band edge (the map looks further)."""


def _ink_size(texts: list[dict], numbers: list[int], digits: int) -> tuple[float, float]:
    """The largest ink of a drawn number of as many digits (of any, if there is none)."""
    boxes = [texts[i]["box"] for i in numbers if len(texts[i]["text"]) == digits] or [
        texts[i]["box"] for i in numbers]
    return max(b[2] - b[0] for b in boxes), max(b[3] - b[1] for b in boxes)


def _clear_spot(drawn: dict, space: int, texts: list[Box], shapes: list[Box],
                lines: list[dict], size: tuple[float, float]) -> Box | None:
    """A box of ``size`` by ``space`` (nearer its centre than any other space's by 3 px,
    within SEARCH_EM of the band), inside the map and SEARCH_CLEAR px clear of ``texts``,
    ``shapes`` and ``lines``, on a 1 px grid; None if there is none."""
    width, height = size
    centres = drawn["centres"]
    own = centres[space - 1]
    band = drawn["band"]
    reach = band / 2 + SEARCH_EM * height
    extent = reach + max(width, height)
    others = [c for i, c in enumerate(centres, start=1)
              if i != space and math.dist(c, own) < 3 * extent]
    near = _grown((own[0] - extent, own[1] - extent, own[0] + extent, own[1] + extent),
                  SEARCH_CLEAR + 10)
    near_lines = [{"points": [a, b], "half_width": line["half_width"], "closed": False}
                  for line in lines for a, b in _segments(line)
                  if _box_gap(_grown((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]),
                                      max(a[1], b[1])), line["half_width"]), near) == 0.0]
    near_boxes = [b for b in [*texts, *shapes] if _box_gap(b, near) == 0.0]
    inside = _grown(tuple(drawn["map"]), -(1 + SEARCH_CLEAR))
    for dx in range(-int(extent), int(extent) + 1):
        for dy in range(-int(extent), int(extent) + 1):
            left, bottom = round(own[0] + dx - width / 2), round(own[1] + dy - height / 2)
            box = (left, bottom, left + width, bottom + height)
            off = _point_box(own, box)
            middle = _centre(box)
            if (off - band / 2 > reach - band / 2 or off < band / 2 + SEARCH_CLEAR
                    or not _inside(box, inside)
                    or any(math.dist(middle, c) < math.dist(middle, own) + 1 for c in others)
                    or any(_box_gap(box, b) < SEARCH_CLEAR for b in near_boxes)
                    or any(_line_gap(line, box) < SEARCH_CLEAR for line in near_lines)):
                continue
            return box
    return None


@pytest.fixture(scope="module", params=SIZES)
def drawn_maps(request: pytest.FixtureRequest) -> Iterator[tuple[str, list[dict]]]:
    """One size's maps (a probe process of its own: 5 s on a loaded 2-core host), set up by
    the first test of that size."""
    size: str = request.param
    yield size, _probe(size)


def _probe(*args: str) -> list[dict]:
    """What ``map_probe.py`` prints with ``args``, a JSON object per map."""
    with tempfile.TemporaryDirectory(prefix="heat-map-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
                   KIVY_HOME=str(Path(tmp) / "kivy"), PYTHONPATH=str(REPO))
        run = subprocess.run([sys.executable, str(PROBE), *args], env=env, cwd=REPO,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr[-3000:]
        return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


@pytest.mark.ui
@pytest.mark.parametrize("track", BUNDLED, ids=lambda t: t.id)
def test_every_word_on_the_map_is_clear(drawn_maps: tuple[str, list[dict]], track) -> None:
    """Every corner's marker drawn, reading its number and limit, clear of the track band
    and of the other markers, on its Corner Line or joined to it by a short leader; no text
    over another text, another marker, the band (any leg) or any line drawn; everything
    inside the map; no text under the readable size; each space number nearer its own
    space's centre than any other's and close to its band, or joined to it by a leader; every
    corner space's number written (the rulings name them); an every-fifth number left out
    only where no clear spot was near it."""
    size, found = drawn_maps
    _every_word_clear([d for d in found if d["track"] == track.id and d["size"] == size], track)


def _every_word_clear(maps: list[dict], track) -> None:
    """One track's maps, in en, zh_TW and ko: no problem with their words (:func:`map_problems`)."""
    assert [d["language"] for d in maps] == ["en", "zh_TW", "ko"]
    expected = set(labelled_spaces(track))
    corner_spaces = {c.line_after for c in track.corners}
    for drawn in maps:
        problems = map_problems(drawn, expected, corner_spaces)
        assert not problems, "\n".join(problems)
        assert not set(drawn["left_out"]) & corner_spaces, (drawn["size"], drawn["language"])


@pytest.fixture(scope="module")
def zoomed_maps() -> Iterator[list[dict]]:
    """The maps a tap on the race screen's map opens, at 800x480 (a probe process of its
    own), set up by the first test that asks."""
    yield _probe("800x480", "all", "zoom")


@pytest.mark.ui
@pytest.mark.parametrize("track", BUNDLED, ids=lambda t: t.id)
def test_the_map_over_the_window_writes_every_number(zoomed_maps: list[dict], track) -> None:
    """Where the race screen's map at 800x480 leaves numbers out, the map a tap opens over
    the whole window writes them all (every corner space and every fifth), larger, with the
    same care: every check of :func:`test_every_word_on_the_map_is_clear` holds."""
    from companion.ui.widgets.map_zoom import TEXT_SCALE
    from companion.ui.widgets.measure import READABLE_PX

    maps = [d for d in zoomed_maps if d["track"] == track.id]
    _every_word_clear(maps, track)
    for drawn in maps:
        assert drawn["left_out"] == [], drawn["language"]
        assert drawn["badge"] is None  # no magnifier on the map already magnified
        assert min(drawn["font_sizes"]) >= TEXT_SCALE * READABLE_PX - 0.01



def _drawn_textures(canvas, textures: set[int]) -> list:
    """The canvas's rectangles that draw one of ``textures`` (the map's words), in order."""
    from kivy.graphics import Rectangle

    return [i for i in canvas.children
            if isinstance(i, Rectangle) and id(getattr(i, "texture", None)) in textures]


def _first_visible_disc(drawn: list) -> object:
    """The first disc drawn in a colour that shows (the map keeps every car's halo and ring,
    transparent when not wanted: :mod:`companion.ui.widgets.car_marks`)."""
    from kivy.graphics import Color, Ellipse

    alpha = 1.0
    for instruction in drawn:
        if isinstance(instruction, Color):
            alpha = instruction.a
        elif isinstance(instruction, Ellipse) and alpha > 0:
            return instruction
    raise AssertionError("no disc drawn")


@pytest.mark.ui
@pytest.mark.parametrize("zoomed", [False, True], ids=["race screen", "zoomed"])
def test_a_car_never_hides_the_words_beside_its_spot(ui, zoomed: bool) -> None:
    """A car is drawn bigger than its lane: on a spot next to a space number or a corner's
    marker it would cover part of it (``race6-map-en.png``: the red car on space 5). Every word
    whose ink a car's disc reaches is drawn again after the car, over it; a word no car
    reaches is not. Checked from the drawing itself: the words' ink as the track's texture
    holds it, the car's disc as drawn."""
    from dataclasses import replace

    from kivy.graphics import Ellipse
    from map_probe import inked

    app = ui.app
    _race(ui, "usa", legends=1)
    screen = app.sm.current_screen
    track_map = screen.ids.map
    if zoomed:  # the map a tap opens over the whole window, its words and cars larger
        from companion.ui.demo.player import TablePlayer, tap_screen

        TablePlayer.last_tap += 1.0
        tap_screen(*track_map.to_window(*track_map.center), at=TablePlayer.last_tap)
        ui.pump(2)
        track_map = screen.map_zoom.map
    state = app.controller.state
    track = state.track
    car = next(c for c in state.cars if not c.legend)
    track_map.current, track_map.moved = "", []
    from kivy.graphics import Rectangle

    plain = Rectangle().texture  # what a rectangle with no texture of its own draws with
    words = [(rect.texture, inked(rect)) for rect in track_map._fbo.children
             if isinstance(rect, Rectangle) and not isinstance(rect, Ellipse)
             and rect.texture not in (None, plain)]
    textures = {id(texture) for texture, _box in words}
    assert len(words) > 20
    covered = 0
    for space in sorted(track_map.space_labels):
        for race_line in (True, False):
            here = replace(car, distance=track.distance_of(1, space), race_line=race_line)
            track_map.state = replace(state, cars=tuple(
                here if c.id == car.id else replace(c, on_track=False) for c in state.cars))
            track_map.redraw()
            drawn = list(track_map.canvas.children)
            disc = _first_visible_disc(drawn)  # the car (its halo and ring: transparent)
            (x, y), (w, h) = disc.pos, disc.size
            again = _drawn_textures(track_map.canvas, textures)
            for texture, box in words:
                if box[0] < x + w and x < box[2] and box[1] < y + h and y < box[3]:
                    covered += 1
                    assert any(r.texture is texture for r in again), (space, race_line, box)
            for rect in again:
                assert drawn.index(rect) > drawn.index(disc)  # over the car
    assert covered > 0  # some spot does reach a word (else the test proved nothing)


@pytest.mark.ui
def test_a_text_s_ink_is_read_back_once(ui, monkeypatch) -> None:
    """Where a text is inked is read back from its texture (about 0.3 ms a text) once per text
    and style: the same in every colour, and a track drawn again with the same words (a theme
    change, another track's numbers) reads nothing back."""
    from companion.ui.widgets import map_words as module

    reads = []
    real = module.ink_box
    monkeypatch.setattr(module, "ink_box", lambda texture: reads.append(texture) or real(texture))
    light = module._label("47", 19.0, (1, 1, 1, 1), bold=True)
    dark = module._label("47", 19.0, (0.05, 0.05, 0.05, 1), bold=True)
    bigger = module._label("47", 26.0, (1, 1, 1, 1), bold=True)
    module._INKS.clear()
    assert module.label_ink(light) == real(light.texture)
    assert module.label_ink(dark) == real(dark.texture)  # another colour: no read back ...
    assert len(reads) == 1
    assert module.label_ink(bigger) == real(bigger.texture)  # ... another size: one
    assert len(reads) == 2 and real(bigger.texture) != real(light.texture)
    _race(ui, "great-britain")
    track_map = ui.app.sm.current_screen.ids.map
    reads.clear()
    track_map._static_key = track_map._cars_key = None  # as a change of theme redraws it
    track_map.redraw()
    assert reads == []
    assert len(track_map.texts) > 20  # the words were drawn


@pytest.mark.ui
def test_the_cars_are_moved_in_place(ui) -> None:
    """A tap that moves cars moves their marks: the same canvas instructions, not new ones
    (freeing drawn instructions costs a tap more than drawing them), the canvas no longer
    after a dozen taps than the cars and the words they reach; each car's colour where the
    engine has it, the halo on the cars just moved and the ring on the car to play only."""
    from companion.ui.widgets.car_marks import HALO_ALPHA

    app = ui.app
    _race(ui, "usa")
    track_map = app.sm.current_screen.ids.map
    marks = list(track_map._cars._marks)
    kept = [id(getattr(m, f)) for m in marks for f in vars(m)]
    assert len(marks) == len(app.controller.state.cars)
    longest = 0
    moves = 0
    for _ in range(14):
        before = dict(track_map.marker_positions)
        ui.player.step()
        ui.pump(2)
        moves += track_map.marker_positions != before
        assert [id(getattr(m, f)) for m in track_map._cars._marks for f in vars(m)] == kept
        longest = max(longest, len(track_map.canvas.children))
        state = app.controller.state
        for car, mark in zip(state.cars, track_map._cars._marks, strict=True):
            shown = car.on_track
            assert (mark.fill_colour.a > 0) == shown, car.id
            if not shown:
                continue
            x, y = track_map.marker_positions[car.id]
            fx, fy = mark.fill.pos
            fw, fh = mark.fill.size
            assert abs(fx + fw / 2 - x) < 0.01 and abs(fy + fh / 2 - y) < 0.01, car.id
            assert mark.halo_colour.a == (HALO_ALPHA if car.id in track_map.moved else 0.0)
            assert (mark.ring_colour.a > 0) == (car.id == track_map.current), car.id
    assert moves >= 3  # cars did move (else the test proves nothing)
    words = len(track_map.words_over_cars)
    assert longest <= 8 * len(marks) + 12 * max(words, 3)  # (8 instructions a car)


@pytest.mark.ui
@pytest.mark.parametrize(("track_id", "kind"), [("japan", "flooded"), ("espana", "tunnel")])
def test_flooded_spaces_and_tunnels_are_drawn_as_on_the_board(ui, track_id: str,
                                                              kind: str) -> None:
    """The rulings speak of flooded spaces (Japan: a shift down there costs Heat) and the
    board shows tunnels (España): the map fills those spaces apart, water's blue or the band
    darker, read back from the track's texture at each space's centre; every other space is
    the band's own colour. Found by a table test: a refusal named a flooded space the map did
    not show."""
    from companion.ui.widgets.track_map import TUNNEL_SHADE, WATER_RGB, WATER_SHARE

    app = ui.app
    _race(ui, track_id, legends=1)
    track_map = app.sm.current_screen.ids.map
    track = app.controller.state.track
    special = sorted(track.flooded if kind == "flooded" else track.tunnels)
    assert special and track_map.special[kind] == special
    texture = track_map._fbo.texture
    width, height = texture.size
    pixels = texture.pixels
    geometry = track_map.geometry
    band = app.c_track[:3]
    if kind == "flooded":
        wanted = [w * WATER_SHARE + b * (1 - WATER_SHARE)
                  for w, b in zip(WATER_RGB, band, strict=True)]
    else:
        wanted = [b * TUNNEL_SHADE for b in band]

    def colour_at(space: int) -> list[float]:
        x, y = geometry.centre(space)
        col, row = int(x - track_map.x), int(y - track_map.y)
        at = (row * width + col) * 4  # the FBO's rows run bottom up, as the canvas's
        return [pixels[at + i] / 255 for i in range(3)]

    for space in special:
        assert colour_at(space) == pytest.approx(wanted, abs=0.03), space
    plain = [s for s in range(1, track.spaces + 1)
             if s not in track.flooded and s not in track.tunnels
             and s - 1 not in special and s + 1 not in special]
    for space in plain[::5]:
        assert colour_at(space) == pytest.approx(list(band), abs=0.03), space
    # the map opened over the window says what the fills are
    screen = app.sm.current_screen
    screen.show_map()
    ui.pump(2)
    said = {"flooded": "Blue: flooded spaces.", "tunnel": "Darker: tunnels."}[kind]
    assert screen.map_zoom.hint.text.startswith(said)
    screen.map_zoom.close()
    ui.pump(1)


@pytest.mark.ui
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_press_corners_are_marked_on_the_map(ui, theme: str) -> None:
    """A championship race's Press Corners (docs/rules.md §3.3: where Sponsorship cards are
    won) are where the table plans its speed, and the map showed every corner alike (found by
    a table test): a Press Corner's number square is filled in the text's colour, the others
    in the accent's, read back from the track's texture; the map opened over the window names
    them. A race without Press Corners on the same track and size draws every square orange
    (the track's texture is drawn again for it)."""
    from dataclasses import replace

    from companion.engine.modules import RaceModules
    from companion.ui.widgets.map_words import corner_label_size

    app = ui.app
    app.set_theme(theme)
    track = tracks.load_track("usa")
    press_lines = tracks.default_press_corners(track.corners)[:1]
    numbers = [n for n, c in enumerate(track.corners, start=1) if c.line_after in press_lines]
    assert numbers and len(numbers) < len(track.corners)

    def race(press: tuple[int, ...]) -> Any:
        form = race_form(("Ana", "Ben"), legends=1)
        setup = replace(form.setup(track), modules=RaceModules(press_corners=press))
        app.open_session(app.log().new_race(setup))
        ui.pump(3)
        return app.sm.current_screen.ids.map

    def square_colour(track_map: Any, number: int) -> list[float]:
        x, y = track_map.corner_labels[number]  # the square's right edge, half way up
        high = corner_label_size(app) * 1.15
        texture = track_map._fbo.texture
        col, row = int(x - 3 - track_map.x), int(y - high * 0.4 - track_map.y)
        at = (row * texture.size[0] + col) * 4
        return [texture.pixels[at + i] / 255 for i in range(3)]

    track_map = race(press_lines)
    for number in range(1, len(track.corners) + 1):
        wanted = app.c_fg if number in numbers else app.c_accent
        assert square_colour(track_map, number) == pytest.approx(list(wanted[:3]), abs=0.03)
    assert track_map.press == numbers
    screen = app.sm.current_screen
    screen.show_map()
    ui.pump(2)
    colour = "white" if theme == "dark" else "black"
    assert (f"Press Corners ({colour} squares): corner {numbers[0]}."
            in screen.map_zoom.hint.text)
    screen.map_zoom.close()
    ui.pump(1)
    app.show("start")
    ui.pump(2)
    track_map = race(())
    assert track_map.press == []
    for number in range(1, len(track.corners) + 1):
        assert square_colour(track_map, number) == pytest.approx(list(app.c_accent[:3]),
                                                                 abs=0.03)


@pytest.mark.ui
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_road_token_s_limit_is_the_one_on_the_map(ui, theme: str) -> None:
    """docs/rules.md §5.2: a road token makes a corner's limit 1 higher or lower for the
    drivers, and their rulings say the limit in force ("limit-3 corner (printed 4, road token
    -1)"), but the map's ring showed the printed one (found by a table test). The ring shows
    the limit in force, filled in its line's colour where a token changed it (read back from
    the track's texture), as before elsewhere; the map over the window says what a filled
    ring means. An Overheat token changes no limit: its corner's ring stays empty."""
    from dataclasses import replace

    from companion.engine.modules import RaceModules, Road
    from companion.ui.widgets.map_words import corner_label_size

    app = ui.app
    app.set_theme(theme)
    track = tracks.load_track("usa")
    lines = [c.line_after for c in track.corners]
    road = {lines[0]: Road.LIMIT_MINUS, lines[1]: Road.LIMIT_PLUS, lines[2]: Road.OVERHEAT}
    form = race_form(("Ana", "Ben"), legends=1)
    setup = replace(form.setup(track), modules=RaceModules(road=road))
    app.open_session(app.log().new_race(setup))
    ui.pump(3)
    track_map = app.sm.current_screen.ids.map
    printed = [c.limit for c in track.corners]
    wanted = [printed[0] - 1, printed[1] + 1, *printed[2:]]
    assert track_map.limits == [(limit, n < 2) for n, limit in enumerate(wanted)]

    def ring_colour(number: int) -> list[float]:
        x, y = track_map.corner_labels[number]  # between the square and the ring, half way up
        texture = track_map._fbo.texture
        col = int(x + 1 + corner_label_size(app) * 1.15 * 0.2 - track_map.x)
        row = int(y - track_map.y)
        at = (row * texture.size[0] + col) * 4
        return [texture.pixels[at + i] / 255 for i in range(3)]

    for number in range(1, len(track.corners) + 1):
        fill = app.c_warn if number <= 2 else app.c_bg
        assert ring_colour(number) == pytest.approx(list(fill[:3]), abs=0.03), number
    screen = app.sm.current_screen
    screen.show_map()
    ui.pump(2)
    assert ("Filled speed limits: changed by a road token (the Legends keep the printed one)."
            in screen.map_zoom.hint.text)
    screen.map_zoom.close()
    ui.pump(1)
