"""The Garage draft with six drivers of twelve-letter names (Latin, Chinese, Korean) at
800x480, in en, zh_TW and ko: the cards and the hands keep clear of their scroll bars (the
gutter of 7c1d9fd), every name is on one line, nothing is cut, no line of a card begins with
the dot between its symbols, and the two cards of a row stand alike (as tall as each other)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from race_forms import seated

from companion.engine.garage import DESIGNS
from companion.ui.views.words import design_card
from companion.ui.widgets import text_cache
from companion.ui.widgets.lookup import find_all

pytestmark = pytest.mark.ui

LATIN = ("Maximilianus", "Bartholomeus", "Konstantinos", "Wilhelminaaa", "Evangelinaaa",
         "Christopher")
CJK = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "司馬長風上官婉兒歐陽娜娜",
       "황보영희제갈공명남궁민수", "上官婉兒歐陽娜娜司馬長風", "제갈공명남궁민수황보영희")
"""Twelve characters each."""


def _open_draft(app, pump, names: tuple[str, ...]) -> None:

    app.show("newrace")
    pump(2)
    screen = app.sm.current_screen
    assert len(names) == 6
    screen.form.drivers = seated(names)
    screen.form.set_legends(0)
    screen.form.modules.garage = "draft"
    screen._draft()
    pump(3)
    assert app.sm.current == "draft"


def _lines(label) -> list[str]:
    label.texture_update()
    return ["".join(word.text for word in line.words).replace("\u00a0", " ")
            for line in text_cache.renderer(label)._cached_lines]


def _right(widget) -> float:
    return widget.to_window(widget.right, widget.y)[0]


def _labels(hand) -> list:
    """A hand's labels, top to bottom (the driver's name, the cards)."""
    return [hand] if hasattr(hand, "texture_size") else [
        w for w in reversed(hand.children) if hasattr(w, "texture_size")]


def _hand_lines(hand) -> list[str]:
    """The lines a hand draws, top to bottom: the driver's name, then the cards' lines."""
    return [line for label in _labels(hand) for line in _lines(label)]


def _cut(hand) -> bool:
    """Some text of a hand drawn beyond its label or beyond the hand."""
    labels = _labels(hand)
    return sum(label.height for label in labels) > hand.height + 0.5 or any(
        label.texture_size[0] > label.width or label.texture_size[1] > label.height
        for label in labels)


@pytest.mark.parametrize("names", [LATIN, CJK], ids=["latin", "cjk"])
def test_six_long_names_in_the_draft(ui, names) -> None:
    app = ui.app
    _open_draft(app, ui.pump, names)
    screen = app.sm.current_screen
    flow = app.draft_flow
    # Two rounds picked, each driver holding two of the cards with the most words (the hands'
    # column is the narrower); round 3 offers every card there is (every card's words).
    wordy = sorted(DESIGNS, key=lambda d: -len(design_card(d)))[:12]
    drivers = flow.draft.drivers
    picks = tuple((drivers[n % 6], design) for n, design in enumerate(wordy))
    flow.draft = replace(flow.draft, market=tuple(DESIGNS), round=3, picks=picks)
    problems: list[object] = []
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            screen.refresh()
            ui.pump(3)
            for view in (screen.ids.cards_view, screen.ids.hands_view):
                gutter = _right(view) - view.bar_width
                for widget in view.children[0].children:
                    if _right(widget) > gutter + 0.5:
                        problems.append((language, "under the bar", widget))
            cards = find_all(screen, "card ")
            for left, right in zip(cards[::2], cards[1::2], strict=False):  # one grid row
                if (left.y, left.height) != (right.y, right.height):
                    problems.append((language, "a row's cards unlike", left.text, right.text))
            for card in cards:
                lines = _lines(card)
                if card.texture_size[1] > card.height or card.texture_size[0] > card.width:
                    problems.append((language, "cut", card.text))
                problems += [(language, "dot begins a line", lines) for line in lines[1:]
                             if line.lstrip().startswith("·")]
            hands = find_all(screen, "hand ")
            assert len(hands) == 6
            for hand in hands:
                lines = _hand_lines(hand)
                if lines[0].strip() not in names:  # a name on one line, whole
                    problems.append((language, "name broken", lines[:2]))
                if _cut(hand):
                    problems.append((language, "hand cut", lines))
                problems += [(language, "dot begins a line", lines) for line in lines[1:]
                             if line.lstrip().startswith("·")]
    finally:
        app.set_language("en")
    assert not problems, problems[:4]


@pytest.mark.parametrize("names", [LATIN, CJK], ids=["latin", "cjk"])
def test_the_hands_take_the_row_when_the_draft_is_done(ui, names) -> None:
    """The draft done (six drivers of twelve-letter names, three cards each, 800x480): the
    hands stayed in the right third of the screen, a column that scrolled (1,177 px of it in a
    view of 303) beside two thirds left empty where the cards had been. With nothing left to
    pick, the hands take the row, side by side (three to a row), each name whole on its line
    and no hand cut, in en, zh_TW and ko."""
    from companion.ui.widgets.basic import MoreBelow

    app = ui.app
    _open_draft(app, ui.pump, names)
    screen = app.sm.current_screen
    flow = app.draft_flow
    while flow.mode != "done":
        if flow.mode == "swap":
            screen.skip()
        else:
            screen.tap(flow.view().market[0].index)
    problems: list[object] = []
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            screen.refresh()
            ui.pump(3)
            view = screen.ids.hands_view
            row = view.parent
            cards = screen.ids.cards_view
            assert view.width >= row.width - 1, (language, view.width, row.width)
            assert cards.width == 0 or cards.opacity == 0, language
            hands = find_all(screen, "hand ")
            assert len(hands) == 6
            assert len({round(hand.to_window(hand.x, hand.y)[0]) for hand in hands}) >= 3
            shown = [w for w in screen.walk() if isinstance(w, MoreBelow) and w.opacity > 0
                     and w.width > 0]
            assert shown == [view], language
            for hand in hands:
                lines = _hand_lines(hand)
                if lines[0].strip() not in names:  # a name on one line, whole
                    problems.append((language, "name broken", lines[:2]))
                name = hand.children[-1]  # in the accent colour: "Ben" over "Body 3" in the
                if list(name.color) != list(app.c_accent):  # text's read as one more card
                    problems.append((language, "name not set apart", name.text))
                if _cut(hand):
                    problems.append((language, "hand cut", lines))
                if _right(hand) > _right(view) - view.bar_width + 0.5:
                    problems.append((language, "under the bar", lines[0]))
    finally:
        app.set_language("en")
    assert not problems, problems[:4]


@pytest.mark.parametrize("names", [LATIN, CJK], ids=["latin", "cjk"])
def test_a_hand_keeps_its_numbers_with_their_words(ui, names) -> None:
    """The hands' column broke a number from its word ("速度 0 · 1" / "個「+」（翻基本卡）",
    "Cooldown" / "1"): the hand was one label in markup (the name in bold), and the app's
    line-breaking rules (``line_breaks.kept_numbers``, ``kept_terms``) are not applied to
    markup, so it broke only where Kivy breaks. During the draft (the narrow column) and when
    it is done (side by side), in en, zh_TW and ko, every card of the game held by six
    drivers of twelve-letter names: no line of a hand ends with a number and none begins
    with one (but after closing punctuation), where the number and its word fit a line;
    nothing of the card lost (when it is done, the card's words or, where they do not fit
    the screen, its name: hands_fit)."""
    app = ui.app
    _open_draft(app, ui.pump, names)
    screen = app.sm.current_screen
    flow = app.draft_flow
    drivers = flow.draft.drivers
    designs = tuple(DESIGNS) * 2
    layouts = [("pick", 12, replace(flow.draft, market=designs[:6], round=3)),
               ("done", 18, replace(flow.draft, market=(), round=3))]
    torn: list[object] = []
    try:
        for mode, held, draft in layouts:
            for first in range(0, len(DESIGNS), held):  # every card, in some driver's hand
                picks = tuple((drivers[n % 6], design)
                              for n, design in enumerate(designs[first:first + held]))
                flow.draft = replace(draft, picks=picks)
                assert flow.mode == mode, (mode, flow.mode)
                for language in ("en", "zh_TW", "ko"):
                    app.set_language(language)
                    screen.refresh()
                    ui.pump(2)
                    torn += _torn_hands(screen, flow, app.fs_small, (mode, language))
    finally:
        app.set_language("en")
    assert not torn, torn[:4]


def _torn_hands(screen, flow, size: float, where: tuple[str, str]) -> list[object]:
    """Where a hand on ``screen`` breaks a number from the word beside it though the two fit
    a line (no line ends with a number, none begins with one, but after closing
    punctuation); asserted: six hands, each a name and its cards' words, nothing lost."""
    from companion.ui.views.words import design_name
    from companion.ui.widgets.line_breaks import NO_LINE_START, line_starts
    from companion.ui.widgets.text_fit import FIT

    torn: list[object] = []
    hands = find_all(screen, "hand ")
    assert len(hands) == 6, where
    for hand in hands:
        car = hand.test_name.removeprefix("hand ")
        lines = _hand_lines(hand)
        cards = ("\n".join(design_card(d) for d in flow.cards()[car]) or "-").replace(
            "\u00a0", " ")
        if where[0] == "done" and "".join(lines[1:]).replace(" ", "") != cards.replace(
                " ", "").replace("\n", ""):  # each card by its name: the words do not fit
            cards = "\n".join(design_name(d) for d in flow.cards()[car])
        assert "".join(lines[1:]).replace(" ", "") == cards.replace(" ", "").replace(
            "\n", ""), (where, lines)
        starts = line_starts(cards, lines[1:])
        assert starts is not None, (where, lines)
        for before, line, at in zip(lines[1:], lines[2:], starts[1:], strict=False):
            end, start = before.rstrip().split(" ")[-1], line.lstrip().split(" ")[0]
            if (not end or not start or end[-1:] in NO_LINE_START
                    or cards[:at].rstrip(" ")[-1:] == "\n"):  # the next card begins
                continue
            numbered = (end[-1:].isdigit() or start[:1].isdigit()
                        or (start[:1] in "+-" and start[1:2].isdigit()))
            if numbered and FIT.width(f"{end} {start}", size) <= hand.width:
                torn.append((*where, before, line))
    return torn


