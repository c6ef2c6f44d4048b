"""The Standings at 800x480: how the row is shared between the table and the points chart (a
long season's chart keeps the room its races need, the table each car, its total and its latest
race), and a title on one line."""

from __future__ import annotations

from typing import Any

import pytest
from stand_in_seasons import show_stand_in_season
from test_championship_ui import _fake_season, _new_1961_season
from test_results_words import chart_layout_problems

from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

LATIN = ("Maximilianus", "Bartholomews", "Konstantinos", "Wilhelminaxx", "Christophers",
         "Evangelinaaa")
MIXED = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus",
         "Bartholomews", "司馬長風上官婉兒歐陽娜娜", "Konstantinos")


def _standings(ui: Any, language: str, names: tuple[str, ...], races: int,
               played: int, level: bool = False) -> tuple[Any, Any]:
    """The Standings screen showing a made-up season's table and chart (:func:`_fake_season`)
    in ``language`` (``level``: the second car scored as the first did, race after race)."""
    from companion.ui.screens.standings import points_series

    app = ui.app
    _new_1961_season(ui)
    app.set_language(language)
    screen = app.sm.current_screen
    season = _fake_season(names, races, played)
    if level:
        first, second = season.standings()[:2]
        second.races, second.points = first.races, first.points
    screen._table(season)
    chart = screen.ids.chart
    chart.labels = {line.car.id: line.car.name for line in season.standings()}
    chart.races = races
    chart.series = points_series(season)
    ui.pump(3)
    chart.redraw()
    return screen, season


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
@pytest.mark.parametrize("names", [LATIN, MIXED], ids=["latin", "mixed"])
@pytest.mark.parametrize("played", [7, 12])
def test_a_twelve_race_chart_has_room_for_its_races(ui, language: str,
                                                    names: tuple[str, ...],
                                                    played: int) -> None:
    """A twelve-race season at 800x480: the table took 0.6 of the row and left the chart a
    plot of 135 px, 11 px a race, its dots and lines crowded together (found by a table
    test). The chart now keeps 20 px a race (a dot and a gap) where the table can give it,
    and never less than 15 px; the table still shows every car's name whole (not under the
    readable floor), its total, and the latest race played in a column of its own; the
    chart's names are whole, on no gridline and on no other name."""
    from companion.ui.widgets.basic import Cell
    from companion.ui.widgets.measure import READABLE_PX

    app = ui.app
    try:
        screen, season = _standings(ui, language, names, 12, played)
        chart = screen.ids.chart
        plot = chart.gridlines[0][2]  # a gridline runs the plot's width
        per_race = plot / 12
        assert per_race >= 15, per_race
        if names is LATIN:
            assert per_race >= 20 - 0.5, per_race  # points_chart.RACE_PX
        header = [c.text for c in reversed(find(screen, "standings header").children)]
        assert str(played) in header
        for line in season.standings():
            row = find(screen, f"standing {line.car.id}")
            cells = [c for c in reversed(row.children) if isinstance(c, Cell)]
            for cell in cells:
                cell.texture_update()
                assert not cell.is_shortened, (cell.text, cell.width)
            assert cells[1].text == line.car.name and cells[1].font_size >= READABLE_PX
            assert cells[-1].text == str(line.points)
        assert chart_layout_problems(chart) == []
        assert not any("…" in text for text in chart.name_texts.values())
        assert min(chart.name_sizes.values()) >= READABLE_PX
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_chart_whose_cars_end_level_has_room_for_its_races(ui, language: str) -> None:
    """Cars level at the last race have their names joined by a bracket, a text size further
    from the plot (line_chart.KEYS_GAP), which the chart's least width (``least_width``, from
    which the table leaves it its room) did not count: a twelve-race season's plot was drawn
    that much narrower than the 20 px a race it keeps. Counted now: 20 px a race, the names
    whole, on one line, at the chart's text size."""
    from companion.ui.widgets.points_chart import RACE_PX

    app = ui.app
    try:
        screen, _season = _standings(ui, language, LATIN, 12, 12, level=True)
        chart = screen.ids.chart
        plot = chart.gridlines[0][2]  # a gridline runs the plot's width
        assert plot / 12 >= RACE_PX - 0.5, plot / 12
        assert chart_layout_problems(chart) == []
        assert not any("…" in t or "\n" in t for t in chart.name_texts.values())
        assert min(chart.name_sizes.values()) == app.fs_small
    finally:
        app.set_language("en")


def test_a_short_season_keeps_its_table_as_it_was(ui) -> None:
    """Four races: the chart's races need less than the table leaves it; the table takes
    what its figures and names need, as before (0.45 to 0.6 of the row)."""
    from companion.ui.screens.standings import TABLE_SHARE

    screen, _season = _standings(ui, "en", MIXED, 4, 4)
    share = screen.ids.table.parent.size_hint_x
    assert TABLE_SHARE[0] <= share <= TABLE_SHARE[1]
    header = [c.text for c in reversed(find(screen, "standings header").children)]
    assert header[2:6] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
@pytest.mark.parametrize("champion", ["Maximilianus", "歐陽娜娜司馬長風上官婉兒",
                                      "남궁민수황보영희제갈공명"])
def test_a_champion_s_title_takes_one_line(ui, language: str, champion: str) -> None:
    """A 1965 (Tunnel Vision) season over, its champion of twelve letters: the title wrapped
    onto two lines at the big size ("… champion: 歐陽娜娜司馬長風上官婉兒, 36" / "points.";
    found by a table test in English). It is written smaller instead, on one line, never
    under the readable floor; a short title keeps the big size."""
    from test_kept_numbers import rendered_lines

    from companion.championship import CarEntry, RaceResult, Season
    from companion.championship.seasons import SEASONS
    from companion.ui.widgets.measure import READABLE_PX

    cars = (CarEntry("red", champion), CarEntry("blue", "Ana"), CarEntry("green", "Ben"))
    season = Season(SEASONS["1965"], cars)
    for _race in SEASONS["1965"].races:
        season = season.with_result(RaceResult(order=("red", "blue", "green")))
    assert season.over
    app = ui.app
    stored = show_stand_in_season(app, season)
    app.set_language(language)
    try:
        app.show("standings")
        ui.pump(3)
        title = find(app.sm.current_screen, "standings title")
        assert champion in title.text
        assert len(rendered_lines(title)) == 1, rendered_lines(title)
        assert READABLE_PX <= title.font_size <= app.fs_big
        stored.season = Season(SEASONS["1965"], cars)  # not started: a short title
        app.show("start")
        app.show("standings")
        ui.pump(3)
        assert len(rendered_lines(title)) == 1 and title.font_size == app.fs_big
    finally:
        app.set_language("en")
