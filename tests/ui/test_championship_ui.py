"""A Championship season through the real screens: create, draft, race, standings, resume."""

from __future__ import annotations

import csv
import json
import math

import pytest
from season_play import start_next_race

from companion import racefile
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui


def spaced(text: str) -> str:
    """``text`` with its no-break spaces written as spaces."""
    return text.replace("\u00a0", " ")


def _new_1961_season(ui) -> str:
    app = ui.app
    ui.player.press("championship")
    assert app.sm.current == "seasons"
    screen = app.sm.current_screen
    assert find(screen, "season 1966").disabled  # Germany cannot be played
    assert "Unverified data." in find_all(screen, "season 1966")[0].parent.children[-1].text
    ui.player.press("season 1961")
    assert app.sm.current == "newseason"
    for index, name in enumerate(("Ana", "Ben")):
        ui.player.find(f"name {index}").text = name
    assert find(app.sm.current_screen, "problem").text == ""
    ui.player.press("create season")
    assert app.sm.current == "standings"
    return str(app.season_id)


def test_a_1961_season_race_and_its_standings(ui) -> None:
    app = ui.app
    season_id = _new_1961_season(ui)
    screen = app.sm.current_screen
    # (a number and the words beside it joined by no-break spaces: tests/ui/test_kept_numbers.py)
    assert spaced(find(screen, "standings title").text) == "1961: 0 of 3 races played"
    assert len(find_all(screen, "standing ")) == 4
    ui.player.press("next race")
    next_screen = app.sm.current_screen
    plan = next_screen.plan
    assert find(next_screen, "next title").text == "Race 1: Great Britain"
    assert find(next_screen, "event").text.startswith("New grandstand inauguration: ")
    assert find(next_screen, "grid").text.count(".") == 4
    # Race 1: nobody has points, so the draft follows the grid backwards.
    humans = [c for c in plan.grid if c in ("red", "blue")]
    assert plan.picks == tuple(reversed(humans))
    assert find(next_screen, "draft order").text.startswith("Draft order: ")
    ui.player.press("draft")
    flow = app.draft_flow
    assert len(flow.draft.market) == 2 + 3 and flow.draft.order == plan.picks
    for _ in range(2):
        ui.player.press("card 0")
    assert flow.mode == "done"  # nothing to swap before race 1
    ui.player.press("start race")
    state = app.session.state
    assert app.sm.current == "race" and app.season_id == season_id
    assert app.season_store().season_of(app.session.race_id) == (season_id, 1)
    for car in state.cars:
        if not car.legend:
            assert len(car.upgrades) == 1 and car.sponsor_cards == 2
    modules = app.session.setup.modules
    assert modules.event == "new-grandstand" and modules.weather is not None
    assert len(modules.road) == 5
    ui.player.play_to_end()
    ui.pump(2)
    assert app.sm.current == "results"
    ui.player.press("standings")
    assert app.sm.current == "standings"
    screen = app.sm.current_screen
    final = app.session.state
    points = {car: (9, 6, 4, 3)[place - 1] for car, place, _round in final.results}
    for car, total in points.items():
        row = find(screen, f"standing {car}")
        assert [w.text for w in row.children][0] == str(total)
    assert "last race" in find(screen, "tie note").text
    screen.export_chart()
    png = screen.saved_png
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ui.player.press("export standings")
    folder = ui.data / "seasons"
    rows = list(csv.DictReader((folder / f"season-{season_id}-standings.csv").open()))
    assert {r["car"]: int(r["points"]) for r in rows} == points
    doc = json.loads((folder / f"season-{season_id}-standings.json").read_text())
    assert doc["format"] == "heat-standings/1" and doc["season"]["played"] == 1
    assert find(screen, "next race").text == "Next race"
    assert _season_line(ui, season_id).startswith("1961  (1 of 3 races played)\n")


def _season_line(ui, season_id: str) -> str:
    """The season's line in the Championship list (its name, where it is, its top three)."""
    ui.app.show("seasons")
    ui.pump(2)
    return str(find(ui.app.sm.current_screen, f"open season {season_id}").parent.children[-1].text)


