"""A tap on the race screen's map opens it over the whole window, its words larger and every
number it can write written (issue 10, point 7: the race screen's map at 800x480 has no room
for some; ``test_track_map.py`` checks the words of the map opened, track by track). A tap
anywhere closes it, an input the race accepts closes it, and it changes nothing in the race.

Every tap is a real touch through the window with a synthetic timestamp; nothing depends on
the wall clock."""

from __future__ import annotations

import pytest
from race_forms import race_form

from companion.i18n import _
from companion.ui.demo.player import TablePlayer, tap_screen

pytestmark = pytest.mark.ui


def _race(ui, track: str = "espana") -> None:
    from companion.ui.demo.table_shots import SIX, start

    start(ui.app, SIX, 0, track=track)
    ui.pump(3)


def _tap(ui, x: float, y: float) -> None:
    TablePlayer.last_tap += 1.0  # a person's pace after the last tap: no double tap
    tap_screen(x, y, at=TablePlayer.last_tap)
    ui.pump(2)


def _middle_of_map(ui) -> tuple[float, float]:
    track_map = ui.app.sm.current_screen.ids.map
    return track_map.to_window(*track_map.center)


def _zoom(ui):
    return ui.app.sm.current_screen.map_zoom


def _zoom_over_race(ui, track, modules, seed: int = 1, legends: int = 0):
    """A race of two drivers (and ``legends``) at ``track`` with ``modules``, its map opened
    over the window."""
    from dataclasses import replace


    app = ui.app
    form = race_form(("Maximilianus", "Bartholomew"), legends=legends, seed=seed)
    app.open_session(app.log().new_race(replace(form.setup(track), modules=modules)))
    ui.pump(3)
    app.sm.current_screen.show_map()
    ui.pump(3)
    return _zoom(ui)


def test_a_tap_on_the_map_opens_it_larger_with_the_same_cars_and_a_tap_closes_it(ui) -> None:
    _race(ui)
    app = ui.app
    screen = app.sm.current_screen
    small = screen.ids.map
    before = (app.controller.state, app.controller.view().mode)
    # España at 800x480, the most crowded map (every number written: test_map_labels.py)
    assert small.zoom_badge
    _tap(ui, *_middle_of_map(ui))
    zoom = _zoom(ui)
    assert zoom is not None and zoom.is_open
    big = zoom.map
    assert big.width > 2 * small.width and big.height > 1.8 * small.height
    assert big.spaces_left_out == []  # every corner space and every fifth, written
    assert sorted(big.marker_positions) == sorted(small.marker_positions)  # the same cars
    assert big.current == small.current
    assert zoom.hint.text == "Darker: tunnels. " + _("Tap anywhere to go back to the race.")
    assert not big.zoom_badge
    # A tap anywhere, even where a gear button is under it, closes it and chooses nothing.
    gear = next(w for w in screen.walk() if getattr(w, "test_name", "").startswith("gear "))
    _tap(ui, *gear.to_window(*gear.center))
    assert not zoom.is_open
    assert (app.controller.state, app.controller.view().mode) == before
    assert app.sm.current == "race"


def test_an_input_the_race_accepts_closes_it(ui) -> None:
    _race(ui, "usa")
    app = ui.app
    _tap(ui, *_middle_of_map(ui))
    zoom = _zoom(ui)
    assert zoom.is_open
    revision = app.controller.view().revision
    # What a gear dial's Ready does: straight to the controller, not through the screen.
    car = app.controller.view().gear_rows[0].car
    app.controller.choose_gear(car, 2)
    ui.pump(2)
    assert app.controller.view().revision != revision
    assert not zoom.is_open  # the table sees the ruling on the race screen
    # Opened again, it shows the race as it is now.
    _tap(ui, *_middle_of_map(ui))
    assert zoom.is_open and zoom.map.state is app.controller.state