PLUS = tuple(design_id for design_id, design in DESIGNS.items() if design.plus)
"""The cards with "+" symbols: their figures say "(flip a Basic card)"."""
ASIDES = {"en": "(flip a Basic card)", "zh_TW": "（翻基本卡）", "ko": "(기본 카드를 뒤집음)"}


@pytest.mark.parametrize("names", [LATIN, CJK], ids=["latin", "cjk"])
def test_a_card_s_aside_stays_on_one_line(ui, names) -> None:
    """The Garage draft at 800x480 broke a card's aside inside, on the cards to pick and in
    the hands: "Speed 0 · 1 "+" (flip a Basic" / "card)", "속도 0 · "+" 1개 (기본 카드를" /
    "뒤집음)" (Kivy breaks at any space; zh_TW's "（翻基本卡）" was kept already). Every card
    with "+" symbols offered and held by six drivers of twelve-letter names, in en, zh_TW
    and ko: each aside whole on one line; no card nor hand cut, nothing of a card lost."""
    app = ui.app
    _open_draft(app, ui.pump, names)
    screen = app.sm.current_screen
    flow = app.draft_flow
    drivers = flow.draft.drivers
    picks = tuple((drivers[n % 6], design) for n, design in enumerate((PLUS * 2)[:12]))
    flow.draft = replace(flow.draft, market=PLUS, round=3, picks=picks)
    assert flow.mode == "pick"
    problems: list[object] = []
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            screen.refresh()
            ui.pump(3)
            aside = ASIDES[language]
            cards = find_all(screen, "card ")
            hands = find_all(screen, "hand ")
            assert len(cards) == len(PLUS) and len(hands) == 6, language
            labels = [*cards, *(label for hand in hands for label in _labels(hand)[1:])]
            said = 0
            for label in labels:
                lines = _lines(label)
                text = label.text.replace("\u00a0", " ")
                assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace(
                    "\n", ""), (language, lines)  # nothing lost
                said += text.count(aside)
                if sum(line.count(aside) for line in lines) != text.count(aside):
                    problems.append((language, "aside broken", lines))
                if label.texture_size[0] > label.width or label.texture_size[1] > label.height:
                    problems.append((language, "cut", lines))
            problems += [(language, "hand cut", hand.test_name) for hand in hands if _cut(hand)]
            assert said >= len(PLUS) + 12, (language, said)
    finally:
        app.set_language("en")
    assert not problems, problems[:4]


