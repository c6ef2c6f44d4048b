"""Results and Standings say what their figures mean (issue 10 point 9): the round each car
finished in and whose Sponsorship cards are whose in words, what was saved in words with the
folder one tap away, and charts whose names never sit on a gridline or on each other, with
every car's line (Legend Black's too) readable on both themes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import tracks
from companion.engine.modules import RaceModules
from companion.ui.views.race_form import RaceForm
from companion.ui.widgets.line_chart import LINE_CONTRAST, contrast, overlaps
from companion.ui.widgets.lookup import find, walk

pytestmark = pytest.mark.ui


def play_out(session: Any, seed: int = 3) -> Any:
    """Play ``session`` to the end with the engine's simulated drivers (``companion.racesim``),
    straight into the log: the screens under test see a finished race without the taps."""
    from companion.racesim import SensibleDriver, run_race

    for action in run_race(session.setup, seed=seed, driver=SensibleDriver).actions:
        session.submit(action)
    assert session.state.over
    return session


def _texts(screen: Any) -> list[str]:
    from kivy.uix.label import Label

    return [w.text for w in walk(screen) if isinstance(w, Label) and w.text and w.opacity > 0]


def chart_layout_problems(chart: Any) -> list[str]:
    """Names on gridlines, on each other, or outside the chart."""
    problems = []
    names = list(chart.name_boxes.items())
    for car, box in names:
        problems += [f"{car}'s name is on a gridline" for line in chart.gridlines
                     if overlaps(box, line)]
        x, y, w, h = box
        if x < chart.x or y < chart.y or x + w > chart.right + 1 or y + h > chart.top + 1:
            problems.append(f"{car}'s name is outside the chart")
    for i, (car, box) in enumerate(names):
        problems += [f"{car}'s name is on {other}'s" for other, other_box in names[i + 1:]
                     if overlaps(box, other_box)]
    return problems


def _check_charts(ui: Any, screen: Any) -> None:
    from companion.ui.widgets.line_chart import LineChart

    app = ui.app
    chart = next(w for w in walk(screen) if isinstance(w, LineChart))
    for theme in ("light", "dark"):
        app.set_theme(theme)
        ui.pump()
        assert chart.name_boxes and chart.gridlines
        assert chart_layout_problems(chart) == [], theme
        black = chart.inks["black"]  # Legend Black: its own line reads, not just its casing
        assert contrast(black.core, app.c_panel) >= LINE_CONTRAST, theme


def test_results_say_what_each_figure_means(ui) -> None:
    app = ui.app
    track = tracks.load_track("usa")
    form = RaceForm(seed=5)
    form.first_race()
    form.set_legends(2)  # Legend Black among them
    app.open_session(play_out(app.log().new_race(form.setup(track))))
    screen = app.sm.current_screen
    assert app.sm.current == "results"
    state = app.session.state
    for _car, place, rnd in state.results:
        assert find(screen, f"place {place} words").text == f"Finished in round {rnd}"
    assert not any("(round" in text for text in _texts(screen))
    # What was saved, in words; the folder only on demand.
    screen.export_chart()
    ui.pump()
    assert find(screen, "saved").text == (
        "Results and lap chart saved (JSON and PNG) with the race log.")
    assert not any(str(app.data_path) in text for text in _texts(screen))
    ui.player.press("saved where")
    assert find(screen, "saved path").text == f"Folder: {app.data_path / 'results'}"
    app.set_language("zh_TW")  # the folder line, like the words, follows a language switch
    try:
        screen = app.sm.current_screen
        assert find(screen, "saved path").text.startswith("資料夾")
        assert not find(screen, "saved").text.startswith("Results")
    finally:
        app.set_language("en")
    screen = app.sm.current_screen
    ui.player.press("saved where")
    assert not any(str(app.data_path) in text for text in _texts(screen))
    ui.player.press("export")
    assert find(screen, "saved").text == "Race file exported (heat-race JSON)."
    assert not any(str(app.data_path) in text for text in _texts(screen))
    _check_charts(ui, screen)


def test_sponsorship_cards_name_their_owner(ui) -> None:
    app = ui.app
    track = tracks.load_track("usa")
    form = RaceForm(seed=1)
    form.first_race()
    form.set_legends(1)
    modules = RaceModules(event="new-speed-record",
                          press_corners=tracks.default_press_corners(track.corners))
    app.open_session(play_out(app.log().new_race(replace(form.setup(track), modules=modules))))
    screen = app.sm.current_screen
    assert app.sm.current == "results"
    state = app.session.state
    humans = [c for c in state.cars if not c.legend]
    assert any(c.sponsors for c in humans)
    words = "\n".join(t for t in _texts(screen))
    from companion.ui.views.names import car_label

    for car in humans:
        name = car_label(state, car.id)  # an unnamed driver: the colour's name ("Red")
        cards = "card" if car.sponsors == 1 else "cards"
        assert f"{name} won {car.sponsors} Sponsorship {cards}" in words
    assert "\n0 Sponsorship" not in words and not any(
        t.startswith(tuple("0123456789")) and "Sponsorship" in t for t in _texts(screen))


def test_standings_explain_the_race_columns_and_keep_names_off_the_gridlines(ui) -> None:
    app = ui.app
    ui.player.press("championship")
    ui.player.press("season 1961")
    for index, name in enumerate(("Maximilianus", "Bartholomäus")):
        ui.player.find(f"name {index}").text = name
    ui.player.press("create season")
    from companion.ui.views.next_race import plan_next_race

    store = app.season_store()
    plan = plan_next_race(store, app.season_id, seed=5)
    app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
    assert app.sm.current == "results"
    ui.player.press("standings")
    screen = app.sm.current_screen
    assert find(screen, "tie note").text.startswith(
        "Each race: points, then the place in brackets.\nTies:")  # every car placed: no "(-)"
    ui.player.press("export standings")
    assert find(screen, "saved").text == (
        "Standings saved (CSV and JSON) with the points chart (PNG).")
    assert not any(str(app.data_path) in text for text in _texts(screen))
    ui.player.press("saved where")
    assert find(screen, "saved path").text == f"Folder: {app.data_path / 'seasons'}"
    _check_charts(ui, screen)


def test_standings_say_what_a_race_without_a_place_means(ui) -> None:
    """Title sponsor withdraws eliminates a car that spins out (docs/rules.md §3.3): its
    cell reads "0 (-)", and the note under the table says what "(-)" is. Found by a table
    test: a 1963 season's Italy left every car at "0 (-)", unexplained."""
    from companion.championship.seasons import SeasonDef, SeasonRace
    from companion.engine import CarEntry
    from companion.racesim import HotDriver, run_race
    from companion.ui.views.next_race import plan_next_race

    app = ui.app
    store = app.season_store()
    italy = SeasonRace("italy", "title-sponsor-withdraws", 0, ("D",))
    season_id = store.create_season(SeasonDef("custom", "Italy", (italy,)),
                                    (CarEntry("red", "Ana"), CarEntry("blue", "Ben")))
    plan = plan_next_race(store, season_id, seed=5)
    assert plan is not None
    session = store.start_race(plan.season_id, plan.setup({}))
    for action in run_race(session.setup, seed=6, driver=HotDriver).actions:
        session.submit(action)  # Ben spins out and is eliminated; Ana finishes (seed 6)
    assert session.state.over and session.state.car("blue").eliminated
    app.season_id = season_id
    app.open_session(session)
    ui.player.press("standings")
    screen = app.sm.current_screen
    assert find(screen, "standing blue").children[-3].text == "0 (-)"
    assert find(screen, "tie note").text.splitlines()[1] == "(-): out of the race, no place."
    app.set_language("ko")
    try:
        assert find(screen, "tie note").text.splitlines()[1] == "(-): 탈락, 순위 없음."
    finally:
        app.set_language("en")


