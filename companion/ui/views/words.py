"""The engine's explanations, and the advanced modules and Garage cards, in the player's
language (Kivy-free).

The engine's explanations carry English templates (the msgids) and raw parameters such as car
ids (``"red"``), spots (``"Race Line"``) and step names (``"reveal cards"``). :func:`render`
translates the template *and* those parameter values, and shows cars by their drivers' names
(:mod:`.names`).

The engine keeps events, Weather and Road Condition tokens and card designs as data; the table
needs to read what each one does. Every sentence here is a msgid (``N_``) translated where it is
shown. Sources: docs/rules.md §3.3 (events), §5 (Weather, Road Conditions), §4.2-4.3 (card symbols).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.modules import EVENTS, Road, Weather
from companion.i18n import N_, _, sentences
from companion.i18n.counts import counted, fill
from companion.i18n.particles import particles

from .names import car_label, track_title

if TYPE_CHECKING:
    from companion.engine import Explanation, RaceState

# --- the engine's explanations ---------------------------------------------------------------

PARAM_WORDS: dict[str, str] = {
    "Race Line": N_("Race Line"),
    "outside": N_("outside"),
    "accelerate": N_("accelerate"),
    "play a card directly": N_("play a card directly"),
    "reveal a gear": N_("reveal a gear"),
    "reveal cards": N_("reveal cards"),
    "take Adrenaline": N_("take Adrenaline"),
    "cool down": N_("cool down"),
    "super cool": N_("super cool"),
    "pay the upgrade cards' Heat": N_("pay the upgrade cards' Heat"),
    "boost": N_("boost"),
    "draft": N_("draft"),
    "slipstream": N_("slipstream"),
    "end the turn": N_("end the turn"),
    "Stress": N_("Stress"),
    "stress": N_("Stress"),
}
"""Parameter values the engine passes in English; translated before they are filled in.
``tests/ui/test_i18n.py`` scans ``companion/engine`` for every English literal that reaches an
explanation's parameters and fails when one is missing here (or from the catalogs)."""

PARAM_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"printed (?P<printed>\d+), road token (?P<road>[+-]?\d+), "
                r"cards (?P<cards>[+-]?\d+)"),
     N_("printed {printed}, road token {road}, cards {cards}")),
    (re.compile(r"printed (?P<printed>\d+), road token (?P<road>[+-]?\d+)"),
     N_("printed {printed}, road token {road}")),
    (re.compile(r"printed (?P<printed>\d+), cards (?P<cards>[+-]?\d+)"),
     N_("printed {printed}, cards {cards}")),
)
"""Parameter values the engine builds with an f-string: the whole value must match; the
named groups fill the translated template."""

_CAR_PARAMS = ("car", "other", "current", "driver")


def param_text(value: str) -> str:
    """An English parameter word of the engine in the current language (else unchanged)."""
    if value in PARAM_WORDS:
        return _(PARAM_WORDS[value])
    for pattern, template in PARAM_PATTERNS:
        match = pattern.fullmatch(value)
        if match is not None:
            return fill(_(template), **match.groupdict())
    return value


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
    # counted words ("2 cards", not "2 card(s)") by the engine's own numbers, never by a name
    counts = {key: value for key, value in explanation.params.items() if isinstance(value, int)}
    template = counted(_(explanation.template), counts)
    try:  # Korean particles by the number or name before them ("3을", not "3을(를)")
        return particles(template.format(**params))
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the fact
        return counted(explanation.template, counts).format(**params)


