"""A name stays whole on one line where it fits one: a Legend's ("레전드 회색이", "Legend
Grey", "傳奇灰色") and a driver's (a twelve-character Chinese name in a Korean or Chinese
sentence). A Korean Legends ruling read "…레전드 카드 6: 레전드" / "초록이 13칸 이동하면…"
(found by a table test): the number kept with the words beside it took the colour down to the
next line and left "레전드" alone at a line's end."""

from __future__ import annotations

import re

import pytest
from test_rulings_fit import _starts_by_width

from companion import i18n
from companion.i18n.counts import fill
from companion.ui.views.names import CAR_COLOURS, legend_name
from companion.ui.widgets.text_fit import FIT

pytestmark = pytest.mark.ui

PARAMS = {"card": 6, "number": 13, "corner": 3, "limit": 4, "diamond": 2, "move": 12,
          "second": 4}
"""A Legends card's values (two-digit numbers where they can be)."""


def legends_rulings(language: str) -> list[tuple[str, str]]:
    """Every Legends card's ruling in ``language``, for every Legend: (the text, the name)."""
    from test_rulings_fit import engine_templates

    out = []
    i18n.set_language(language)
    try:
        for msgid in engine_templates():
            if not msgid.startswith("Legends card {card}: {car}"):
                continue
            for colour in CAR_COLOURS:
                name = legend_name(colour)
                out.append((fill(i18n._(msgid), car=name, **PARAMS), name))
    finally:
        i18n.set_language("en")
    return out


def _broken_names(text: str, names: list[str], widths: range) -> tuple[list, list]:
    """Where ``text`` drawn at each of ``widths`` breaks a line inside one of ``names`` that
    fits the width (with the word it is written in up to a space); and the widths whose
    lines counted are not the lines drawn."""
    laid, wrong = _starts_by_width(text, widths)
    broken = []
    for name in names:
        for found in re.finditer(re.escape(name), text):
            start, end = found.span()
            word_end = text.find(" ", end)
            whole = text[start:word_end if word_end >= 0 else len(text)]
            broken += [(width, name, drawn) for width, drawn, starts in laid
                       if FIT.width(whole, 15) <= width
                       and any(start < at < end for at in starts)]
    return broken, wrong


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_legend_s_name_stays_on_one_line(ui, language: str) -> None:
    """Every Legends card's ruling, for each of the six Legends, at every width from 120 to
    440 px: no line breaks inside the Legend's name ("레전드" / "초록이 13칸…"); the lines
    counted are the lines drawn."""
    broken, wrong = [], []
    for text, name in legends_rulings(language):
        found, off = _broken_names(text, [name], range(120, 440, 12))
        broken += found
        wrong += off
    assert not broken, broken[:3]
    assert not wrong, wrong[:3]


SIX_NAMES = ("Maximilianus", "Bartholomews", "歐陽娜娜司馬長風上官婉兒", "Konstantinos",
             "남궁민수황보영희제갈공명", "Christophers")
"""Six drivers of twelve letters."""


def undo_lists(language: str) -> list[str]:
    """What Undo and Redo say of a reveal's cards, for each of six twelve-letter names and a
    few hands that end with a number ("…카드 1, 스트레스, 스트레스, 1.")."""
    from companion.engine import Reveal
    from companion.ui.views.inputs import cards_text

    hands = [(1, 0, 0, 1), (1, 1, 0, 4), (2, 0, 3), (4, 4, 4, 1), (0, 0, 0, 0, 2)]
    out = []
    i18n.set_language(language)
    try:
        stress = i18n._("Stress")
        for name in SIX_NAMES:
            for hand in hands:
                cards = cards_text(Reveal("red", tuple(v for v in hand if v)))
                cards = i18n.listed([*(stress for v in hand if not v), cards])
                what = i18n._("{car}'s cards {cards}").format(car=name, cards=cards)
                out += [i18n._("Undone: {what}.").format(what=what),
                        i18n._("Redone: {what}.").format(what=what),
                        fill(i18n._("Undone: the cards typed for {car}, not yet sent "
                                    "({cards})."), car=name, cards=cards)]
    finally:
        i18n.set_language("en")
    return out


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_list_s_last_number_is_never_alone_on_a_line(ui, language: str) -> None:
    """A Korean Undo read "되돌림: Maximilianus의 카드 1, 스트레스, 스트레스," / "1." (found by a
    table test): the list's last number alone on the last line, read as a list's "1." with
    nothing after it. At every width from 160 to 440 px, no line of what Undo and Redo say
    is a lone number; the lines counted are the lines drawn."""
    alone, wrong = [], []
    for text in undo_lists(language):
        laid, off = _starts_by_width(text, range(160, 440, 14))
        wrong += off
        alone += [(width, drawn) for width, drawn, _starts in laid
                  if any(re.fullmatch(r"[\d.,、。)）]+", line.strip()) for line in drawn)]
    assert not alone, alone[:3]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_list_s_number_stays_with_its_item(ui, language: str) -> None:
    """A numbered list ("Draft order: 1. Maximilianus, 2. Bartholomews, …") never ends a line
    with an item's number: "1." stays with the first word of its item where the two fit a
    line, at every width from 160 to 440 px."""
    text = i18n.translation(language).gettext("Draft order: {order}. {car} picked first and "
                                              "may then swap one earlier Upgrade.")
    text = text.format(order=", ".join(f"{n}. {name}" for n, name in
                                       enumerate(SIX_NAMES, start=1)), car=SIX_NAMES[0])
    laid, wrong = _starts_by_width(text, range(160, 440, 14))
    torn = [(width, drawn) for width, drawn, _starts in laid
            for line, after in zip(drawn, drawn[1:], strict=False)
            if (number := re.search(r"(?:^|[,:] )(\d\.)$", line.rstrip())) is not None
            and FIT.width(f"{number.group(1)} {after.split()[0]}", 15) <= width]
    assert not torn, torn[:3]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("language", ["zh_TW", "ko"])
def test_a_driver_s_chinese_name_stays_on_one_line(ui, language: str) -> None:
    """A Korean Undo of cards typed read "되돌림: 아직 보내지 않은 歐陽娜娜司馬長風上官婉" / "兒의
    카드 입력 (스트레스=2)." at 800x480 (found by a table test): a Chinese line is filled where
    that saves a line, and the fill broke a driver's name. Once a race of six twelve-letter
    names is open, no line breaks inside a driver's name that fits it (with its particle), in
    what Undo says and in the keypad's prompt, at every width from 160 to 440 px; the lines
    counted are the lines drawn."""
    from companion.ui.demo.table_shots import start

    start(ui.app, SIX_NAMES, 0)
    ui.pump(2)
    catalog = i18n.translation(language)
    texts = [fill(catalog.gettext(msgid), car=name, cards=cards, gear=gear)
             for name in SIX_NAMES
             for msgid, cards, gear in (
                 ("Undone: the cards typed for {car}, not yet sent ({cards}).", "4, 2", 2),
                 ("{car} is in gear {gear}: enter the {gear} card(s) revealed.", "", 3))]
    broken, wrong = [], []
    for text in texts:
        found, off = _broken_names(text, list(SIX_NAMES), range(160, 440, 14))
        broken += found
        wrong += off
    assert not broken, broken[:3]
    assert not wrong, wrong[:3]
