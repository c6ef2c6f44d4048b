"""What the table calls cars and tracks, in the player's language (Kivy-free, and light: the
first screen uses it before the engine is loaded).

A car is its colour (``"red"``), shown as its driver's name, as "Legend Black" for a Legend, or
as its colour's name; a track is shown by its name in the current language.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from companion.i18n import N_, _

if TYPE_CHECKING:
    from companion.engine import RaceState

CAR_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "grey")
"""The six car colours (the same six as the Legends mat), in the order the app offers them."""

COLOUR_NAMES: dict[str, str] = {
    "red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow"),
    "black": N_("Black"), "grey": N_("Grey"),
}
COLOUR_RGB: dict[str, tuple[float, float, float]] = {
    "red": (0.86, 0.16, 0.16), "blue": (0.16, 0.42, 0.90), "green": (0.14, 0.65, 0.30),
    "yellow": (0.96, 0.80, 0.10), "black": (0.12, 0.12, 0.12), "grey": (0.62, 0.62, 0.66),
}
"""Marker colours (RGB 0-1) for the map, the order list and the charts."""

UNBUNDLED_TRACKS: dict[str, str] = {"germany": N_("Germany")}
"""Tracks a season names that the app does not bundle (1966 race 2)."""

OFFICIAL_SEASON_NAMES: frozenset[str] = frozenset((
    N_("1964 (Heavy Rain)"), N_("1965 (Tunnel Vision)"), N_("1966 (Rocky Roads)")))
"""The official seasons' names that say more than their year
(:data:`companion.championship.SEASONS`; a test keeps the two in step). A season stores its
name in English, as it always did (a log made by an older version opens and names it the
same); it is shown in the player's language (:func:`season_name`)."""

CUSTOM_SEASON_NAME = N_("Custom season")
"""The name a custom season the players did not name is stored with: in English, whatever the
language of the moment, as a season created in English always was (an older version reads it
the same: it is also what ``parse_season`` gives a document with no name). It is shown in the
player's language (:func:`season_name`); before, the default was stored in the language of
the moment and shown so in every language ("Custom season 賽季冠軍：…")."""


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def legend_name(colour: str) -> str:
    """"Legend Black"."""
    return _("Legend {colour}").format(colour=colour_name(colour))


@cache
def legend_names() -> frozenset[str]:
    """Every Legend's name in every language the app speaks ("Legend Grey", "레전드 회색",
    "傳奇灰色"): the names no line of the app breaks inside where they fit one
    (``widgets.line_breaks.names_kept``)."""
    from companion.i18n import LANGUAGES, translation

    names: set[str] = set()
    for language in LANGUAGES:
        catalog = translation(language)
        names.update(catalog.gettext("Legend {colour}").format(
            colour=catalog.gettext(COLOUR_NAMES[colour])) for colour in CAR_COLOURS)
    return frozenset(names)


def car_label(state: RaceState | None, car_id: str) -> str:
    """A driver's name, or "Legend Black" for a Legend, or the colour name."""
    if state is not None and car_id in state.index:
        return car_name(state.car(car_id))
    return colour_name(car_id)


def car_name(car: Any) -> str:
    """A car (a season's ``CarEntry``, a race's ``CarState``) as the table knows it: the
    driver's name, "Legend Black", or the colour's name for a driver left unnamed."""
    if car.legend:
        return legend_name(car.id)
    return str(car.name) if car.name and car.name != car.id else colour_name(car.id)


def season_name(name: str) -> str:
    """A season's name as the table reads it: an official season's in the current language
    ("1964（大雨）"; it was shown in English in every language), a custom season's the players
    did not name too (:data:`CUSTOM_SEASON_NAME`, or the default an older version stored in
    the language of the moment: "自訂賽季" reads "Custom season" in English), a name the
    players gave as they gave it."""
    if name in OFFICIAL_SEASON_NAMES:
        return _(name)
    return _(CUSTOM_SEASON_NAME) if name in _custom_season_names() else name


@cache
def _custom_season_names() -> frozenset[str]:
    """:data:`CUSTOM_SEASON_NAME` in every language the app speaks."""
    from companion.i18n import LANGUAGES, translation

    return frozenset(translation(language).gettext(CUSTOM_SEASON_NAME)
                     for language in LANGUAGES)


def track_title(track_id: str) -> str:
    """A track's name in the current language (else the id, for an inline or unknown track)."""
    from companion import i18n

    if track_id in UNBUNDLED_TRACKS:
        return _(UNBUNDLED_TRACKS[track_id])
    try:
        import tracks

        return tracks.load_track_info(track_id).display_name(i18n.language())
    except Exception:  # an inline or unknown track
        return track_id
