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

