"""A React with many choices at once, six cars at 800x480, in English, Chinese and Korean:
every choice and End turn on screen at once (nothing scrolled away), each a whole touch target
that a finger reaches, none over another, over the prompt or over the rulings, and the rulings
whole. The race (``companion.ui.demo.busy_shots.BUSY_REACT``) gives the last driver sixteen
choices: Adrenaline, Cooldown 1 to 3, Super cool, Boost, a Draft, and slipstreams of +4 to +7
with the Sun's +2 and +2 to +5 declining it. Sixteen choices were five rows of three and one
more: End turn was scrolled out of sight. A busy React now shows each run of amounts as one
row (its name, then a key per amount) and packs the rest by the width of their words."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.engine import Cooldown, EndTurn, Slipstream
from companion.ui.demo.busy_shots import BUSY_REACT, SIX_NAMES
from companion.ui.demo.react_shots import start, to_react
from companion.ui.views.race_view import RaceView, ReactButton
from companion.ui.views.react_layout import FEW, RUN_MIN, react_rows
from companion.ui.widgets.basic import Btn
from companion.ui.widgets.lookup import find, walk

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "zh_TW", "ko")
CHOICES = ["adrenaline", "cooldown:1", "cooldown:2", "cooldown:3", "super_cool:1", "boost",
           "draft", "slipstream", "slipstream_plain:0", "slipstream:1", "slipstream_plain:1",
           "slipstream:2", "slipstream_plain:2", "slipstream:3", "slipstream_plain:3", "end"]
RUNS = {
    "en": [("Cooldown", ["1", "2", "3"]), ("Slipstream\nwith Sun +2", ["+4", "+5", "+6", "+7"]),
           ("Slipstream\ndecline Sun +2", ["+2", "+3", "+4", "+5"])],
    "zh_TW": [("冷卻", ["1", "2", "3"]), ("滑流\n含晴天 +2", ["+4", "+5", "+6", "+7"]),
              ("滑流\n放棄晴天 +2", ["+2", "+3", "+4", "+5"])],
    "ko": [("쿨다운", ["1", "2", "3"]), ("슬립스트림\n맑음 +2 포함", ["+4", "+5", "+6", "+7"]),
           ("슬립스트림\n맑음 +2 안 받음", ["+2", "+3", "+4", "+5"])],
}
"""Each run's name (and shared detail) and its keys, as the table reads them."""

Box = tuple[float, float, float, float]


