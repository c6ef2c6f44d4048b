"""A one-line text field in the theme colours (styled in ``common.kv``). A module of its own so
that only the screens with a text field load Kivy's ``TextInput`` (not the first screen)."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.textinput import TextInput


class NameInput(TextInput):  # type: ignore[misc]
    """A driver's or a season's name, or a folder."""

    test_name = StringProperty("")
    clash = BooleanProperty(False)
    """The name cannot stand (another driver's, another car's colour): its text and a frame
    in the warning colour, the reason said beside the names."""
