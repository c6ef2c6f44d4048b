"""The race screen: the track map and the race order on the left, the prompt, the panel for
the current step and the ruling box on the right.

Widgets are dumb: every button calls the :class:`~companion.ui.controller.RaceController`, and
:meth:`RaceScreen.refresh` redraws from ``controller.view()``. The parts are widgets of their
own: :class:`~companion.ui.widgets.race_table.RaceTable` (where each car is, which to place
now), :class:`~companion.ui.widgets.race_panel.RacePanel` (gears, keypads, React; no touch acts
on a prompt that appeared after it began) and :class:`~companion.ui.widgets.ruling_box.RulingBox`
(every sentence whole). A tap on a car's row says what happened to it; a tap on the header
says what the columns mean; a tap on the map opens it over the whole window
(:class:`~companion.ui.widgets.map_zoom.MapZoom`).
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import NumericProperty

from companion.i18n import _, sentences
from companion.i18n.counts import fill

from ..controller import RaceController
from ..views.race_rules import race_rules
from ..views.race_view import KEYPAD_FAMILY, OrderRow, RaceView
from ..widgets.basic import explain
from ..widgets.map_zoom import MapZoom
from ..widgets.race_panel import RacePanel  # noqa: F401 - used by race.kv
from ..widgets.race_table import RaceTable  # noqa: F401 - used by race.kv
from ..widgets.ruling_box import RulingBox  # noqa: F401 - used by race.kv
from ..widgets.tint import TintBtn  # noqa: F401 - used by race.kv
from ..widgets.touch_box import FitScroller, TouchBox  # noqa: F401 - used by race.kv
from ..widgets.touch_gate import PromptGate
from ..widgets.track_map import TrackMap  # noqa: F401 - used by race.kv
from .base import BaseScreen

KEYPAD_MODES = tuple(sorted(KEYPAD_FAMILY))
"""Modes whose keys go to ``controller.key`` and whose typed cards are shown."""


class RaceScreen(BaseScreen):
    RULING_LINES = 5.6
    """The ruling box is at least this many body-size lines tall: the longest sentence the
    engine produces fits whole, in every language (``tests/ui/test_rulings_fit.py``) ..."""
    ruling_lines = NumericProperty(RULING_LINES)
    """... unless the panel would not fit beside that: six gear cells each with Clogged
    (:meth:`_room_for_the_panel`)."""
    BASE_SHARE = 0.455
    """The left column's (the map's and the race order's) share of the width; more only for
    names that would be cut, less only for the gear panel's (:meth:`share_columns`)."""
    LEAST_SHARE = 0.4
    """The least of the width the left column keeps for the gear panel's names."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.ids.order.on_row = self.explain_row
        self.ids.order.on_header = self.explain_columns
        self.ids.map.on_tap = self.show_map
        self.map_zoom: MapZoom | None = None
        """The map over the whole window, once it was opened (:meth:`show_map`)."""
        self._view: RaceView | None = None
        from kivy.core.window import Window

        self.history_gate = PromptGate(window=Window)
        """Undo and Redo act on the race as shown: the second tap of a quick double tap on
        Undo began before the first undo was shown, and takes back nothing more
        (:attr:`~companion.ui.views.race_view.RaceView.position_id`)."""
        self.ids.undo.gate = self.history_gate
        self.ids.redo.gate = self.history_gate
        self._results_for: RaceController | None = None
        """The race whose Results screen is built ahead (:meth:`_prepare_results`)."""
        order = self.ids.order
        order.bind(values_width=self.share_columns, name_widths=self.share_columns)
        self.ids.prompt.bind(height=self._refit_rulings)
        self.ids.columns.bind(width=self.share_columns)

    @property
    def controller(self) -> RaceController | None:
        return App.get_running_app().controller  # type: ignore[no-any-return]

    def refresh(self) -> None:
        controller = self.controller
        if controller is None:  # opened with no race (a fresh app's first screen): say so
            self._no_race()
            return
        app = App.get_running_app()
        view = controller.view()
        self._view = view
        ids = self.ids
        ids.status.text = view.status
        self.history_gate.show(view.position_id)
        ids.undo.disabled = not view.can_undo
        if not view.can_undo:  # at the race's start: nothing recorded, or all undone (the
            # reason is set here only: it depends on Redo)
            ids.undo.why_disabled = (
                _("Nothing to undo: this is the start of the race. Redo brings back what "
                  "Undo took back.") if view.can_redo
                else _("Nothing to undo: no input of this race is recorded yet."))
        ids.redo.disabled = not view.can_redo
        ids.map.state = controller.state
        ids.map.current = view.current or ""
        ids.map.moved = sorted(controller.moved)
        ids.order.show(view.order, view.sponsors)
        ids.order.height = ids.order.preferred_height(len(view.order))
        ids.entry.text = view.entry
        ids.entry.height = app.fs_big * 1.4 if view.mode in KEYPAD_FAMILY else 0
        panel = ids.panel
        panel.actions = controller
        panel.on_results = lambda: app.show("results")
        bridge = getattr(app, "hw_bridge", None)
        panel.dials = bridge.dials_by_car() if bridge is not None else {}
        ids.prompt.text = self._prompt(view, panel.dials)
        panel.show(view)
        self.ruling_lines = self._room_for_the_panel(view)
        ids.messages.show(view.error, view.rulings)
        if self.map_zoom is not None:
            self.map_zoom.follow(view.position_id, view.error)
        if self._results_for is not controller:
            self._results_for = controller
            from kivy.clock import Clock

            Clock.schedule_once(lambda _dt: self._prepare_results(), 0)

    def _no_race(self) -> None:
        """No race is open: the screen said nothing, and Undo or Redo stopped the app (found
        by opening every screen first); it says so, Undo and Redo greyed, Menu the way back."""
        ids = self.ids
        ids.status.text = _("No race is open.")
        ids.undo.disabled = ids.redo.disabled = True  # (Redo's reason, kv's, holds too)
        ids.undo.why_disabled = _("No race is open: Menu goes back to Home.")

    def show_dials(self, dials: dict[str, int]) -> None:
        """A seat's gear dial turned: its gear marked in its car's cell, and the prompt says
        what the mark is while one shows (nothing else is redrawn)."""
        self.ids.panel.show_dials(dials)
        if self._view is not None:
            self.ids.prompt.text = self._prompt(self._view, dials)
            self.ruling_lines = self._room_for_the_panel(self._view)

    @staticmethod
    def _prompt(view: RaceView, dials: dict[str, int]) -> str:
        """The view's prompt; while the drivers pick gears and a seat's dial marks a gear
        in its cell (:meth:`.race_panel.RacePanel.show_dials`), what that mark is: an orange
        figure in a gear button said nothing to a table that had not turned a dial yet
        (found by a table test)."""
        if any(row.planned is None and 1 <= dials.get(row.car, 0) <= 4
               and row.allowed[dials[row.car] - 1] for row in view.gear_rows):
            return sentences(view.prompt, _("Orange: the gear on the seat's dial; Ready "
                                            "chooses it."))
        return view.prompt

    def _refit_rulings(self, *_args: object) -> None:
        """The prompt's words laid out at a height other than foreseen: the ruling box's
        least height again."""
        if self._view is not None:
            self.ruling_lines = self._room_for_the_panel(self._view)

    def _room_for_the_panel(self, view: RaceView) -> float:
        """The ruling box's least height, in body-size lines: :data:`RULING_LINES`, unless
        the panel then needs scrolling (late in a race, six drivers who may each declare a
        clogged hand: every gear cell has its Clogged button, 18 px more than the column
        holds at 800x480). The box then gives the panel what it needs (every seat reachable
        comes first), keeping room for the "+N more" line at least; it shows the sentences
        that fit whole (a tap shows every one:
        :class:`~companion.ui.widgets.ruling_box.RulingBox`)."""
        from ..widgets.text_fit import FIT

        app = App.get_running_app()
        ids = self.ids
        column = ids.panel_box.parent
        prompt = ids.prompt  # as tall as its new words will be (its texture comes later: a
        # prompt grown by the dials' sentence cut the last row of gears; found by a table test)
        tall = prompt.height if prompt.width <= 1 else max(
            FIT.lines(prompt.text, prompt.font_size, prompt.width)
            * FIT.line_height(prompt.font_size), prompt.font_size * 1.4)
        room = column.height - tall - ids.entry.height
        full = self.RULING_LINES
        if column.height <= 1 or ids.panel.height <= room - app.fs * (full + 0.75):
            return full
        note = FIT.line_height(app.fs_small) / app.fs  # room for "+N more" at least
        return float(min(full, max(note, (room - ids.panel.height) / app.fs - 0.75)))

    def share_columns(self, *_args: object) -> None:
        """The two columns' widths: the panel keeps its least width, every driver's name
        whole over the gears (:func:`.race_panel.narrowest`; a twelve-letter Chinese name
        wrapped in its one-line cell, half cut, at 800x480 in English, where "ready" is
        wider: found by a table test), the map's column giving up to :data:`LEAST_SHARE`
        for it. Then the left column is as wide as the race order needs for its names on
        one line, as far as the panel can spare: with Sponsorship's seventh column (every
        championship race) "Maximilianus" read "Maxi...anus" at 800x480 while the panel's
        gears were wider than a touch target needs (17 px to spare in all). A name too long
        even then gets all the panel can spare too: six twelve-character Korean names, which
        asked for nothing, kept the column at :data:`BASE_SHARE` and were cut ("강동…열박",
        found by a table test). Otherwise the column keeps :data:`BASE_SHARE`.
        """
        from ..widgets.race_panel import narrowest

        columns = self.ids.columns
        inner = columns.width - columns.spacing - columns.padding[0] - columns.padding[2]
        if inner <= 1:
            return
        order = self.ids.order
        most = max(self.LEAST_SHARE * inner, inner - narrowest(
            App.get_running_app(), max(order.name_widths, default=0.0)))
        wanted = max(self.BASE_SHARE * inner,
                     order.values_width + max(order.name_widths, default=0.0))
        share = min(wanted, most) / inner
        self.ids.left.size_hint_x = share
        self.ids.right.size_hint_x = 1 - share

    def _prepare_results(self) -> None:
        """Build the Results screen ahead, in the frame after this race first shows (no one
        taps that soon): the tap that ends the race then builds no screen."""
        app = App.get_running_app()
        controller = self.controller
        if controller is None or getattr(app, "sm", None) is not self.manager:
            return  # the app has gone (a test's) or shows something else
        first = not app.sm.has_screen("results")
        app.screen("results").prepare()
        if first:  # as what start-up made (HeatApp): the race and Results screens live as
            import gc  # long as the app, out of the sight of the collector's full collections

            gc.collect()  # (at idle: what is garbage now is freed, not kept for good)
            gc.freeze()

    def on_leave(self, *_args: object) -> None:
        if self.map_zoom is not None:
            self.map_zoom.close()  # whatever screen comes next is not under it

    def show_map(self) -> None:
        """The map over the whole window, larger, every number it can write written (a tap
        on the race screen's map)."""
        controller = self.controller
        view = self._view
        if controller is None or view is None:
            return
        if self.map_zoom is None:
            self.map_zoom = MapZoom()
        self.map_zoom.show(controller.state, view.current or "", sorted(controller.moved),
                           view.position_id, view.error,
                           rules=tuple(race_rules(controller.state)))  # event, weather, road

    # --- explanations on demand --------------------------------------------------------------

    def explain_row(self, car: str) -> None:
        """What the last input did to this car, else where it stands, in words."""
        view = self._view
        if view is None:
            return
        row = next((r for r in view.order if r.car == car), None)
        if row is None:
            return
        said = [r.text for r in view.rulings if r.car == car]
        text = "\n".join(said) if said else self._row_words(row)
        anchor = self.ids.order
        explain(anchor, text)

    @staticmethod
    def _row_words(row: OrderRow) -> str:
        if row.finished_place:
            return _("{car} finished in place {place}.").format(car=row.name,
                                                                place=row.finished_place)
        if row.eliminated:
            return fill(_("{car} is out of the race."), car=row.name)
        if row.legend:
            return _("{car} is on space {space}, {spot}, lap {lap}.").format(
                car=row.name, space=row.space, lap=row.lap,
                spot=_("Race Line") if row.race_line else _("outside"))
        return fill(_("{car} is on space {space}, {spot}, lap {lap}, in gear {gear}; {engine} "
                      "Heat in the engine of {heat}; {stress} Stress card(s) taken."),
            car=row.name, space=row.space, lap=row.lap, gear=row.gear, engine=row.engine,
            heat=row.heat, stress=row.stress_taken,
            spot=_("Race Line") if row.race_line else _("outside"))

    def explain_columns(self) -> None:
        words = _(
            "Space: where the car stands (RL: on the Race Line; out: the other spot; 1st: "
            "finished first, off the track); lit: the last input moved it, place it there. "
            "Heat: in the engine / in all. Stress: Stress cards taken. A tap on a car tells its "
            "last ruling.")
        # a car that passed another mid-round stays below it until the round ends
        # (docs/rules.md §1.12): read as standings, the list looked wrong (a table test)
        words = sentences(_("The cars in this round's race order, the order they play in (set "
                            "at the round's start)."), words)
        view = self._view
        if view is not None and view.sponsors:
            words = sentences(words, _("DNF: the car is out of the race (did not finish)."),
                              _("Spons.: the Sponsorship cards the driver has won."))
        explain(self.ids.order, words)
