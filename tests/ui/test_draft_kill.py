"""A power cut during the Garage draft: the app runs in a child process and drafts by touches,
saying after each pick what the table sees; the test kills it with SIGKILL right after an
acknowledged pick (or right after the draft began), then starts the app again on the same data
folder, as after the power came back. Continue must lead back to the draft exactly where it was:
the same deal, the same picks, the same round and pick order, whose pick it is; the draft then
finishes into its race as it would have, and is no longer offered to continue.

Found by a table test: after the kill there was no Continue, New race showed the default form
and a redraft dealt other cards than those already in the players' hands. The kill points are
counted in picks, never in time (the child waits to be killed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from child_app import read_then_kill

from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

CHILD_SEED = 7
"""The child's championship seed: not the test harness's, so a Next race drawn again (instead
of the draft's own) would show."""

CHILD = r"""
from companion.ui.widgets.lookup import find

data, kind, picks = sys.argv[1], sys.argv[2], int(sys.argv[3])

app, player = start_app(data, seed=int(sys.argv[4]))

def said():
    flow, screen = app.draft_flow, app.sm.current_screen
    draft = flow.draft
    hands = sorted(find(screen, "draft prompt").parent.parent.ids.hands.children,
                   key=lambda w: -w.y)
    print(json.dumps({
        "screen": app.sm.current, "market": list(draft.market),
        "picks": [list(p) for p in draft.picks], "round": draft.round,
        "order": list(draft.order), "to_pick": draft.to_pick,
        "title": find(screen, "draft title").text, "prompt": find(screen, "draft prompt").text,
        "hands": [[label.text for label in reversed(hand.children)] for hand in hands],
        "seed": getattr(app.screen("nextrace").plan, "seed", None) if kind == "season" else None,
    }), flush=True)

if kind == "race":
    player.press("new race")
    for index, name in enumerate(("Maximilianus", "Bartholomew", "Konstantinos")):
        if index >= 2:
            player.press("add driver")
        player.find(f"name {index}").text = name
    player.press("more options")
    player.press("garage")
    player.press("start race")
else:
    player.press("championship")
    player.press("season 1961")
    for index, name in enumerate(("Maximilianus", "Bartholomew")):
        player.find(f"name {index}").text = name
    player.press("create season")
    player.press("next race")
    player.press("draft")
pump(3)
said()  # the draft has begun (its start recorded)
for _ in range(picks):
    player.press("card 0")
    said()  # this pick recorded: acknowledged
print("kill me", flush=True)
sys.stdin.readline()  # wait for the SIGKILL
"""


def _draft_then_kill(data: Path, kind: str, picks: int) -> dict[str, Any]:
    """Run the child to ``picks`` acknowledged picks, SIGKILL it; what it showed last."""
    lines = read_then_kill(CHILD, [str(data), kind, str(picks), str(CHILD_SEED)],
                           lambda lines: bool(lines) and lines[-1].strip() == "kill me")
    shown = [json.loads(line) for line in lines[:-1]]
    assert len(shown) == picks + 1 and shown[-1]["screen"] == "draft"
    return shown[-1]


def _hands(screen: Any) -> list[list[str]]:
    return [[label.text for label in reversed(hand.children)]  # a name, its cards
            for hand in sorted(screen.ids.hands.children, key=lambda w: -w.y)]


def _as_shown(app: Any) -> dict[str, Any]:
    flow, screen = app.draft_flow, app.sm.current_screen
    draft = flow.draft
    return {
        "screen": app.sm.current, "market": list(draft.market),
        "picks": [list(p) for p in draft.picks], "round": draft.round,
        "order": list(draft.order), "to_pick": draft.to_pick,
        "title": find(screen, "draft title").text, "prompt": find(screen, "draft prompt").text,
        "hands": _hands(screen),
    }


def _finish(ui: Any) -> None:
    app = ui.app
    flow = app.draft_flow
    while flow.mode == "pick":
        ui.player.press("card 0")
    if flow.mode == "swap":
        ui.player.press("skip swap")
    ui.player.press("start race")
    assert app.sm.current == "race"


@pytest.mark.parametrize("picks", [0, 4])
def test_a_single_race_draft_killed_goes_on_where_it_was(make_harness, picks: int) -> None:
    harness = make_harness()
    before = _draft_then_kill(harness.data, "race", picks)
    app = harness.start()  # the power is back
    start = app.sm.current_screen
    assert app.sm.current == "start" and not find(start, "continue").disabled
    info = find(start, "continue info").text
    assert info.startswith(f"USA, 1 lap, Garage draft, round {before['round']}: ")
    assert all(name in info for name in ("Maximilianus", "Bartholomew", "Konstantinos"))
    harness.player.press("continue")
    assert app.sm.current == "draft"
    after = _as_shown(app)
    assert {**after, "seed": None} == before
    # Back leads to the setup the draft began from, not to a new form.
    harness.player.press("back")
    form = app.sm.current_screen.form
    assert app.sm.current == "newrace" and form.modules.garage == "draft"
    assert [d.display_name for d in form.drivers] == ["Maximilianus", "Bartholomew",
                                                     "Konstantinos"]
    harness.player.press("start race")  # the same setup: the same draft, where it was
    assert _as_shown(app) == after
    flow = app.draft_flow
    _finish(harness)
    session = app.session
    assert {c.id: c.upgrades for c in session.setup.cars if not c.legend} == flow.cards()
    assert flow.draft.picks[:picks] == tuple(tuple(p) for p in before["picks"])
    assert app.unfinished()[0].id == session.race_id
    assert [item.kind for item in app.unfinished()] == ["race"]  # the draft is over


def test_a_season_race_draft_killed_goes_on_where_it_was(make_harness) -> None:
    harness = make_harness()
    before = _draft_then_kill(harness.data, "season", 1)
    assert before["seed"] == CHILD_SEED
    app = harness.start()
    assert app.race_seed != CHILD_SEED
    start = app.sm.current_screen
    info = find(start, "continue info").text
    assert info.startswith("1961, race 1 of 3: Great Britain, 2 laps, Garage draft: ")
    assert "Maximilianus" in info and "Bartholomew" in info
    harness.player.press("continue")
    assert app.sm.current == "draft"
    assert {**_as_shown(app), "seed": CHILD_SEED} == before
    plan = app.screen("nextrace").plan
    assert plan.seed == CHILD_SEED  # the grid, Weather and Road Conditions drawn as before
    harness.player.press("back")
    assert app.sm.current == "nextrace"
    harness.player.press("draft")
    assert {**_as_shown(app), "seed": CHILD_SEED} == before
    _finish(harness)
    assert app.session.setup.seed == CHILD_SEED and app.season_id is not None
    assert [item.kind for item in app.unfinished()] == ["race"]
    assert find_all(app.screen("start"), "resume ") == []
