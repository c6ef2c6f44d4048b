"""Garage upgrade and Sponsorship card designs, as data (docs/rules.md §4.2, §3.4).

Each design is a card with a speed (fixed, or a choice for Brakes-like cards), "+" symbols
(each resolved like a Stress card: flip to a Basic card), and the symbols the engine tracks:
Heat to pay, Cooldown, Super cool, Slipstream +N, speed-limit adjustment, Accelerate and Draft.
The symbols that only move cards between the deck, hand and discard pile (Scrap, Reduce Stress,
Refresh, Salvage) change nothing the engine tracks; they are kept so the app can show the card.

The expansions' designs carry the expansion they come with: Heavy Rain's Air Intake (Super cool)
joins the Advanced deck, as Board Game Arena deals it (its Cards data, types 49-54). Sponsorship
cards: the five base designs, Heavy Rain's Mercury air system and Tunnel Vision's Eole Wings
(docs/rules.md §3.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .explain import N_


@dataclass(frozen=True, slots=True)
class Design:
    id: str
    family: str
    """Card family as printed ("Wings", "Tires"…), a msgid."""
    speeds: tuple[int, ...]
    """The speed, or the values to choose from (Brakes, Dramdo, R.P.M. 1-or-2)."""
    plus: int = 0
    heat: int = 0
    cooldown: int = 0
    slipstream: int = 0
    limit: int = 0
    accelerate: int = 0
    super_cool: int = 0
    """Super cool N: up to N Heat from the discard pile back to the engine (docs/rules.md §4.3)."""
    draft: int = 0
    """Draft N: move up to N spaces through empty spaces to right behind a car (docs/rules.md §4.3;
    docs/rules-decisions.md)."""
    scrap: int = 0
    reduce_stress: int = 0
    salvage: int = 0
    refresh: bool = False
    direct: bool = False
    advanced: bool = False
    sponsor: bool = False
    """A Sponsorship card: one-time use, removed from the game after play (docs/rules.md §3.4)."""
    heat_card: bool = False
    """The Garage's Heat card design: one more Heat card in the deck, never played."""
    expansion: str = ""
    """The expansion the card comes with (``heavy-rain``, ``tunnel-vision``); "" = base box."""

    @property
    def choice(self) -> bool:
        return len(self.speeds) > 1


def _d(id: str, family: str, speeds: int | tuple[int, ...], **kw: int | bool | str) -> Design:
    values = speeds if isinstance(speeds, tuple) else (speeds,)
    return Design(id, family, values, **kw)  # type: ignore[arg-type]


_FWD, _BODY, _BRAKES = N_("4 Wheel Drive"), N_("Body"), N_("Brakes")
_COOL, _RPM, _FUEL = N_("Cooling System"), N_("R.P.M."), N_("Fuel")
_GAS, _SUSP, _TIRES = N_("Gas Pedal"), N_("Suspension"), N_("Tires")
_TURBO, _WINGS, _SPONSOR = N_("Turbocharger"), N_("Wings"), N_("Sponsorship")
_AIR = N_("Air Intake")
HEAVY_RAIN, TUNNEL_VISION = "heavy-rain", "tunnel-vision"
EXPANSIONS = (HEAVY_RAIN, TUNNEL_VISION)

