"""Validation: every error names the file (or "inline track") and the field path."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import tracks
from tracks import TrackError, load_track_file, track_from_dict, track_info_from_dict
from tracks.schema import parse_track

Doc = dict[str, Any]

# docs/race-file.md, "Inline track", verbatim.
INLINE: Doc = {
    "id": "test-30",
    "spaces": 30,
    "laps": 1,
    "heat": 6,
    "stress": 3,
    "corners": [
        {"line_after": 10, "limit": 4, "legend_line_after": 6},
        {"line_after": 20, "limit": 3, "legend_line_after": 16},
    ],
}


def usa() -> Doc:
    text = resources.files("tracks.data").joinpath("usa.json").read_text("utf-8")
    data: Doc = json.loads(text)
    return data


def _set(path: str, value: object) -> Callable[[Doc], None]:
    """A mutator that sets ``a.b[2].c`` (creating the last key) to ``value``."""

    def apply(doc: Doc) -> None:
        target: Any = doc
        parts = path.replace("[", ".").replace("]", "").split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        last = parts[-1]
        if last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value

    return apply


def _del(path: str) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        target: Any = doc
        parts = path.replace("[", ".").replace("]", "").split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        del target[parts[-1]]

    return apply


def _chain(*steps: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        for step in steps:
            step(doc)

    return apply


# (mutator applied to a copy of usa.json, field path in the message, fragment of the problem)
BROKEN: list[tuple[Callable[[Doc], None], str, str]] = [
    (_set("corners[2].limit", "x"), "corners[2].limit", 'must be an integer 1-10, got "x"'),
    (_set("corners[0].limit", True), "corners[0].limit", "got true"),
    (_set("corners[0].limit", 11), "corners[0].limit", "1-10, got 11"),
    (_set("corners[0].limit", 0), "corners[0].limit", "got 0"),
    (_set("corners[1].limit", 3.0), "corners[1].limit", "got 3.0"),
    (_set("corners[1].limit", None), "corners[1].limit", "got null"),
    (_del("laps"), "laps", "missing (required)"),
    (_del("corners[3].legend_line_after"), "corners[3].legend_line_after", "missing"),
    (_del("corners[0].line_after"), "corners[0].line_after", "missing"),
    (_set("spaces", "69"), "spaces", 'got "69"'),
    (_set("spaces", 3), "spaces", "got 3"),
    (_set("spaces", False), "spaces", "got false"),
    (_set("laps", 0), "laps", "got 0"),
    (_set("heat", -1), "heat", "got -1"),
    (_set("stress", None), "stress", "got null"),
    (_set("id", ""), "id", 'got ""'),
    (_set("id", "../etc"), "id", "got"),
    (_set("id", 7), "id", "got 7"),
    (_set("name", ""), "name", "non-empty string"),
    (_set("name", ["USA"]), "name", "non-empty string"),
    (_set("corners", []), "corners", "must not be empty"),
    (_set("corners", {}), "corners", "must be a JSON array"),
    (_set("corners[0]", 12), "corners[0]", "must be a JSON object, got 12"),
    (_set("corners[1].line_after", 12), "corners[1].line_after", "greater than corners[0]"),
    (_set("corners[1].line_after", 5), "corners[1].line_after", "track order"),
    (_set("corners[3].line_after", 69), "corners[3].line_after", "1-68"),
    (_set("corners[0].line_after", 0), "corners[0].line_after", "got 0"),
    (_set("corners[0].legend_line_after", 12), "corners[0].legend_line_after", "must differ"),
    (_set("corners[0].legend_line_after", 70), "corners[0].legend_line_after", "1-69"),
    (_set("corners[1].aggressive", 7), "corners[1].aggressive", "0-6"),
    (_set("corners[1].aggressive", -1), "corners[1].aggressive", "got -1"),
    (_set("corners[1].aggressive_double", 1), "corners[1].aggressive_double", "0-0"),
    (_set("corners[0].chicane_with", 99), "corners[0].chicane_with", "1-68"),
    (_set("corners[0].chicane_with", 40), "corners[0].chicane_with", "no corner has line_after"),
    (_set("corners[0].chicane_with", 12), "corners[0].chicane_with", "its own chicane partner"),
    (_set("corners[0].chicane_with", 49), "corners[0].chicane_with", "next or previous corner"),
    (_set("corners[0].chicane_with", 33), "corners[1].limit", "share one speed limit"),
    (
        _chain(_set("corners[1].chicane_with", 12), _set("corners[2].chicane_with", 33)),
        "corners[2].chicane_with",
        "already in a chicane",
    ),
    (_set("corners[0].race_line_lane", 3), "corners[0].race_line_lane", "1-2, got 3"),
    (_set("corners[0].race_line_lane", "1"), "corners[0].race_line_lane", 'got "1"'),
    (_set("corners[0].name", ""), "corners[0].name", "non-empty string"),
    (_set("corners[0].lmit", 7), "corners[0].lmit", 'unknown key (did you mean "limit"?)'),
    (_set("corners[2].chicane", 33), "corners[2].chicane", "unknown key"),
    (_set("lap", 2), "lap", 'unknown key (did you mean "laps"?)'),
    (_set("colour", "red"), "colour", "unknown key"),
    (_set("flooded", [70]), "flooded[0]", "1-69"),
    (_set("flooded", [[5, 3]]), "flooded[0][1]", "5-69"),
    (_set("flooded", [[1, 2, 3]]), "flooded[0]", "[first, last]"),
    (_set("flooded", [3, [1, 4]]), "flooded[1]", "space 3 is listed twice"),
    (_set("flooded", "1-3"), "flooded", "must be a JSON array"),
    (_set("tunnels", [0]), "tunnels[0]", "got 0"),
    (_set("tunnels", [True]), "tunnels[0]", "got true"),
    (_set("gravel", {"lane3": [1]}), "gravel.lane3", "unknown key"),
    (_set("gravel", {"lane1": [71]}), "gravel.lane1[0]", "got 71"),
    (_set("gravel", [1, 2]), "gravel", "must be a JSON object"),
    (_set("press_corners", [13]), "press_corners[0]", "must be the line_after of a corner"),
    (_set("press_corners", [33, 12]), "press_corners[1]", "track order"),
    (_set("press_corners", []), "press_corners", "must not be empty"),
    (_set("press_corners", ["A"]), "press_corners[0]", 'got "A"'),
    (
        _chain(
            _set("corners[2].limit", 3),
            _set("corners[2].chicane_with", 33),
            _set("press_corners", [12, 33, 49]),
        ),
        "press_corners[2]",
        "a chicane counts once",
    ),
    (_set("grid_size", 7), "grid_size", "must be even"),
    (_set("grid_size", 0), "grid_size", "got 0"),
    (_set("grid_size", 30), "grid_size", "2-24"),
    (_set("names", {"zh-TW": "x"}), "names.zh-TW", "locale codes"),
    (_set("names", {"ko": ""}), "names.ko", "non-empty string"),
    (_set("names", []), "names", "must be a JSON object"),
    (_set("expansion", "heavy rain"), "expansion", "must be one of"),
    (_set("unverified", "x"), "unverified", "must be a JSON array"),
    (_set("unverified", [1]), "unverified[0]", "non-empty string"),
    (_set("sources", {"spaces": 1}), "sources.spaces", "non-empty string"),
    (_set("sources", []), "sources", "must be a JSON object"),
]
IDS = [f"{i:02d}-{field}" for i, (_, field, _) in enumerate(BROKEN)]


def _broken(mutate: Callable[[Doc], None]) -> Doc:
    doc = copy.deepcopy(usa())
    mutate(doc)
    return doc


@pytest.mark.parametrize(("mutate", "field", "problem"), BROKEN, ids=IDS)
def test_file_errors_name_file_and_field(
    tmp_path: Path, mutate: Callable[[Doc], None], field: str, problem: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_broken(mutate), ensure_ascii=False), "utf-8")
    with pytest.raises(TrackError) as caught:
        load_track_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}: "), message
    assert problem in message, message
    assert caught.value.source == str(path)
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(("mutate", "field", "problem"), BROKEN, ids=IDS)
def test_inline_errors_name_inline_track_and_field(
    mutate: Callable[[Doc], None], field: str, problem: str
) -> None:
    with pytest.raises(TrackError) as caught:
        track_from_dict(_broken(mutate))
    message = str(caught.value)
    assert message.startswith(f"inline track: {field}: "), message
    assert problem in message, message


def test_example_message_from_the_brief() -> None:
    doc = _broken(_set("corners[2].limit", "x"))
    with pytest.raises(TrackError) as caught:
        parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa")
    assert str(caught.value) == (
        'tracks/data/usa.json: corners[2].limit: must be an integer 1-10, got "x"'
    )


def test_racefile_style_source_is_used_verbatim() -> None:
    with pytest.raises(TrackError, match=r"^inline track: laps: missing \(required\)$"):
        track_from_dict({k: v for k, v in INLINE.items() if k != "laps"}, source="inline track")
    with pytest.raises(TrackError, match=r"^race.json track: laps: "):
        track_from_dict({**INLINE, "laps": "2"}, source="race.json track")


@pytest.mark.parametrize("document", [[], "usa", 7, None])
def test_document_must_be_an_object(document: object) -> None:
    with pytest.raises(TrackError, match=r"^inline track: must be a JSON object"):
        track_from_dict(document)


# --- the inline track of docs/race-file.md -------------------------------------------------------


def test_inline_track_from_race_file_is_accepted() -> None:
    track = track_from_dict(copy.deepcopy(INLINE))
    assert (track.id, track.spaces, track.laps, track.heat, track.stress) == (
        "test-30",
        30,
        1,
        6,
        3,
    )
    assert [(c.line_after, c.limit, c.legend_line_after) for c in track.corners] == [
        (10, 4, 6),
        (20, 3, 16),
    ]
    assert all(c.aggressive == 0 and c.chicane_with is None for c in track.corners)
    assert all(c.race_line_lane is None for c in track.corners)
    assert track.grid_size == 8
    assert track.name == "test-30"
    assert track.press_corners == (10, 20)
    assert track.flooded == frozenset() and track.tunnels == frozenset()
    assert track.unverified == ()


def test_inline_track_may_carry_every_optional_field() -> None:
    doc = {
        **copy.deepcopy(INLINE),
        "name": "Test ring",
        "names": {"ko": "테스트"},
        "expansion": "custom",
        "grid_size": 6,
        "flooded": [1, [3, 4]],
        "tunnels": [[25, 27]],
        "gravel": {"lane2": [12]},
        "press_corners": [20],
        "unverified": ["made up"],
        "sources": {"everything": "a test"},
    }
    doc["corners"][0].update(aggressive=2, race_line_lane=1, name="Hairpin")
    doc["corners"][1].update(aggressive=3, aggressive_double=1, race_line_lane=2)
    info = track_info_from_dict(doc)
    track = info.track
    assert track.name == "Test ring" and track.grid_size == 6
    assert track.flooded == {1, 3, 4} and track.tunnels == {25, 26, 27}
    assert info.gravel == {(12, 2)}
    assert track.press_corners == (20,)
    assert track.corners[0].name == "Hairpin"
    assert track.corners[1].aggressive_double == 1
    assert info.display_name("ko_KR") == "테스트"


def test_chicane_declared_on_one_side_is_paired_both_ways() -> None:
    doc = copy.deepcopy(INLINE)
    doc["corners"] = [
        {"line_after": 10, "limit": 4, "legend_line_after": 6},
        {"line_after": 12, "limit": 4, "legend_line_after": 10, "chicane_with": 10},
        {"line_after": 20, "limit": 3, "legend_line_after": 16},
    ]
    track = track_from_dict(doc)
    assert [c.chicane_with for c in track.corners] == [12, 10, None]
    assert track.press_corners == (12, 20)  # a chicane counts once, at its second line


def test_chicane_across_the_finish_line() -> None:
    doc = copy.deepcopy(INLINE)
    doc["corners"] = [
        {"line_after": 2, "limit": 4, "legend_line_after": 27, "chicane_with": 28},
        {"line_after": 15, "limit": 3, "legend_line_after": 10},
        {"line_after": 28, "limit": 4, "legend_line_after": 22},
    ]
    track = track_from_dict(doc)
    assert track.corners[2].chicane_with == 2
    assert track.press_corners == (2, 15)  # the lap's first line is the pair's second one


def test_legend_line_across_the_finish_line() -> None:
    doc = copy.deepcopy(INLINE)
    doc["corners"][0] = {"line_after": 3, "limit": 4, "legend_line_after": 27, "aggressive": 6}
    track = track_from_dict(doc)
    assert track.legend_zone_length(track.corners[0]) == 6
    doc["corners"][0]["aggressive"] = 7
    with pytest.raises(TrackError, match=r"corners\[0\]\.aggressive: must be an integer 0-6"):
        track_from_dict(doc)


# --- strict (bundled) mode and JSON-level problems -------------------------------------------


@pytest.mark.parametrize("key", ["name", "grid_size", "press_corners", "sources"])
def test_bundled_files_must_carry(key: str) -> None:
    doc = usa()
    del doc[key]
    track_from_dict(doc)  # fine for a user's file or an inline track
    with pytest.raises(TrackError) as caught:
        parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa")
    assert str(caught.value) == (
        f"tracks/data/usa.json: {key}: missing (required in a bundled track file)"
    )


@pytest.mark.parametrize(("corner", "legend", "problem"), [
    (2, 20, "must lie on or after corners[1].line_after (33) and before this "
            "corner's line_after (49), "
            "got 20: the Legend zone would hold another corner's line"),
    (0, 50, "must lie on or after corners[3].line_after (57) and before this "
            "corner's line_after (12), "
            "got 50: the Legend zone would hold another corner's line"),
])
def test_a_bundled_legend_line_behind_the_corner_before_is_refused(
        corner: int, legend: int, problem: str) -> None:
    """docs/rules.md §6.1: a Legend Line lies before its own Corner Line, not behind the one
    before (a table test put Japan's Legend Line after 30 for the line after 18: accepted, a
    48-space Legend zone over two other corners). A user's board and an inline track are taken
    as they are (docs/rules-decisions.md #28)."""
    doc = usa()
    doc["corners"][corner]["legend_line_after"] = legend
    track_from_dict(doc)  # fine for a user's file or an inline track
    with pytest.raises(TrackError) as caught:
        parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa")
    assert str(caught.value) == (
        f"tracks/data/usa.json: corners[{corner}].legend_line_after: {problem}")


def test_a_bundled_legend_line_may_stand_on_the_corner_line_before() -> None:
    """The Legend zone may reach back to the corner before (Great Britain's corners 3-5, every
    bundled board loads: test_tracks_bundled), and a chicane's second Legend Line lie before
    its first line (España's corner 4): the corner before is then the one before the chicane."""
    doc = usa()
    doc["corners"][2]["legend_line_after"] = 33
    track = parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa").track
    assert track.legend_zone_length(track.corners[2]) == 16
    doc["corners"][2].update(legend_line_after=28, chicane_with=33, limit=3)
    doc["corners"][1]["limit"] = 3
    doc["press_corners"] = [12, 49, 57]
    track = parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa").track
    assert track.legend_zone_length(track.corners[2]) == 21
    doc["corners"][2]["legend_line_after"] = 11  # behind corner 1's line after 12
    with pytest.raises(TrackError, match=r"corners\[2\]\.legend_line_after: must lie on or after "
                       r"corners\[0\]\.line_after \(12\)"):
        parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa")


def test_bundled_id_must_match_file_name() -> None:
    expected = r'^tracks/data/us\.json: id: must match the file name "us"'
    with pytest.raises(TrackError, match=expected):
        parse_track(usa(), "tracks/data/us.json", strict=True, expected_id="us")


def test_bundled_sources_must_not_be_empty() -> None:
    doc = {**usa(), "sources": {}}
    with pytest.raises(TrackError, match=r"sources: must not be empty"):
        parse_track(doc, "tracks/data/usa.json", strict=True, expected_id="usa")


def test_duplicate_json_keys_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text('{"id": "a", "laps": 2, "laps": 3}', "utf-8")
    with pytest.raises(TrackError, match=r"twice\.json: laps: key appears twice"):
        load_track_file(path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"id": "a",', "not valid JSON (line 1, column"),
        ("", "not valid JSON"),
        ('{"spaces": NaN}', "NaN is not allowed"),
        ('{"spaces": Infinity}', "Infinity is not allowed"),
    ],
)
def test_bad_json(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, "utf-8")
    with pytest.raises(TrackError) as caught:
        load_track_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert problem in str(caught.value)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(TrackError, match=r"nope\.json: cannot read"):
        load_track_file(path)


def test_a_good_file_loads_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(INLINE), "utf-8")
    assert load_track_file(path) == track_from_dict(INLINE)
    assert load_track_file(str(path)).id == "test-30"
    assert tracks.load_track_info_file(path).source == str(path)
