"""The Garage draft: the revealed cards (name and symbols in words), whose pick it is, one tap
to pick. The flow itself is :class:`~companion.ui.views.draft_flow.DraftFlow` (Kivy-free), which the
New race and Next race screens hand over as ``app.draft_flow``.

The cards belong to the pick on show: a quick second tap of a pick (or a touch that began
before) does not pick for the next driver (:mod:`~companion.ui.widgets.touch_gate`). Start race
says why it is greyed out until the draft is over."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.i18n import _

from ..widgets.basic import Btn, MoreBelow, TLabel, ToneLabel  # noqa: F401 - MoreBelow: draft.kv
from ..widgets.hands_fit import columns, finished_hands
from ..widgets.touch_gate import PromptGate
from .base import BaseScreen


class DraftScreen(BaseScreen):
    done = BooleanProperty(False)
    """The draft is over (draft.kv: its empty error line then takes no room)."""
    warning = BooleanProperty(True)
    """The error line holds a refusal (in the warning colour), not what Undo took back."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from kivy.core.window import Window

        self.gate = PromptGate(window=Window)

    @property
    def flow(self) -> Any:
        return getattr(App.get_running_app(), "draft_flow", None)

    def tap(self, index: int) -> None:
        self.flow.pick(index)
        self.refresh()

    def tap_own(self, index: int) -> None:
        self.flow.choose_own(index)
        self.refresh()

    def skip(self) -> None:
        if self.flow is None:
            return
        self.flow.skip_swap()
        self.refresh()

    def undo(self) -> None:
        """Take back the last pick (or the swap, or No swap), recorded as an input of the
        draft; the table's Undo button does the same on this screen."""
        if self.flow is None:
            return
        self.flow.undo()
        self.refresh()

    def back(self) -> None:
        App.get_running_app().show(self.flow.back if self.flow else "start")

    def start(self) -> None:
        if self.flow is not None:
            self.flow.start()

    def refresh(self) -> None:
        flow = self.flow
        if flow is None:  # opened with no draft (a fresh app's first screen): nothing to start
            # it said nothing, and No swap stopped the app (found by opening every screen first)
            self.ids.title.text = _("Garage draft")
            self.ids.prompt.text = _("No draft is under way: New race starts one.")
            self.ids.start.disabled = True
            self.ids.start.why_disabled = _("No draft is under way: New race starts one.")
            self.ids.skip.disabled, self.ids.skip.opacity = True, 0
            self.ids.undo.disabled = True
            self.ids.undo.why_disabled = _("No draft is under way: New race starts one.")
            self.done = False
            return
        app = App.get_running_app()
        view = flow.view()
        self.gate.show((view.mode, view.title, view.prompt, view.selected))
        self.ids.title.text = view.title
        self.ids.prompt.text = view.prompt
        self.warning = bool(view.error)
        self.ids.error.text = view.error or view.notice
        box = self.ids.cards
        box.clear_widgets()
        grid = GridLayout(cols=2, spacing=app.fs * 0.3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        row: list[Btn] = []
        for card in view.market:
            button = Btn(text=card.text, test_name=f"card {card.index}", size_hint_y=None,
                         height=app.tap * 1.3, gate=self.gate)
            row = row if len(row) < 2 else []
            row.append(button)
            _fits_its_text(button, row)
            button.bind(on_release=lambda _b, i=card.index: self.tap(i))
            grid.add_widget(button)
        box.add_widget(grid)
        if view.own:
            box.add_widget(TLabel(text=flow.name(flow.swap) + ":", color=app.c_accent))
            own = GridLayout(cols=2, spacing=app.fs * 0.3, size_hint_y=None)
            own.bind(minimum_height=own.setter("height"))
            row = []
            for card in view.own:
                button = Btn(text=card.text, test_name=f"own {card.index}", size_hint_y=None,
                             height=app.tap * 1.3, gate=self.gate,
                             role="selected" if view.selected == card.index else "normal")
                row = row if len(row) < 2 else []
                row.append(button)
                _fits_its_text(button, row)
                button.bind(on_release=lambda _b, i=card.index: self.tap_own(i))
                own.add_widget(button)
            box.add_widget(own)
        done = self.done = view.mode == "done"
        self._hands_take_the_row(done)
        self._lay_hands(view)
        self.ids.skip.disabled = view.mode != "swap"
        self.ids.skip.opacity = 1 if view.mode == "swap" else 0
        self.ids.start.disabled = view.mode != "done"
        self.ids.start.why_disabled = view.start_why
        self.ids.undo.disabled = bool(view.undo_why)
        self.ids.undo.why_disabled = view.undo_why
        self.ids.skip.gate = self.gate
        self.ids.start.gate = self.gate
        self.ids.undo.gate = self.gate

    def hands_resized(self) -> None:
        """The hands' view changed height (the window did, or the error line came or went):
        a finished draft's hands are fitted to it again."""
        flow = self.flow
        if flow is not None and flow.mode == "done":
            self._lay_hands(flow.view())

    def _lay_hands(self, view: Any) -> None:
        """Every driver's hand: in the right-hand column while cards are left (it scrolls);
        once the draft is over, side by side across the row, as many to a row as their names
        fit, all in the view at once (:func:`~companion.ui.widgets.hands_fit.finished_hands`)."""
        flow, app = self.flow, App.get_running_app()
        hands = self.ids.hands
        hands.clear_widgets()
        if view.mode != "done" or not view.hands:
            for car, text in view.hands:
                hands.add_widget(_hand(car, flow.name(car), text))
            return
        from kivy.core.window import Window

        view_box = self.ids.hands_view
        names = {car: flow.name(car) for car, _text in view.hands}
        room = Window.width - app.fs * 0.8 - view_box.bar_width - app.fs * 0.2
        across, down = app.fs * 0.6, app.fs * 0.3
        fit = finished_hands(view.hands, view.hand_names, names, app.fs_small,
                             (across, down), (room, view_box.height))
        labels = [_hand(car, names[car], text, fit.size) for car, text in fit.hands]
        # in columns, down each and then across: a row of three as tall as its tallest hand
        # left the shorter hands' room empty below them (the second row below the edge)
        row = BoxLayout(spacing=across, size_hint_y=None)
        stacks: list[BoxLayout] = []
        for column in columns(len(labels), fit.cols):
            stack = BoxLayout(orientation="vertical", spacing=down, size_hint_y=None,
                              pos_hint={"top": 1})
            stack.bind(minimum_height=stack.setter("height"))
            for i in column:
                stack.add_widget(labels[i])
            stacks.append(stack)
            row.add_widget(stack)
        for _empty in range(fit.cols - len(stacks)):  # the columns as wide as measured
            row.add_widget(Widget())

        def tallest(*_args: Any) -> None:
            row.height = max(stack.height for stack in stacks)

        for stack in stacks:
            stack.bind(height=tallest)
        tallest()
        hands.add_widget(row)

    def _hands_take_the_row(self, done: bool) -> None:
        """With nothing left to pick the hands take the row the cards shared with them (they
        stayed in its right third, a column that scrolled, beside two thirds left empty)."""
        cards, hands = self.ids.cards_view, self.ids.hands_view
        # out of sight and of the row (width 0: not over the hands, not taking their touches)
        cards.size_hint_x, cards.width, cards.opacity, cards.disabled = (
            (None, 0, 0, True) if done else (0.66, cards.width, 1, False))
        hands.size_hint_x = 1 if done else 0.34
        cards.parent.spacing = 0 if done else App.get_running_app().fs * 0.4


def _hand(car: str, name: str, cards: str, size: float | None = None) -> BoxLayout:
    """A driver's hand: the name (in the accent colour) over the cards, two plain labels,
    both at ``size`` (None: the labels' own sizes, the body text's).
    One label in markup (the name in bold) broke its lines only where Kivy breaks them, a
    number torn from its word ("速度 0 · 1" / "個「+」（翻基本卡）", "Cooldown" / "1"): the
    app's line-breaking rules (:mod:`~companion.ui.widgets.line_breaks`) are applied to plain
    text only."""
    hand = BoxLayout(orientation="vertical", size_hint_y=None)
    hand.test_name = f"hand {car}"
    # in the accent colour, as the swap's "Ana:" (the font has no bold face: a name in the
    # text's colour read as one more card, "Ben" over "Body 3")
    labels = (ToneLabel(text=name, tone="accent", bold=True), TLabel(text=cards))
    for label in labels:
        if size is not None:  # after the kv rules (which set the body size), not as kwargs
            label.font_size = size
        hand.add_widget(label)
    hand.bind(minimum_height=hand.setter("height"))
    return hand


def _fits_its_text(button: Btn, row: list[Btn]) -> None:
    """A card's button as tall as its text needs (a name and three or four symbols in words
    wrap to four lines in English at 800x480: "Air Intake 0" was cut at the top), never
    shorter than it was made, and as tall as the other card of its ``row`` (the grid set a
    shorter one at the foot of its row, a gap above it: the cards stood ragged, found by
    looking at the draft with six drivers)."""
    least = button.height
    pad = button.font_size * 0.6
    button.needs = least  # the height its own text needs

    def fit(_button: Btn, size: list[float]) -> None:
        button.needs = max(least, size[1] + pad)
        tallest = max(other.needs for other in row)
        for other in row:
            other.height = tallest

    button.bind(texture_size=fit)
