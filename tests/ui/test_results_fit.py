"""Results of a standalone race of six cars (four drivers, one a twelve-letter Chinese name,
and two Legends): the finishing order's six two-line entries fit their list with nothing else
added (the folder hidden, no Sponsorship cards), at every window size the app's sizes follow
(``companion.ui.app.settings._resize``). At 1280x720 they overflowed it by about 10 px: the
sixth entry's "Finished in round 38" was cut and the scroll bar showed."""

from __future__ import annotations

import pytest
from race_forms import race_form
from test_results_words import play_out

import tracks

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720), (1920, 1080)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_six_entries_fit_the_finishing_list_at_every_window_size(ui, size) -> None:
    from kivy.core.window import Window

    app = ui.app
    names = ("歐陽娜娜司馬長風上官婉兒", "Maximilianus", "Bartholomews", "Konstantinos")
    form = race_form(names, legends=2, seed=5, first_race=True)
    app.open_session(play_out(app.log().new_race(form.setup(tracks.load_track("usa")))))
    screen = app.sm.current_screen
    assert app.sm.current == "results" and len(app.session.state.cars) == 6
    try:
        Window.size = size
        ui.pump(4)
        screen.export_chart()  # what was saved, in words, a row over the buttons
        ui.pump(3)
        saved = screen.ids.saved_line
        assert not saved.shown and saved.height == pytest.approx(app.tap)  # as when the app
        listing = screen.ids.standings  # starts at this size: its row follows the window
        view = listing.parent
        assert len(listing.children) == 6
        assert listing.height <= view.height, (listing.height, view.height)
        assert listing.padding[2] == 0  # no bar's gutter: nothing to scroll
    finally:
        Window.size = (800, 480)
        ui.pump(3)
