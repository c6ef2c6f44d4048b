"""New season's "Season name" field speaks the player's language after a language change:
the field was made once, the first time a custom season was shown, and kept its English hint
in Traditional Chinese and Korean (found by looking at New season in zh_TW)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("language", ["zh_TW", "ko"])
def test_the_season_name_hint_follows_the_language(ui, language: str) -> None:
    from companion import i18n
    from companion.ui.widgets.lookup import find

    app = ui.app
    screen = app.screen("newseason")
    try:
        for shown in ("en", language):
            app.set_language(shown)
            screen.new_form("custom")
            app.show("newseason")
            ui.pump(3)
            hint = find(screen, "season name").hint_text
            expected = i18n.translation(shown).gettext("Season name")
            assert hint == expected, (shown, hint)
        assert expected != "Season name"
    finally:
        app.set_language("en")