_OUT_SPIN: dict[tuple[bool, bool], str] = {
    (False, False): N_("Speed {speed} through a limit-{limit} corner needs {owed} Heat but the "
                       "engine has {paid}: {car} spins out and is eliminated (Title sponsor "
                       "withdraws). Take the car off the track."),
    (True, False): N_("Speed {speed} through a limit-{limit} corner ({limit_note}) needs {owed} "
                      "Heat but the engine has {paid}: {car} spins out and is eliminated (Title "
                      "sponsor withdraws). Take the car off the track."),
    (False, True): N_("Speed {speed} through a limit-{limit} corner needs {owed} Heat ({over} "
                      "over the limit, 1 for the Overheat token) but the engine has {paid}: "
                      "{car} spins out and is eliminated (Title sponsor withdraws). Take the car "
                      "off the track."),
    (True, True): N_("Speed {speed} through a limit-{limit} corner ({limit_note}) needs {owed} "
                     "Heat ({over} over the limit, 1 for the Overheat token) but the engine has "
                     "{paid}: {car} spins out and is eliminated (Title sponsor withdraws). Take "
                     "the car off the track."),
}
"""The engine's spin-out sentences (``turn.py`` ``_SPIN``) for a car the spin-out eliminates
(docs/rules.md §3.3: it leaves the track at once): why it spun, then that it is out, and no
space, Stress cards or gear to set (a table was told to put an eliminated car on space 20)."""
OUT_SPIN_SHORT = N_("{car} spins out and is eliminated: take the car off the track.")
"""The same in one short line, for a ruling box with no room for the whole sentence."""


def eliminating_spinout(why: Explanation) -> Explanation:
    """The engine's spin-out sentence ``why`` for a car the spin-out eliminates: the
    :data:`_OUT_SPIN` sentence with the same numbers (the road token or cards' note and the
    Overheat token's Heat where ``why`` gives them)."""
    key = ("({limit_note})" in why.template, "Overheat token" in why.template)
    return replace(why, template=_OUT_SPIN[key])


# --- Championship events ----------------------------------------------------------------------

EVENT_EFFECTS: dict[str, str] = {
    "new-grandstand": N_("The first 3 cars to complete lap 1 gain a Sponsorship card."),
    "new-speed-record": N_("Each time your Speed reaches 15 or more, gain a Sponsorship card."),
    "drivers-strike": N_("The race is 1 lap shorter; the winner gets +2 championship points."),
    "engine-restrictions-lifted": N_("+1 Heat in every engine."),
    "record-crowds": N_("The race is 1 lap longer; hand size 8."),
    "corruption": N_("The top 3 finishers get +1 championship point each."),
    "new-title-sponsor": N_("No special rule."),
    "live-television": N_("Pass 3 cars in one turn: gain a Sponsorship card."),
    "safety-regulations": N_("-2 Heat in the engine, -1 Stress, hand size 6."),
    "title-sponsor-withdraws": N_("+1 Stress in every deck; a spin-out eliminates the car "
                                  "(0 points)."),
    "going-global": N_("2 Sponsorship cards instead of 1 at Press Corners."),
    "turbulent-winds": N_("Slipstream only in gear 3 or 4."),
    "chicanes-for-safety": N_("You may discard Heat at step 8 (table only)."),
    "sudden-heavy-rain": N_("No Adrenaline."),
    "hold-on-tight": N_("At most 1 card discarded per turn (table only)."),
    "smile-and-wave": N_("At Press Corners, a Sponsorship card only when slower than the "
                         "limit."),
    "tunnel-vision": N_("You may discard Stress at step 8 (table only)."),
    "pressure-cooker": N_("The race is 1 lap longer; each lap completed removes 1 Heat from "
                          "the game."),
    "tight-maneuvers": N_("Slipstream -1."),
    "smooth-start": N_("Before the race, put all Stress into your discard pile (table only)."),
    "crowd-goes-wild": N_("The first 2 cars across Corner Line B on each lap gain a "
                          "Sponsorship card."),
    "consulting-mechanics": N_("Each driver chooses +1 Heat and +1 Stress, or -1 Heat and -1 "
                               "Stress."),
}


def event_title(event_id: str) -> str:
    """A Championship event card's title in the current language (else the id)."""
    event = EVENTS.get(event_id)
    return _(event.title) if event is not None else event_id


def event_effect(event_id: str | None) -> str:
    if event_id is None:
        return ""
    return _(EVENT_EFFECTS[event_id]) if event_id in EVENT_EFFECTS else event_id


