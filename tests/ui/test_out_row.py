"""A car out of the race (Title sponsor withdraws) in the race order: its row as tall as every
other row, its name alone in the name column and the mark in the Space column."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "歐陽娜娜司馬長風上官婉兒", "Konstantinos", "남궁민수황보영희제갈공명",
         "Bartholomews", "Christophers")
"""Six names of twelve letters."""


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_car_out_has_a_row_as_tall_as_the_others(ui, language: str) -> None:
    """Found by a table test: "Out: Konstantinos" took two lines (a taller row than the
    others') at 800x480 with six twelve-letter names. Each car out in turn (the Sponsorship
    column shown, as in a race with modules): every row is as tall as the others, the out
    car's name reads as its name alone, and its Space cell says it is out."""
    from companion.i18n import _

    app = ui.app
    app.set_language(language)
    try:
        start(app, NAMES, 0)
        ui.pump(3)
        screen = app.sm.current_screen
        table = screen.ids.order
        order = app.controller.view().order
        table.show(order, True)
        ui.pump(3)
        racing = {row.car: find(screen, f"order {row.car}").height for row in order}
        for out in order:
            rows = [replace(row, eliminated=row.car == out.car) for row in order]
            table.show(rows, True)
            ui.pump(3)
            heights = {row.car: find(screen, f"order {row.car}").height for row in rows}
            assert heights == racing, (out.label, heights)
            assert find(screen, f"order name {out.car}").text == out.label
            assert find(screen, f"space {out.car}").text == _("DNF")
        # not the outside spot's word ("8 out" beside "Out" read alike: a table test)
        assert _("DNF").casefold() != _("out").casefold()
    finally:
        app.set_language("en")