def test_continue_resumes_a_season_race(ui) -> None:
    app = ui.app
    season_id = _new_1961_season(ui)
    start_next_race(ui)
    race_id = app.session.race_id
    for _ in range(10):
        ui.player.step()
    expected = racefile.state_document(app.session.state)
    # Where the season is, in words that cannot be read two ways (not "race 1 of 3").
    assert _season_line(ui, season_id).startswith("1961  (race 1 of 3 under way)\n")
    app = ui.restart()
    assert app.season_id is None
    ui.player.press("continue")
    assert app.sm.current == "race"
    assert app.session.race_id == race_id and app.season_id == season_id
    assert racefile.state_document(app.session.state) == expected
    assert app.session.setup.modules.event == "new-grandstand"
    # Start says it is a season's race (it said "Great Britain, 1 lap, round 3: ..." only:
    # found by a table test), on Continue and when New race asks first.
    app.show("start")
    ui.pump(1)
    start = app.sm.current_screen
    assert find(start, "continue info").text.startswith("1961, race 1 of 3: Great Britain, ")
    ui.player.press("new race")
    assert find(start, "ask race").text.startswith("1961, race 1 of 3: Great Britain, ")
    ui.player.press("continue it")
    # The season knows its race is running: its standings offer to continue it.
    app.show("standings")
    assert find(app.sm.current_screen, "next race").text == "Continue race"
    ui.player.press("next race")
    assert app.sm.current == "race" and app.session.race_id == race_id


def test_custom_season_is_checked_like_a_season_file(ui) -> None:
    app = ui.app
    ui.player.press("championship")
    ui.player.press("custom season")
    screen = app.sm.current_screen
    assert find(screen, "season kind").text == "Custom season"
    ui.player.press("season races details")  # the races' editor
    ui.player.press("race 0 track")  # usa -> the next bundled track
    ui.player.press("race 0 press A")
    ui.player.press("race 0 event")
    ui.player.press("add race")
    ui.player.press("race 1 press A")
    assert find(screen, "problem").text == ""
    form = screen.form
    # Two letters naming the same corner (Italy has three Press Corners: A and D).
    form.races[1].track = "italy"
    form.races[1].press = ["A", "D"]
    screen.refresh()
    assert find(screen, "problem").text == (
        "This season cannot be created: races[1].press: press corners A and D are the same "
        "corner of italy (letters wrap after its 3 press corners)")
    ui.player.press("create season")  # refused, says why again
    assert app.sm.current == "newseason" and "same corner" in find(screen, "problem").text
    form.races[1].press = ["A"]
    ui.player.press("back")  # the name is on the season's first page
    ui.player.find("season name").text = "Autumn cup"
    ui.player.press("create season")
    assert app.sm.current == "standings"
    stored = app.season_store().season(app.season_id)
    assert stored.season.definition.name == "Autumn cup"
    assert [r.track for r in stored.season.definition.races][1] == "italy"


@pytest.mark.ui
@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
@pytest.mark.parametrize("names", [
    ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina", "Evangelina", "Christopher"),
    ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus", "Bartholomew",
     "司馬長風上官婉兒歐陽娜娜", "황보영희제갈공명남궁민수")], ids=["latin", "cjk"])
def test_standings_cells_are_never_cut(ui, language: str, names: tuple[str, ...]) -> None:
    """The standings table at 800x480 beside its chart, six cars of 12-letter names and
    four races: a race's points with a bonus ("11 (1)": 9 for the win, 2 for a Drivers'
    strike) and every other figure are whole, not "1...1)" (a table test found the race
    columns sharing a fixed third of the table: 41 px for 45 px of text); the names keep
    room for twelve letters: twelve Chinese or Korean letters are written smaller, not cut
    (a table test saw them cut in English, whose headers are wider)."""
    from types import SimpleNamespace

    from companion.ui.widgets.basic import Cell
    from companion.ui.widgets.lookup import walk

    app = ui.app
    _new_1961_season(ui)
    app.set_language(language)
    screen = app.sm.current_screen
    lines = [SimpleNamespace(
        rank=rank, car=SimpleNamespace(legend=False, id=f"car{rank}", name=name),
        races=[SimpleNamespace(total=11 if rank == 1 else 10 - rank, place=rank)] * 4,
        points=44 if rank == 1 else 40 - 4 * rank)
        for rank, name in enumerate(names, start=1)]
    season = SimpleNamespace(definition=SimpleNamespace(races=[None] * 4),
                             standings=lambda: lines)
    screen._table(season)
    ui.pump(3)
    cells = [w for w in walk(screen.ids.table) if isinstance(w, Cell)]
    assert "11 (1)" in {c.text for c in cells}
    for cell in cells:
        cell.texture_update()
        assert not cell.is_shortened, (cell.text, cell.width)