DESIGNS: Mapping[str, Design] = MappingProxyType({d.id: d for d in (
    # Basic (docs/rules.md §4.2)
    _d("4wd-4", _FWD, 4, plus=1),
    _d("4wd-0-plus3", _FWD, 0, plus=3),
    _d("4wd-0-cool3", _FWD, 0, plus=1, cooldown=3),
    _d("body-3", _BODY, 3, reduce_stress=2),
    _d("body-5", _BODY, 5, reduce_stress=1),
    _d("body-1", _BODY, 1, reduce_stress=3),
    _d("brakes-1234", _BRAKES, (1, 2, 3, 4), heat=1),
    _d("brakes-13", _BRAKES, (1, 3)),
    _d("brakes-24", _BRAKES, (2, 4)),
    _d("brakes-15", _BRAKES, (1, 5)),
    _d("cooling-6", _COOL, 6, heat=1, cooldown=1),
    _d("cooling-1", _COOL, 1, cooldown=2),
    _d("cooling-3", _COOL, 3, cooldown=1),
    _d("rpm-1", _RPM, 1, slipstream=2),
    _d("rpm-2", _RPM, 2, slipstream=2),
    _d("rpm-3", _RPM, 3, slipstream=2),
    # Advanced
    _d("body-6", _BODY, 6, reduce_stress=3, heat=1, advanced=True),
    _d("body-2-cool", _BODY, 2, reduce_stress=1, cooldown=1, scrap=2, advanced=True),
    _d("body-2-slip", _BODY, 2, reduce_stress=1, slipstream=1, advanced=True),
    _d("cooling-4", _COOL, 4, scrap=2, cooldown=1, advanced=True),
    _d("fuel-2", _FUEL, 2, salvage=2, advanced=True),
    _d("fuel-0", _FUEL, 0, plus=1, salvage=2, cooldown=1, advanced=True),
    _d("gas-1", _GAS, 1, scrap=1, direct=True, advanced=True),
    _d("gas-2", _GAS, 2, scrap=2, direct=True, advanced=True),
    _d("gas-3", _GAS, 3, scrap=3, direct=True, advanced=True),
    _d("gas-4", _GAS, 4, heat=1, cooldown=1, direct=True, advanced=True),
    _d("gas-1-accelerate", _GAS, 1, accelerate=1, scrap=5, direct=True, advanced=True),
    _d("rpm-0", _RPM, 0, plus=1, slipstream=3, advanced=True),
    _d("rpm-1-heat", _RPM, 1, heat=1, slipstream=3, advanced=True),
    _d("rpm-12", _RPM, (1, 2), slipstream=1, advanced=True),
    _d("suspension-2-reduce", _SUSP, 2, reduce_stress=1, refresh=True, advanced=True),
    _d("suspension-2-cool", _SUSP, 2, cooldown=1, refresh=True, advanced=True),
    _d("suspension-4", _SUSP, 4, refresh=True, advanced=True),
    _d("suspension-1", _SUSP, 1, slipstream=1, refresh=True, advanced=True),
    _d("tires-2", _TIRES, 2, limit=-1, cooldown=3, advanced=True),
    _d("tires-1", _TIRES, 1, scrap=2, limit=1, advanced=True),
    _d("tires-2-scrap", _TIRES, 2, scrap=2, limit=1, advanced=True),
    _d("tires-3", _TIRES, 3, limit=-1, cooldown=2, advanced=True),
    _d("tires-0", _TIRES, 0, plus=1, limit=1, slipstream=1, cooldown=1, advanced=True),
    _d("tires-0-plus2", _TIRES, 0, plus=2, limit=2, advanced=True),
    _d("turbo-7", _TURBO, 7, heat=2, cooldown=3, advanced=True),
    _d("turbo-8", _TURBO, 8, heat=1, scrap=6, advanced=True),
    _d("wings-4", _WINGS, 4, heat=1, scrap=2, limit=2, advanced=True),
    _d("wings-3", _WINGS, 3, heat=1, scrap=2, limit=2, advanced=True),
    _d("wings-6", _WINGS, 6, heat=2, limit=3, advanced=True),
    _d("4wd-0-accelerate", _FWD, 0, plus=1, accelerate=1, advanced=True),
    _d("heat", N_("Heat"), (), heat_card=True),
    # Heavy Rain: Air Intake, all with Super cool 1 (BGA Cards data, types 49-54).
    _d("air-intake-1-salvage", _AIR, 1, super_cool=1, salvage=4, limit=-1, advanced=True,
       expansion=HEAVY_RAIN),
    _d("air-intake-0-slip", _AIR, 0, super_cool=1, slipstream=1, reduce_stress=1,
       advanced=True, expansion=HEAVY_RAIN),
    _d("air-intake-1-cool", _AIR, 1, super_cool=1, cooldown=1, scrap=1, advanced=True,
       expansion=HEAVY_RAIN),
    _d("air-intake-3", _AIR, 3, super_cool=1, scrap=3, advanced=True, expansion=HEAVY_RAIN),
    _d("air-intake-4", _AIR, 4, super_cool=1, scrap=4, advanced=True, expansion=HEAVY_RAIN),
    _d("air-intake-0-plus", _AIR, 0, plus=1, super_cool=1, refresh=True, limit=-1,
       advanced=True, expansion=HEAVY_RAIN),
    # Sponsorship cards (docs/rules.md §3.4): base designs, Heavy Rain's Mercury air system and
    # Tunnel Vision's Eole Wings Industries.
    _d("sponsor-dramdo", _SPONSOR, (1, 2, 3, 4), sponsor=True),
    _d("sponsor-fredo", _SPONSOR, 4, cooldown=2, sponsor=True),
    _d("sponsor-aperault", _SPONSOR, 1, slipstream=2, sponsor=True),
    _d("sponsor-lord", _SPONSOR, 6, sponsor=True),
    _d("sponsor-deangeli", _SPONSOR, 3, limit=1, sponsor=True),
    _d("sponsor-mercury", _SPONSOR, 0, super_cool=2, sponsor=True, expansion=HEAVY_RAIN),
    _d("sponsor-eole", _SPONSOR, 5, draft=2, sponsor=True, expansion=TUNNEL_VISION),
)})
"""Not yet here: Tunnel Vision's six Front Wing designs (Draft). Their numbers are not in
docs/rules.md or in any version of BGA's card data this project could read, and a design is not
guessed (docs/rules-decisions.md)."""
