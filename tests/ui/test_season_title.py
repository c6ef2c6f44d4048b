"""New season's title ("Custom season", "Season 1961"...) whole on its line at every window
size the app's sizes follow, in every language: at 1024x600 the big font outgrew the space
between "<" and ">" and English read "Custo…eason" (found by random taps over the app)."""

from __future__ import annotations

import pytest

from companion.championship import SEASONS

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "zh_TW", "ko")


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_season_s_title_is_whole(ui, size) -> None:
    from kivy.core.window import Window

    from companion.ui.widgets.lookup import find
    from companion.ui.widgets.text_fit import FIT

    app = ui.app
    try:
        Window.size = size
        ui.pump(3)
        for language in LANGUAGES:
            app.set_language(language)
            screen = app.screen("newseason")
            for kind in (*SEASONS, "custom"):
                screen.new_form(kind)
                app.show("newseason")
                ui.pump(2)
                label = find(screen, "season kind")
                where = (size, language, kind, label.text)
                assert not label.is_shortened, where
                assert FIT.width(label.text, label.font_size) <= label.width - 4 + 0.5, where
                assert label.font_size >= app.fs, where
    finally:
        Window.size = (800, 480)
        app.set_language("en")
        ui.pump(3)