def _fake_season(names: tuple[str, ...], races: int, played: int):
    """A season's standings as the Standings table reads them: ``played`` races of
    ``races``, the car ranked n placed n in every race (10 - n points; 11 for the winner)."""
    from types import SimpleNamespace

    lines = [SimpleNamespace(
        rank=rank, car=SimpleNamespace(legend=False, id=f"car{rank}", name=name),
        races=[SimpleNamespace(total=11 if rank == 1 else 10 - rank, place=rank)] * played,
        points=played * (11 if rank == 1 else 10 - rank))
        for rank, name in enumerate(names, start=1)]
    return SimpleNamespace(definition=SimpleNamespace(races=[None] * races),
                           standings=lambda: lines)


def test_race_columns_keep_the_latest_races_and_sum_the_first() -> None:
    """Which races the standings table shows when not every race fits: races 1 to 4 while no
    later race is played, then the latest three and one column for the races before them."""
    from companion.ui.views.standings_columns import RaceColumns, race_columns

    assert race_columns(4, 2, 6) == RaceColumns(0, range(1, 5))
    assert race_columns(12, 3, 4) == RaceColumns(0, range(1, 5))
    assert race_columns(12, 4, 4) == RaceColumns(0, range(1, 5))
    assert race_columns(12, 5, 4) == RaceColumns(2, range(3, 6))
    assert race_columns(12, 12, 4).header() == "1\u20139"
    assert race_columns(12, 12, 0) == RaceColumns(11, range(12, 13))  # two at the least


@pytest.mark.ui
@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
@pytest.mark.parametrize("played", [3, 7, 12])
def test_a_twelve_race_table_shows_every_car_and_total(ui, language: str,
                                                       played: int) -> None:
    """A twelve-race custom season at 800x480: the race columns took the whole table, the
    Car and Total columns fell out of it (found by a table test). Each row now shows its
    car's name whole and its total inside the table, the latest race played in a column of
    its own; races before the columns that fit share one ("1–7"), so the row adds up."""
    from companion.ui.widgets.basic import Cell

    names = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus",
             "Bartholomews", "司馬長風上官婉兒歐陽娜娜", "Konstantinos")
    app = ui.app
    _new_1961_season(ui)
    app.set_language(language)
    screen = app.sm.current_screen
    season = _fake_season(names, 12, played)
    screen._table(season)
    ui.pump(3)
    table = screen.ids.table
    left, _bottom = table.to_window(table.x, table.y)
    right = left + table.width
    header = find(screen, "standings header")
    titles = [c.text for c in reversed(header.children)]
    assert titles[-1] == ("Total" if language == "en" else titles[-1])
    assert str(played) in titles  # the latest race played has its column
    for line in season.standings():
        row = find(screen, f"standing {line.car.id}")
        cells = [c for c in reversed(row.children) if isinstance(c, Cell)]
        assert len(cells) == len(titles)
        for cell in cells:
            cell.texture_update()
            x0, _y = cell.to_window(cell.x, cell.y)
            assert cell.width > 0 and left - 1 <= x0 and x0 + cell.width <= right + 1, (
                cell.text, x0, cell.width, left, right)
            assert not cell.is_shortened, (cell.text, cell.width)
        assert cells[1].text == line.car.name and cells[-1].text == str(line.points)
        figures = [int(c.text.split()[0]) for c in cells[2:-1] if c.text]
        assert sum(figures) == line.points  # the races shown and the shared column add up


