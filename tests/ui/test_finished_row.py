"""A car that finished, in the race order: its place, not the figures it crossed the line with."""

from __future__ import annotations

import pytest
from test_eliminated_order import _race

from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

PLACE = {"en": "1st", "zh_TW": "第 1 名", "ko": "1위"}
SAID = {"en": "Green finished in place 1.", "zh_TW": "Green 以第 1 名完賽。",
        "ko": "Green: 1위로 완주했습니다."}
"""The tap's words (the driver is named "Green")."""


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_finished_car_shows_its_place_not_its_lap_gear_heat_or_stress(
        ui, language: str) -> None:
    """A car on the podium kept its lap, gear, Heat and Stress in the race order after it
    crossed the line (found by a table test), figures that no longer count: it left the
    track at the end of the round it finished in (docs/rules.md §1.12). Its Space cell says
    its place ("1st"), its Lap, Gear, Heat and Stress "-" (the Sponsorship cards it won stay
    its own), and a tap on its row says it finished and in which place."""
    from companion.ui.widgets.basic import current_hint

    app = ui.app
    app.set_language(language)
    try:
        setup, actions = _race(1)  # green finishes first while cars still race
        session = app.log().new_race(setup)
        done = 0
        while not session.state.car("green").finished:
            session.submit(actions[done])
            done += 1
        session.submit(actions[done])  # an input after the round's end (its rulings)
        assert not session.state.over and session.state.car("green").finished_place == 1
        app.open_session(session)
        ui.pump(3)
        screen = app.sm.current_screen
        green = session.state.car("green")
        assert green.gear and green.heat  # figures the row no longer shows
        assert find(screen, "space green").text == PLACE[language]
        for column in ("lap", "gear", "heat", "stress"):
            assert find(screen, f"{column} green").text == "-", column
        assert find(screen, "sponsors green").text == str(green.sponsors)
        assert not any(r.car == "green" for r in app.controller.view().rulings)
        screen.explain_row("green")
        assert current_hint().text == SAID[language]
    finally:
        app.set_language("en")