def _finish_with(flow, designs: tuple[str, ...]) -> None:
    """The draft over, ``designs`` dealt in turn to the six drivers (three each): the hands
    the finished draft shows."""
    drivers = flow.draft.drivers
    picks = tuple((drivers[n % 6], design) for n, design in enumerate(designs))
    flow.draft = replace(flow.draft, market=(), round=3, picks=picks)
    assert flow.mode == "done"


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("names", [LATIN, CJK], ids=["latin", "cjk"])
def test_a_finished_draft_shows_every_hand_without_scrolling(ui, names, size) -> None:
    """A finished draft of six drivers of twelve-letter names (three cards each) still
    scrolled its hands at 800x480: two rows of three, the second row partly below the
    bottom edge (the hands 431-481 px in a view of 303), so a table never saw every hand at
    once. Now every hand is whole in the view, none below it, the view not scrolling, the
    text never under the readable floor, each name whole on its line, in en, zh_TW and ko,
    at 800x480, 1024x600 and 1280x720; with the game's first eighteen cards the cards' words
    show in full at 800x480, and with the wordiest eighteen each card by its name (their
    words do not fit at any size a table reads)."""
    from kivy.core.window import Window

    from companion.ui.views.words import design_name
    from companion.ui.widgets.measure import READABLE_PX

    app = ui.app
    _open_draft(app, ui.pump, names)
    screen = app.sm.current_screen
    flow = app.draft_flow
    deals = {"first": tuple(DESIGNS)[:18],
             "wordy": tuple(sorted(DESIGNS, key=lambda d: -len(design_card(d)))[:18])}
    problems: list[object] = []
    try:
        Window.size = size
        ui.pump(3)
        for deal, designs in deals.items():
            _finish_with(flow, designs)
            for language in ("en", "zh_TW", "ko"):
                app.set_language(language)
                screen.refresh()
                ui.pump(3)
                where = (deal, language)
                view = screen.ids.hands_view
                inner = view.children[0]
                if inner.height > view.height + 0.5:
                    problems.append((*where, "scrolls", round(inner.height), round(view.height)))
                bottom = view.to_window(view.x, view.y)[1]
                hands = find_all(screen, "hand ")
                assert len(hands) == 6, where
                for hand in hands:
                    car = hand.test_name.removeprefix("hand ")
                    lines = _hand_lines(hand)
                    if hand.to_window(hand.x, hand.y)[1] < bottom - 0.5:
                        problems.append((*where, "below the view", lines[0]))
                    if lines[0].strip() not in names:
                        problems.append((*where, "name broken", lines[:2]))
                    if _cut(hand):
                        problems.append((*where, "hand cut", lines))
                    small = min(label.font_size for label in _labels(hand))
                    if small < READABLE_PX:
                        problems.append((*where, "under the floor", small))
                    shown = _labels(hand)[1].text.replace("\u00a0", " ")
                    full = "\n".join(design_card(d) for d in flow.cards()[car])
                    by_name = "\n".join(design_name(d) for d in flow.cards()[car])
                    if shown not in (full.replace("\u00a0", " "), by_name):
                        problems.append((*where, "not the hand's cards", shown))
                    if deal == "first" and size == (800, 480) and shown != full.replace(
                            "\u00a0", " "):
                        problems.append((*where, "words left out", shown))
    finally:
        Window.size = (800, 480)
        app.set_language("en")
        ui.pump(3)
    assert not problems, problems[:4]