def _box(widget: Any) -> Box:
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(
        0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _inside(inner: Box, outer: Box, slack: float = 1.0) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _plain(text: str) -> str:
    """A caption's markup as the words it shows."""
    import re

    return re.sub(r"\[/?size[^\]]*\]", "", text)


def _reach(ui) -> Any:
    app = ui.app
    race = copy.deepcopy(BUSY_REACT)
    start(app, race, SIX_NAMES)
    ui.pump()
    to_react(app, ui.player, race)
    ui.pump(2)
    assert len(app.controller.state.cars) == 6 and app.root_window.size == (800, 480)
    return app.controller.view()


def _react_buttons(screen: Any) -> dict[str, Any]:
    return {w.test_name[len("react "):]: w for w in walk(screen)
            if isinstance(w, Btn) and w.test_name.startswith("react ")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_of_a_busy_react_on_screen_and_reachable(ui, language: str) -> None:
    app = ui.app
    view = _reach(ui)
    assert [b.key for b in view.react] == CHOICES
    app.set_language(language)
    ui.pump(3)
    screen = app.sm.current_screen
    panel_box, panel = screen.ids.panel_box, screen.ids.panel
    assert panel.height <= panel_box.height + 1, "the panel scrolls: a choice is out of sight"
    buttons = _react_buttons(screen)
    assert sorted(buttons) == sorted(CHOICES)
    window: Box = (0, 0, app.root_window.width, app.root_window.height)
    shown = _box(panel_box)
    others = {"prompt": _box(find(screen, "prompt")), "rulings": _box(screen.ids.messages)}
    boxes = {key: _box(widget) for key, widget in buttons.items()}
    for key, box in boxes.items():
        assert _inside(box, window) and _inside(box, shown), (key, box, shown)
        assert box[2] - box[0] >= 47.5 and box[3] - box[1] >= 47.5, (key, box)
        for name, other in others.items():
            assert _overlap(box, other) == 0, (key, name)
        for other_key, other in boxes.items():
            assert other_key == key or _overlap(box, other) == 0, (key, other_key)
        # a finger at its centre lands on this button and on no other
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        under = [k for k, w in buttons.items() if w.collide_point(*w.to_widget(x, y))]
        assert under == [key]
    for caption in (w for w in walk(screen) if getattr(w, "test_name", "").startswith("run ")):
        for name, other in {**others, **boxes}.items():
            assert _overlap(_box(caption), other) == 0, (caption.test_name, name)
    messages = screen.ids.messages
    assert messages.left_out == 0 and messages.shown == app.controller.messages  # rulings whole
    runs = sorted((w for w in walk(screen) if getattr(w, "test_name", "").startswith("run ")),
                  key=lambda w: -w.to_window(*w.center)[1])  # top to bottom
    captions = [(_plain(w.text), [b.text for b in w.parent.children[0].children[::-1]])
                for w in runs]
    assert captions == RUNS[language]
    assert buttons["end"].text == {"en": "End turn", "zh_TW": "結束回合", "ko": "턴 종료"}[
        language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_key_of_a_run_takes_that_choice(ui, language: str) -> None:
    """"2" on the Cooldown row: Cooldown 2, by a finger; "+7" on the "Slipstream, with Sun
    +2" row: the slipstream with both cards' bonuses and the Sun's (the last step: the turn
    then ends by itself)."""
    app = ui.app
    _reach(ui)
    app.set_language(language)
    ui.pump(3)
    engine = app.controller.state.car("red").engine
    ui.player.press("react cooldown:2")
    assert app.session.actions()[-1] == Cooldown("red", 2)
    assert app.controller.state.car("red").engine == engine + 2
    assert find(app.sm.current_screen, "react slipstream:3").text == "+7"
    distance = app.controller.state.car("red").distance
    ui.player.press("react slipstream:3")
    assert app.session.actions()[-2:] == (Slipstream("red", 3), EndTurn("red"))
    assert app.controller.state.car("red").distance == distance + 7


def test_end_turn_of_a_busy_react_by_a_finger(ui) -> None:
    _reach(ui)
    ui.player.press("react end")
    assert ui.app.session.actions()[-1] == EndTurn("red")


def test_a_few_choices_stay_whole_buttons_in_two_columns() -> None:
    """Up to eight choices nothing changes: every choice a whole button (Cooldown 1 to 4
    included); from nine on, runs of three or more amounts get their rows."""
    cooldowns = [ReactButton(f"cooldown:{n}", f"Cooldown {n}", series="Cooldown", amount=str(n))
                 for n in range(1, 5)]
    few = [*cooldowns, ReactButton("boost", "Boost (1 Heat)"), ReactButton("end", "End turn")]
    assert len(few) <= FEW and react_rows(few) == ((), tuple(few))
    many = few[:-1] + [ReactButton(f"x{n}", f"X {n}") for n in range(FEW)] + few[-1:]
    runs, whole = react_rows(many)
    assert [[b.key for b in run.buttons] for run in runs] == [[b.key for b in cooldowns]]
    assert runs[0].caption == "Cooldown" and len(cooldowns) >= RUN_MIN
    assert whole[-1].key == "end" and not {b.key for b in cooldowns} & {b.key for b in whole}


def test_more_rows_than_the_panel_holds_scroll_with_a_bar_in_sight(ui) -> None:
    """Past what any race gives here (three runs of five and ten whole choices), the panel
    scrolls, and its bar shows that it does; End turn is reached by scrolling."""
    app = ui.app
    _reach(ui)
    screen = app.sm.current_screen
    many = tuple(
        [ReactButton(f"cooldown:{n}", f"Cooldown {n}", series="Cooldown", amount=str(n))
         for n in range(1, 6)]
        + [ReactButton(f"super_cool:{n}", f"Super cool {n}", series="Super cool",
                       amount=str(n)) for n in range(1, 6)]
        + [ReactButton(f"slipstream:{n}", f"Slipstream +{n + 2}", series="Slipstream",
                       amount=f"+{n + 2}") for n in range(5)]
        + [ReactButton(f"choice:{n}", f"Choice {n}") for n in range(9)]
        + [ReactButton("end", "End turn")])
    real = app.controller.view()
    screen.ids.panel.show(RaceView("react", real.status, real.prompt, real.current, react=many))
    ui.pump(3)
    panel_box, panel = screen.ids.panel_box, screen.ids.panel
    assert panel.height > panel_box.height + 1 and panel_box.do_scroll_y
    assert panel_box.bar_width >= 4 and panel_box.bar_inactive_color[3] > 0.5  # always shown
    end = find(screen, "react end")
    assert not _inside(_box(end), _box(panel_box))
    panel_box.scroll_y = 0
    ui.pump(3)
    assert _inside(_box(end), _box(panel_box))
