"""A race at a real table, pictured at every kind of prompt in every language.

:func:`play_six` plays a race of six drivers with names of up to 12 letters (Latin, Chinese and
Korean) to the end by touches (the scripted table of :mod:`.script`), and :func:`play_legends`
one driver against five Legends; ``shot(kind)`` is called at the first prompt of each kind,
once per language (the app is switched to it and back): the gears of six drivers, the card
keypad, a Stress card's flip, React, the Boost keypad, a greyed-out key saying why, an undo,
the Legends' moves, every ruling of a round, the map opened over the window, and the results.
``heat-companion demo --headless`` writes them as ``race6-<kind>-<language>.png``
(``docs/screens/``); the UI tests play the same races (``tests/ui/test_table_race.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .player import TAP_GAP_S, TablePlayer, tap_screen

SIX = ("Maximilianus", "Bartholomew", "歐陽志明", "Konstantinos", "남궁민수", "Wilhelmina")
"""Six drivers' names: up to 12 letters, and Chinese and Korean names."""
SOLO = ("Maximilianus",)
LANGUAGES = ("en", "zh_TW", "ko")
SEED = 20240601
KINDS = ("gears", "cards", "flip", "why", "react", "boost", "undo", "results")
"""What :func:`play_six` pictures; :func:`play_legends` adds ``legends``, ``rulings`` and
``map``."""

Shot = Callable[[str], None]


def start(app: Any, names: tuple[str, ...], legends: int, track: str = "usa",
          laps: int = 1) -> None:
    """A race with these drivers (seats 1.., colours in order) and Legends, on the race
    screen."""
    import tracks

    from ..views.drivers import Driver
    from ..views.names import CAR_COLOURS
    from ..views.race_form import RaceForm

    form = RaceForm(seed=SEED)
    form.track_id = track
    form.laps = laps
    form.drivers = [Driver(colour, name=name, seat=seat) for seat, (colour, name) in
                    enumerate(zip(CAR_COLOURS, names, strict=False), start=1)]
    form.set_legends(legends)
    app.open_session(app.log().new_race(form.setup(tracks.load_track(track))))


class Photographer:
    """Takes each kind of picture once, in every language."""

    def __init__(self, app: Any, frame: Callable[[], None], shot: Shot,
                 languages: tuple[str, ...] = LANGUAGES) -> None:
        self.app = app
        self.frame = frame
        self.shot = shot
        self.languages = languages
        self.taken: dict[str, list[str]] = {}

    def take(self, kind: str, before: Callable[[], None] | None = None) -> None:
        """``kind`` in each language; ``before()`` runs after each switch (a tap that shows
        something the switch closed)."""
        if kind in self.taken:
            return
        self.taken[kind] = []
        for language in self.languages:
            self.app.set_language(language)
            self.frame()
            if before is not None:
                before()
                self.frame()
            self.shot(f"{kind}-{language}")
            self.taken[kind].append(language)
        self.app.set_language(self.languages[0])
        self.frame()


def _tap_disabled(player: TablePlayer, name: str) -> None:
    """A finger on a greyed-out key (it says why), at the scripted table's pace: at the
    clock's own time, the tap after a quick switch of language would be the previous tap's
    double tap, refused on the rebuilt keypad (the picture then showed no hint)."""
    widget = player.find(name)
    x, y = widget.to_window(*widget.center)
    TablePlayer.last_tap += TAP_GAP_S
    tap_screen(x, y, at=TablePlayer.last_tap)


def _open_map(app: Any) -> None:
    """A finger on the race screen's map: it opens over the whole window. (The one opened in
    the language before is closed first: a switch of language rebuilds the race screen under
    it, which cannot happen at the table, where the map covers the Menu.)"""
    from ..widgets.basic import remove_overlays

    remove_overlays()
    track_map = app.sm.current_screen.ids.map
    x, y = track_map.to_window(*track_map.center)
    TablePlayer.last_tap += TAP_GAP_S
    tap_screen(x, y, at=TablePlayer.last_tap)


def play_six(app: Any, pump: Callable[[], None], frame: Callable[[], None],
             shot: Shot, track: str = "usa", languages: tuple[str, ...] = LANGUAGES,
             to_the_end: bool = True) -> Photographer:
    """Six drivers, one lap of ``track``, to the results (or, ``to_the_end=False``, until
    every kind of prompt of the race is pictured); returns what was pictured."""
    start(app, SIX, 0, track=track)
    frame()
    camera = Photographer(app, frame, shot, languages)
    player = TablePlayer(app, pump)
    camera.take("gears")
    undone = False
    while app.controller is not None and not app.controller.state.over:
        controller = app.controller
        view = controller.view()
        if view.mode == "reveal" and controller.entry[0]:
            camera.take("cards")
        if view.mode == "flip":
            camera.take("flip")
            camera.take("why", lambda: _tap_disabled(player, "key stress"))
        if view.mode == "react":
            camera.take("react")
            if "boost" not in camera.taken and "boost" in [b.key for b in view.react]:
                player.press("react boost")
                camera.take("boost")
                player.press("boost cancel")
        if view.mode == "gears" and controller.state.round == 1 and not undone:
            undone = True
            player.press("undo")
            camera.take("undo")
            player.press("redo")
        if not to_the_end and set(camera.taken) >= set(KINDS) - {"results"}:
            return camera
        if player.step() is None:
            break
        if app.controller.error:
            raise AssertionError(app.controller.error)
    frame()
    camera.take("results")
    return camera


def play_legends(app: Any, pump: Callable[[], None], frame: Callable[[], None],
                 shot: Shot, languages: tuple[str, ...] = LANGUAGES) -> Photographer:
    """One driver against five Legends, until the Legends have moved after the driver."""
    start(app, SOLO, 5)
    frame()
    camera = Photographer(app, frame, shot, languages)
    player = TablePlayer(app, pump)
    while app.controller is not None and not app.controller.state.over:
        controller = app.controller
        legends = [line for line in controller.rulings if line.car and line.car != "red"]
        if len(legends) >= 5 and controller.view().mode == "gears":
            camera.take("legends")
            box = app.sm.current_screen.ids.messages
            camera.take("rulings", lambda: box.dispatch("on_release"))  # noqa: B023
            if box._overlay is not None:
                box._overlay.close()
            camera.take("map", lambda: _open_map(app))
            app.sm.current_screen.map_zoom.close()
            break
        if player.step() is None:
            break
    return camera
