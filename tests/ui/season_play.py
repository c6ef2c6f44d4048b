"""A Championship season through the real screens, as a table plays it (the Start and draft
tests of ``test_start_season.py``, ``test_draft_resume.py``, ``test_championship_ui.py``), and
the pictures those tests take of each screen they check (in the test's folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def shot(app: Any, folder: Path, name: str) -> None:
    """A picture of the window as ``folder / name.png`` (after two frames)."""
    from kivy.base import EventLoop

    for _ in range(2):
        EventLoop.idle()
    folder.mkdir(parents=True, exist_ok=True)
    made = app.root_window.screenshot(str(folder / f"{name}.png"))
    if made:
        Path(made).replace(folder / f"{name}.png")


def create_season(ui: Any, year: str, names: tuple[str, ...], *,
               from_start: bool = False) -> str:
    """From Start, a season of ``year`` with ``names``' drivers, by Championship (or by New
    season, ``from_start``); its id, the Standings shown."""
    ui.app.show("start")
    if from_start:
        ui.player.press("new season")
        ui.app.sm.current_screen.new_form(year)
        ui.app.sm.current_screen.refresh()
    else:
        ui.player.press("championship")
        ui.player.press(f"season {year}")
    for index, name in enumerate(names):
        ui.player.find(f"name {index}").text = name
    ui.player.press("create season")
    assert ui.app.sm.current == "standings"
    return str(ui.app.season_id)


def start_next_race(ui: Any) -> None:
    """From the season's Standings: Next race, its draft (the first card each pick, no swap),
    Start race."""
    app = ui.app
    ui.player.press("next race")
    assert app.sm.current == "nextrace"
    ui.player.press("draft")
    assert app.sm.current == "draft"
    flow = app.draft_flow
    for _ in flow.draft.order:
        ui.player.press("card 0")
    if flow.mode == "swap":
        ui.player.press("skip swap")
    ui.player.press("start race")
    assert app.sm.current == "race"


def play_next_race(ui: Any, season_id: str) -> str:
    """From the season's Standings: Next race, its draft, the race played to the end; its id."""
    app = ui.app
    app.season_id = season_id
    app.show("standings")
    start_next_race(ui)
    race_id = str(app.session.race_id)
    ui.player.play_to_end()
    assert app.session.state.over
    return race_id