TABLE_DEAL = (("cooling-3", "heat", "body-3"), ("brakes-15", "4wd-0-cool3", "4wd-0-cool3"),
              ("brakes-15", "brakes-1234", "cooling-1"), ("body-1", "heat", "rpm-1"),
              ("body-1", "rpm-1", "brakes-24"), ("4wd-4", "rpm-2", "cooling-3"))
"""A table test's finished draft, the hands in the order shown (one with 4WD 0 twice)."""
KOREAN = ("이순신장군님의바다이야기", "황보세종대왕님만세만만세", "남궁민수선생님의둘째아들",
          "박지성선수의축구이야기들", "제갈공명선생의후손이라네", "김연아선수의피겨스케이팅")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_finished_draft_keeps_the_words_of_every_hand_that_fits(ui, language) -> None:
    """The table test's deal, six twelve-letter Korean names, at 800x480: the draft fell back
    to every card by its name, at 15 px, the hands 173 px tall in a view of 324 (its bottom
    half empty, what no card does shown) because one hand (4WD 0 twice) is too wordy. Now
    only the hands whose words do not fit are shown by name; the others show their cards'
    words, the view used and never scrolling, the text never under the readable floor."""
    from companion.ui.views.words import design_name
    from companion.ui.widgets.measure import READABLE_PX

    app = ui.app
    _open_draft(app, ui.pump, KOREAN)
    screen = app.sm.current_screen
    flow = app.draft_flow
    order = replace(flow.draft, market=(), round=3, picks=()).order
    picks = tuple((car, design) for car, hand in zip(order, TABLE_DEAL, strict=True)
                  for design in hand)
    flow.draft = replace(flow.draft, market=(), round=3, picks=picks)
    assert flow.mode == "done"
    try:
        app.set_language(language)
        screen.refresh()
        ui.pump(3)
        view = screen.ids.hands_view
        assert view.children[0].height <= view.height + 0.5  # no scrolling
        bottom = view.to_window(view.x, view.y)[1]
        in_words: list[str] = []
        for hand in find_all(screen, "hand "):
            car = hand.test_name.removeprefix("hand ")
            assert hand.to_window(hand.x, hand.y)[1] >= bottom - 0.5, car  # in the view
            assert not _cut(hand), _hand_lines(hand)
            assert min(label.font_size for label in _labels(hand)) >= READABLE_PX
            shown = _labels(hand)[1].text.replace("\u00a0", " ")
            cards = flow.cards()[car]
            if shown == "\n".join(design_card(d) for d in cards).replace("\u00a0", " "):
                in_words.append(car)
            else:
                assert shown == "\n".join(design_name(d) for d in cards), shown
        assert len(in_words) >= 4, (language, in_words)  # at most two hands by name
    finally:
        app.set_language("en")