@pytest.mark.ui
@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_twelve_race_points_chart_numbers_its_races_apart(ui, language: str) -> None:
    """A twelve-race season's points chart at 800x480, beside its table, six 12-letter
    names: its x axis read "0123456789101112", every race's number touching the next (found
    by a table test). The numbers now stand apart (every n-th race), 0 and the last race
    numbered."""
    from kivy.graphics import Rectangle

    from companion.ui.screens.standings import points_series

    names = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus",
             "Bartholomews", "司馬長風上官婉兒歐陽娜娜", "Konstantinos")
    app = ui.app
    _new_1961_season(ui)
    app.set_language(language)
    screen = app.sm.current_screen
    season = _fake_season(names, 12, 12)
    screen._table(season)
    chart = screen.ids.chart
    chart.labels = {line.car.id: line.car.name for line in season.standings()}
    chart.races = 12
    chart.series = points_series(season)
    ui.pump(3)
    chart.redraw()
    fs = app.fs_small
    names_x = min(box[0] for box in chart.name_boxes.values())
    # the texts drawn under the plot, left of the names: the x axis's numbers
    boxes = sorted((r.pos[0], r.pos[1], r.size[0], r.size[1])
                   for r in chart.canvas.children if isinstance(r, Rectangle)
                   and r.texture is not None and r.pos[1] + r.size[1] / 2 < chart.y + fs * 1.8
                   and r.pos[0] + r.size[0] < names_x)
    assert len(boxes) >= 3, boxes
    for (x0, _y0, w0, _h0), (x1, _y1, _w1, _h1) in zip(boxes, boxes[1:], strict=False):
        assert x1 - (x0 + w0) >= fs * 0.5, boxes  # a gap between two numbers
    numbers = [text for text, _box in chart.x_numbers]
    assert numbers[0] == "0" and numbers[-1] == "12", numbers
    assert len(numbers) == len(boxes)


def test_the_season_over_says_who_is_champion(ui) -> None:
    """The season-over screen said only "1962: 3 of 3 races played" and a greyed Next race
    (found by a table test): it now says who won, with the points; cars level on points and
    on the last race's place share the title (docs/championship.md)."""
    from types import SimpleNamespace

    from companion.championship import CarEntry, RaceResult, Season, SeasonDef, SeasonRace
    from companion.ui.screens.standings import StandingsScreen

    cars = (CarEntry("red", "Maximilianus"), CarEntry("blue", "Ben"),
            CarEntry("black", legend=True))
    definition = SeasonDef("test", "1962", (SeasonRace("usa", None), SeasonRace("usa", None)))
    first = Season(definition, cars).with_result(RaceResult(order=("red", "black", "blue")))
    over = first.with_result(RaceResult(order=("blue", "red", "black")))  # 15, 13, 10
    assert spaced(StandingsScreen.champion_words(over)) == (
        "1962 champion: Maximilianus, 15 points.")
    # red and black level on 15, neither placed in the last race: they share the title
    three = SeasonDef("test", "1962", (SeasonRace("usa", None),) * 3)
    level = Season(three, cars).with_result(RaceResult(order=("red", "black", "blue")))
    level = level.with_result(RaceResult(order=("black", "red", "blue")))
    level = level.with_result(RaceResult(order=(), eliminated=("red", "black", "blue")))
    assert spaced(StandingsScreen.champion_words(level)) == (
        "1962 champions, level: Maximilianus, Legend Black, 15 points each.")
    ui.app.set_language("zh_TW")
    try:  # the names listed as Chinese lists them
        assert spaced(StandingsScreen.champion_words(level)) == (
            "1962 賽季並列冠軍：Maximilianus、 傳奇黑色，各 15 分。")
    finally:
        ui.app.set_language("en")
    # On the screen, in each language
    app = ui.app
    stored = SimpleNamespace(id="s1", season=over, running=None, race_ids=())
    ui.app.season_store = lambda: SimpleNamespace(season=lambda _id: stored,
                                                  seasons_to_go=lambda: [])  # (Start's)
    app.season_id = "s1"
    said = {"en": "1962 champion: Maximilianus, 15 points.",
            "zh_TW": "1962 賽季冠軍：Maximilianus，15 分。",
            "ko": "1962 시즌 챔피언: Maximilianus, 15점."}
    try:
        for language, words in said.items():
            app.set_language(language)
            app.show("standings")
            ui.pump(2)
            screen = app.sm.current_screen
            title = find(screen, "standings title")
            assert spaced(title.text) == words
            title.texture_update()
            assert title.texture_size[0] <= title.width + 1
            button = find(screen, "next race")  # no next race: the tile is gone
            assert button.disabled and button.opacity == 0 and button.width == 0
            back = find(screen, "back")
            assert back.right <= find(screen, "export standings").x + 1
            assert find(screen, "export standings").right >= screen.width * 0.9
        stored.season = first  # a season with a race to go: the tile is back
        app.show("start")
        app.show("standings")
        ui.pump(2)
        button = find(app.sm.current_screen, "next race")
        assert not button.disabled and button.opacity == 1 and button.width > 100
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_next_race_names_the_press_corners_and_keeps_places_with_cars(ui,
                                                                       language: str) -> None:
    """The Next race screen, where the table sets up, said "Press Corners: E." (the letter
    only: the table went back to the season's details to learn which corner) and broke the
    grid between "5." and its car (found by a table test). It names each letter's corner,
    and no line of the grid ends with a place."""
    import re

    from companion import i18n
    from companion.ui.widgets import text_cache

    app = ui.app
    app.set_language(language)
    try:
        ui.player.press("championship")
        ui.player.press("season 1962")
        screen = app.sm.current_screen
        while len(find_all(screen, "name ")) < 4:
            ui.player.press("add driver")
        names = ("Maximilianus", "Bartholomeus", "歐陽娜娜司馬長風上官婉兒",
                 "남궁민수황보영희제갈공명")
        for index, name in enumerate(names):
            ui.player.find(f"name {index}").text = name
        while not find(screen, "legends minus").disabled:
            ui.player.press("legends minus")
        ui.player.press("legends plus")
        ui.player.press("legends plus")
        ui.player.press("create season")
        ui.player.press("next race")
        next_screen = app.sm.current_screen
        ui.pump(2)
        plan = next_screen.plan
        from companion.ui.views.modules_form import press_corner_number

        press = find(next_screen, "press").text
        for letter in plan.race.press:
            corner = press_corner_number(plan.track, letter)
            assert i18n._("{letter}: corner {n}").format(letter=letter, n=corner) in press
        grid = find(next_screen, "grid")
        grid.texture_update()
        lines = ["".join(word.text for word in line.words)
                 for line in text_cache.renderer(grid)._cached_lines]
        assert len(lines) >= 2, lines  # six cars, long names: it wraps
        for line in lines:
            assert not re.search(r"\d\.\s*$", line), lines
    finally:
        app.set_language("en")


