"""A shift's Heat on a flooded space says why (docs/rules.md §1.2, §6.4): a one-gear shift down
is free, the flooded space adds 1. "Maximilianus shifts from gear 2 to 1: pay 1 Heat." read
as a wrong charge (found by a table test); the sentence names the flooded space's +1 in every
language, and a shift elsewhere is worded as before. Kivy-free."""

from __future__ import annotations

from dataclasses import replace

import pytest

import tracks
from companion import i18n
from companion.engine import CarEntry, ChooseGear, RaceSetup, RaceState, apply, start_race
from companion.ui.views.words import render

FLOODED = {
    "en": ("Maximilianus shifts from gear 2 to 1: pay 1 Heat (flooded space +1).",
           "Maximilianus shifts from gear 3 to 1: pay 2 Heat (flooded space +1).",
           "Maximilianus shifts from gear 3 to 1: pay 1 Heat."),
    "zh_TW": ("Maximilianus 從 2 檔換到 1 檔：支付 1 熱度（積水格 +1）。",
              "Maximilianus 從 3 檔換到 1 檔：支付 2 熱度（積水格 +1）。",
              "Maximilianus 從 3 檔換到 1 檔：支付 1 熱度。"),
    "ko": ("Maximilianus이(가) 2단에서 1단 기어로 바꿉니다: 열 1을 냅니다 (물에 잠긴 칸 +1).",
           "Maximilianus이(가) 3단에서 1단 기어로 바꿉니다: 열 2를 냅니다 (물에 잠긴 칸 +1).",
           "Maximilianus이(가) 3단에서 1단 기어로 바꿉니다: 열 1을 냅니다."),
}


def _race(space_flooded: bool, gear: int) -> RaceState:
    japan = tracks.load_track("japan")
    red = CarEntry("red", name="Maximilianus")
    state = start_race(RaceSetup(track=japan, cars=(red,))).state
    space = min(japan.flooded) if space_flooded else next(
        s for s in range(1, japan.spaces) if s not in japan.flooded)
    return state.with_car(replace(state.car("red"), distance=space, gear=gear, engine=6))


def _shift_sentence(state: RaceState, gear: int) -> str:
    applied = apply(state, ChooseGear("red", gear))
    shifts = [o for o in applied.outcomes if o.kind == "shift"]
    assert len(shifts) == 1
    return render(shifts[0].why, applied.state)


@pytest.mark.parametrize("language", sorted(FLOODED))
def test_a_flooded_space_s_shift_surcharge_is_named(language: str) -> None:
    one_down, two_down, dry = FLOODED[language]
    i18n.set_language(language)
    try:
        assert _shift_sentence(_race(True, 2), 1) == one_down
        assert _shift_sentence(_race(True, 3), 1) == two_down
        assert _shift_sentence(_race(False, 3), 1) == dry
    finally:
        i18n.set_language("en")
