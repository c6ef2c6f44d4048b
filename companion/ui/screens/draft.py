"""The Garage draft: the revealed cards (name and symbols in words), whose pick it is, one tap
to pick. The flow itself is :class:`~companion.ui.views.draft_flow.DraftFlow` (Kivy-free), which the
New race and Next race screens hand over as ``app.draft_flow``.

The cards belong to the pick on show: a quick second tap of a pick (or a touch that began
before) does not pick for the next driver (:mod:`~companion.ui.widgets.touch_gate`). Start race
says why it is greyed out until the draft is over."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.gridlayout import GridLayout

from companion.i18n import _

from ..widgets.basic import Btn, MoreBelow, TLabel  # noqa: F401 - MoreBelow: draft.kv
from ..widgets.touch_gate import PromptGate
from .base import BaseScreen


class DraftScreen(BaseScreen):
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
            return
        app = App.get_running_app()
        view = flow.view()
        self.gate.show((view.mode, view.title, view.prompt, view.selected))
        self.ids.title.text = view.title
        self.ids.prompt.text = view.prompt
        self.ids.error.text = view.error
        box = self.ids.cards
        box.clear_widgets()
        grid = GridLayout(cols=2, spacing=app.fs * 0.3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        row: list[Btn] = []
        for card in view.market:
            button = Btn(text=card.text, test_name=f"card {card.index}", size_hint_y=None,
                         height=app.tap * 1.3, font_size=app.fs_small, gate=self.gate)
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
                             height=app.tap * 1.3, font_size=app.fs_small, gate=self.gate,
                             role="selected" if view.selected == card.index else "normal")
                row = row if len(row) < 2 else []
                row.append(button)
                _fits_its_text(button, row)
                button.bind(on_release=lambda _b, i=card.index: self.tap_own(i))
                own.add_widget(button)
            box.add_widget(own)
        hands = self.ids.hands
        hands.clear_widgets()
        for car, text in view.hands:
            label = TLabel(text=f"[b]{flow.name(car)}[/b]\n{text}", markup=True,
                           font_size=app.fs_small)
            label.test_name = f"hand {car}"
            hands.add_widget(label)
        self.ids.skip.disabled = view.mode != "swap"
        self.ids.skip.opacity = 1 if view.mode == "swap" else 0
        self.ids.start.disabled = view.mode != "done"
        self.ids.start.why_disabled = view.start_why
        self.ids.skip.gate = self.gate
        self.ids.start.gate = self.gate


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
