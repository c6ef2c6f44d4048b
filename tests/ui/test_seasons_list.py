"""The Championship screen's list of stored seasons: each season's line (its name, where it is,
its top three) as the table reads it at 800x480, in every language."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.ui.widgets.lookup import find_all

pytestmark = pytest.mark.ui

CJK = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "司馬長風上官婉兒歐陽娜娜",
       "황보영희제갈공명남궁민수", "上官婉兒歐陽娜娜司馬長風", "제갈공명남궁민수황보영희")
"""Six drivers' names of twelve Chinese or Korean letters."""
COLOURS = ("red", "blue", "green", "yellow", "white", "grey")


def stored_seasons(ui: Any, monkeypatch: pytest.MonkeyPatch,
                   seasons: list[tuple[int, list[tuple[str, ...]], bool]]) -> list[str]:
    """Seasons of six drivers named :data:`CJK` in the app's store: ``(races, orders,
    running)`` each, a race over for each order (winner first), ``running``: the next race
    under way. The store gives them as if each race's log were stored (none is played)."""
    from companion.championship import RaceResult, Season, SeasonDef, SeasonRace
    from companion.engine import CarEntry
    from companion.storage.seasons import StoredSeason

    store = ui.app.season_store()
    cars = tuple(CarEntry(colour, name=name) for colour, name in zip(COLOURS, CJK, strict=True))
    made: dict[str, tuple[StoredSeason, int]] = {}
    for races, orders, running in seasons:
        definition = SeasonDef("custom", "Cup", tuple(SeasonRace("usa") for _ in range(races)))
        season_id = store.create_season(definition, cars)
        season = Season(definition, cars, tuple(RaceResult(order) for order in orders))
        started = len(orders) + (1 if running else 0)
        made[season_id] = (StoredSeason(
            season_id, "2024-06-01", season, tuple(f"race{n}" for n in range(started)),
            "race-running" if running else None), started)
    real_season, real_seasons = store.season, store.seasons
    monkeypatch.setattr(store, "season", lambda season_id: made[season_id][0]
                        if season_id in made else real_season(season_id))
    monkeypatch.setattr(store, "seasons", lambda limit=None: [
        replace(s, started=made[s.id][1]) if s.id in made else s for s in real_seasons(limit)])
    return list(made)


def season_lines(ui: Any) -> dict[str, list[str]]:
    """Each stored season's line on the Championship screen, as drawn: its lines of text."""
    from companion.ui.widgets import text_cache

    ui.app.show("seasons")
    ui.pump(3)
    out = {}
    for button in find_all(ui.app.sm.current_screen, "open season "):
        label = button.parent.children[-1]
        label.texture_update()
        out[button.test_name.split()[-1]] = [
            "".join(word.text for word in line.words)
            for line in text_cache.renderer(label)._cached_lines]
    return out


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_driver_s_points_stay_beside_the_name(ui, monkeypatch: pytest.MonkeyPatch,
                                               language: str) -> None:
    """A season's top three, twelve-letter Chinese and Korean names: a driver's points wrapped
    onto a line of their own ("3. 황보영희제갈공명남궁민수" / "4"; found by a table test). A
    place, its driver and the points are now on one line."""
    order = ("blue", "white", "yellow", "red", "green", "grey")
    ids = stored_seasons(ui, monkeypatch, [(3, [order], True), (12, [order] * 7, False),
                                           (4, [order[::-1]] * 4, False)])
    ui.app.set_language(language)
    shown = season_lines(ui)
    for season_id in ids:
        lines = [line.replace("\u00a0", " ") for line in shown[season_id]]
        season = ui.app.season_store().season(season_id).season
        for standing in season.standings()[:3]:
            entry = f"{standing.rank}. {standing.car.name} {standing.points}"
            assert any(entry in line for line in lines), (entry, lines)


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_season_s_status_takes_one_bracket_style(ui, monkeypatch: pytest.MonkeyPatch,
                                                  language: str) -> None:
    """Where a season is, after its name: in Traditional Chinese it read "1962 (第 2 場（共
    3 場）進行中)", ASCII brackets around full-width ones (found by a table test). Each
    language now writes one pair of brackets of its own style: full-width in zh_TW, ASCII in
    English and Korean; none inside another."""
    order = ("blue", "white", "yellow", "red", "green", "grey")
    ids = stored_seasons(ui, monkeypatch, [(3, [order], True), (3, [order], False),
                                           (3, [order] * 3, False), (3, [], False)])
    ui.app.set_language(language)
    shown = season_lines(ui)
    opening, closing = ("（", "）") if language == "zh_TW" else ("(", ")")
    others = "()" if language == "zh_TW" else "（）"
    for season_id in ids:
        status = shown[season_id][0]
        assert status.count(opening) == 1 and status.count(closing) == 1, status
        assert status.index(opening) < status.index(closing), status
        assert not set(others) & set(status), status


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_an_official_season_s_tracks_follow_the_language_s_colon(ui, language: str) -> None:
    """The official seasons, each year with its tracks: in Traditional Chinese the colon was
    an ASCII one that never went through the catalog ("1961: 英國、 美國、 義大利"; found by
    a table test). The year and its tracks are now joined by a translated line: a full-width
    colon in zh_TW, an ASCII colon and a space in English and Korean."""
    from companion.championship import SEASONS
    from companion.i18n import listed
    from companion.ui.views.names import track_title

    ui.app.set_language(language)
    ui.app.show("seasons")
    ui.pump(3)
    colon = "：" if language == "zh_TW" else ": "
    for year, definition in SEASONS.items():
        label = find_all(ui.app.sm.current_screen, f"season {year}")[0].parent.children[-1]
        first = label.text.split("\n")[0]
        tracks = listed(track_title(race.track) for race in definition.races)
        assert first.startswith(f"{year}{colon}{tracks}"), first
        if language == "zh_TW":
            assert ":" not in first, first


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_season_s_note_joins_its_sentences_as_the_language_does(ui, language: str) -> None:
    """1966's note on the Championship list, two sentences: in Traditional Chinese they were
    joined by an ASCII space ("未驗證資料。 第 2 場（德國）無法進行。"; found by a table test);
    none now, and English and Korean keep theirs."""
    from companion.i18n import _

    ui.app.set_language(language)
    ui.app.show("seasons")
    ui.pump(3)
    label = find_all(ui.app.sm.current_screen, "season 1966")[0].parent.children[-1]
    note = label.text.split("\n")[1]
    first, second = _("Unverified data."), _("Race {n} ({track}) cannot be played.")
    assert note.startswith(first), note
    gap = note[len(first):len(note) - len(second.format(n=2, track=_("Germany")))]
    assert gap == ("" if language == "zh_TW" else " "), (note, gap)
