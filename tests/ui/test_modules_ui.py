"""Tournament mode, Legends-only rounds and the modules' race order, through the real screens."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from race_forms import race_form

import tracks
from companion.engine.modules import RaceModules
from companion.ui.views.race_form import RaceForm
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui


def test_tournament_asks_each_gear_at_the_cars_turn(ui, press) -> None:
    app = ui.app
    ui.player.set_up_race()
    press("more options")
    press("tournament")
    assert find(app.sm.current_screen, "tournament").text == (
        "Gears: each driver at the car's turn (tournament)")
    press("start race")
    controller = app.controller
    assert controller.state.modules.tournament
    assert app.session.export()["modules"]["tournament"] is True
    view = controller.view()
    current = view.current
    assert view.mode == "turn_gear" and [r.car for r in view.gear_rows] == [current]
    other = next(c.id for c in controller.state.cars if not c.legend and c.id != current)
    assert find_all(app.sm.current_screen, f"gear {other} ") == []  # only the car to play
    press(f"gear {current} 2")
    assert controller.view().mode == "reveal"
    assert controller.state.car(current).gear == 2
    assert controller.state.car(other).gear == 1  # asked at its own turn, not yet
    # And the race plays to the end in this mode.
    ui.player.play_to_end()
    assert app.session.state.over


def _modules_race(app, seed: int = 1):
    """One Legend, two humans; Title sponsor withdraws (a spin-out eliminates) and the USA's
    press corners: the scripted drivers earn cards, then both spin out of the race."""
    track = tracks.load_track("usa")
    form = RaceForm(seed=seed)
    form.first_race()
    form.set_legends(1)
    modules = RaceModules(event="title-sponsor-withdraws",
                          press_corners=tracks.default_press_corners(track.corners))
    return app.log().new_race(replace(form.setup(track), modules=modules))


def test_sponsorship_and_eliminated_cars_in_the_race_order(ui, press) -> None:
    from companion.ui.views.names import car_label

    app = ui.app
    app.open_session(_modules_race(app))
    screen = app.sm.current_screen
    assert app.controller.view().sponsors
    texts = [w.text for w in find(screen, "order").walk() if hasattr(w, "text")]
    assert "Spons." in texts  # short: the header's tap says what it counts
    assert find(screen, "sponsors red").text == "0"
    assert find(screen, "sponsors black").text == "-"  # a Legend earns none
    seen_out = seen_round = False
    for _ in range(400):
        state = app.controller.state
        if state.over:
            break
        for car in state.cars:
            if car.legend or car.id not in app.controller.state.index:
                continue
            if car.eliminated:
                name = car_label(state, car.id)  # unnamed: the colour's name ("Red")
                assert find(screen, f"order name {car.id}").text == name
                assert find(screen, f"space {car.id}").text == "DNF"
                seen_out = True
            else:
                assert find(screen, f"sponsors {car.id}").text == str(car.sponsors)
        if app.controller.view().mode == "run_round":
            assert find(screen, "run round").text == "Next round"
            before = state.round
            press("run round")
            assert app.controller.state.round > before or app.controller.state.over
            seen_round = True
            continue
        ui.player.step()
    final = app.session.state
    assert final.over and seen_out and seen_round
    assert any(c.sponsors for c in final.cars)
    assert [c.id for c in final.cars if c.eliminated] == ["red", "blue"]
    assert app.sm.current == "results"
    results = app.sm.current_screen
    assert find(results, "out red").text == "Red"
    words = find(results, "out red words").text  # no place: the round it left in
    assert re.fullmatch("Out in round\u00a0\\d+: no place\nWon\u00a0.*", words), words
    assert find(results, "place 1").text.startswith("1. Legend Black")
    saved = results.saved_json.read_text(encoding="utf-8")
    assert '"eliminated": [\n    "red",\n    "blue"\n  ]' in saved


def _sponsors_race(ui, names, legends: int = 2) -> None:
    """A race with Sponsorship (as every championship race has: the race order's seventh
    column) on USA: these drivers in seats 1.., ``legends`` Legends; on the race screen."""
    app = ui.app
    track = tracks.load_track("usa")
    form = race_form(names, legends=legends)
    modules = RaceModules(event="new-speed-record",
                          press_corners=tracks.default_press_corners(track.corners))
    app.open_session(app.log().new_race(replace(form.setup(track), modules=modules)))
    ui.pump(3)


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_the_sponsors_column_leaves_the_names_room(ui, language: str) -> None:
    """A race with Sponsorship (every championship race) has a seventh column: the names
    kept "M..." and the Legends "Blac/k" at 800x480 (found by a table test). The column's
    header is short ("Spons.", explained by a tap on the header) and the names keep room
    for nine letters at least, the Legends' names whole on one line."""
    from companion.ui.widgets import text_cache
    from companion.ui.widgets.race_table import MIN_NAME_FONT
    from companion.ui.widgets.text_fit import FIT

    app = ui.app
    app.set_language(language)
    try:
        _sponsors_race(ui, ("Maximilianus", "Bartholomeus", "Konstantinos", "Wilhelminaas"))
        screen = app.sm.current_screen
        assert app.controller.view().sponsors
        for car in app.controller.state.order:
            name = find(screen, f"order name {car}")
            assert name.width >= FIT.width("Maximilia", MIN_NAME_FONT), (car, name.width)
            if app.controller.state.car(car).legend:
                name.texture_update()
                assert len(text_cache.renderer(name)._cached_lines) == 1, name.text
                assert not name.is_shortened, name.text
        header = find(screen, "order header").children[-1]  # "Car", whole on one line
        header.texture_update()
        assert header.texture_size[1] <= header.height + 1
        assert header.texture_size[0] <= header.width + 1
        from companion.ui.widgets.basic import current_hint

        screen.explain_columns()  # what a tap on the header says, "Spons." included
        said = {"en": "Spons.: the Sponsorship cards the driver has won.",
                "zh_TW": "贊助：車手贏得的贊助卡。",
                "ko": "스폰서: 드라이버가 얻은 스폰서 카드."}
        assert current_hint().text.endswith(said[language])
        first = {"en": "The cars in this round's race order, the order they play in",
                 "zh_TW": "賽車依本回合的比賽順序排列", "ko": "차들은 이번 라운드의 레이스 순서"}
        # the round's order, not standings (docs/rules.md §1.12)
        assert current_hint().text.startswith(first[language])
        ui.pump(2)
        hint = current_hint()
        assert hint.y >= 0 and hint.top <= app.root_window.height  # whole on the screen
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language,chinese", [("en", False), ("ko", False), ("en", True)])
def test_twelve_letter_names_whole_in_a_championship_race(ui, language: str,
                                                          chinese: bool) -> None:
    """With Sponsorship's seventh column (every championship race) "Maximilianus" read
    "Maxi...anus" in the race order at 800x480 while the gear panel beside it had room to
    spare (found by a table test). The map's and race order's column widens for the names
    as far as the gear panel keeps its four 48 px gears and every driver's name whole on its
    line: four twelve-letter Latin names whole on one line (and a Legend's). With twelve-
    letter Korean and Chinese names the race order writes them on two lines or cuts them,
    the column as wide as the panel allows for them (it kept its base share, the name cut
    shorter than it need be: found by a table test); over the gears they are whole on one
    line (in English they wrapped there, half cut, beside the wider "ready": found by a
    second table test; "ready" gives way to such a name). The columns settle at once: no
    frame after changes them."""
    from companion.ui.widgets import text_cache
    from companion.ui.widgets.race_panel import MIN_TAP

    app = ui.app
    app.set_language(language)
    try:
        names = ["Maximilianus", "Bartholomeus", "Konstantinos", "Wilhelminaas"]
        if language == "ko":
            names[0] = "남궁민수황보영희제갈공명"
        if chinese:
            names[0], names[2] = "남궁민수황보영희제갈공명", "歐陽娜娜司馬長風上官婉兒"
        _sponsors_race(ui, names)
        screen = app.sm.current_screen
        state = app.controller.state
        for car in state.order:
            name = find(screen, f"order name {car}")
            name.texture_update()
            if name.text.isascii():  # a Korean or Chinese name is cut in the race order
                assert not name.is_shortened, (name.text, name.width)
                assert len(text_cache.renderer(name)._cached_lines) == 1, name.text
            if not state.car(car).legend:
                over_gears = find(screen, f"driver {car}")
                over_gears.texture_update()
                assert len(text_cache.renderer(over_gears)._cached_lines) == 1, (
                    over_gears.text, over_gears.width)
                assert over_gears.texture_size[0] <= over_gears.width + 1
                for gear in (1, 2, 3, 4):
                    assert find(screen, f"gear {car} {gear}").width >= MIN_TAP - 0.5
        share = screen.ids.left.size_hint_x
        assert share > screen.BASE_SHARE
        assert abs(screen.ids.left.size_hint_x + screen.ids.right.size_hint_x - 1) < 1e-9
        widths = (screen.ids.left.width, screen.ids.order.width, screen.ids.panel.width)
        ui.pump(5)
        assert (screen.ids.left.width, screen.ids.order.width,
                screen.ids.panel.width) == widths
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_car_out_shows_no_lap_gear_heat_or_stress(ui, press, language: str) -> None:
    """A car eliminated by a spin-out (Title sponsor withdraws) kept its lap, gear, Heat and
    the Stress of the spin-out that put it out in the race order, and a tap on its row said
    "Red is on space 12, outside, lap 1, in gear 3; …", as if it were still racing: its row
    now says "-" for each (the Sponsorship cards it won stay its own) and the tap that it is
    out of the race."""
    from companion.ui.widgets.basic import current_hint

    app = ui.app
    app.set_language(language)
    try:
        app.open_session(_modules_race(app))
        screen = app.sm.current_screen
        out = None
        for _ in range(400):
            state = app.controller.state
            gone = [c.id for c in state.cars if c.eliminated]
            if gone and not any(r.car == gone[0] for r in app.controller.view().rulings):
                out = state.car(gone[0])
                break
            if app.controller.view().mode == "run_round":
                press("run round")
            else:
                ui.player.step()
        assert out is not None and out.stress_taken  # the spin-out's Stress, at least
        ui.pump(2)
        assert find(screen, f"space {out.id}").text == {"en": "DNF", "zh_TW": "淘汰",
                                                          "ko": "탈락"}[language]
        for column in ("lap", "gear", "heat", "stress"):
            assert find(screen, f"{column} {out.id}").text == "-", column
        assert find(screen, f"sponsors {out.id}").text == str(out.sponsors)
        screen.explain_row(out.id)
        said = {"en": "Red is out of the race.", "zh_TW": "紅色 已退出比賽。",
                "ko": "빨강은 레이스에서 빠졌습니다."}
        assert current_hint().text == said[language]
    finally:
        app.set_language("en")