LONG_NAMES = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus", "Bartholomew",
              "Konstantinos", "Wilhelmina")


@pytest.mark.parametrize("language", ["zh_TW", "ko", "en"])
def test_charts_shorten_a_long_name_and_keep_its_points(ui, language: str) -> None:
    """Six 12-letter names, two of them Chinese and Korean: the lap chart and the points
    chart write every name inside the chart, a name too long shortened with "…", and the
    points after it whole. Found by a table test: "歐陽娜娜司馬長風上官婉兒: 19" ran off the
    points chart's edge, its points lost."""
    from companion.championship.seasons import SeasonDef, SeasonRace
    from companion.engine import CarEntry
    from companion.ui.views.next_race import plan_next_race
    from companion.ui.widgets.line_chart import LineChart

    app = ui.app
    app.set_language(language)
    try:
        store = app.season_store()
        cars = tuple(CarEntry(colour, name) for colour, name in zip(
            ("red", "blue", "green", "yellow", "grey", "black"), LONG_NAMES, strict=True))
        season_id = store.create_season(
            SeasonDef("custom", "Long names", (SeasonRace("usa"), SeasonRace("usa"))), cars)
        plan = plan_next_race(store, season_id, seed=5)
        assert plan is not None
        app.season_id = season_id
        app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
        for screen_name in ("results", "standings"):
            if screen_name == "standings":
                ui.player.press("standings")
            screen = app.sm.current_screen
            assert app.sm.current == screen_name
            chart = next(w for w in walk(screen) if isinstance(w, LineChart))
            ui.pump()
            assert chart_layout_problems(chart) == [], screen_name
            texts = chart.name_texts
            assert len(texts) == 6
            shortened = [car for car, text in texts.items() if "…" in text]
            assert {"red", "blue"} <= set(shortened), (screen_name, texts)  # the CJK names
            if screen_name == "standings":
                season = app.season_store().season(season_id).season
                totals = {line.car.id: line.points for line in season.standings()}
                for car, text in texts.items():  # "{car}: {points}", the points whole
                    assert text.endswith(f"{totals[car]}"), text
    finally:
        app.set_language("en")