def test_a_touch_that_began_before_it_opened_does_not_close_it(ui) -> None:
    from kivy.tests.common import UnitTestTouch

    _race(ui, "usa")
    x, y = _middle_of_map(ui)
    finger = UnitTestTouch(x, y)  # a second finger, already down when the map opens
    finger.time_start = finger.time_update = TablePlayer.last_tap + 0.5
    finger.touch_down()
    _tap(ui, x, y)
    zoom = _zoom(ui)
    assert zoom.is_open
    finger.touch_up()
    ui.pump(1)
    assert zoom.is_open  # its lift is not a tap on the map opened
    _tap(ui, x, y)
    assert not zoom.is_open


def test_its_words_follow_the_language(ui) -> None:
    _race(ui, "usa")
    for language in ("zh_TW", "ko"):
        ui.app.set_language(language)
        ui.pump(3)
        _race(ui, "usa")
        _tap(ui, *_middle_of_map(ui))
        zoom = _zoom(ui)
        assert zoom.is_open
        assert zoom.hint.text == _("Tap anywhere to go back to the race.")
        assert zoom.hint.text != "Tap anywhere to go back to the race."
        _tap(ui, *_middle_of_map(ui))
        assert not zoom.is_open
    ui.app.set_language("en")


def test_leaving_the_race_screen_or_the_app_closes_it(ui) -> None:
    _race(ui, "usa")
    _tap(ui, *_middle_of_map(ui))
    zoom = _zoom(ui)
    assert zoom.is_open
    ui.app.show("start")  # as the storage fault screen would come up: nothing under the map
    ui.pump(2)
    assert not zoom.is_open
    ui.app.show("race")
    ui.pump(2)
    _tap(ui, *_middle_of_map(ui))
    assert zoom.is_open
    ui.stop()  # the next app of this process (a test's) starts with no map over its window
    assert not zoom.is_open


def test_it_opens_in_the_theme_of_now(ui) -> None:
    app = ui.app
    _race(ui, "usa")
    _tap(ui, *_middle_of_map(ui))
    zoom = _zoom(ui)
    dark = list(zoom.background_color)
    assert dark == list(app.c_bg)
    _tap(ui, *_middle_of_map(ui))
    app.show("settings")
    ui.pump(2)
    ui.player.press("theme light")
    app.show("race")
    ui.pump(2)
    _tap(ui, *_middle_of_map(ui))
    zoom = _zoom(ui)
    assert zoom.is_open
    assert list(zoom.background_color) == list(app.c_bg) != dark
    assert zoom.hint.color[:3] == list(app.c_muted)[:3]
    ui.pump(2)
    assert zoom.map._static_key is not None and "light" in zoom.map._static_key


@pytest.mark.parametrize("frames", [1, 2])
def test_a_double_tap_on_the_map_leaves_it_open(ui, frames: int) -> None:
    """The habit of a double tap to zoom: its second tap, one or two frames after the first,
    lands on the map just opened and must not close it; a deliberate tap then does."""
    _race(ui, "usa")
    x, y = _middle_of_map(ui)
    TablePlayer.last_tap += 1.0
    first = TablePlayer.last_tap
    tap_screen(x, y, at=first)
    ui.pump(frames)
    zoom = _zoom(ui)
    assert zoom.is_open
    tap_screen(x, y, at=first + frames / 60)
    ui.pump(2)
    assert zoom.is_open
    _tap(ui, x, y)
    assert not zoom.is_open


