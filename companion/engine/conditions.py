"""Where a race's modules change a rule: corner limits, sectors, Cooldown, Boost, Slipstream.

With no modules every function here returns the base-game value, so the round rules in
``rules.py`` read the same whether or not a race uses events, weather or road conditions.
Sources: docs/rules.md §5 (Weather & Road Conditions), §3.3 (events), §1.7-1.9.
"""

from __future__ import annotations

from .modules import Road, Weather
from .state import CarState, RaceState
from .track import Corner

BASE_SLIPSTREAM = 2
"""docs/rules.md §1.8."""


def road_token(state: RaceState, corner: Corner) -> Road | None:
    """The Road Condition token of a corner; a chicane's two lines share one (docs/rules.md §6)."""
    road = state.modules.road
    token = road.get(corner.line_after)
    if token is None and corner.chicane_with is not None:
        token = road.get(corner.chicane_with)
    return token


def corner_limit(state: RaceState, corner: Corner) -> int:
    """The speed limit in force: the printed one, +1 or -1 by a road condition (docs/rules.md
    §5)."""
    token = road_token(state, corner)
    if token is Road.LIMIT_PLUS:
        return corner.limit + 1
    if token is Road.LIMIT_MINUS:
        return max(0, corner.limit - 1)
    return corner.limit


def overheats(state: RaceState, corner: Corner) -> bool:
    """Overheat token: 1 more Heat owed when over the limit (docs/rules.md §1.9, §5)."""
    return road_token(state, corner) is Road.OVERHEAT


def sector_corner(state: RaceState, distance: int) -> Corner | None:
    """The corner whose sector (the stretch after its Corner Line up to the next corner's line)
    holds ``distance`` (docs/rules.md §5.3). The spaces between the two lines of a chicane are
    the chicane's own sector, which carries no token: None there (BGA blanks that sector; a
    chicane's token, keyed by its first line, lies on the sector after its second line)."""
    track = state.track
    if not track.corners:
        return None
    space = track.space_of(distance)
    behind = [c for c in track.corners if c.line_after < space]
    corner = behind[-1] if behind else track.corners[-1]
    if corner.chicane_with is not None and corner.chicane_with > corner.line_after:
        return None  # between the two lines of a chicane
    return corner


def sector_token(state: RaceState, distance: int) -> Road | None:
    if not state.modules.road:  # the base game: no tokens, no sector to look up
        return None
    corner = sector_corner(state, distance)
    if corner is None:
        return None
    token = road_token(state, corner)
    return token if token is not None and token.on_sector else None


def sector_weather(state: RaceState, distance: int) -> Weather | None:
    """The Weather token's sector effect applies where a "weather" road token lies."""
    if sector_token(state, distance) is Road.WEATHER:
        return state.modules.weather
    return None


def cooldown_allowed(state: RaceState, car: CarState) -> bool:
    """Cloud weather sector: no Cooldown during React (docs/rules.md §5). Super cool is a symbol of
    its own and stays allowed (docs/rules.md §4.3)."""
    return sector_weather(state, car.distance) is not Weather.CLOUD


def cooldown_bonus(state: RaceState, car: CarState) -> int:
    """Snow and Rain weather sectors: +1 Cooldown (docs/rules.md §5)."""
    return 1 if sector_weather(state, car.distance) in (Weather.SNOW, Weather.RAIN) else 0


def boost_is_free(state: RaceState, car: CarState) -> bool:
    """Heat-control road token: Boost without paying Heat, still once per turn (docs/rules.md
    §5)."""
    return sector_token(state, car.distance) is Road.FREE_BOOST


def plain_slipstream_spaces(state: RaceState, car: CarState) -> int | None:
    """How far a slipstream from here goes without the sector's optional bonus, or None when
    this sector or the event forbids starting one (docs/rules.md §1.8; §3.3 Turbulent winds, Tight
    maneuvers; §5 Fog)."""
    event = state.modules.event_card
    spaces = BASE_SLIPSTREAM
    if event is not None:
        if car.gear < event.slipstream_min_gear:
            return None
        spaces += event.slipstream_bonus
    if sector_weather(state, car.distance) is Weather.FOG:
        return None
    return spaces


def sector_slipstream_bonus(state: RaceState, car: CarState) -> int:
    """The optional slipstream bonus of the car's sector: +2 in a Storm or Sun weather sector,
    +1 on a slipstream road token (docs/rules.md §5.4: "you may add"). A sector holds one road
    token, so at most one of them applies."""
    token = sector_token(state, car.distance)
    if token is Road.SLIPSTREAM_PLUS:
        return 1
    if token is Road.WEATHER and state.modules.weather in (Weather.STORM, Weather.SUN):
        return 2
    return 0


def slipstream_spaces(state: RaceState, car: CarState) -> int | None:
    """How far a slipstream from here goes with the sector's bonus taken (the usual choice), or
    None when it is forbidden."""
    plain = plain_slipstream_spaces(state, car)
    return None if plain is None else plain + sector_slipstream_bonus(state, car)


def adrenaline_in_play(state: RaceState) -> bool:
    """Sudden heavy rain (1964 race 4): no Adrenaline (docs/rules.md §1.6, §3.3)."""
    event = state.modules.event_card
    return event is None or event.adrenaline


def hand_size(state: RaceState) -> int:
    """7, or the event's hand size (Record crowds 8, Safety regulations 6)."""
    event = state.modules.event_card
    return 7 if event is None else event.hand_size