def test_the_saved_line_speaks_only_of_its_own_season(ui) -> None:
    """Standings exported for one season: another season's standings (a new one, never
    exported) say nothing was saved until they are. Found by a table test: the line and its
    Where? stayed on every other season's standings."""
    app = ui.app
    ui.player.press("championship")
    ui.player.press("season 1961")
    ui.player.press("create season")
    first = app.season_id
    screen = app.sm.current_screen
    ui.player.press("export standings")
    ui.player.press("saved where")
    assert find(screen, "saved").text.startswith("Standings saved")
    assert screen.ids.saved_line.shown
    ui.player.press("back")
    ui.player.press("season 1962")
    ui.player.press("create season")
    assert app.sm.current == "standings" and app.season_id != first
    assert screen.ids.saved_line.height == 0
    assert screen.ids.saved_line.children == []
    ui.player.press("export standings")  # this season's: said
    assert find(screen, "saved").text.startswith("Standings saved")


def test_another_race_s_results_keep_their_folder_hidden(ui) -> None:
    """The folder shown on one race's results ("Where?"): another race's results open with
    it hidden (it took the room of the finishing order's last row), the same race's keep it
    through a language switch. Found by a table test."""
    app = ui.app
    track = tracks.load_track("usa")
    races = []
    for seed in (5, 6):
        form = RaceForm(seed=seed)
        form.first_race()
        races.append(play_out(app.log().new_race(form.setup(track)), seed=seed))
    app.open_session(races[0])
    screen = app.sm.current_screen
    screen.export_chart()
    ui.pump(3)
    ui.player.press("saved where")
    assert screen.ids.saved_line.shown
    app.set_language("ko")
    app.set_language("en")
    assert screen.ids.saved_line.shown  # the same race's, still shown
    app.open_session(races[1])
    ui.pump(3)
    assert app.sm.current_screen is screen
    assert not screen.ids.saved_line.shown


def test_the_lap_chart_numbers_its_rounds_apart() -> None:
    """The lap chart's x axis: numbered every round while the numbers have room, else every
    2nd, 5th or 10th round (a table test found 15 rounds in 380 px as "1011121314")."""
    from companion.ui.widgets.lap_chart import round_step

    assert round_step(9, 380, 20) == 1  # 42 px a round
    assert round_step(15, 380, 25) == 1  # 25.3 px a round: room for 25
    assert round_step(15, 380, 26) == 2
    assert round_step(16, 300, 26) == 2
    assert round_step(40, 300, 26) == 5
    assert round_step(200, 300, 26) == 20


def test_a_standalone_race_s_results_have_no_gap_where_standings_would_be(ui) -> None:
    """Standings is for a season's race only: for a race of no season it is out of the button
    row, and the other buttons share the row (a table test saw a gap in its place); for a
    season's race it is back, before Home."""
    from companion.ui.widgets.lookup import find_all

    app = ui.app
    form = RaceForm(seed=5)
    form.first_race()
    app.open_session(play_out(app.log().new_race(form.setup(tracks.load_track("usa")))))
    ui.pump(2)
    screen = app.sm.current_screen
    assert find_all(screen, "standings") == []
    row = find(screen, "home").parent
    names = [getattr(b, "test_name", "") for b in reversed(row.children)]
    assert names == ["export", "races", "home"]
    spacing = row.spacing[0] if isinstance(row.spacing, list | tuple) else row.spacing
    used = sum(b.width for b in row.children) + spacing * (len(row.children) - 1)
    assert used == pytest.approx(row.width - row.padding[0] - row.padding[2], abs=1)
    app.show("start")
    ui.pump(2)
    ui.player.press("championship")  # a season's race: Standings is back, before Home
    ui.player.press("season 1961")
    ui.player.press("create season")
    from companion.ui.views.next_race import plan_next_race

    store = app.season_store()
    plan = plan_next_race(store, app.season_id, seed=5)
    assert plan is not None
    app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
    ui.pump(2)
    names = [getattr(b, "test_name", "") for b in reversed(row.children)]
    assert names == ["export", "races", "standings", "home"]
    ui.player.press("standings")
    assert app.sm.current == "standings"
