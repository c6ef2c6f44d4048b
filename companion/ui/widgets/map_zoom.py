"""The race's map over the whole window, its words and cars larger: a tap on the race screen's
map opens it (the small map shows a magnifier), a tap anywhere closes it (not the quick second
tap of a double tap on the map: :mod:`.touch_gate`), and so do an input the race accepts or
refuses (a seat's Ready, Undo on the table: the table then sees the ruling, or why not) and
leaving the race screen (a storage fault's screen, say, is never under it).

Where the small map has no room for a space's number (a dense track at 800x480), this one
writes it: at 800x480 every corner space and every fifth space of every bundled track
(``tests/ui/test_track_map.py``).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.engine import RaceState, corner_limit
from companion.i18n import _, listed, sentences

from .basic import ToneLabel, over_window
from .text_fit import FIT
from .touch_gate import PromptGate
from .track_map import TrackMap

TEXT_SCALE = 1.3
"""The words and cars of the map over the window, against the race screen's map."""

SIDE_MAP_SHARES = (0.6, 0.55, 0.5, 0.45)
"""The map's shares of the window's width tried with its words beside it (:meth:`MapZoom.
_arrange`): a race's own rules under the map (every module at España: eleven lines at
800x480) left the map a strip of the window, smaller than the race screen's map, its numbers
run together ("1110"; found by a table test)."""


class MapZoom(ModalView):  # type: ignore[misc]
    """The map over the whole window (:meth:`show`); a tap anywhere closes it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, overlay_color=(0, 0, 0, 0),
                         background="", **kwargs)
        self.box = BoxLayout(orientation="vertical")
        self.map = TrackMap(text_scale=TEXT_SCALE, test_name="map zoomed")
        self.hint = ToneLabel(tone="muted", scale="small", halign="center",
                              test_name="map zoomed hint")  # as tall as its text (common.kv)
        self.box.add_widget(self.map)
        self.box.add_widget(self.hint)
        self.add_widget(self.box)
        from kivy.core.window import Window

        self.gate = PromptGate(window=Window)
        """Which touches may close it: not one that began before it opened, nor the quick
        second tap of the double tap that opened it (:mod:`.touch_gate`)."""
        self.position_id: object = None
        """The race's position when it opened (:meth:`follow` closes it on any other)."""
        self.error = ""
        """Why an input was refused, as on the race screen when it opened."""

    def show(self, state: RaceState, current: str, moved: list[str],
             position_id: object, error: str = "", rules: tuple[str, ...] = ()) -> None:
        """Open over the window, showing ``state`` (the car to play ringed, the cars the last
        input moved haloed, as on the race screen) and ``rules``, the race's own rules in
        sentences (its event, weather and road tokens: ``views.race_rules``), above the
        hint."""
        app = App.get_running_app()
        self.background_color = app.c_bg  # the theme, the text size and the language of now
        self.box.padding = app.fs * 0.3
        self.box.spacing = app.fs * 0.2
        track = state.track
        marks = ([_("Blue: flooded spaces.")] if track.flooded else []) + (
            [_("Darker: tunnels.")] if track.tunnels else [])  # what the map fills apart
        press = [_("corner {n}").format(n=number)
                 for number, corner in enumerate(track.corners, start=1)
                 if corner.line_after in state.modules.press_corners]
        if any(corner_limit(state, corner) != corner.limit for corner in track.corners):
            # their rings are filled (map_words.Marker)
            marks.append(_("Filled speed limits: changed by a road token (the Legends keep "
                           "the printed one)."))
        if press:  # their squares are drawn apart (map_words.Marker)
            marks.append((_("Press Corners (white squares): {corners}.")
                           if app.theme_name == "dark" else
                           _("Press Corners (black squares): {corners}.")).format(
                               corners=listed(press)))
        self.hint.text = "\n".join([*rules, sentences(
            *marks, _("Tap anywhere to go back to the race."))])
        self._arrange(app, track)
        self.map.state = state
        self.map.current = current
        self.map.moved = list(moved)
        self.position_id = position_id
        self.error = error
        if self._window is None:
            self.gate.prompt_changed()
            self.open(animation=False)
            over_window(self)  # it goes with the app

    def _arrange(self, app: Any, track: Any) -> None:
        """The words under the map (centred) or beside it (left-aligned, in a column to its
        right, centred on the window's height): where the track is drawn the larger, the
        words whole (under it when they are whole nowhere else)."""
        from kivy.core.window import Window

        box, hint, size = self.box, self.hint, app.fs_small
        width = Window.width - 2 * box.padding[0]
        height = Window.height - 2 * box.padding[1]

        def tall(column: float) -> float:
            return FIT.lines(hint.text, size, column) * FIT.line_height(size)

        best_band = self.map.band_at(track, width, height - tall(width) - box.spacing)
        share = 1.0
        for side in SIDE_MAP_SHARES:
            spare = width - box.spacing
            if tall(spare * (1 - side)) > height:
                continue
            band = self.map.band_at(track, spare * side, height)
            if band > best_band:
                best_band, share = band, side
        beside = share < 1
        box.orientation = "horizontal" if beside else "vertical"
        self.map.size_hint_x = share
        hint.size_hint_x = 1 - share if beside else 1
        hint.halign = "left" if beside else "center"
        hint.pos_hint = {"center_y": 0.5} if beside else {}

    def close(self) -> None:
        """Back to the race screen (nothing else changes)."""
        if self._window is not None:
            self.dismiss(animation=False)

    def follow(self, position_id: object, error: str = "") -> None:
        """The race shows ``position_id`` now, and ``error`` (why an input was refused, or
        ""): close when an input was accepted or refused since it opened (the ruling, or why
        not, is on the race screen; a seat's Ready refused while it was open must not go
        unseen)."""
        if position_id != self.position_id or (error and error != self.error):
            self.close()

    @property
    def is_open(self) -> bool:
        return self._window is not None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.gate.refuses(touch):  # a tap that began after it opened, and not quickly
            touch.ud["map zoom"] = id(self)  # after the one that opened it
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.ud.get("map zoom") == id(self):
            self.close()
        return True
