"""A short aside in ASCII parentheses is read as one thing: no line breaks inside it where it
fits a line (the Garage draft's cards read "(flip a Basic" / "card)" in English and "(기본 카드를"
/ "뒤집음)" in Korean: ``test_draft_six``; a ruling "…eliminated (Title sponsor" /
"withdraws). Take the car off" in 200 px, "…탈락했습니다 (타이틀" / "스폰서 철수)." in 160).
Every message of the catalog with such an aside, in en and ko (zh_TW writes its asides in
full-width parentheses), laid out at every width as the app's labels draw it."""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

import pytest
from test_rulings_fit import _drawn_lines

from companion import i18n
from companion.i18n import extract
from companion.ui.widgets.line_breaks import line_starts
from companion.ui.widgets.text_fit import FIT

pytestmark = pytest.mark.ui

ASIDE_WORDS = 4
"""An aside of at most this many words is kept (``line_breaks.ASIDE_WORDS``)."""

ASIDE = re.compile(rf"\([^()\s]+(?: [^()\s]+){{1,{ASIDE_WORDS - 1}}}\)")
"""An aside with a space in it (Kivy breaks a line only at a space: "(out)" never breaks)."""

NAMES = {"en": "Maximilianus", "zh_TW": "歐陽娜娜司馬長風上官婉兒",
         "ko": "남궁민수황보영희제갈공명"}
"""Twelve letters, in the language's script."""


def aside_messages(language: str) -> list[str]:
    """The catalog's messages in ``language`` with a short aside in ASCII parentheses, their
    fields filled (a twelve-letter name, two-digit numbers)."""
    catalog = i18n.translation(language)
    out = []
    for msgid in extract.messages():
        msgstr = catalog.gettext(msgid)
        if not ASIDE.search(msgstr):
            continue
        fields = [f for _lit, f, _spec, _conv in string.Formatter().parse(msgstr) if f]
        out.append(msgstr.format(**{f: NAMES[language] if f in {
            "car", "other", "driver", "name", "current"} else "12" for f in fields}))
    return out


def _broken_asides(text: str, widths: Sequence[int], size: float = 15) -> tuple[list[object],
                                                                          list[object]]:
    """Where ``text``, drawn at each of ``widths``, begins a line inside one of its short
    asides though the aside fits a line with the words it is written against; and where the
    lines counted are not the lines drawn or a line drawn is wider than the label."""
    asides = []  # each aside's start and end, and the words it is written in
    for match in ASIDE.finditer(text):
        start = text.rfind(" ", 0, match.start()) + 1  # the words the aside is written in
        end = text.find(" ", match.end())
        asides.append((match.start(), match.end(), text[start:len(text) if end < 0 else end]))
    # only the widths that keep an aside and wrap the text (the others are as before)
    kept = [width for width in widths if FIT.width(text, size) > width and any(
        FIT.width(words, size) <= width for _a, _b, words in asides)]
    broken: list[object] = []
    wrong: list[object] = []
    for width in kept:
        drawn = _drawn_lines(text, width, size)
        assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
        if len(drawn) != FIT.lines(text, size, width):
            wrong.append((width, drawn, FIT.lines(text, size, width)))
        wrong += [(width, line) for line in drawn if FIT.width(line, size) > width + 0.5]
        starts = line_starts(text, drawn)
        assert starts is not None, (text, drawn)
        broken += [(width, text[a:b], drawn) for a, b, words in asides
                   if FIT.width(words, size) <= width and any(a < at < b for at in starts)]
    return broken, wrong


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_short_aside_in_parentheses_stays_on_one_line(ui, language: str) -> None:
    """"(Title sponsor withdraws)", "(table only)", "(타이틀 스폰서 철수)", "(토너먼트 모드)":
    every message of the catalog with an aside of at most ``ASIDE_WORDS`` words in ASCII
    parentheses, at every width from 120 to 760 px (every 20) at 15 px: where the aside fits
    a line with the words it is written against, no line begins inside it; nothing is lost,
    no line is drawn wider than the label, and the lines counted are the lines drawn."""
    texts = aside_messages(language)
    assert len(texts) >= 20, texts
    broken, wrong = [], []
    for text in texts:
        found, bad = _broken_asides(text, range(120, 760, 20))
        broken += found
        wrong += bad
    assert not broken, broken[:3]
    assert not wrong, wrong[:3]


def test_zh_tw_writes_its_asides_in_full_width_parentheses() -> None:
    """zh_TW has no aside in ASCII parentheses with a space in it (its asides are in （）,
    kept on one line already: ``line_breaks.kept_terms``); its ASCII parentheses hold a
    formula or a mark ("(n+1)//2", "(-)"), no space in them, so Kivy never breaks inside.
    Those its fields bring (an English or Korean name) are looked at below."""
    assert aside_messages("zh_TW") == []
    catalog = i18n.translation("zh_TW")
    assert sum("（" in catalog.gettext(msgid) for msgid in extract.messages()) >= 20


@pytest.mark.parametrize("text", [
    # the draft's prompt with a Chinese name in its order, and a refusal
    "歐陽娜娜司馬長風上官婉兒: pick a card (order: 歐陽娜娜司馬長風上官婉兒, Ana).",
    "Undone: the cards typed for 歐陽娜娜司馬長風上官婉兒, not yet sent (Cooling System 1).",
    "남궁민수황보영희제갈공명: 카드를 고르세요 (순서: 歐陽娜娜司馬長風上官婉兒, 김연아).",
])
def test_an_aside_with_chinese_in_it_stays_on_one_line(ui, text: str) -> None:
    """An aside that holds a Chinese name (the draft's order, in English or Korean) broke at
    its spaces as any did ("…pick a card (order:" / "歐陽娜娜司馬長風上官婉兒, Ana)." in 320
    px); the app may also break a Chinese run inside to fill a line (``line_breaks.
    fill_break``). At every width from 120 to 760 px, at 15 and 18 px: no line begins inside
    the aside where it fits a line with its words; nothing lost; the lines counted are the
    lines drawn."""
    broken, wrong = _broken_asides(text, range(120, 760, 6))
    broken18, wrong18 = _broken_asides(text, range(120, 760, 6), 18)
    assert not (broken or broken18), (broken + broken18)[:3]
    assert not (wrong or wrong18), (wrong + wrong18)[:3]
