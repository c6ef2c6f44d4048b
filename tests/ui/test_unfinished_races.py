"""New race while a race is unfinished (issue 10 point 10): the app asks first ("Continue it /
Start a new race anyway"), Continue opens the race the table played last, and every other
unfinished race is one tap away on the Start screen: no unfinished race ever becomes
unreachable, across new races, resumes, finished races, season races and restarts."""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui


def unfinished_in_log(app: Any) -> set[str]:
    return {r.id for r in app.log().races() if not r.over}


def reachable_from_start(ui: Any) -> set[str]:
    """The races a player can open from the Start screen by taps: Continue's race, and each
    race under "Other unfinished races"."""
    app = ui.app
    app.show("start")
    start = app.sm.current_screen
    found: set[str] = set()
    if not find(start, "continue").disabled:
        found.add(app.continue_target())
    others = find(start, "other unfinished")
    if others.text:
        ui.player.press("other unfinished")
        found |= {b.test_name.removeprefix("resume ") for b in find_all(start, "resume ")}
        ui.player.press("back")
    return found


def _race(ui: Any, names: tuple[str, str], steps: int = 4) -> str:
    """From Start: a new race (saying "new race anyway" when asked), a few inputs, Menu."""
    ui.app.show("start")
    ui.player.set_up_race(names)
    ui.player.press("start race")
    for _ in range(steps):
        ui.player.step()
    race_id = str(ui.app.session.race_id)
    ui.player.press("menu")
    return race_id


def test_new_race_asks_first_and_keeps_the_unfinished_one_one_tap_away(ui) -> None:
    app = ui.app
    first = _race(ui, ("Maximilianus", "Bartholomäus"))
    start = app.sm.current_screen
    assert find(start, "continue info").text.startswith("USA, 1 lap, round 1: ")
    assert "Maximilianus" in find(start, "continue info").text
    ui.player.press("new race")
    assert app.sm.current == "start" and start.page == "ask"
    assert find(start, "ask title").text == "A race is unfinished"
    assert "Maximilianus" in find(start, "ask race").text
    ui.player.press("continue it")  # the race it named
    assert app.sm.current == "race" and app.session.race_id == first
    ui.player.press("menu")
    ui.player.press("new race")
    ui.player.press("back")  # neither: nothing changes
    assert app.sm.current == "start" and start.page == "home"
    assert unfinished_in_log(app) == {first}
    second = _race(ui, ("Christabella", "Konstantinos"))
    # Continue is the race played last; the other one is one tap away.
    assert app.continue_target() == second
    assert find(start, "other unfinished").text == "Other unfinished races: 1"
    ui.player.press("other unfinished")
    assert "Maximilianus" in find(start, f"resume {first}").parent.children[-1].text
    ui.player.press(f"resume {first}")
    assert app.sm.current == "race" and app.session.race_id == first
    # The race screen's buttons act on the race shown, not on the one shown before it.
    logged = {r: len(app.log().open_race(r).actions()) for r in (first, second)}
    for _ in range(30):
        ui.player.step()
        if len(app.session.actions()) > logged[first] + 1:
            break
    assert len(app.log().open_race(second).actions()) == logged[second]
    assert len(app.log().open_race(first).actions()) > logged[first] + 1
    ui.player.press("menu")
    assert app.continue_target() == first  # played last now
    ui.player.press("continue")
    assert app.session.race_id == first
    assert reachable_from_start(ui) == unfinished_in_log(app) == {first, second}


def test_reading_a_finished_race_leaves_continue_on_the_race_played_last(ui) -> None:
    """The table plays a race, opens a finished one from Races to read its results, goes
    back to Start: Continue still opens the race it played last (not the one created last),
    and after a restart too. Found by a table test: the finished race was remembered as the
    race played, and Continue then fell back to the newest unfinished race."""
    import random

    from companion.racesim import next_action

    app = ui.app
    played = _race(ui, ("Ana", "Ben"))
    done = _race(ui, ("Cleo", "Dan"))
    newest = _race(ui, ("Eve", "Fay"))
    session = app.log().open_race(done)
    rng = random.Random(5)
    while (action := next_action(session.state, rng)) is not None:
        session.submit(action)
    assert session.state.over
    app.continue_race(played)
    ui.player.step()
    ui.player.press("menu")
    assert app.continue_target() == played
    ui.player.press("races")
    ui.player.press(f"open {done}")
    assert app.sm.current == "results" and app.session.race_id == done
    app.show("start")
    assert app.continue_target() == played
    ui.player.press("continue")
    assert app.session.race_id == played
    ui.player.press("menu")
    app = ui.restart()
    assert app.continue_target() == played != newest


