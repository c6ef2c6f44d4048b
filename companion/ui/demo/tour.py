"""The demo's pictures of the modules, the Garage draft and the Championship standings
(``heat-companion demo --headless``): a New race with an event, Weather and Road Conditions,
the draft, then race 1 of a 1961 season played to its standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def more_shots(app: Any, player: Any, shot: Callable[[str], None]) -> None:
    app.show("start")
    player.set_up_race()
    player.press("more options")
    for _ in range(3):
        player.press("event next")  # Drivers' strike
    player.press("weather")
    player.press("road")
    player.press("press A")
    player.press("garage")
    scroll = app.sm.current_screen.ids.modules.parent.parent
    scroll.scroll_y = 0  # the modules part of the form
    shot("new-race-modules")
    player.press("start race")
    player.press("card 1")
    shot("draft")
    app.show("start")
    player.press("championship")
    player.press("season 1961")
    for index, name in enumerate(("Ana", "Ben")):
        player.find(f"name {index}").text = name
    player.press("create season")
    player.press("next race")
    player.press("draft")
    for _ in app.draft_flow.draft.order:
        player.press("card 0")
    player.press("start race")
    player.table = None  # the season's seats are not the demo table's
    player.play_to_end()
    player.press("standings")
    app.screen("standings").export_chart()
    shot("standings")
