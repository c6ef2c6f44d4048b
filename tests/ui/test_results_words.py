"""Results and Standings say what their figures mean (issue 10 point 9): the round each car
finished in and whose Sponsorship cards are whose in words, what was saved in words with the
folder one tap away, and charts whose names never sit on a gridline or on each other, with
every car's line (Legend Black's too) readable on both themes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from race_forms import race_form

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
        assert find(screen, f"place {place} words").text.replace("\u00a0", " ") == (
            f"Finished in round {rnd}")  # a no-break space: tests/ui/test_kept_numbers.py
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
    words = "\n".join(t for t in _texts(screen)).replace("\u00a0", " ")
    from companion.ui.views.names import car_label

    for car in humans:  # under the headline that names the driver
        name = car_label(state, car.id)  # an unnamed driver: the colour's name ("Red")
        cards = "card" if car.sponsors == 1 else "cards"
        entry = f"place {car.finished_place}" if car.finished_place else f"out {car.id}"
        assert find(screen, entry).text.endswith(name)
        assert f"Won {car.sponsors} Sponsorship {cards}" in find(
            screen, f"{entry} words").text.replace("\u00a0", " ")
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


LONG_NAMES = {
    "mixed": ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus",
              "Bartholomews", "Konstantinos", "Wilhelminaxx"),
    "zh": ("歐陽娜娜司馬長風上官婉兒", "諸葛孔明司馬懿曹操劉備關", "張飛趙雲馬超黃忠魏延姜維",
           "孫權周瑜魯肅呂蒙陸遜甘寧", "曹丕曹植曹彰郭嘉荀彧賈詡", "袁紹袁術公孫瓚董卓呂布貂"),
    "ko": ("남궁민수황보영희제갈공명", "김철수이영희박민수최지우", "정우성한지민송강호김혜수",
           "이병헌전도연손예진현빈이", "조인성송혜교유아인김고은", "강동원공유김태리류준열박"),
}
"""Six names of 12 letters each."""


@pytest.mark.parametrize(("language", "names"), [
    ("en", "mixed"), ("zh_TW", "mixed"), ("ko", "mixed"), ("zh_TW", "zh"), ("ko", "ko"),
    ("en", "ko")])
def test_charts_write_six_long_names_whole(ui, language: str, names: str) -> None:
    """Six 12-letter names (Latin, Chinese, Korean), a four-race season at 800x480 (its
    standings table leaves the points chart 0.4 of the row): the lap chart and the points
    chart write every name whole, smaller (not under the readable floor) or on two lines,
    inside the chart, off the gridlines and each other, with the points after it. A table
    test saw "Bartholom…: 15" where the whole name would have read at a smaller size."""
    from companion.championship.seasons import SeasonDef, SeasonRace
    from companion.engine import CarEntry
    from companion.ui.views.next_race import plan_next_race
    from companion.ui.widgets.line_chart import LineChart
    from companion.ui.widgets.measure import READABLE_PX

    app = ui.app
    assert tuple(app.root_window.size) == (800, 480)
    app.set_language(language)
    try:
        store = app.season_store()
        cars = tuple(CarEntry(colour, name) for colour, name in zip(
            ("red", "blue", "green", "yellow", "grey", "black"), LONG_NAMES[names],
            strict=True))
        season_id = store.create_season(
            SeasonDef("custom", "Long names", (SeasonRace("usa"),) * 4), cars)
        plan = plan_next_race(store, season_id, seed=5)
        assert plan is not None
        app.season_id = season_id
        app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
        labels = {car.id: car.name for car in cars}
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
            totals: dict[str, int] = {}
            if screen_name == "standings":
                season = app.season_store().season(season_id).season
                totals = {line.car.id: line.points for line in season.standings()}
            # the two lines read as one (a Latin word broken with a hyphen: "Bartholom-/ews")
            written = {car: re.sub(r"(?<=[A-Za-z])-\n(?=[A-Za-z])", "", text).replace("\n", "")
                       for car, text in texts.items()}
            assert [text for text in texts.values() if "…" in text] == [], screen_name
            for car, text in written.items():  # a second line starts at a letter
                assert text.startswith(labels[car]), (screen_name, text)
                # the name whole on its line, its points after it or on the next
                # ("김수한무거북이와두루" / "미삼: 11" broke it; found by a table test)
                assert texts[car].split("\n")[0].startswith(labels[car]), (screen_name,
                                                                          texts[car])
                if totals:  # "{car}: {points}", the points whole
                    assert text.endswith(f"{totals[car]}"), text
                assert READABLE_PX <= chart.name_sizes[car] <= app.fs_small, text
            assert len(set(chart.name_sizes.values())) == 1, chart.name_sizes  # one size
    finally:
        app.set_language("en")


def test_a_chart_name_shrinks_then_takes_two_lines_before_it_is_cut() -> None:
    """A chart's name column (companion.ui.widgets.chart_names): a label too long is written
    smaller, down to the readable floor; then on two lines (broken inside a Chinese or Korean
    name, at a space, never inside a Latin word nor before a colon); only then shortened,
    at the floor, with its points kept. The column takes one size, and only as many names on
    two lines as its height holds."""
    from companion.ui.app.settings import register_font
    from companion.ui.widgets.chart_names import fit_column, fit_name, label_height
    from companion.ui.widgets.measure import READABLE_PX
    from companion.ui.widgets.text_fit import FIT

    register_font()  # the app's font: the widths below are measured in it

    def points(value: int, colon: str = ": ") -> Any:
        return lambda name: f"{name}{colon}{value}"

    latin, chinese = "Bartholomews", "歐陽娜娜司馬長風上官婉兒"
    whole = FIT.width("Bartholomews: 15", 15)
    assert fit_name(latin, points(15), 15, whole).text == "Bartholomews: 15"
    smaller = fit_name(latin, points(15), 15, whole - 2)  # a little too long: smaller
    assert (smaller.text, smaller.lines) == ("Bartholomews: 15", 1)
    assert READABLE_PX <= smaller.size < 15
    # too long at the floor: two lines, the end of the name with the points (a Latin word
    # broken with a hyphen: not "Bartholomews:" / "15")
    two = fit_name(latin, points(15), 15, FIT.width("Bartholomews:", 15))
    assert (two.text, two.lines, two.size) == ("Bartholomews\n: 15", 2, 15)
    # the name itself too long at the floor: broken inside, its end with the points
    two = fit_name(latin, points(15), 15, FIT.width(latin, READABLE_PX) - 1)
    assert (two.text, two.lines, two.size) == ("Bartholom-\news: 15", 2, 15)
    # not on two lines (the column's height): shortened at the floor, the points kept
    cut = fit_name(latin, points(15), 15, FIT.width("Bartholomews:", READABLE_PX) - 1,
                   two=False)
    assert cut.lines == 1 and cut.size == READABLE_PX and cut.cut
    assert cut.text.endswith("…: 15") and cut.text.startswith("Bartho")
    # a Chinese name breaks between its letters, never before the full-width colon
    room = FIT.width(chinese[:7], 15) + 1
    broken = fit_name(chinese, points(9, "："), 15, room)
    assert broken.text == f"{chinese[:7]}\n{chinese[7:]}：9" and broken.lines == 2
    assert "\n：" not in fit_name("AAAA歐陽", points(9, "："), 15,
                                   FIT.width("AAAA歐陽", READABLE_PX) - 1).text
    # one size for the column: the largest every name allows
    labels = [(latin, points(15)), ("Ana", points(3))]
    column = fit_column(labels, 15, whole - 2, 1000)
    assert len({name.size for name in column}) == 1 and column[0].size < 15
    # two lines for as many as the column's height holds (smaller first): the last shortened
    labels = [(chinese, points(n, "：")) for n in (9, 6, 4)]
    tall = fit_name(chinese, points(9, "："), 15, room)
    column = fit_column(labels, 15, room, 3 * label_height(tall))
    assert [(name.lines, name.size) for name in column] == [(2, 15)] * 3
    low = fit_name(chinese, points(9, "："), READABLE_PX, room)
    column = fit_column(labels, 15, room, 3 * label_height(low))
    assert [name.lines for name in column] == [2, 2, 2] and column[0].size < 15
    column = fit_column(labels, 15, room, 3 * label_height(low) - 1)
    assert [name.lines for name in column] == [2, 2, 1] and column[2].cut
    assert not column[0].cut and not column[1].cut


@pytest.mark.parametrize("colon", [": ", "："])
def test_a_chart_name_on_two_lines_keeps_its_points_with_its_end(colon: str) -> None:
    """A chart's label on two lines broke after the colon and left the points alone on the
    second line ("Bartholomews：" / "7"; found by a table test). In any room that takes two
    lines, the first is the whole name and the second the colon with the points, or (the
    name too long for a line) the second starts inside the name: its end stays with the
    points; the two lines read as the whole label (a Latin word broken with a hyphen)."""
    from companion.ui.app.settings import register_font
    from companion.ui.widgets.chart_names import fit_name
    from companion.ui.widgets.measure import READABLE_PX
    from companion.ui.widgets.text_fit import FIT

    register_font()
    names = ("Bartholomews", "Maximilianus", "Legend Green", "歐陽娜娜司馬長風上官婉兒",
             "남궁민수황보영희제갈공명", "Jean Bartholomews")
    seen = 0
    for name in names:
        for points in (7, 38, 125):
            label = f"{name}{colon}{points}"
            widest = int(FIT.width(label, 15)) + 1
            for room in range(widest, int(FIT.width(f"ews{colon}{points}", READABLE_PX)), -3):
                fitted = fit_name(name, lambda n, p=points: f"{n}{colon}{p}", 15, room)
                if fitted.lines != 2:
                    continue
                seen += 1
                first, second = fitted.text.split("\n")
                assert not second.startswith(str(points)), (fitted.text, room)
                # the name whole on the first line, else broken with its end on the second
                assert first == name or second.split(colon.strip())[0].strip(), (
                    fitted.text, room)
                rejoined = (first[:-1] if first.endswith("-") and name[0].isascii()
                            else first + (" " if first + " " + second == label else ""))
                assert rejoined + second == label, (fitted.text, label)
    assert seen > 20  # two-line labels were tried


@pytest.mark.parametrize("colon", [": ", "："])
def test_a_chart_name_that_fits_a_line_is_not_broken(colon: str) -> None:
    """The points chart broke twelve-letter names at 800x480: "김수한무거북이와두루" / "미삼:
    11", "諸葛孔明司馬仲達夏侯" / "元讓: 9" (found by a table test). Where the name fits a
    line, at the chart's size or smaller down to the readable floor, it is whole on the first
    line and the colon and the points on the second; the lap chart's mark likewise."""
    from companion.ui.app.settings import register_font
    from companion.ui.widgets.chart_names import fit_name
    from companion.ui.widgets.measure import READABLE_PX
    from companion.ui.widgets.text_fit import FIT

    register_font()
    for name in ("김수한무거북이와두루미삼", "諸葛孔明司馬仲達夏侯元讓", "Bartholomews"):
        label = f"{name}{colon}11"
        at_size = fit_name(name, lambda n: f"{n}{colon}11", 15, FIT.width(name, 15) + 1)
        assert (at_size.text, at_size.size) == (f"{name}\n{colon.strip()}11".replace(
            ":11", ": 11"), 15), label
        smaller = fit_name(name, lambda n: f"{n}{colon}11", 15,
                           FIT.width(name, READABLE_PX) + 1)
        assert smaller.text.split("\n")[0] == name and smaller.lines == 2, smaller.text
        assert READABLE_PX <= smaller.size < 15
        out = fit_name(name, lambda n: f"{n} (out)", 15, FIT.width(name, 15) + 1)
        assert out.text == f"{name}\n(out)", out.text


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
    from companion.ui.widgets.line_chart import axis_step as round_step

    assert round_step(9, 380, 20) == 1  # 42 px a round
    assert round_step(15, 380, 25) == 1  # 25.3 px a round: room for 25
    assert round_step(15, 380, 26) == 2
    assert round_step(16, 300, 26) == 2
    assert round_step(40, 300, 26) == 5
    assert round_step(200, 300, 26) == 20


