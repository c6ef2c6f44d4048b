"""A busy React's runs of amounts (Cooldown 1 to N, Super cool, slipstreams) at the width the
panel has: six drivers of twelve characters, in English, Chinese and Korean, at 800x480 and on
larger screens. Every key lies inside the window and the panel, at least a touch target wide,
its amount whole, beside its run's name ("Cooldown / incl. Rain +1"); the rows of a run even.
Cooldown 6 in a Rain sector (a table test, Nederland) was a row of five keys of 56 px in the
268 px the keys have at 800x480 beside the name, the fifth half past the screen's edge, its
digit cut, and the sixth alone on a second row as wide as five."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from companion.engine.modules import Weather
from companion.i18n import _
from companion.ui.demo.busy_shots import BUSY_REACT, SIX_NAMES
from companion.ui.demo.react_shots import start, to_react
from companion.ui.views.race_view import ReactButton
from companion.ui.views.react_layout import run_columns
from companion.ui.views.words import weather_name
from companion.ui.widgets.lookup import walk
from companion.ui.widgets.race_panel import MIN_TAP

pytestmark = pytest.mark.ui

NAMES = {
    "zh": ("歐陽明日香子美智惠理奈子", "司馬長風萬里雲天海闊山高", "諸葛孔明先生字臥龍南陽人",
           "上官婉兒才女詩書畫印琴棋", "東方不敗教主日月神教黑木", "慕容復燕國後人姑蘇參合莊"),
    "ko": ("황보세종대왕님만세만만세", "남궁민수선생님의둘째아들", "제갈공명선생의후손이라네",
           "이순신장군님의바다이야기", "김연아선수의피겨스케이팅", "박지성선수의축구이야기들"),
}
"""Six names of twelve characters: the race order takes the most of the screen for them (the
panel at its narrowest: 406 px in English at 800x480)."""

CASES = [("en", "zh"), ("zh_TW", "zh"), ("ko", "ko")]
SIZES = [(800, 480), (1024, 600), (1280, 720)]

Box = tuple[float, float, float, float]


def _box(widget: Any) -> Box:
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def _inside_x(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] - 1 and inner[2] <= outer[2] + 1


def _inside(inner: Box, outer: Box) -> bool:
    return _inside_x(inner, outer) and inner[1] >= outer[1] - 1 and inner[3] <= outer[3] + 1


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _run(key: str, name: str, amounts: list[str], detail: str = "") -> list[ReactButton]:
    return [ReactButton(f"{key}:{n}", f"{name} {amount}", series=name, amount=amount,
                        detail=detail) for n, amount in enumerate(amounts, 1)]


def _cooldowns(count: int) -> list[ReactButton]:
    """Cooldown 1 to ``count`` in a Rain sector, as the React offers them."""
    rain = _("incl. {source} +{bonus}").format(source=weather_name(Weather.RAIN), bonus=1)
    return _run("cooldown", _("Cooldown"), [str(n) for n in range(1, count + 1)], rain)


def _react(cooldown: int) -> tuple[ReactButton, ...]:
    """The table test's React (Adrenaline, Cooldown 1 to ``cooldown`` in Rain, a slipstream,
    End turn) and a Boost: nine or more choices, a busy React."""
    return (ReactButton("adrenaline", _("Adrenaline +1")), *_cooldowns(cooldown),
            ReactButton("boost", _("Boost (1 Heat)")),
            ReactButton("slipstream", _("Slipstream +{n}").format(n=2)),
            ReactButton("end", _("End turn")))


def _most() -> tuple[ReactButton, ...]:
    """More than a race gives: twelve Cooldown amounts (the gear's 3, Adrenaline's 1, Rain's 1
    and the played cards' are capped by the Heat outside the engine: a track gives at most 7),
    six of Super cool, slipstreams of +4 to +9 (the cards' bonuses), and every other kind of
    choice."""
    return (ReactButton("adrenaline", _("Adrenaline +1")), *_cooldowns(12),
            *_run("super_cool", _("Super cool"), [str(n) for n in range(1, 7)]),
            ReactButton("unpaid", _("Cannot pay"), detail=_("{card}: {heat} Heat").format(
                card="Wings 6", heat=2)),
            ReactButton("boost", _("Boost (1 Heat)")),
            ReactButton("accelerate", _("Accelerate +{n}").format(n=3)),
            ReactButton("draft", _("Draft {n}").format(n=2)),
            *_run("slipstream", _("Slipstream"), [f"+{n}" for n in range(4, 10)]),
            ReactButton("end", _("End turn")))


def _reach(ui, language: str, names: str, size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    app = ui.app
    Window.size = size
    ui.pump(3)
    race = copy.deepcopy(BUSY_REACT)
    start(app, race, dict(zip(SIX_NAMES, NAMES[names], strict=True)))
    ui.pump()
    to_react(app, ui.player, race)
    app.set_language(language)
    ui.pump(3)
    assert len(app.controller.state.cars) == 6 and app.root_window.size == size


def _check(ui, react: tuple[ReactButton, ...], where: str, *, in_sight: bool) -> list[str]:
    """Show ``react`` on the panel; what is wrong with its runs' keys and names (``in_sight``:
    every key on screen without scrolling, else inside the panel's width)."""
    app = ui.app
    screen = app.sm.current_screen
    screen.ids.panel.show(replace(app.controller.view(), react=react))
    ui.pump(3)
    window: Box = (0, 0, app.root_window.width, app.root_window.height)
    panel, shown = _box(screen.ids.panel), _box(screen.ids.panel_box)
    keys = [w for w in walk(screen) if getattr(w, "test_name", "").startswith("react ")]
    assert sorted(w.test_name for w in keys) == sorted(f"react {b.key}" for b in react)
    problems = []
    boxes = {w.test_name: _box(w) for w in keys}
    for key in keys:
        box = boxes[key.test_name]
        ok = _inside(box, window) and _inside(box, shown) if in_sight else (
            _inside_x(box, window) and _inside_x(box, shown))
        if not (ok and _inside(box, panel)):
            problems.append(f"{where}: {key.test_name} {key.text!r} at {box} outside "
                            f"{shown} (window {window[2]}x{window[3]})")
        if box[2] - box[0] < MIN_TAP - 0.5 or box[3] - box[1] < MIN_TAP - 0.5:
            problems.append(f"{where}: {key.test_name} {box[2] - box[0]:.0f}x"
                            f"{box[3] - box[1]:.0f}, under a touch target")
        key.texture_update()
        if key.texture_size[0] > key.width + 1 or key.texture_size[1] > key.height + 1:
            problems.append(f"{where}: {key.text!r} cut ({key.texture_size} in {key.size})")
        problems += [f"{where}: {key.test_name} over {other}" for other, box2 in boxes.items()
                     if other != key.test_name and _overlap(box, box2)]
    for caption in (w for w in walk(screen) if getattr(w, "test_name", "").startswith("run ")):
        box = _box(caption)
        caption.texture_update()
        if not _inside_x(box, shown) or caption.texture_size[0] > caption.width + 1 or (
                caption.texture_size[1] > caption.height + 1):
            problems.append(f"{where}: {caption.test_name}'s name cut or outside the panel")
        problems += [f"{where}: {caption.test_name} under {key}" for key, other in
                     boxes.items() if _overlap(box, other)]
        grid = caption.parent.children[0]
        rows = Counter(round(key.y) for key in grid.children)
        if max(rows.values()) - min(rows.values()) > 1:
            problems.append(f"{where}: {caption.test_name}'s rows uneven: "
                            f"{sorted(rows.values(), reverse=True)}")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("language", "names"), CASES, ids=[c[0] for c in CASES])
def test_every_key_of_a_run_inside_the_panel_whole_and_a_touch_target(
        ui, language: str, names: str, size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    try:
        _reach(ui, language, names, size)
        problems = _check(ui, _react(5), "Cooldown 5", in_sight=True)
        problems += _check(ui, _react(6), "Cooldown 6", in_sight=True)
        problems += _check(ui, _most(), "the most", in_sight=False)
        assert problems == []
    finally:
        Window.size = (800, 480)
        ui.pump(3)


def test_cooldown_six_is_two_rows_of_three_at_800x480(ui) -> None:
    """Where five keys fit a row, six take two even rows, under the run's name."""
    _reach(ui, "en", "zh", (800, 480))
    assert _check(ui, _react(6), "Cooldown 6", in_sight=True) == []
    screen = ui.app.sm.current_screen
    caption = next(w for w in walk(screen) if getattr(w, "test_name", "") == "run cooldown:1")
    assert caption.text.startswith("Cooldown\n") and "incl. Rain +1" in caption.text
    grid = caption.parent.children[0]
    assert [k.text for k in grid.children[::-1]] == ["1", "2", "3", "4", "5", "6"]
    assert sorted(Counter(round(k.y) for k in grid.children).values()) == [3, 3]


def test_keys_to_a_row_from_the_room_the_rows_even() -> None:
    assert run_columns(5, 268, 48, 4.5) == 5  # five fit: one row
    assert run_columns(6, 268, 48, 4.5) == 3  # not five and one
    assert run_columns(7, 268, 48, 4.5) == 4  # four and three
    assert run_columns(12, 268, 48, 4.5) == 4  # three rows of four
    assert run_columns(6, 500, 73, 6) == 6  # a larger screen: one row
    assert run_columns(3, 40, 48, 4.5) == 1  # no room even for one: one a row
