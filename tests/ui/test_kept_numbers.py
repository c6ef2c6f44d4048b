"""Results and Standings at 800x480: a line that wraps keeps each number with the words beside
it, in every language (a table test read "…得到 1" / "張贊助卡", the count on one line and its
noun on the next)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from stand_in_seasons import show_stand_in_season

from companion.ui.widgets.lookup import walk

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomews", "歐陽娜娜司馬長風上官婉兒", "Konstantinos",
         "남궁민수황보영희제갈공명", "Christophers")
"""Six drivers of twelve letters."""


def rendered_lines(label: Any) -> list[str]:
    """The lines ``label`` is drawn in."""
    from companion.ui.widgets import text_cache

    label.texture_update()
    return ["".join(word.text for word in line.words)
            for line in text_cache.renderer(label)._cached_lines]


def number_breaks(screen: Any) -> tuple[list[str], int]:
    """Where a label of ``screen`` wraps a line beside a number (the line before ends with a
    digit, or the next starts with one), as ``"before | after"``; and how many wrapped breaks
    its labels have in all."""
    from kivy.uix.label import Label

    from companion.ui.widgets import text_cache
    from companion.ui.widgets.line_breaks import line_starts

    found, breaks = [], 0
    for label in walk(screen):
        if not isinstance(label, Label) or not label.text or label.opacity == 0:
            continue
        label.texture_update()
        lines = ["".join(word.text for word in line.words)
                 for line in text_cache.renderer(label)._cached_lines]
        text = label.text.replace("\u00a0", " ")  # spaces the rendering made no-break
        lines = [line.replace("\u00a0", " ") for line in lines]
        starts = line_starts(text, lines)
        assert starts is not None, (label.text, lines)
        for number in range(1, len(lines)):
            if "\n" in text[starts[number - 1]:starts[number]]:
                continue  # a line break of the text's own, not a wrap (the app's line
                # breaks that fill a Chinese line are wraps: line_breaks.fill_break)
            breaks += 1
            end, start = lines[number - 1].rstrip(), lines[number].lstrip()
            if (end and end[-1].isdigit()) or (start and start[0].isdigit()):
                found.append(f"{end} | {start}")
    return found, breaks


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_sponsorship_line_keeps_its_count_with_its_cards(ui, language: str) -> None:
    """A 1962 season's race (Press Corners: Sponsorship cards), six twelve-letter names: the
    line under a driver that says the cards won wrapped between the count and its noun
    ("…得到 1" / "張贊助卡", "…: 스폰서 카드" / "1장 획득", "… won 1" / "Sponsorship card").
    No line of the Results breaks beside a number now, and while the list scrolls the noun
    stays whole with its count ("…won 1 Sponsorship" / "card" was read apart)."""
    from test_results_words import play_out

    from companion.championship.seasons import SEASONS
    from companion.engine import CarEntry
    from companion.ui.views.next_race import plan_next_race

    app = ui.app
    store = app.season_store()
    cars = tuple(CarEntry(colour, name) for colour, name in zip(
        ("red", "blue", "green", "yellow", "grey", "black"), NAMES, strict=True))
    season_id = store.create_season(SEASONS["1962"], cars)
    plan = plan_next_race(store, season_id, seed=5)
    assert plan is not None
    app.season_id = season_id
    app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
    assert app.sm.current == "results"
    assert any(car.sponsors for car in app.session.state.cars)
    app.set_language(language)
    try:
        ui.pump(3)
        screen = app.sm.current_screen
        found, _breaks = number_breaks(screen)  # (a line of cards names no driver now:
        assert found == []  # none need wrap)
        # the list scrolls (more rows than fit: its bar's width is kept free) and each line of
        # cards keeps the noun whole, with its count, on one line (it read "…won 1
        # Sponsorship" / "card" while the list scrolled)
        box = screen.ids.standings
        assert box.height > box.parent.height + 1
        noun = {"en": r"\d+ Sponsorship cards?\b", "zh_TW": r"\d+ 張贊助卡",
                "ko": r"스폰서 카드 \d+장"}[language]
        said = 0
        for label in walk(screen):
            if getattr(label, "test_name", "").endswith(" words") and "\n" in label.text:
                said += 1
                assert any(re.search(noun, line.replace("\u00a0", " "))
                           for line in rendered_lines(label)), rendered_lines(label)
        assert said >= 4  # every driver's (the Legends' say no cards)
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_the_standings_keep_each_number_with_its_words(ui, language: str) -> None:
    """A custom season over, its name and its champion's long: the title wrapped between
    the champion's points and their noun ("…, 57" / "points."). The Standings' lines (title,
    the notes under the table) keep a number with the words beside it."""
    from companion.championship import CarEntry, RaceResult, Season, SeasonDef, SeasonRace

    cars = tuple(CarEntry(colour, name) for colour, name in zip(
        ("red", "blue", "green", "yellow", "grey", "black"),
        ("歐陽娜娜司馬長風上官婉兒", *NAMES[:2], *NAMES[3:]), strict=True))
    definition = SeasonDef("custom", "Long summer cup", (SeasonRace("usa"),) * 12)
    season = Season(definition, cars)
    for _race in range(12):
        season = season.with_result(RaceResult(order=tuple(car.id for car in cars)))
    assert season.over
    app = ui.app
    show_stand_in_season(app, season)
    app.set_language(language)
    try:
        app.show("standings")
        ui.pump(3)
        found, _breaks = number_breaks(app.sm.current_screen)
        assert found == []
    finally:
        app.set_language("en")