def test_a_finishing_list_taller_than_its_view_shows_its_bar(ui) -> None:
    """Six drivers of twelve-letter names in Traditional Chinese at 800x480, the folder
    shown under the results: the finishing order's last row was cut at the bottom edge, with
    nothing but a faint grey bar to say the list scrolls (found by a table test). Its bar is
    drawn in the accent colour while there is more than the view shows, as the draft's."""
    from pixels import accent_bar_hits


    app = ui.app
    names = ("Maximilianus", "Bartholomews", "歐陽娜娜司馬長風上官婉兒", "Konstantinos",
             "남궁민수황보영희제갈공명", "Christophers")
    form = race_form(names, seed=5, first_race=True)
    app.open_session(play_out(app.log().new_race(form.setup(tracks.load_track("usa")))))
    screen = app.sm.current_screen
    assert app.sm.current == "results"
    app.set_language("zh_TW")
    try:
        screen.export_chart()
        ui.pump(3)
        ui.player.press("saved where")
        ui.pump(3)
        listing = screen.ids.standings
        view = listing.parent
        assert len(listing.children) == 6
        assert listing.height > view.height  # more rows than the view shows
        hits = accent_bar_hits(view, app.c_accent)
        assert hits >= 5, hits  # the bar, in the accent colour, along the list's side
    finally:
        app.set_language("en")


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
    assert names == ["undo finish", "export", "races", "home"]
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
    assert names == ["undo finish", "export", "races", "standings", "home"]
    ui.player.press("standings")
    assert app.sm.current == "standings"


