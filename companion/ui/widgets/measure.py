"""How wide a text is drawn: buttons sized to their longest label in the current language."""

from __future__ import annotations

from collections.abc import Iterable

READABLE_PX = 14.0
"""The smallest text the race screen draws, read from arm's length at 800x480: the app's small
size never goes below it (:meth:`~companion.ui.app.settings.SettingsMixin._resize`), and names
and the map's numbers do not shrink below it either."""


def text_width(texts: Iterable[str], size: float, margin: float = 1.6) -> float:
    """The width the widest line of ``texts`` needs at font ``size``, plus a button's padding,
    ``margin`` times ``size`` (a :class:`~companion.ui.widgets.basic.Btn` wraps its text 4 px
    inside each edge: ``margin`` * ``size`` must be 8 px or more)."""
    from kivy.core.text import Label as CoreLabel

    measure = CoreLabel(font_size=size).get_extents
    widest = max((measure(line)[0] for text in texts for line in text.split("\n")), default=0)
    return float(widest + size * margin)
