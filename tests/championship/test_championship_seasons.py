"""The official seasons as data (docs/rules.md §3.3) and custom season validation."""

from __future__ import annotations

from typing import Any

import pytest

import tracks
from companion.championship import (
    SEASONS,
    SeasonError,
    official_season,
    parse_season,
    press_lines,
    season_doc,
)
from companion.engine.modules import EVENTS

# docs/rules.md §3.3, copied by hand from the table: (track, event, sponsors drawn, press letters).
TABLE = {
    "1961": [("great-britain", "new-grandstand", 2, "A"), ("usa", "new-speed-record", 1, "B"),
             ("italy", "drivers-strike", 1, "C")],
    "1962": [("italy", "engine-restrictions-lifted", 2, "E"),
             ("great-britain", "record-crowds", 1, "CE"), ("france", "corruption", 1, "C")],
    "1963": [("usa", "new-title-sponsor", 3, "A"), ("great-britain", "live-television", 1, "BD"),
             ("france", "safety-regulations", 1, "D"),
             ("italy", "title-sponsor-withdraws", 0, "D")],
    "1964": [("japan", "going-global", 0, "BC"), ("france", "turbulent-winds", 1, "B"),
             ("mexico", "chicanes-for-safety", 1, "C"), ("japan", "sudden-heavy-rain", 1, "")],
    "1965": [("great-britain", "hold-on-tight", 2, "D"), ("usa", "smile-and-wave", 0, "C"),
             ("espana", "tunnel-vision", 0, "AC"), ("nederland", "pressure-cooker", 1, "B")],
    "1966": [("france", "tight-maneuvers", 1, "E"), ("germany", "smooth-start", 1, "C"),
             ("italy", "crowd-goes-wild", 1, "C"),
             ("south-africa", "consulting-mechanics", 1, "B")],
}


def test_official_seasons_match_rules_table() -> None:
    assert list(SEASONS) == list(TABLE)
    for year, rows in TABLE.items():
        got = [(r.track, r.event, r.sponsors, "".join(r.press)) for r in SEASONS[year].races]
        assert got == rows, year


def test_official_events_and_tracks_exist() -> None:
    bundled = set(tracks.bundled_track_ids())
    for season in SEASONS.values():
        for race in season.races:
            assert race.event in EVENTS
            assert (race.track in bundled) == race.playable, race
            if race.playable:
                lines = press_lines(tracks.load_track(race.track), race.press)
                assert len(set(lines)) == len(race.press)


def test_1966_is_marked_unverified_and_germany_unplayable() -> None:
    assert [s.verified for s in SEASONS.values()] == [True] * 5 + [False]
    assert "Unverified" in SEASONS["1966"].note
    germany = SEASONS["1966"].races[1]
    assert not germany.playable and "not bundled" in germany.note


def test_press_letters_of_the_expansion_seasons() -> None:
    # Japan B, C = second and third press corner (chicane 10/12 counts once, at 12).
    assert press_lines(tracks.load_track("japan"), ("B", "C")) == (18, 45)
    # España uses its own list (docs/rules.md §6): A, C at 15 and 65.
    assert press_lines(tracks.load_track("espana"), ("A", "C")) == (15, 65)


def test_unknown_official_season() -> None:
    with pytest.raises(SeasonError, match="unknown season '1960'.*1961, 1962"):
        official_season("1960")


def test_custom_season_round_trip() -> None:
    doc = {"format": "heat-season/1", "name": "Autumn cup", "races": [
        {"track": "usa", "event": "corruption", "press": ["A", "C"], "sponsors": 2},
        {"track": "japan"},
    ]}
    season = parse_season(doc)
    assert season.id == "custom" and season.name == "Autumn cup" and season.verified
    assert [(r.track, r.event, r.sponsors, r.press) for r in season.races] == [
        ("usa", "corruption", 2, ("A", "C")), ("japan", None, 1, ())]
    assert parse_season(season_doc(season)) == season
    for official in SEASONS.values():
        assert parse_season(season_doc(official), load_track=_any_track) == official


def _any_track(track_id: str) -> tracks.Track:
    return tracks.load_track("usa" if track_id == "germany" else track_id)


@pytest.mark.parametrize(("doc", "message"), [
    ([], "season: must be an object"),
    ({"races": []}, "races: required, a list of 1-12 races"),
    ({"races": [{"track": "usa"}] * 13}, "a list of 1-12 races"),
    ({"format": "heat-season/9", "races": [{"track": "usa"}]}, "format: expected"),
    ({"races": [{"track": "usa"}], "colour": 1}, "season: unknown key 'colour'"),
    ({"name": "", "races": [{"track": "usa"}]}, "name: must be a non-empty string"),
    ({"races": ["usa"]}, r"races\[0\]: must be an object"),
    ({"races": [{"event": "corruption"}]}, r"races\[0\].track: required"),
    ({"races": [{"track": "usa"}, {"track": "mars"}]}, r"races\[1\].track: .*unknown track "
                                                        r"id 'mars'"),
    ({"races": [{"track": "usa", "event": "rain"}]}, r"races\[0\].event: unknown event 'rain'"),
    ({"races": [{"track": "usa", "sponsors": 4}]}, r"races\[0\].sponsors: must be a whole "
                                                   r"number 0-3"),
    ({"races": [{"track": "usa", "sponsors": True}]}, r"races\[0\].sponsors"),
    ({"races": [{"track": "usa", "press": "A"}]}, r"races\[0\].press: must be a list"),
    ({"races": [{"track": "usa", "press": ["a"]}]}, r"races\[0\].press: must be a list of "
                                                    r"letters A-Z"),
    ({"races": [{"track": "italy", "press": ["A", "D"]}]},
     r"races\[0\].press: press corners A and D are the same corner of italy"),
    ({"races": [{"track": "usa", "laps": 3}]}, r"races\[0\]: unknown key 'laps'"),
])
def test_custom_season_errors(doc: Any, message: str) -> None:
    with pytest.raises(SeasonError, match=message):
        parse_season(doc)


def test_a_race_the_app_cannot_run_may_be_on_a_track_it_lacks() -> None:
    """docs/championship.md: ``playable: false`` marks a race the app cannot run, such as one
    on a track that is not bundled (1966 Germany); its Press Corners are checked when the
    track is bundled, as any race's are."""
    lacking = parse_season({"races": [{"track": "usa"},
                                      {"track": "mars", "playable": False, "press": ["A"]}]})
    assert lacking.races[1].track == "mars"
    with pytest.raises(SeasonError, match="races.1..press: press corners A and D are the same"):
        parse_season({"races": [{"track": "usa"},
                                {"track": "italy", "playable": False, "press": ["A", "D"]}]})
    with pytest.raises(SeasonError, match="races.0..track"):
        parse_season({"races": [{"track": "mars"}]})