def _colour_at(chart: Any, picture: tuple[int, bytes], x: float, y: float) -> tuple[float, ...]:
    """The colour of the pixel at window (``x``, ``y``) of ``chart``'s ``picture`` (its width
    and its RGBA pixels, the rows top down)."""
    width, pixels = picture
    col = int(round(x - chart.x))
    row = int(round(chart.height - 1 - (y - chart.y)))
    at = (row * width + col) * 4
    return tuple(pixels[at + i] / 255 for i in range(3))


def test_the_lap_chart_writes_names_whole_and_no_leader_across_the_race(ui) -> None:
    """Six hot drivers at France with Title sponsor withdraws (seed 1: black out in round 10,
    blue in 14, red in 15), red a 12-letter Chinese name, at 800x480: the lap chart wrote
    red's "歐陽娜娜司馬長風上官婉" / "兒 (out)" on two lines, and joined each car out of the
    race to its name by a leader from where its line ended across the lines of the cars that
    raced on (found by a table test); then cut it on one line, "歐陽娜娜司馬長風上…（淘汰）"
    (found by a table test). Every name is whole with its mark, at the readable floor or
    larger, on one line or on two (the second line the mark alone, or more than one letter
    of the name before it); along the straight way from where a car out of the race ended to
    its name, the plot has none of its colour (no leader), in en, zh_TW and ko."""
    from companion.engine import CarEntry, RaceSetup
    from companion.racesim import HotDriver, run_race
    from companion.ui.widgets.lap_chart import out_label
    from companion.ui.widgets.measure import READABLE_PX

    app = ui.app
    assert tuple(app.root_window.size) == (800, 480)
    names = ("歐陽娜娜司馬長風上官婉兒", "Bartholomew", "Konstantinos", "Maximilianus",
             "Wilhelmina", "Christopher")
    setup = RaceSetup(track=tracks.load_track("france"),
                      cars=tuple(CarEntry(colour, name) for colour, name in zip(
                          ("red", "yellow", "grey", "black", "blue", "green"), names,
                          strict=True)),
                      seed=1, modules=RaceModules(event="title-sponsor-withdraws"))
    names_of = dict(zip(("red", "yellow", "grey", "black", "blue", "green"), names,
                        strict=True))
    session = app.log().new_race(setup)
    for action in run_race(setup, seed=1, driver=HotDriver).actions:
        session.submit(action)
    app.open_session(session)
    ui.pump(3)
    chart = app.sm.current_screen.ids.chart
    assert dict(chart.chart.out) == {"black": 10, "blue": 14, "red": 15}
    fs = app.fs_small
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        chart.redraw()
        assert chart_layout_problems(chart) == [], language
        for car, text in chart.name_texts.items():
            label = out_label(names_of[car]) if car in chart.chart.out else names_of[car]
            written = re.sub(r"(?<=[A-Za-z])-\n(?=[A-Za-z])", "", text)
            assert written.replace("\n", "").replace(" ", "") == label.replace(" ", ""), (
                language, text)  # whole, the mark kept
            assert "…" not in text and chart.name_sizes[car] >= READABLE_PX, (language, text)
            second = text.split("\n")[1:]
            if second and car in chart.chart.out:  # not one letter alone before the mark
                assert second[0] == out_label("").strip() or (
                    len(second[0]) - len(out_label("").strip()) > 1), (language, text)
        texture = chart.export_as_image().texture
        picture = (texture.size[0], texture.pixels)
        left, right = chart.x + fs * 2.2, min(b[0] for b in chart.name_boxes.values()) - fs
        top, bottom = chart.top - fs * 2.2, chart.y + fs * 2.4
        rounds, cars = chart.chart.rounds, len(chart.chart.cars)
        for car in chart.chart.out:
            positions = chart.chart.positions[car]
            x0 = left + (right - left) * (len(positions) - 1) / rounds
            y0 = top - (top - bottom) * (positions[-1] - 1) / (cars - 1)
            box = chart.name_boxes[car]
            x1, y1 = box[0], box[1] + box[3] / 2
            core = chart.inks[car].core[:3]
            seen = 0
            for step in range(101):
                x = x0 + (x1 - x0) * step / 100
                y = y0 + (y1 - y0) * step / 100
                if x0 + 10 < x < right - 8 and all(
                        abs(p - q) < 0.06
                        for p, q in zip(_colour_at(chart, picture, x, y), core, strict=True)):
                    seen += 1
            assert seen == 0, (language, car, seen)
    app.set_language("en")


