"""The demo's pictures of the modules, the Garage draft and the Championship standings
(``heat-companion demo --headless``): a New race with an event, Weather and Road Conditions,
the draft, then race 1 of a 1961 season played to its standings; last, the storage fault
screen as a table sees it when the card is full in the middle of a race, and on read-only
storage (the errors are shown, not caused: the tests cause them, tests/ui/test_storage_faults.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def modules_shots(app: Any, player: Any, shot: Callable[[str], None]) -> None:
    """A New race with an event, Weather, Road Conditions and the Garage, then its draft."""
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


def season_shots(app: Any, player: Any, shot: Callable[[str], None]) -> None:
    """Race 1 of a 1961 season, created and drafted by touches, played to its standings."""
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


def storage_faults(app: Any, shot: Callable[[str], None]) -> None:
    from companion.storage.errors import DiskFullError, ReadOnlyError

    path = app.log_access.path
    app.storage_fault(DiskFullError(path=path, detail="database or disk is full"),
                      context="input", retry=lambda: None, back="start")
    shot("storage-full")
    for language in ("zh_TW", "ko"):
        app.set_language(language)
        shot(f"storage-full-{language}")
    app.set_language("en")
    app.storage_fault(ReadOnlyError(path=path, detail="attempt to write a readonly database"),
                      context="open", retry=lambda: None, back=None)
    shot("storage-read-only")
    app.fault_back()
