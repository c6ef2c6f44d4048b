"""The storage fault screen: what happened to the race log, what it means for the race and what
to do, in the player's language, with the technical detail in small print, and its buttons
(Retry, Back, View races, Start a new log and its confirmation, Reopen race).

It shows the App's ``fault_view()`` (``companion.ui.views.storage_fault``); every button calls
``app.fault_action(key)``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty

from companion.i18n import _

from ..widgets.basic import Btn, MoreBelow, TLabel  # noqa: F401 - MoreBelow, TLabel: storage_fault.kv
from .base import BaseScreen


class StorageFaultScreen(BaseScreen):
    faulty = BooleanProperty(True)
    """A fault is shown: the title in the warning colour (with none, "Nothing is wrong with
    the storage." read as an alarm in it: found by a table test)."""

    def refresh(self) -> None:
        app = App.get_running_app()
        view = app.fault_view()
        self.faulty = view is not None
        box = self.ids.actions
        box.clear_widgets()
        if view is None:  # opened with no fault (a fresh app's first screen): it was blank, with
            # no button, no way out (found by opening every screen first)
            for name in ("reason", "advice", "detail"):
                self.ids[name].text = ""
            self.ids.title.text = _("Nothing is wrong with the storage.")
            home = Btn(text=_("Home"), test_name="fault home", role="accent")
            home.bind(on_release=lambda _b: app.show("start"))
            box.add_widget(home)
            return
        self.ids.title.text = view.title
        self.ids.reason.text = view.reason
        self.ids.advice.text = view.advice
        self.ids.detail.text = view.detail
        for key, label in view.actions:
            button = Btn(text=label, test_name=f"fault {key}",
                         role="accent" if key in ("retry", "confirm-new-log", "end-draft")
                         else "normal")
            button.bind(on_release=lambda _b, k=key: app.fault_action(k))
            box.add_widget(button)