def test_a_draft_market_taller_than_the_screen_shows_its_bar(ui) -> None:
    """Four drivers draft from a market of seven: at 800x480 the seventh card lay under the
    others, its top edge only in sight, with a faint grey bar (found by a table test). The
    cards' scroll bar is drawn in the accent colour while there is more below."""
    from pixels import accent_bar_hits

    app = ui.app
    ui.player.press("championship")
    ui.player.press("season 1961")
    screen = app.sm.current_screen
    while len(find_all(screen, "name ")) < 4:
        ui.player.press("add driver")
    for index, name in enumerate(("Ana", "Ben", "Cy", "Di")):
        ui.player.find(f"name {index}").text = name
    ui.player.press("create season")
    ui.player.press("next race")
    ui.player.press("draft")
    ui.pump(3)
    draft = app.sm.current_screen
    assert len(app.draft_flow.draft.market) == 7
    view = draft.ids.cards_view
    assert view.viewport_size[1] > view.height  # more cards than fit
    hits = accent_bar_hits(view, app.c_accent)
    assert hits >= 5, hits  # the bar, in the accent colour, along the view's side


@pytest.mark.ui
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_two_cars_level_on_points_both_show_on_the_points_chart(ui, theme: str) -> None:
    """Two cars level on points race after race drew one line on the points chart, the car
    drawn last's, so the table saw one champion (found by a table test). Along a stretch two
    lines share, each is drawn in pieces in turn with the other, and a dot they share shows
    the first as a ring around the second: both colours read back from the chart's pixels
    along the shared stretch and at the shared point. A line running alone is whole."""
    from companion.ui.widgets.line_chart import car_ink

    app = ui.app
    app.set_theme(theme)
    _new_1961_season(ui)
    screen = app.sm.current_screen
    chart = screen.ids.chart
    chart.labels = {"red": "Ana", "blue": "Ben", "green": "Cai"}
    chart.races = 3
    chart.series = {"red": [0, 9, 18, 18], "blue": [0, 9, 18, 18], "green": [0, 6, 6, 12]}
    ui.pump(3)
    chart.redraw()
    texture = chart.export_as_image().texture
    width = texture.size[0]
    pixels = texture.pixels

    def colours_at(x: float, y: float) -> list[tuple[float, ...]]:
        """The pixels at (x, y) and one above and below (the picture's rows run top down)."""
        col = int(round(x - chart.x))
        found = []
        for dy in (-1, 0, 1):
            row = int(round(chart.height - 1 - (y + dy - chart.y)))
            at = (row * width + col) * 4
            found.append(tuple(pixels[at + i] / 255 for i in range(3)))
        return found

    def near(colours: list[tuple[float, ...]], b: tuple[float, ...]) -> bool:
        return any(all(abs(p - q) < 0.06 for p, q in zip(a, b, strict=False))
                   for a in colours)

    fs = app.fs_small
    from companion.ui.widgets.points_chart import Y_AXIS

    left = chart.x + fs * Y_AXIS
    # red and blue end level: their names bracketed, 2 text sizes right of the plot
    right = min(box[0] for box in chart.name_boxes.values()) - fs * 2.0
    top, bottom = chart.top - fs * 2.6, chart.y + fs * 2.4

    def xy(race: float, points: float) -> tuple[float, float]:
        return left + (right - left) * race / 3, bottom + (top - bottom) * points / 18

    cores = {car: tuple(chart.inks[car].core[:3]) for car in ("red", "blue", "green")}
    assert cores["red"] == tuple(car_ink("red", app.c_panel, app.c_fg).core[:3])
    for stretch in ((1, 9, 2, 18), (2, 18, 3, 18)):  # the shared stretches
        seen = set()
        for step in range(8, 93):
            race = stretch[0] + (stretch[2] - stretch[0]) * step / 100
            points = stretch[1] + (stretch[3] - stretch[1]) * step / 100
            for car in ("red", "blue"):
                if near(colours_at(*xy(race, points)), cores[car]):
                    seen.add(car)
        assert seen == {"red", "blue"}, (stretch, seen)
    alone = [colours_at(*xy(1 + step / 100, 6)) for step in range(10, 91)]
    assert all(near(c, cores["green"]) for c in alone)  # green's own stretch: whole
    x, y = xy(2, 18)  # the dot red and blue share: a ring of one round the other
    at_dot = {car for dx in range(-9, 10) for car in ("red", "blue")
              if near(colours_at(x + dx, y), cores[car])}
    assert at_dot == {"red", "blue"}


