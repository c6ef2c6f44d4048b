"""Turning engine data into the player's language (Kivy-free).

The engine's explanations carry English templates (the msgids) and raw parameters such as car
ids (``"red"``), spots (``"Race Line"``) and step names (``"reveal cards"``). :func:`render`
translates the template *and* those parameter values, and shows cars by their drivers' names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.engine import Explanation, RaceState
from companion.i18n import N_, _

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
"""Marker colours (RGB 0-1) for the map, the order list and the lap chart."""

PARAM_WORDS: dict[str, str] = {
    "Race Line": N_("Race Line"),
    "outside": N_("outside"),
    "accelerate": N_("accelerate"),
    "play a card directly": N_("play a card directly"),
    "reveal a gear": N_("reveal a gear"),
    "reveal cards": N_("reveal cards"),
    "take Adrenaline": N_("take Adrenaline"),
    "cool down": N_("cool down"),
    "boost": N_("boost"),
    "slipstream": N_("slipstream"),
    "end the turn": N_("end the turn"),
    "Stress": N_("Stress"),
    "stress": N_("Stress"),
}
"""Parameter values the engine passes in English; translated before they are filled in.
``tests/ui/test_i18n.py`` scans ``companion/engine`` for every English literal that reaches an
explanation's parameters and fails when one is missing here (or from the catalogs)."""

PARAM_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = ()
"""Parameter values the engine builds with an f-string: the whole value must match; the
named groups fill the translated template."""

_CAR_PARAMS = ("car", "other", "current", "driver")


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def car_label(state: RaceState | None, car_id: str) -> str:
    """A driver's name, or "Legend Black" for a Legend, or the colour name."""
    if state is not None and car_id in state.index:
        car = state.car(car_id)
        if car.legend:
            return _("Legend {colour}").format(colour=colour_name(car_id))
        if car.name and car.name != car_id:
            return car.name
    return colour_name(car_id)


def param_text(value: str) -> str:
    """An English parameter word of the engine in the current language (else unchanged)."""
    if value in PARAM_WORDS:
        return _(PARAM_WORDS[value])
    for pattern, template in PARAM_PATTERNS:
        match = pattern.fullmatch(value)
        if match is not None:
            return _(template).format(**match.groupdict())
    return value


def event_title(event_id: str) -> str:
    """A Championship event card's title in the current language (else the id)."""
    from companion.engine.modules import EVENTS

    event = EVENTS.get(event_id)
    return _(event.title) if event is not None else event_id


def design_name(design_id: str) -> str:
    """A Garage/Sponsorship card design as the table sees it: its family, translated, and its
    speed(s), e.g. "Brakes 1/3" (else the id)."""
    try:
        from companion.engine.garage import DESIGNS
    except ImportError:  # an engine without the Garage module
        return design_id
    design = DESIGNS.get(design_id)
    if design is None:
        return design_id
    speeds = "/".join(str(v) for v in design.speeds)
    return f"{_(design.family)} {speeds}".strip()


UNBUNDLED_TRACKS: dict[str, str] = {"germany": N_("Germany")}
"""Tracks a season names that the app does not bundle (1966 race 2)."""


def track_title(track_id: str) -> str:
    """A bundled track's name in the current language (else the id)."""
    from companion import i18n

    if track_id in UNBUNDLED_TRACKS:
        return _(UNBUNDLED_TRACKS[track_id])
    try:
        import tracks

        return tracks.load_track_info(track_id).display_name(i18n.language())
    except Exception:  # an inline or unknown track
        return track_id


def render(explanation: Explanation, state: RaceState | None = None) -> str:
    """The explanation as one translated sentence, cars named as the table knows them."""
    params: dict[str, str | int] = {}
    for key, value in explanation.params.items():
        if key in _CAR_PARAMS and isinstance(value, str) and value != "-":
            params[key] = car_label(state, value)
        elif key == "event" and isinstance(value, str):
            params[key] = event_title(value)
        elif key == "design" and isinstance(value, str):
            params[key] = design_name(value)
        elif key == "track" and isinstance(value, str):
            params[key] = track_title(value)
        elif isinstance(value, str):
            params[key] = param_text(value)
        else:
            params[key] = value
    template = _(explanation.template)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the fact
        return explanation.template.format(**params)


def format_params(template: str, params: Mapping[str, object]) -> str:
    return _(template).format(**params)
