"""What Undo and Redo say lists a reveal's cards as the player's language lists (a table test
saw "的牌 4, 4, 4。" in Traditional Chinese: an English comma between the values)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.engine import Reveal
from companion.ui.views.inputs import cards_text


@pytest.mark.parametrize(("language", "said"), [
    ("en", "4, 4, 4"), ("zh_TW", "4、 4、 4"), ("ko", "4, 4, 4")])
def test_a_reveal_s_cards_are_listed_in_the_language(language: str, said: str) -> None:
    i18n.set_language(language)
    try:
        assert cards_text(Reveal("red", (4, 4, 4))) == said
    finally:
        i18n.set_language("en")