@pytest.mark.parametrize(("language", "germany"), [("en", "Germany"), ("zh_TW", "德國"),
                                                   ("ko", "독일")])
def test_an_unplayable_race_is_named_by_its_track_s_name(ui, language: str,
                                                        germany: str) -> None:
    """New season for 1966: why it cannot be created named race 2's track by its id
    ("第 2 場（germany）無法進行"); it names the track as the table knows it."""
    from companion.ui.widgets.lookup import find

    app = ui.app
    app.set_language(language)
    screen = app.screen("newseason")
    screen.new_form("1966")
    app.show("newseason")
    ui.pump(3)
    problem = find(app.sm.current_screen, "problem").text
    assert germany in problem and "germany" not in problem, problem


@pytest.mark.ui
@pytest.mark.parametrize(("theme", "races_run"), [("dark", 0), ("dark", 1), ("light", 0),
                                                  ("light", 1)])
def test_six_cars_level_at_0_share_one_dot_and_one_leader(ui, theme: str,
                                                         races_run: int) -> None:
    """Six cars at 0 points (the season's start, or a first race where nobody scored) drew a
    target of six rings round each other over the chart's origin, 37 px wide, and six leaders
    fanning out from one point across the plot, read as the cars' lines (found by a table
    test). Their point is one dot in six pieces, one in each car's colour (nothing of theirs
    a few px beyond it), and the names are joined to it by one leader and a bracket, each
    name with a dot in its car's colours: along the way from the point to each name, none of
    that car's colour."""
    app = ui.app
    app.set_theme(theme)
    _new_1961_season(ui)
    chart = app.sm.current_screen.ids.chart
    cars = ("red", "blue", "green", "yellow", "black", "grey")
    chart.labels = dict(zip(cars, ("Maximilianus", "Bartholomew", "Konstantinos",
                                   "Wilhelmina", "Evangelina", "Christopher"), strict=True))
    chart.races = 3
    chart.series = {car: [0] * (races_run + 1) for car in cars}
    ui.pump(3)
    chart.redraw()
    texture = chart.export_as_image().texture
    width, pixels = texture.size[0], texture.pixels

    def colour_at(x: float, y: float) -> tuple[float, ...]:
        """The pixel at (x, y) (the picture's rows run top down)."""
        at = (int(round(chart.height - 1 - (y - chart.y))) * width
              + int(round(x - chart.x))) * 4
        return tuple(pixels[at + i] / 255 for i in range(3))

    def whose(x: float, y: float, within: float) -> set[str]:
        found = colour_at(x, y)
        return {car for car in cars
                if all(abs(p - q) < within for p, q in zip(found, chart.inks[car].core[:3],
                                                           strict=False))}

    from companion.ui.widgets.points_chart import Y_AXIS

    fs = app.fs_small
    assert len(chart.name_boxes) == 6
    left = chart.x + fs * Y_AXIS
    right = min(box[0] for box in chart.name_boxes.values()) - fs * 2.0
    x, y = left + (right - left) * races_run / 3, chart.y + fs * 2.4
    pie = set().union(*(whose(x + dx, y + dy, 0.06) for dx in range(-6, 7)
                        for dy in range(-6, 7) if dx * dx + dy * dy <= 36))
    assert pie == set(cars)  # every car's colour in the one dot
    beyond = set().union(*(whose(x + r * math.cos(a / 10), y + r * math.sin(a / 10), 0.06)
                           for r in (11, 12, 13) for a in range(8, 24)))
    assert beyond == set(), beyond  # above it, a few px out: no ring
    for car, box in chart.name_boxes.items():
        x1, y1 = box[0], box[1] + box[3] / 2
        seen = [step for step in range(101)
                if x + 20 < x + (x1 - x) * step / 100 < x1 - 20
                and car in whose(x + (x1 - x) * step / 100, y + (y1 - y) * step / 100, 0.03)]
        assert seen == [], (car, seen)  # no leader of its own across the plot


