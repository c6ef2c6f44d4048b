"""Next race says only what is true for the race to come (found by a table test): before race
1 it said "X picked first and may then swap one earlier Upgrade" though nobody had an earlier
Upgrade and no swap is offered, and nobody had picked yet; with no Press Corners it read "Press
Corners: -."."""

from __future__ import annotations

from typing import Any

import pytest
from test_event_points import CARS, spaced
from test_results_words import play_out

from companion.championship.seasons import SeasonDef, SeasonRace
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui


def _texts(screen: Any) -> str:
    return "\n".join(spaced(find(screen, name).text) for name in ("press", "draft order"))


def test_next_race_says_only_what_is_true_for_this_race(ui) -> None:
    """Before race 1 Next race said "X picked first and may then swap one earlier Upgrade"
    (nobody has an earlier Upgrade: no swap is offered, and nobody has picked yet), and with
    no Press Corners "Press Corners: -." (found by a table test). Race 1: who picks first, no
    swap, "No Press Corners this race."; race 2: the swap, present tense."""
    from season_play import start_next_race

    app = ui.app
    store = app.season_store()
    season_id = store.create_season(
        SeasonDef("custom", "Cup", (SeasonRace("usa", sponsors=1),
                                    SeasonRace("usa", sponsors=0, press=("A",)))), CARS[:2])
    app.season_id = season_id
    app.show("standings")
    ui.pump()
    ui.player.press("next race")
    screen = app.sm.current_screen
    plan = screen.plan
    names = dict((c.id, c.name) for c in CARS)
    first = names[plan.picks[0]]
    order = ", ".join(names[c] for c in plan.picks)
    assert spaced(find(screen, "press").text) == (
        "No Press Corners this race. Each driver draws 1 Sponsorship card.")
    assert spaced(find(screen, "draft order").text) == (
        f"Draft order: {order}. {first} picks first.")
    for language in ("zh_TW", "ko"):
        app.set_language(language)
        try:
            ui.pump()
            text = _texts(app.sm.current_screen)
            assert "-" not in text.splitlines()[0] and "Press" not in text, text
        finally:
            app.set_language("en")
    app.show("standings")
    ui.pump()
    start_next_race(ui)  # race 1's draft: an Upgrade each
    app.open_session(play_out(app.session))
    app.season_id = season_id
    app.show("standings")
    ui.pump()
    ui.player.press("next race")
    screen = app.sm.current_screen
    plan = screen.plan
    assert plan.number == 2 and plan.earlier[plan.picks[0]]
    first = names[plan.picks[0]]
    order = ", ".join(names[c] for c in plan.picks)
    assert spaced(find(screen, "press").text) == (
        "Press Corners: A: corner 1. No Sponsorship cards to draw.")
    assert spaced(find(screen, "draft order").text) == (
        f"Draft order: {order}. {first} picks first and may then swap one earlier Upgrade "
        "for a card left.")