def event_line(event_id: str | None) -> str:
    """"Title: effect", or "No event"."""
    if event_id is None or event_id not in EVENTS:
        return _("No event")
    return _("{title}: {effect}").format(title=_(EVENTS[event_id].title),
                                         effect=event_effect(event_id))


# --- Weather and Road Conditions -------------------------------------------------------------

WEATHER_NAMES: dict[Weather, str] = {
    Weather.CLOUD: N_("Cloud"), Weather.FOG: N_("Fog"), Weather.STORM: N_("Storm"),
    Weather.SNOW: N_("Snow"), Weather.RAIN: N_("Rain"), Weather.SUN: N_("Sun"),
}
WEATHER_START: dict[Weather, str] = {
    Weather.CLOUD: N_("Start: remove 1 Stress from your deck."),
    Weather.FOG: N_("Start: +1 Heat in your engine."),
    Weather.STORM: N_("Start: shuffle 1 more Stress into your deck."),
    Weather.SNOW: N_("Start: remove 1 Heat from your engine."),
    Weather.RAIN: N_("Start: shuffle 3 Heat from your engine into your deck."),
    Weather.SUN: N_("Start: put 3 Heat from your engine into your discard pile."),
}
WEATHER_SECTOR: dict[Weather, str] = {
    Weather.CLOUD: N_("Weather sectors: no Cooldown."),
    Weather.FOG: N_("Weather sectors: no slipstream may start there."),
    Weather.STORM: N_("Weather sectors: slipstream +2."),
    Weather.SNOW: N_("Weather sectors: +1 Cooldown."),
    Weather.RAIN: N_("Weather sectors: +1 Cooldown."),
    Weather.SUN: N_("Weather sectors: slipstream +2."),
}
ROAD_NAMES: dict[Road, str] = {
    Road.LIMIT_PLUS: N_("Limit +1"), Road.LIMIT_MINUS: N_("Limit -1"),
    Road.OVERHEAT: N_("Overheat"), Road.WEATHER: N_("Weather"),
    Road.FREE_BOOST: N_("Free Boost"), Road.SLIPSTREAM_PLUS: N_("Slipstream +1"),
}
ROAD_EFFECTS: dict[Road, str] = {
    Road.LIMIT_PLUS: N_("the corner's speed limit is 1 higher."),
    Road.LIMIT_MINUS: N_("the corner's speed limit is 1 lower."),
    Road.OVERHEAT: N_("over the limit, pay 1 more Heat."),
    Road.WEATHER: N_("the sector after it has the Weather token's sector effect."),
    Road.FREE_BOOST: N_("in the sector after it, Boost costs no Heat."),
    Road.SLIPSTREAM_PLUS: N_("in the sector after it, slipstream +1."),
}

CHICANE_EFFECTS: dict[Road, str] = {
    Road.LIMIT_PLUS: N_("the speed limit of both corners is 1 higher."),
    Road.LIMIT_MINUS: N_("the speed limit of both corners is 1 lower."),
    Road.OVERHEAT: N_("over either corner's limit, pay 1 more Heat for that corner."),
    Road.WEATHER: N_("the sector after corner {m} has the Weather token's sector effect."),
    Road.FREE_BOOST: N_("in the sector after corner {m}, Boost costs no Heat."),
    Road.SLIPSTREAM_PLUS: N_("in the sector after corner {m}, slipstream +1."),
}
"""What a chicane's one token does (``{m}``: its second corner's number): a limit token
changes both its corners' limit, an overheat token counts at each corner (each line is checked
on its own), a sector token lies on the sector after its second line (docs/rules.md §5.2,
§5.3, §6.5). The words of :data:`ROAD_EFFECTS` said "the corner's speed limit" of a token
that covers two corners."""


def weather_name(weather: Weather) -> str:
    return _(WEATHER_NAMES[weather])


def weather_effect(weather: Weather) -> str:
    return sentences(_(WEATHER_START[weather]), _(WEATHER_SECTOR[weather]))


def road_name(token: Road) -> str:
    return _(ROAD_NAMES[token])