def _dots(chart: Any, picture: tuple[int, bytes], x0: float, x1: float, y: float,
          ground: tuple[float, ...]) -> int:
    """How many dots ``chart``'s ``picture`` draws side by side from ``x0`` to ``x1`` on row
    ``y``: runs of columns inked (not of the chart's ``ground``) from ``y - 3`` to ``y + 3``
    (a dot is 9 px across; a leader, a line 1 px wide, is not counted)."""
    runs, inked = 0, False
    for x in range(int(round(x0)), int(round(x1)) + 1):
        ink = all(max(abs(p - q) for p, q in zip(_colour_at(chart, picture, x, y + dy), ground,
                                                 strict=True)) > 0.1 for dy in range(-3, 4))
        runs += ink and not inked
        inked = ink
    return runs


def test_the_lap_chart_marks_the_last_car_out_once_at_its_name(ui) -> None:
    """Six hot drivers at France with Title sponsor withdraws, every car out (seed 18: blue
    the last, in round 17), six twelve-letter names, at 800x480: blue's line ends at the last
    round, beside its name, and the dot that stands before a car out's name sat next to the
    dot its line ends on ("●●", found by a table test). From where blue's line ends to its
    name the chart now draws one dot (its line's last, joined to the name), in en, zh_TW and
    ko."""
    from test_eliminated_order import _race

    from companion.engine import CarEntry

    app = ui.app
    assert tuple(app.root_window.size) == (800, 480)
    setup, actions = _race(18)
    names = ("歐陽娜娜司馬長風上官婉兒", "Bartholomews", "Konstantinos", "Maximilianus",
             "Wilhelminaxx", "남궁민수황보영희제갈공명")
    setup = replace(setup, cars=tuple(CarEntry(car.id, name) for car, name in zip(
        setup.cars, names, strict=True)))
    session = app.log().new_race(setup)
    for action in actions:
        session.submit(action)
    app.open_session(session)
    ui.pump(3)
    chart = app.sm.current_screen.ids.chart
    assert not session.state.results and chart.chart.cars[0] == "blue"
    fs = app.fs_small
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        chart.redraw()
        texture = chart.export_as_image().texture
        picture = (texture.size[0], texture.pixels)
        ground = tuple(app.c_panel[:3])
        right = min(b[0] for b in chart.name_boxes.values()) - fs  # the last round's x
        last = [car for car, positions in chart.chart.positions.items()
                if len(positions) - 1 == chart.chart.rounds]
        assert last == ["blue"]
        box = chart.name_boxes["blue"]
        y = box[1] + box[3] / 2
        assert _dots(chart, picture, right - 3, box[0] - 1, y, ground) == 1, language
    app.set_language("en")


