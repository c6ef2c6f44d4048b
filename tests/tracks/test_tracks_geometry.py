"""The Track geometry helpers, on the bundled USA board and on random valid tracks."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tracks import Track, load_track, track_from_dict

# USA (docs/rules.md §6): 69 spaces; Corner Lines after 12, 33, 49, 57.
L = 69


def usa() -> Track:
    return load_track("usa")


def lines(crossed: list[tuple[int, Any]]) -> list[tuple[int, int]]:
    return [(at, corner.line_after) for at, corner in crossed]


def test_space_and_lap_of_distances() -> None:
    track = usa()
    assert (track.space_of(0), track.lap_of(0)) == (69, 0)  # pole, on the grid
    assert (track.space_of(-3), track.lap_of(-3)) == (66, 0)  # grid position 7/8
    assert (track.space_of(1), track.lap_of(1)) == (1, 1)
    assert (track.space_of(69), track.lap_of(69)) == (69, 1)
    assert (track.space_of(70), track.lap_of(70)) == (1, 2)  # past the finish line
    assert (track.space_of(138), track.lap_of(138)) == (69, 2)
    assert (track.space_of(139), track.lap_of(139)) == (1, 3)  # a 2-lap race is over
    assert track.distance_of(2, 1) == 70
    assert track.finish_distance(2) == 138


def test_corner_lines_between_counts_a_line_when_passed() -> None:
    track = usa()
    assert lines(track.corner_lines_between(0, 12, laps=2)) == []  # on space 12: not yet
    assert lines(track.corner_lines_between(0, 13, laps=2)) == [(12, 12)]
    assert lines(track.corner_lines_between(12, 13, laps=2)) == [(12, 12)]
    assert lines(track.corner_lines_between(13, 33, laps=2)) == []
    assert lines(track.corner_lines_between(13, 50, laps=2)) == [(33, 33), (49, 49)]
    assert lines(track.corner_lines_between(20, 20, laps=2)) == []
    assert lines(track.corner_lines_between(20, 10, laps=2)) == []


def test_corner_lines_between_from_the_grid() -> None:
    track = usa()
    # From grid position 8 (space 66, lap 0) the first line is after space 12 of lap 1.
    assert lines(track.corner_lines_between(-3, 15, laps=2)) == [(12, 12)]


def test_corner_lines_wrap_past_the_finish_line() -> None:
    track = usa()
    assert lines(track.corner_lines_between(55, 85, laps=2)) == [(57, 57), (L + 12, 12)]
    assert lines(track.corner_lines_between(60, 75, laps=2)) == []
    # Final lap: corners after the race's end are ignored (docs/rules.md §1.9).
    assert lines(track.corner_lines_between(60, 85, laps=1)) == []
    assert lines(track.corner_lines_between(L + 55, 2 * L + 20, laps=2)) == [(L + 57, 57)]


def test_next_corner_line() -> None:
    track = usa()
    assert lines([track.next_corner_line(0)]) == [(12, 12)]
    assert lines([track.next_corner_line(-3)]) == [(12, 12)]
    assert lines([track.next_corner_line(12)]) == [(12, 12)]  # right before the line
    assert lines([track.next_corner_line(13)]) == [(33, 33)]
    assert lines([track.next_corner_line(57)]) == [(57, 57)]
    assert lines([track.next_corner_line(58)]) == [(L + 12, 12)]  # wraps past the finish
    assert lines([track.next_corner_line(69)]) == [(L + 12, 12)]
    assert lines([track.next_corner_line(70)]) == [(L + 12, 12)]
    assert lines([track.next_corner_line(L + 40)]) == [(L + 49, 49)]


def test_legend_zones_and_numbers() -> None:
    track = usa()
    assert [track.legend_zone_length(c) for c in track.corners] == [10, 6, 6, 5]
    assert [track.corner_number(c) for c in track.corners] == [1, 2, 3, 4]


# --- random valid tracks ------------------------------------------------------------------------


@st.composite
def track_docs(draw: st.DrawFn) -> dict[str, Any]:
    spaces = draw(st.integers(8, 150))
    line_set = draw(st.sets(st.integers(1, spaces - 1), min_size=1, max_size=min(12, spaces - 1)))
    corners = []
    for line in sorted(line_set):
        pick = draw(st.integers(1, spaces - 1))  # any space but the Corner Line's own
        legend = pick if pick < line else pick + 1
        zone = (line - legend) % spaces
        aggressive = draw(st.integers(0, zone))
        corners.append(
            {
                "line_after": line,
                "limit": draw(st.integers(1, 10)),
                "legend_line_after": legend,
                "aggressive": aggressive,
                "aggressive_double": draw(st.integers(0, aggressive)),
            }
        )
    return {
        "id": "random",
        "spaces": spaces,
        "laps": draw(st.integers(1, 4)),
        "heat": 6,
        "stress": 3,
        "corners": corners,
    }


@given(track_docs(), st.integers(-20, 600))
def test_random_tracks_load_and_round_trip(doc: dict[str, Any], distance: int) -> None:
    track = track_from_dict(doc)
    assert [c.line_after for c in track.corners] == [c["line_after"] for c in doc["corners"]]
    assert track.press_corners == tuple(c["line_after"] for c in doc["corners"])
    space, lap = track.space_of(distance), track.lap_of(distance)
    assert 1 <= space <= track.spaces
    assert track.distance_of(lap, space) == distance
    at, corner = track.next_corner_line(distance)
    assert distance <= at < distance + track.spaces
    assert track.space_of(at) == corner.line_after


@given(track_docs(), st.integers(0, 300))
def test_a_full_lap_crosses_every_line_once(doc: dict[str, Any], start: int) -> None:
    track = track_from_dict({**doc, "laps": 20})
    start %= 10 * track.spaces  # well before the end of a 20-lap race
    crossed = track.corner_lines_between(start, start + track.spaces, laps=20)
    assert sorted(c.line_after for _, c in crossed) == [c.line_after for c in track.corners]
    assert [at for at, _ in crossed] == sorted(at for at, _ in crossed)
