"""The map matches the words (issue 10, point 7): corners numbered as the rulings number them,
with their speed limit; space numbers every fifth space and at every corner; each car's space
in the race order; and each track in its own shape, not one oval for all."""

from __future__ import annotations

import math
import re

import pytest

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
    assert sorted(track_map.space_labels) == labelled_spaces(track)
    assert {s for s in range(5, track.spaces + 1, 5)} <= set(track_map.space_labels)
    assert {c.line_after for c in track.corners} <= set(track_map.space_labels)
    for number, corner in enumerate(track.corners, start=1):
        (x, y), _normal = geometry.line_after(corner.line_after)
        cx, cy = track_map.corner_labels[number]
        assert math.dist((x, y), (cx, cy)) < geometry.band * 3.5  # beside its line
    for cx, cy in [*track_map.corner_labels.values(), *track_map.space_labels.values()]:
        assert track_map.x <= cx <= track_map.right and track_map.y <= cy <= track_map.top
    for _ in range(12):  # a few moves, then every car where the engine has it
        ui.player.step()
    ui.pump(2)
    state = app.controller.state
    for car in state.cars:
        if not car.on_track:
            continue
        space = track.space_of(car.distance)
        lane = race_line_lane(track, space)
        expected = geometry.spot(space, lane if car.race_line else 3 - lane)
        assert math.dist(track_map.marker_positions[car.id], expected) < 0.5
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
