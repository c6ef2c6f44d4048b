"""Two refusals say their count of cards in words (docs/rules.md §1.2 step 2, §1.5): a car in
1st gear that shows two cards read "Gear 1 plays exactly 1 cards, not 2.", and a clog asked
for with one Heat card out of the engine "only 1 Heat cards are out of the engine". Each reads
as a table says it for a count of 1 and of 2, in every language. Kivy-free."""

from __future__ import annotations

from dataclasses import replace

import pytest

import tracks
from companion import i18n
from companion.engine import (
    CarEntry,
    ChooseGear,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    apply,
    start_race,
    validate,
)
from companion.ui.views.words import render

SAID = {
    "en": ("Gear 1 plays exactly 1 card, not 2.",
           "Gear 2 plays exactly 2 cards, not 3.",
           "Cannot be clogged: with only 1 Heat card out of the engine, the hand still holds "
           "a card to play in gear 1.",
           "Cannot be clogged: with only 2 Heat cards out of the engine, the hand still holds "
           "a card to play in gear 1."),
    "zh_TW": ("1 檔必須打出剛好 1 張牌，不是 2 張。",
              "2 檔必須打出剛好 2 張牌，不是 3 張。",
              "手牌不可能卡滿：只有 1 張熱度卡不在引擎中，手上仍有可以在 1 檔打出的牌。",
              "手牌不可能卡滿：只有 2 張熱度卡不在引擎中，手上仍有可以在 1 檔打出的牌。"),
    "ko": ("1단 기어는 2장이 아니라 정확히 1장을 냅니다.",
           "2단 기어는 3장이 아니라 정확히 2장을 냅니다.",
           "손패가 막힐 수 없습니다: 엔진 밖의 열 카드는 1장뿐이라 1단 기어로 낼 카드가 아직 "
           "있습니다.",
           "손패가 막힐 수 없습니다: 엔진 밖의 열 카드는 2장뿐이라 1단 기어로 낼 카드가 아직 "
           "있습니다."),
}


def _race() -> RaceState:
    track = tracks.load_track("usa")
    return start_race(RaceSetup(track=track, cars=(CarEntry("red", name="Ana"),))).state


def _refused(state: RaceState, action: ChooseGear | Reveal) -> Rejection:
    problem = validate(state, action)
    assert problem is not None
    return problem


def _wrong_count(gear: int) -> str:
    state = apply(_race(), ChooseGear("red", gear)).state
    return render(_refused(state, Reveal("red", (1,) * (gear + 1))).reason, state)


def _not_clogged(outside: int) -> str:
    state = _race()
    red = state.car("red")
    state = state.with_car(replace(red, gear=1, engine=red.heat - outside))
    return render(_refused(state, ChooseGear("red", 1, clogged=True)).reason, state)


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_refusal_says_one_card_and_two_cards(language: str) -> None:
    gear_one, gear_two, clog_one, clog_two = SAID[language]
    i18n.set_language(language)
    try:
        assert _wrong_count(1) == gear_one
        assert _wrong_count(2) == gear_two
        assert _not_clogged(1) == clog_one
        assert _not_clogged(2) == clog_two
    finally:
        i18n.set_language("en")