def test_the_table_s_buttons_reach_the_race_under_it(table) -> None:
    """With table hardware: a seat's Ready is accepted (it closes, the table sees the ruling);
    a Ready refused (the dial between two gears) closes it too, so why is not hidden under it;
    a refusal already on screen when it opened does not close it."""
    from hardware import InputRejected
    from hardware.events import dial_between

    harness, fake = table
    harness.player.set_up_race()
    harness.player.press("start race")
    app = harness.app
    harness.pump(2)
    _tap(harness, *_middle_of_map(harness))
    zoom = _zoom(harness)
    assert zoom.is_open
    fake.press_ready(1)
    app.poll_hardware()
    harness.pump(2)
    assert not zoom.is_open and app.controller.state.planned  # the gear went in
    _tap(harness, *_middle_of_map(harness))
    assert zoom.is_open
    fake.queue.put(InputRejected("fake", dial_between(2), seat=2))
    app.poll_hardware()
    harness.pump(2)
    assert app.controller.error.startswith("Seat 2: the gear dial is between two gears.")
    assert not zoom.is_open
    _tap(harness, *_middle_of_map(harness))  # the refusal still on screen: it stays open
    app.sm.current_screen.refresh()
    harness.pump(2)
    assert zoom.is_open


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_the_map_over_the_window_says_the_race_s_own_rules(ui, language: str) -> None:
    """docs/rules.md §3.3, §5: the race screen named none of the race's event, Weather token
    or Road Condition tokens (found by a table test), while they change Cooldown, slipstream
    and corner limits. The map opened over the window says them, one sentence each, above its
    hint, and the map keeps most of the window at 800x480; a race without them says none."""

    import tracks
    from companion.engine.modules import RaceModules, Road, Weather
    from companion.ui.views.words import event_line, road_line

    app = ui.app
    app.set_language(language)
    track = tracks.load_track("usa")
    lines = [c.line_after for c in track.corners]
    road = {lines[0]: Road.LIMIT_MINUS, lines[1]: Road.OVERHEAT, lines[2]: Road.WEATHER,
            lines[3]: Road.FREE_BOOST}
    modules = RaceModules(event="turbulent-winds", weather=Weather.RAIN, road=road)
    hint = _zoom_over_race(ui, track, modules).hint
    said = hint.text.split("\n")
    assert said[0] == event_line("turbulent-winds")
    assert _("Rain") in said[1]
    assert said[2:6] == [road_line(n, road[line]) for n, line in enumerate(lines, start=1)]
    assert said[-1].endswith(_("Tap anywhere to go back to the race."))
    zoomed = _zoom(ui).map
    assert zoomed.height > 0.55 * app.root_window.height  # still the map's window
    assert hint.texture_size[1] <= hint.height + 1  # every line shown
    _zoom(ui).close()
    ui.pump(1)
    app.show("start")
    ui.pump(2)
    _race(ui, "usa")
    ui.app.sm.current_screen.show_map()
    ui.pump(2)
    assert _zoom(ui).hint.text == _("Tap anywhere to go back to the race.")
    _zoom(ui).close()
    ui.pump(1)


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_chicane_s_road_token_is_said_of_both_its_corners(ui, language: str) -> None:
    """docs/rules.md §5.2, §6.5: a chicane's one road token covers both its Corner Lines, and
    the map fills both their rings (Japan's corners 1 and 2: limit 4, -1 makes 3); the map's
    words named the first corner alone (found by a table test). Every corner whose ring is
    filled is named in the words, and the chicane's line names both its corners."""
    import re

    import tracks
    from companion.engine.modules import RaceModules, Road
    from companion.ui.views.words import road_line

    app = ui.app
    app.set_language(language)
    try:
        track = tracks.load_track("japan")
        first, second = track.corners[0], track.corners[1]
        assert second.chicane_with == first.line_after  # corners 1 and 2: a chicane
        road = {first.line_after: Road.LIMIT_MINUS, track.corners[4].line_after: Road.LIMIT_PLUS}
        zoom = _zoom_over_race(ui, track, RaceModules(road=road))
        filled = [number for number, (_limit, changed) in enumerate(zoom.map.limits, start=1)
                  if changed]
        assert filled == [1, 2, 5]
        said = zoom.hint.text.split("\n")
        # the corners each token line names (before its first colon: "Corner 5: Limit +1…")
        named = {int(n) for line in said[:2]
                 for n in re.findall(r"\d+", re.split("[:：]", line)[0])}
        assert named == set(filled), said
        assert said[:2] == [road_line(1, Road.LIMIT_MINUS, 2), road_line(5, Road.LIMIT_PLUS)]
        zoom.close()
        ui.pump(1)
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_new_race_s_button_for_a_chicane_s_token_names_both_its_corners(ui, language: str) -> None:
    """New race's "set per corner" buttons: a chicane's one token (docs/rules.md §5.2, §6.5)
    was set by a button that named its first corner alone ("Corner 1: Limit -1") while the
    note under it named both; its button names both corners now, in every language."""
    import tracks
    from companion.engine.modules import Road
    from companion.ui.views.modules_form import chicane_number, token_corners
    from companion.ui.views.words import road_button, road_line

    ui.app.set_language(language)
    try:
        track = tracks.load_track("japan")
        corners = token_corners(track)
        first = corners[0]
        second = chicane_number(track, first)
        assert second == 2  # Japan's corners 1 and 2: a chicane, one token
        button = road_button(track.corner_number(first), Road.LIMIT_MINUS, second)
        line = road_line(track.corner_number(first), Road.LIMIT_MINUS, second)
        for said in (button, line):
            head = said.split(":")[0].split("：")[0]
            assert "1" in head and "2" in head, said
        assert road_button(5, None) == {"en": "Corner 5: -", "zh_TW": "第 5 彎：-",
                                        "ko": "5번 코너: -"}[language]  # no chicane: one
    finally:
        ui.app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_chicane_s_road_token_does_what_it_does_at_both_its_corners(ui, language: str) -> None:
    """A chicane's token line named both corners but said what the token does of one: "Corners
    1 and 2 (a chicane): Limit -1: the corner's speed limit is 1 lower." (found by a helper).
    One token covers both lines (docs/rules.md §5.2, §6.5): a limit token changes both
    corners' limit, an overheat token counts at either corner (each line is checked on its
    own, §1.9), a sector token lies on the sector after the second line (§5.3). Every token's
    words for a chicane say so, in every language, and differ from a lone corner's."""
    from companion.engine.modules import Road
    from companion.ui.views.words import road_line, road_name

    both = {"en": "both corners", "zh_TW": "兩個彎道", "ko": "두 코너"}[language]
    either = {"en": "either corner", "zh_TW": "任一彎道", "ko": "어느 코너든"}[language]
    ui.app.set_language(language)
    try:
        for token in Road:
            name = road_name(token)
            lone = road_line(1, token).split(name, 1)[1]
            effect = road_line(1, token, 2).split(name, 1)[1]
            assert effect != lone, (token, effect)
            if token in (Road.LIMIT_PLUS, Road.LIMIT_MINUS):
                assert both in effect, (token, effect)
            elif token is Road.OVERHEAT:
                assert either in effect, (token, effect)
            else:  # the sector after corner 2, the chicane's second line
                assert token.on_sector and "2" in effect and "2" not in lone, (token, effect)
    finally:
        ui.app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_many_rules_go_beside_the_map_where_it_is_drawn_larger(ui, language: str) -> None:
    """España with an event, a Weather token and a Road Condition token on every corner
    (docs/rules.md §5: one a corner, a chicane's shared): its eleven lines of words under the
    map left it a strip of the window, its track drawn smaller than the race screen's and its
    numbers run together ("1110"; found by a table test). The words stand beside the map, whole
    and on screen, where the track is drawn larger than with them under it (its band 14.1 px
    against 9.0 in English) and than on the race screen, every corner's space numbered."""

    import tracks
    from companion.engine.modules import RaceModules, Road, Weather
    from companion.ui.views.modules_form import token_corners

    app = ui.app
    app.set_language(language)
    try:
        track = tracks.load_track("espana")
        kinds = list(Road)
        road = {corner.line_after: kinds[n % len(kinds)]
                for n, corner in enumerate(token_corners(track))}
        modules = RaceModules(event="turbulent-winds", weather=Weather.STORM, road=road)
        zoom = _zoom_over_race(ui, track, modules, seed=3, legends=2)
        screen = app.sm.current_screen
        big, hint = zoom.map, zoom.hint
        assert len(hint.text.split("\n")) >= 11
        assert hint.x >= big.right - 1  # beside the map
        assert hint.y >= 0 and hint.top <= app.root_window.height  # on screen
        assert hint.texture_size[1] <= hint.height + 1  # every line shown
        assert big.geometry.band >= screen.ids.map.geometry.band
        # every corner's space numbered (en leaves space 100 out: the words' column is
        # wider in English)
        assert not set(big.spaces_left_out) & {c.line_after for c in track.corners}
        zoom.close()
        ui.pump(1)
    finally:
        app.set_language("en")
