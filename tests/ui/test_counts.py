"""Counted words: a message says "1 card" and "2 cards", never "2 card(s)".

Messages keep ``(s)`` in their msgid (``companion/i18n/counts.py``); these tests check that
every such message in the catalogs can be resolved, that no translation carries a ``(s)`` of
its own, and that the app's two ways of filling a message in (the engine's explanations through
``render`` and the screens' own words through ``fill``) both resolve it. Kivy-free.
"""

from __future__ import annotations

import doctest
import re

import pytest

from companion import i18n
from companion.engine.explain import explain
from companion.i18n import counts
from companion.i18n.extract import messages, po_path
from companion.i18n.pofile import read_po
from companion.ui.views.words import render

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_module_examples() -> None:
    assert doctest.testmod(counts).failed == 0


@pytest.mark.parametrize(("cards", "expected"), [
    (0, "Ana won 0 Sponsorship cards"),
    (1, "Ana won 1 Sponsorship card"),
    (2, "Ana won 2 Sponsorship cards"),
])
def test_the_count_chooses_the_word(cards: int, expected: str) -> None:
    assert counts.fill("{car} won {cards} Sponsorship card(s)", car="Ana", cards=cards) \
        == expected


def test_a_word_takes_the_nearest_count_before_it_not_a_name_or_a_later_number() -> None:
    template = "{car} has only {copies} {design} card(s), not {wanted}."
    assert counts.fill(template, car="7", copies=1, design="Turbo", wanted=3) \
        == "7 has only 1 Turbo card, not 3."
    # two counted words, each by its own count
    assert counts.fill("{a} lap(s) and {b} race(s)", a=1, b=2) == "1 lap and 2 races"
    assert counts.fill("{a} lap(s) and {b} race(s)", a=2, b=1) == "2 laps and 1 race"


def test_a_word_with_no_count_before_it_is_left_as_written() -> None:
    assert counts.counted("card(s) of {car}", {"car": "Ana"}) == "card(s) of {car}"


@pytest.mark.parametrize("params", [
    {"count": 0}, {"count": 1}, {"count": 2}, {"count": "1"}, {"count": True}, {},
    {"car": "7", "count": 1, "wanted": 3},
])
def test_the_engine_and_the_app_count_alike(params: dict[str, object]) -> None:
    """The engine's copy (its English sentences, the replay command's) and the app's (its
    screens' words, which may not load the engine with the first screen) resolve every
    counted message of the catalog, and these odd counts, the same way."""
    from companion.engine.explain import counted as engine_counted

    for message in [*_counted_messages(), "{car} has {count} card(s), not {wanted}."]:
        assert counts.counted(message, params) == engine_counted(message, params), message


def _counted_messages() -> list[str]:
    return [m for m in messages() if counts.PLURAL_MARK in m]


def test_every_counted_message_has_a_count_before_each_word() -> None:
    found = _counted_messages()
    assert len(found) >= 20  # the engine's and the screens' (24 when written)
    for message in found:
        ones = {name: 1 for name in PLACEHOLDER.findall(message)}
        assert counts.PLURAL_MARK not in counts.counted(message, ones), message
        twos = {name: 2 for name in PLACEHOLDER.findall(message)}
        assert counts.PLURAL_MARK not in counts.counted(message, twos), message


@pytest.mark.parametrize("language", ["zh_TW", "ko"])
def test_no_translation_carries_a_counted_word(language: str) -> None:
    catalog = read_po(po_path(language).read_text(encoding="utf-8"))
    for message in _counted_messages():
        translated = catalog.messages[message]
        assert translated, message
        assert counts.PLURAL_MARK not in translated, (language, message)
        assert set(PLACEHOLDER.findall(translated)) == set(PLACEHOLDER.findall(message)), \
            (language, message)


def test_an_engine_ruling_says_its_count_in_words() -> None:
    one = explain("{car} passes a Press Corner at Speed {speed}: {cards} Sponsorship card(s).",
                  car="red", speed=12, cards=1)
    assert render(one) == "Red passes a Press Corner at Speed 12: 1 Sponsorship card."
    slip = explain("{car} drafts {spaces} space(s) to right behind the next car, Speed "
                   "unchanged.", car="red", spaces=1)
    assert render(slip) == "Red drafts 1 space to right behind the next car, Speed unchanged."
    owed = explain("{car} owes {heat} Heat for {cards} upgrade card(s), paid after Cooldown.",
                   car="red", heat=2, cards=1)
    assert render(owed) == "Red owes 2 Heat for 1 upgrade card, paid after Cooldown."
    short = explain("Legends card {card}: {car}'s {number} would pass corner {corner}, so it "
                    "stops {diamond} space(s) short of it (diamond {diamond}).",
                    card=7, car="green", number=13, corner=2, diamond=1)
    assert render(short).endswith("so it stops 1 space short of it (diamond 1).")
    i18n.set_language("ko")
    try:
        text = render(one)
        assert "(s)" not in text and "1" in text and "12" in text
    finally:
        i18n.set_language("en")