def test_no_unfinished_race_becomes_unreachable(ui) -> None:
    app = ui.app
    a = _race(ui, ("Ana", "Ben"))
    assert reachable_from_start(ui) == unfinished_in_log(app) == {a}
    b = _race(ui, ("Cleo", "Dan"))
    c = _race(ui, ("Eve", "Fay"))
    assert reachable_from_start(ui) == unfinished_in_log(app) == {a, b, c}
    # Play the middle one, then finish it: it leaves the list, the others stay.
    app.continue_race(b)
    ui.player.step()
    ui.player.press("menu")
    assert app.continue_target() == b
    finished = app.log().open_race(b)
    import random

    from companion.racesim import next_action

    rng = random.Random(3)
    for _ in range(5000):  # the rest of the race: random legal inputs, straight into the log
        action = next_action(finished.state, rng)
        if action is None:
            break
        finished.submit(action)
    assert finished.state.over
    assert reachable_from_start(ui) == unfinished_in_log(app) == {a, c}
    assert app.continue_target() == c  # b was played last and is over: the newest left
    # A season race joins the list like any other.
    ui.player.press("championship")
    ui.player.press("season 1961")
    ui.player.press("create season")
    ui.player.press("next race")
    ui.player.press("draft")
    for _ in app.draft_flow.draft.order:
        ui.player.press("card 0")
    if app.draft_flow.mode == "swap":
        ui.player.press("skip swap")
    ui.player.press("start race")
    season_race = str(app.session.race_id)
    ui.player.step()
    ui.player.press("menu")
    assert reachable_from_start(ui) == unfinished_in_log(app) == {a, c, season_race}
    assert app.continue_target() == season_race
    # After a restart (a power cut): the same races, Continue on the same one.
    app = ui.restart()
    assert reachable_from_start(ui) == unfinished_in_log(app) == {a, c, season_race}
    assert app.continue_target() == season_race
    ui.player.press("continue")
    assert app.session.race_id == season_race and app.season_id is not None


def _area(widget: Any) -> float:
    return float(widget.width * widget.height)


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_with_nothing_to_continue_new_race_and_new_season_lead(ui, language: str) -> None:
    """A new table (no race ever played) first saw a large greyed Continue in the accent
    colour: with nothing to continue, New race (in the accent colour) and New season lead, and
    Continue is a small greyed tile after Settings that says why when tapped. Once a race
    is unfinished the Start screen is as it was: Continue, the race it opens, New race; and
    with every race over it leads with New race again."""
    from test_disabled_why import _tap
    from test_setup_screens import layout_problems

    from companion.ui.widgets.basic import current_hint

    app = ui.app
    app.set_language(language)
    app.show("start")
    ui.pump(2)
    start = app.sm.current_screen
    new_race, button = find(start, "new race"), find(start, "continue")
    assert new_race.role == "accent" and button.role == "normal"
    new_season = find(start, "new season")
    assert button.disabled and button.opacity == 1
    assert not new_season.disabled
    assert _area(button) < _area(new_race) / 2 and _area(button) < _area(new_season) / 2
    assert button.parent is find(start, "settings").parent  # among the smaller tiles, last
    assert button.parent.children[0] is button
    assert find_all(start, "continue info") == []
    assert layout_problems(app, f"start, nothing to continue [{language}]") == []
    _tap(button)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.text == button.why_disabled != ""
    ui.player.press("new season")
    assert app.sm.current == "newseason" and app.sm.current_screen.form.kind == "1961"
    ui.player.press("back")
    assert app.sm.current == "start"
    app.set_language("en")
    race = _race(ui, ("Maximilianus", "Bartholomäus"))
    app.set_language(language)
    ui.pump(2)
    # A race unfinished: the Start screen as before.
    button = find(start, "continue")
    assert button.role == "accent" and not button.disabled and new_race.role == "normal"
    assert find_all(start, "new season") == []
    assert "Maximilianus" in find(start, "continue info").text
    assert _area(button) > 2 * _area(find(start, "championship"))
    ui.player.press("continue")
    assert app.session.race_id == race
    ui.player.play_to_end()
    app.show("start")
    ui.pump(2)
    assert find(start, "new race").role == "accent" and find(start, "continue").disabled
    assert not find(start, "new season").disabled
