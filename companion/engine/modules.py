"""The advanced modules' effects on a race: Championship events, Weather, Road Conditions,
tournament mode (docs/rules.md §3, §5, §6 and the Garage booklet's variants).

Everything here is data: :class:`RaceModules` says which event, weather token and road-condition
tokens a race uses, and :func:`effects` turns that into :class:`RaceEffects`, the small set of
switches and numbers the round rules read. Sponsorship triggers are named so the engine can award
cards and explain them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from .explain import N_


class Weather(Enum):
    """The six Weather tokens (docs/rules.md §5; BGA numbering, identified by effect)."""

    CLOUD = 0
    """Start: remove 1 Stress from your deck. Sector: no Cooldown."""
    FOG = 1
    """Start: +1 Heat in your engine. Sector: no slipstream may start here."""
    STORM = 2
    """Start: shuffle +1 Stress into your deck. Sector: slipstream +2."""
    SNOW = 3
    """Start: remove 1 Heat from your engine. Sector: +1 Cooldown."""
    RAIN = 4
    """Start: shuffle 3 of your engine's Heat into your deck. Sector: +1 Cooldown."""
    SUN = 5
    """Start: put 3 of your engine's Heat into your discard pile. Sector: slipstream +2."""


class Road(Enum):
    """The six kinds of Road Condition token (docs/rules.md §5): three on the corner, three on the
    sector after it."""

    LIMIT_PLUS = "limit+1"
    LIMIT_MINUS = "limit-1"
    OVERHEAT = "overheat"
    WEATHER = "weather"
    FREE_BOOST = "free-boost"
    SLIPSTREAM_PLUS = "slipstream+1"

    @property
    def on_sector(self) -> bool:
        return self in (Road.WEATHER, Road.FREE_BOOST, Road.SLIPSTREAM_PLUS)


class Sponsorship(Enum):
    """What earns a Sponsorship card in a race (docs/rules.md §3.3, §3.4)."""

    PRESS_CORNER = "press-corner"
    GRANDSTAND = "grandstand"
    SPEED_RECORD = "speed-record"
    LIVE_TV = "live-tv"
    CROWD = "crowd"


@dataclass(frozen=True, slots=True)
class Event:
    """A Championship event card (docs/rules.md §3.3), as data."""

    id: str
    title: str
    laps: int = 0
    engine_heat: int = 0
    """Heat added to (or taken from) every car's engine at the start."""
    stress: int = 0
    """Stress cards added to (or taken from) every deck."""
    hand_size: int = 7
    adrenaline: bool = True
    slipstream_min_gear: int = 1
    slipstream_bonus: int = 0
    spinout_eliminates: bool = False
    heat_lost_per_lap: int = 0
    press_sponsors: int = 1
    press_only_below_limit: bool = False
    triggers: frozenset[Sponsorship] = frozenset()
    winner_bonus: int = 0
    top_three_bonus: int = 0
    choose_heat_and_stress: bool = False
    """Consulting the mechanics: each driver picks +1 Heat & +1 Stress or -1 & -1."""


def _event(id: str, title: str, **kw: object) -> Event:
    return Event(id, title, **kw)  # type: ignore[arg-type]


EVENTS: Mapping[str, Event] = MappingProxyType({e.id: e for e in (
    # 1961
    _event("new-grandstand", N_("New grandstand inauguration"),
           triggers=frozenset({Sponsorship.GRANDSTAND})),
    _event("new-speed-record", N_("New speed record"),
           triggers=frozenset({Sponsorship.SPEED_RECORD})),
    _event("drivers-strike", N_("Drivers' strike"), laps=-1, winner_bonus=2),
    # 1962
    _event("engine-restrictions-lifted", N_("Engine restrictions lifted"), engine_heat=1),
    _event("record-crowds", N_("Record crowds"), laps=1, hand_size=8),
    _event("corruption", N_("Corruption in rules committee"), top_three_bonus=1),
    # 1963
    _event("new-title-sponsor", N_("New title sponsor")),
    _event("live-television", N_("First live televised race"),
           triggers=frozenset({Sponsorship.LIVE_TV})),
    _event("safety-regulations", N_("New safety regulations"), engine_heat=-2, stress=-1,
           hand_size=6),
    _event("title-sponsor-withdraws", N_("Title sponsor withdraws"), stress=1,
           spinout_eliminates=True),
    # 1964
    _event("going-global", N_("Going global"), press_sponsors=2),
    _event("turbulent-winds", N_("Turbulent winds"), slipstream_min_gear=3),
    _event("chicanes-for-safety", N_("Chicanes for increased safety")),
    _event("sudden-heavy-rain", N_("Sudden heavy rain delays race"), adrenaline=False),
    # 1965
    _event("hold-on-tight", N_("Hold on tight")),
    _event("smile-and-wave", N_("Smile and wave"), press_only_below_limit=True),
    _event("tunnel-vision", N_("Tunnel vision")),
    _event("pressure-cooker", N_("Pressure cooker"), laps=1, heat_lost_per_lap=1),
    # 1966 (docs/rules.md marks its texts as less certain)
    _event("tight-maneuvers", N_("Tight maneuvers"), slipstream_bonus=-1),
    _event("smooth-start", N_("Smooth start")),
    _event("crowd-goes-wild", N_("The crowd goes wild"), triggers=frozenset({Sponsorship.CROWD})),
    _event("consulting-mechanics", N_("Consulting the mechanics"), choose_heat_and_stress=True),
)})
"""Every event of docs/rules.md §3.3. Events whose effect is only on what players may discard
(chicanes-for-safety, hold-on-tight, tunnel-vision, smooth-start) change nothing the engine
tracks: the table applies them to the cards in hand."""


WEATHER_START: Mapping[Weather, tuple[int, int, int]] = MappingProxyType({
    # (Heat into engine from the supply, Heat out of the engine kept in the deck/discard,
    #  Stress in deck) — docs/rules.md §5 table.
    Weather.CLOUD: (0, 0, -1),
    Weather.FOG: (1, 0, 0),
    Weather.STORM: (0, 0, 1),
    Weather.SNOW: (-1, 0, 0),
    Weather.RAIN: (0, 3, 0),
    Weather.SUN: (0, 3, 0),
})


@dataclass(frozen=True, slots=True)
class RaceModules:
    """The modules a race uses (docs/rules.md §3, §5): all optional."""

    event: str | None = None
    weather: Weather | None = None
    road: Mapping[int, Road] = field(default_factory=lambda: MappingProxyType({}))
    """Road Condition token per corner, keyed by the corner's ``line_after``; a chicane's
    token sits on its first line and covers both."""
    press_corners: tuple[int, ...] = ()
    """``line_after`` of this race's Press Corners (from the event card's letters)."""
    tournament: bool = False
    """Tournament variant: each gear is revealed together with the cards (a two-gear shift
    still costs 1 Heat)."""

    @property
    def event_card(self) -> Event | None:
        return EVENTS[self.event] if self.event is not None else None


NO_MODULES = RaceModules()