@pytest.mark.ui
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_bracketed_name_on_two_lines_has_its_dot_beside_its_first_line(ui,
                                                                        theme: str) -> None:
    """Six cars level at 0 points in a narrow chart: their twelve-letter names are written on
    two lines, and each name's dot (in its car's colours, before it on the bracket) stood
    between its two lines, beside no text. It stands beside the name's first line now, as a
    bullet before a list's item, the second line hanging under it: the car's colour is
    at the first line's middle, left of the name, and not a line's half lower."""
    app = ui.app
    app.set_theme(theme)
    _new_1961_season(ui)
    chart = app.sm.current_screen.ids.chart
    cars = ("red", "blue", "green", "yellow", "black", "grey")
    chart.labels = dict(zip(cars, ("Maximilianus", "歐陽娜娜司馬長風上官婉兒", "Konstantinos",
                                   "남궁민수황보영희제갈공명", "Evangelinaaa", "Christophers"),
                            strict=True))
    chart.races = 3
    chart.series = {car: [0, 0] for car in cars}
    chart.size_hint_x, chart.width = None, 300  # a narrow chart: the names on two lines
    ui.pump(3)
    chart.redraw()
    texture = chart.export_as_image().texture
    width, pixels = texture.size[0], texture.pixels

    def whose(x: float, y: float) -> set[str]:
        """The cars whose line colour is at (x, y) or a px around it (the picture's rows run
        top down)."""
        found = set()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                at = (int(round(chart.height - 1 - (y + dy - chart.y))) * width
                      + int(round(x + dx - chart.x))) * 4
                colour = tuple(pixels[at + i] / 255 for i in range(3))
                found |= {car for car in cars if all(
                    abs(p - q) < 0.06
                    for p, q in zip(colour, chart.inks[car].core[:3], strict=False))}
        return found

    fs = app.fs_small
    two = [car for car, text in chart.name_texts.items() if "\n" in text]
    assert len(two) >= 4, chart.name_texts  # most names on two lines
    for car in two:
        x, y, _w, h = chart.name_boxes[car]
        key_x = x - fs * 0.3 - 3  # line_chart: the dot before the name
        first, between = y + h * 3 / 4, y + h / 2
        assert car in whose(key_x, first), (car, chart.name_texts[car])
        assert car not in whose(key_x, between), (car, chart.name_texts[car])