def road_button(corner_no: int, token: Road | None, chicane_no: int | None = None) -> str:
    """New race's button that sets a corner's Road Condition token (``None``: none yet); a
    chicane's names both its corners (``chicane_no``: the second's number), as its
    :func:`road_line` does (its button named the first alone: found by a helper)."""
    name = road_name(token) if token is not None else "-"
    if chicane_no is not None:
        return _("Corners {n} and {m}: {token}").format(n=corner_no, m=chicane_no, token=name)
    return _("Corner {n}: {token}").format(n=corner_no, token=name)


def road_line(corner_no: int, token: Road, chicane_no: int | None = None) -> str:
    """A corner's Road Condition token and what it does; a chicane's (``chicane_no``: the
    number of its second line) names both its corners, as the map fills both their rings:
    one token covers both lines (docs/rules.md §5.2, §6.5). The line named the first corner
    alone beside two filled rings (found by a table test)."""
    if chicane_no is not None:
        effect = fill(_(CHICANE_EFFECTS[token]), m=chicane_no)
        return _("Corners {n} and {m} (a chicane): {token}: {effect}").format(
            n=corner_no, m=chicane_no, token=road_name(token), effect=effect)
    return _("Corner {n}: {token}: {effect}").format(
        n=corner_no, token=road_name(token), effect=_(ROAD_EFFECTS[token]))


# --- Garage and Sponsorship cards ------------------------------------------------------------


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


def design_symbols(design_id: str) -> str:
    """A card's speed and symbols in words: "Speed 1 or 3 · Heat 1 · Cooldown 2", each dot
    kept on the line of the figure before it (a no-break space before it: in the Garage
    draft's narrow hands column a line began with it, "· 冷卻 3"; found by a table test)."""
    from companion.engine.garage import DESIGNS

    design = DESIGNS.get(design_id)
    if design is None:
        return design_id
    if design.heat_card:
        return _("A Heat card: never played.")
    parts: list[str] = []
    if design.choice:
        parts.append(_("Speed {values} (choose)").format(
            values="/".join(str(v) for v in design.speeds)))
    else:
        parts.append(_("Speed {speed}").format(speed=design.speeds[0]))
    counts = (
        (design.plus, N_("{n} \"+\" (flip a Basic card)")), (design.heat, N_("Heat {n}")),
        (design.cooldown, N_("Cooldown {n}")), (design.slipstream, N_("Slipstream +{n}")),
        (design.accelerate, N_("Accelerate {n}")), (design.super_cool, N_("Super cool {n}")),
        (design.scrap, N_("Scrap {n}")), (design.reduce_stress, N_("Reduce Stress {n}")),
        (design.salvage, N_("Salvage {n}")), (design.draft, N_("Draft {n}")),
    )
    parts += [fill(_(template), n=n) for n, template in counts if n]
    if design.limit:
        parts.append(_("Speed limit {n}").format(n=f"{design.limit:+d}"))
    if design.refresh:
        parts.append(_("Refresh"))
    if design.direct:
        parts.append(_("Direct play"))
    if design.sponsor:
        parts.append(_("One-time use"))
    return SEPARATOR.join(parts)


SEPARATOR = "\u00a0· "
"""Between a card's figures: a line may break after the dot, never before it."""


def design_card(design_id: str) -> str:
    """Name and symbols on two lines, for a card button."""
    return f"{design_name(design_id)}\n{design_symbols(design_id)}"


# --- choices on the New race and Next race screens -------------------------------------------


def deck_label(deck: str) -> str:
    """The Garage deck choice (``modules_form.DECKS``) on its button."""
    return {"basic": _("Deck: Basic"), "advanced": _("Deck: Advanced"),
            "both": _("Deck: Basic and Advanced")}[deck]


def mechanics_choice(car: str, choice: int) -> str:
    """A driver's choice under Consulting the mechanics (+1 or -1), on its button."""
    return (_("{car}: +1 Heat and +1 Stress") if choice > 0
            else _("{car}: -1 Heat and -1 Stress")).format(car=car)
