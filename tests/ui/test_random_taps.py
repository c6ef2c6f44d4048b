"""Random taps over a race at 800x480, as hands that do not read the screen would tap: any
button on screen, greyed or not (the race panel's more often), any point of the window, now
and then two taps 50 ms apart; the app restarted on the same data folder halfway (as after a
power cut). Nothing may raise, nothing recorded may be lost or changed (the log before the
restart is the start of the log after it: it only grows), no greyed button may stay silent
when tapped, no text on screen may be cut with "...".

Each seed draws its own taps; the taps go to widgets in the order of their test names, so a
seed taps the same way on every host, whatever the widget tree's order. (The same kind of run,
16,000 taps over every screen at 800x480 and 1024x600, found New season's title cut at
1024x600: ``test_season_title.py``.)"""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from typing import Any

import pytest
from race_forms import race_form

import tracks

pytestmark = pytest.mark.ui

NAMES = ("歐陽娜娜司馬長風上官婉兒", "Maximilianus", "남궁민수황보영희제갈공명", "Konstantinos")
TAPS = 100
"""Taps before the restart and after it."""
QUICK = 0.05
"""Two taps this far apart (s): a double tap."""
PACE = 0.8
"""A person's pace between taps (s)."""


def _shown(widget: Any, window: Any) -> bool:
    from companion.ui.demo.player import TablePlayer

    x, y = widget.to_window(*widget.center)
    if not (0 <= x < window.width and 0 <= y < window.height) or widget.width <= 0:
        return False
    if widget.opacity <= 0 or widget.height <= 0:
        return False
    return TablePlayer._visible(widget)  # not clipped away by a list that scrolls


def _on_screen(app: Any) -> list[Any]:
    from companion.ui.widgets.lookup import walk

    window = app.root_window
    found = [widget for root in list(window.children) for widget in walk(root)
             if getattr(widget, "test_name", "") and _shown(widget, window)]
    return sorted(found, key=lambda widget: (str(widget.test_name), widget.to_window(
        *widget.center)))


def _events(app: Any) -> dict[str, list[tuple[int, str, str]]]:
    """Every race's events as the file holds them (read beside the app, read only)."""
    with closing(sqlite3.connect(f"file:{app.log().path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT race_id, seq, kind, payload FROM events ORDER BY race_id, seq")
        events: dict[str, list[tuple[int, str, str]]] = {}
        for race_id, seq, kind, payload in rows:
            events.setdefault(race_id, []).append((seq, kind, payload))
    return events


def _cut_texts(app: Any) -> list[tuple[str, str]]:
    from kivy.uix.label import Label

    from companion.ui.widgets.lookup import walk

    window = app.root_window
    return [(app.sm.current, widget.text) for root in list(window.children)
            for widget in walk(root)
            if isinstance(widget, Label) and widget.text and widget.is_shortened
            and _shown(widget, window)]


def _tap_at_random(ui: Any, rnd: random.Random, taps: int, problems: list[object]) -> None:
    from companion.ui.demo.player import TablePlayer, tap_screen

    app = ui.app
    window = app.root_window
    for index in range(taps):
        screen = app.sm.current
        shown = _on_screen(app)
        busy = [widget for widget in shown if not widget.disabled
                and widget.test_name not in ("menu", "back")]
        draw = rnd.random()
        if screen == "race" and busy and draw < 0.7:
            widget = rnd.choice(busy)
        elif shown and draw < 0.9:
            widget = rnd.choice(shown)
        else:
            widget = None
        if widget is not None:
            x, y = widget.to_window(*widget.center)
            if widget.disabled and not getattr(widget, "why_disabled", "said"):
                problems.append((index, screen, "greyed and silent", widget.test_name))
        else:
            x, y = rnd.uniform(0, window.width - 1), rnd.uniform(0, window.height - 1)
        TablePlayer.last_tap += QUICK if rnd.random() < 0.1 else PACE
        tap_screen(x, y, at=TablePlayer.last_tap)
        ui.pump(2)
        problems.extend(("cut", index, *cut) for cut in _cut_texts(app))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_taps_over_a_race_lose_nothing_and_break_nothing(ui, seed: int) -> None:
    app = ui.app
    app.open_session(app.log().new_race(race_form(NAMES, legends=2, seed=seed).setup(
        tracks.load_track("usa"))))
    ui.pump(3)
    rnd = random.Random(seed)
    problems: list[object] = []
    _tap_at_random(ui, rnd, TAPS, problems)
    before = _events(ui.app)
    assert sum(map(len, before.values())) > 0  # the taps did play the race
    ui.restart()
    if not ui.player.find("continue").disabled:  # the race is not over: back to it
        ui.player.press("continue")
    _tap_at_random(ui, rnd, TAPS, problems)
    after = _events(ui.app)
    for race_id, events in before.items():
        assert after[race_id][:len(events)] == events, race_id  # only grown
    assert problems == []