def test_a_driver_who_won_no_sponsorship_card_is_not_told_so(ui) -> None:
    """A 1962 season's race (Press Corners: Sponsorship cards): a driver who won none read
    "Won 0 Sponsorship cards" under its place, a line of noise in a list that scrolls; it says
    nothing of cards now (its entry is its place and the round it finished in), while a driver
    who won some still reads "Won 1 Sponsorship card", in en, zh_TW and ko."""
    from companion.championship.seasons import SEASONS
    from companion.engine import CarEntry
    from companion.ui.views.next_race import plan_next_race

    app = ui.app
    store = app.season_store()
    cars = tuple(CarEntry(colour, name) for colour, name in zip(
        ("red", "blue", "green", "yellow", "grey", "black"), LONG_NAMES["mixed"], strict=True))
    season_id = store.create_season(SEASONS["1962"], cars)
    plan = plan_next_race(store, season_id, seed=5)
    assert plan is not None
    app.season_id = season_id
    app.open_session(play_out(store.start_race(plan.season_id, plan.setup({})), seed=2))
    assert app.sm.current == "results"
    state = app.session.state  # seed 2: blue (1st) and black (4th) won none
    none = [c for c in state.cars if not c.sponsors and c.finished_place]
    some = [c for c in state.cars if c.sponsors and c.finished_place]
    assert none and some
    for language, noun in (("en", "Sponsorship"), ("zh_TW", "贊助卡"), ("ko", "스폰서")):
        app.set_language(language)
        try:
            ui.pump(2)
            screen = app.sm.current_screen
            for car in none:
                words = find(screen, f"place {car.finished_place} words").text
                assert noun not in words and "\n" not in words, (language, words)
            for car in some:
                words = find(screen, f"place {car.finished_place} words").text
                assert noun in words.splitlines()[1], (language, words)
        finally:
            app.set_language("en")
