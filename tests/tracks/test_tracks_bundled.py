"""Every bundled track loads and matches the figures in docs/rules.md §6.

The expected figures below are copied from docs/rules.md (tables "Base box" §6.2 and "Expansions"
§6.3, the machine-readable block, §3.3), never from the data files.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

import tracks
from tracks import TrackError, load_track, load_track_info, press_corner_line
from tracks.schema import default_press_corners, known_keys

# --- docs/rules.md §6, written out by hand -------------------------------------------------------
# id: (spaces, laps, heat, stress, [(line_after, limit, legend_line_after), ...])
EXPECTED: dict[str, tuple[int, int, int, int, list[tuple[int, int, int]]]] = {
    "usa": (69, 2, 6, 3, [(12, 7, 2), (33, 3, 27), (49, 3, 43), (57, 2, 52)]),
    "great-britain": (
        63,
        2,
        6,
        3,
        [(15, 10, 2), (30, 6, 21), (37, 5, 30), (43, 4, 37), (48, 3, 43)],
    ),
    "italy": (54, 3, 6, 3, [(10, 5, 2), (19, 2, 14), (26, 3, 20)]),
    "france": (60, 2, 6, 3, [(12, 5, 4), (20, 2, 15), (27, 4, 20), (39, 3, 33), (47, 4, 40)]),
    "japan": (60, 2, 7, 3, [(10, 4, 3), (12, 4, 10), (18, 2, 13), (45, 5, 37), (53, 3, 47)]),
    "mexico": (
        60,
        3,
        6,
        2,
        [(14, 7, 4), (19, 7, 14), (38, 6, 29), (44, 4, 38), (50, 2, 45), (51, 2, 50)],
    ),
    "espana": (
        109,
        1,
        6,
        3,
        [
            (11, 5, 3),
            (15, 4, 11),
            (29, 4, 22),
            (32, 4, 22),
            (44, 2, 39),
            (65, 5, 57),
            (85, 2, 80),
            (92, 3, 86),
            (95, 4, 92),
            (98, 4, 95),
            (103, 3, 98),
        ],
    ),
    "nederland": (55, 3, 6, 3, [(9, 5, 1), (13, 5, 9), (16, 3, 13), (26, 8, 16), (34, 4, 27)]),
    "south-africa": (
        70,
        2,
        7,
        3,
        [(11, 4, 6), (19, 3, 17), (24, 2, 22), (35, 9, 31), (46, 5, 42), (55, 2, 52), (61, 4, 57)],
    ),
}
BASE = {"usa", "great-britain", "italy", "france"}
# Aggressive-Legends distances per Corner Line ("aggr"/"a" in the tables); others are 0.
AGGRESSIVE = {
    "great-britain": {30: 1, 37: 1, 43: 1},
    "japan": {10: 3},
    "mexico": {14: 4, 38: 1, 50: 3},
    "espana": {11: 3, 29: 3, 92: 2, 95: 3, 98: 1},
    "nederland": {9: 3, 13: 3},
}
DOUBLE = {"nederland": {9: 1}}
CHICANES = {
    "japan": {(10, 12)},
    "mexico": {(14, 19), (50, 51)},
    "espana": {(29, 32), (95, 98)},
    "nederland": {(9, 13)},
}
FLOODED = {"japan": [*range(6, 12), *range(39, 46), *range(50, 56)]}
TUNNELS = {
    "espana": [*range(17, 25), *range(38, 43), *range(46, 50), *range(62, 72), *range(80, 89)]
}
ESPANA_PRESS = (15, 32, 65, 85, 98)

# The §6 machine-readable block, verbatim.
BASE_BLOCK = """
{
  "USA":   {"spaces":69,"laps":2,"heat":6,"stress":3,"corners":[[12,7,2],[33,3,27],[49,3,43],[57,2,52]]},
  "GB":    {"spaces":63,"laps":2,"heat":6,"stress":3,"corners":[[15,10,2],[30,6,21],[37,5,30],[43,4,37],[48,3,43]],"aggressive":{"30":1,"37":1,"43":1}},
  "Italy": {"spaces":54,"laps":3,"heat":6,"stress":3,"corners":[[10,5,2],[19,2,14],[26,3,20]]},
  "France":{"spaces":60,"laps":2,"heat":6,"stress":3,"corners":[[12,5,4],[20,2,15],[27,4,20],[39,3,33],[47,4,40]]}
}
"""  # noqa: E501
BLOCK_IDS = {"USA": "usa", "GB": "great-britain", "Italy": "italy", "France": "france"}

# §3.3 press corners per Championship race: (track, letters).
SEASON_PRESS = [
    ("great-britain", "A"),
    ("usa", "B"),
    ("italy", "C"),
    ("italy", "E"),
    ("great-britain", "CE"),
    ("france", "C"),
    ("usa", "A"),
    ("great-britain", "BD"),
    ("france", "D"),
    ("italy", "D"),
    ("japan", "BC"),
    ("france", "B"),
    ("mexico", "C"),
    ("great-britain", "D"),
    ("usa", "C"),
    ("espana", "AC"),
    ("nederland", "B"),
    ("france", "E"),
    ("italy", "C"),
    ("south-africa", "B"),
]


def _raw(track_id: str) -> dict[str, object]:
    text = resources.files("tracks.data").joinpath(f"{track_id}.json").read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


# --- tests ------------------------------------------------------------------------------------


def test_bundled_ids_in_display_order() -> None:
    assert tracks.bundled_track_ids() == [
        "usa",
        "great-britain",
        "france",
        "italy",
        "japan",
        "mexico",
        "espana",
        "nederland",
        "south-africa",
    ]
    assert [info.id for info in tracks.available_tracks()] == tracks.bundled_track_ids()


def test_germany_is_not_bundled() -> None:
    assert "germany" not in tracks.bundled_track_ids()
    with pytest.raises(TrackError, match="unknown track id 'germany'"):
        load_track("germany")


@pytest.mark.parametrize("bad_id", ["", "../usa", "USA", "usa.json", "tracks/data/usa"])
def test_unknown_ids_are_rejected(bad_id: str) -> None:
    with pytest.raises(TrackError, match="unknown track id"):
        load_track(bad_id)


@pytest.mark.parametrize("track_id", sorted(EXPECTED))
def test_track_matches_rules_md(track_id: str) -> None:
    spaces, laps, heat, stress, corners = EXPECTED[track_id]
    track = load_track(track_id)
    assert track.id == track_id
    assert (track.spaces, track.laps, track.heat, track.stress) == (spaces, laps, heat, stress)
    assert [(c.line_after, c.limit, c.legend_line_after) for c in track.corners] == corners
    assert track.grid_size == (8 if track_id in BASE else 12)


@pytest.mark.parametrize("track_id", sorted(EXPECTED))
def test_aggressive_and_chicanes_match_rules_md(track_id: str) -> None:
    track = load_track(track_id)
    aggressive = {c.line_after: c.aggressive for c in track.corners if c.aggressive}
    double = {c.line_after: c.aggressive_double for c in track.corners if c.aggressive_double}
    assert aggressive == AGGRESSIVE.get(track_id, {})
    assert double == DOUBLE.get(track_id, {})
    pairs = {
        (min(c.line_after, c.chicane_with), max(c.line_after, c.chicane_with))
        for c in track.corners
        if c.chicane_with is not None
    }
    assert pairs == CHICANES.get(track_id, set())
    by_line = {c.line_after: c for c in track.corners}
    for first, second in pairs:  # both lines point at each other
        assert by_line[first].chicane_with == second
        assert by_line[second].chicane_with == first


@pytest.mark.parametrize("track_id", sorted(EXPECTED))
def test_special_spaces_match_rules_md(track_id: str) -> None:
    info = load_track_info(track_id)
    assert sorted(info.track.flooded) == FLOODED.get(track_id, [])
    assert sorted(info.track.tunnels) == TUNNELS.get(track_id, [])
    if track_id == "south-africa":
        assert info.gravel, "South Africa carries its (uncertain) gravel spots"
        assert all(1 <= space <= 70 and lane in (1, 2) for space, lane in info.gravel)
        assert any("gravel" in note.lower() for note in info.track.unverified)
    else:
        assert not info.gravel


def test_base_block_matches() -> None:
    block = json.loads(BASE_BLOCK)
    for key, track_id in BLOCK_IDS.items():
        expected = block[key]
        track = load_track(track_id)
        assert track.spaces == expected["spaces"]
        assert track.laps == expected["laps"]
        assert track.heat == expected["heat"]
        assert track.stress == expected["stress"]
        assert [[c.line_after, c.limit, c.legend_line_after] for c in track.corners] == expected[
            "corners"
        ]
        aggressive = {str(c.line_after): c.aggressive for c in track.corners if c.aggressive}
        assert aggressive == expected.get("aggressive", {})


@pytest.mark.parametrize("track_id", sorted(EXPECTED))
def test_press_corners(track_id: str) -> None:
    track = load_track(track_id)
    if track_id == "espana":
        assert track.press_corners == ESPANA_PRESS
        assert track.press_corners != default_press_corners(track.corners)
        return
    # A, B, C… = the corners in order from the start line, a chicane counting once.
    chicanes = len(CHICANES.get(track_id, set()))
    assert len(track.press_corners) == len(track.corners) - chicanes
    assert track.press_corners == default_press_corners(track.corners)
    first, second = track.corners[0], track.corners[1]
    assert track.press_corners[0] == (second if first.chicane_with else first).line_after


@pytest.mark.parametrize(("track_id", "letters"), SEASON_PRESS)
def test_season_press_letters_resolve(track_id: str, letters: str) -> None:
    track = load_track(track_id)
    lines = {c.line_after for c in track.corners}
    for letter in letters:
        assert press_corner_line(track, letter) in lines


def test_press_letters_wrap_and_validate() -> None:
    italy = load_track("italy")
    assert [press_corner_line(italy, x) for x in "ABCDE"] == [10, 19, 26, 10, 19]
    assert press_corner_line(load_track("espana"), "C") == 65
    assert press_corner_line(load_track("japan"), "A") == 12  # the chicane, at its second line
    with pytest.raises(ValueError):
        press_corner_line(italy, "AB")
    with pytest.raises(ValueError):
        press_corner_line(italy, -1)


def test_unverified_notes_from_the_notes() -> None:
    gb = load_track("great-britain").unverified
    assert any("63" in note and "65" in note for note in gb)
    for track_id in BASE:
        assert any("chevron" in note.lower() for note in load_track(track_id).unverified)
    for track_id in EXPECTED:
        assert load_track(track_id).unverified, f"{track_id}: every board has open questions"


@pytest.mark.parametrize("track_id", sorted(EXPECTED))
def test_files_carry_names_lanes_and_sources(track_id: str) -> None:
    raw = _raw(track_id)
    info = load_track_info(track_id)
    assert raw["id"] == track_id
    assert set(raw) <= set(known_keys()["track"])
    assert info.source == f"tracks/data/{track_id}.json"
    assert info.name and info.name == info.track.name
    assert set(info.names) == {"zh_TW", "ko"}
    assert info.display_name("ko") == info.names["ko"]
    assert info.display_name("zh-TW") == info.names["zh_TW"]
    assert info.display_name("fr") == info.name
    assert all(c.race_line_lane in (1, 2) for c in info.track.corners)
    for fact in ("grid_size", "press_corners", "race_line_lane", "names"):
        assert fact in info.sources, f"{track_id}: no source for {fact}"
    assert any("corners" in key for key in info.sources)
    if info.track.flooded:
        assert "flooded" in info.sources
    if info.track.tunnels:
        assert "tunnels" in info.sources
    if info.gravel:
        assert "gravel" in info.sources


def test_expansions() -> None:
    expansions = {info.id: info.expansion for info in tracks.available_tracks()}
    assert expansions == {
        "usa": "base",
        "great-britain": "base",
        "france": "base",
        "italy": "base",
        "japan": "heavy-rain",
        "mexico": "heavy-rain",
        "espana": "tunnel-vision",
        "nederland": "tunnel-vision",
        "south-africa": "rocky-roads",
    }


def test_loading_is_cached_and_equal_to_inline_parse() -> None:
    assert load_track("usa") is load_track("usa")
    assert tracks.track_from_dict(_raw("usa"), source="copy") == load_track("usa")


def test_grid_fits_behind_the_last_corner() -> None:
    for info in tracks.available_tracks():
        track = info.track
        assert track.corners[-1].line_after <= track.spaces - track.grid_size // 2, track.id


@pytest.mark.parametrize("bad_id", [None, 7, ["usa"]])
def test_non_string_ids_are_rejected(bad_id: object) -> None:
    with pytest.raises(TrackError, match="unknown track id"):
        load_track(bad_id)  # type: ignore[arg-type]
