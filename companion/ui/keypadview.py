"""The card keypads of the race screen (Kivy-free): which keys the reveal, its flips and the
Boost show, and what they ask.

Built from the typed :class:`~companion.ui.keypad.Entry` and the race state; the keys a car may
not use are shown disabled.
"""

from __future__ import annotations

from typing import Any

from companion.engine import Boost, RaceState, validate
from companion.engine.garage import DESIGNS
from companion.i18n import _

from .keypad import BASIC_KEYS, CARD_KEYS, Entry, upgrade_keys
from .raceview import RaceView
from .words import design_name


def reveal_view(state: RaceState, entry: Entry, status: str, name: str,
                common: dict[str, Any]) -> RaceView:
    """Step 3: the cards revealed (and the Basic cards flipped for Stress, values, "+"s and
    Heat the engine cannot pay)."""
    car = state.car(state.current_car or "")
    gear = car.gear
    parsed = entry.parse()
    text = entry.text()
    back = ("back", "<", True)
    if entry.unpaid_needed:
        keys = tuple((str(v), str(v), entry.allowed(str(v), car)) for v in BASIC_KEYS)
        return RaceView(
            "unpaid", status,
            _("The engine cannot pay the Heat of {count} card(s): flip a Basic card for "
              "each and enter it (it counts as a Stress card).").format(
                count=entry.unpaid_needed),
            entry=text, keys=(*keys, back),
            can_confirm=len(entry.unpaid) == entry.unpaid_needed, **common)
    if parsed.pending == "flip":
        keys = tuple((str(v), str(v), True) for v in BASIC_KEYS) + (back,)
        return RaceView(
            "flip", status,
            _("Stress card: flip Basic cards until one shows, enter its value."),
            entry=text, keys=keys, **common)
    if parsed.pending == "value":
        design = parsed.design or ""
        keys = tuple((str(v), str(v), True) for v in DESIGNS[design].speeds) + (back,)
        return RaceView("value", status, _("{card}: which value is played?").format(
            card=design_name(design)), entry=text, keys=keys, **common)
    if parsed.pending == "plus":
        keys = tuple((str(v), str(v), True) for v in BASIC_KEYS) + (back,)
        return RaceView(
            "plus", status,
            _("{card}: flip a Basic card for its \"+\" and enter its value.").format(
                card=design_name(parsed.design or "")), entry=text, keys=keys, **common)
    room = len(parsed.cards) < gear
    values = BASIC_KEYS if car.upgrades else CARD_KEYS
    typed: list[tuple[str, str, bool]] = [(str(v), str(v), room) for v in values]
    typed.append(("stress", _("Stress"), room))
    typed += [(f"up:{design}", design_name(design), room and enabled)
              for design, enabled in upgrade_keys(car, parsed)]
    typed.append(("back", "<", bool(entry.keys)))
    return RaceView(
        "reveal", status,
        _("{car} is in gear {gear}: enter the {gear} cards revealed.").format(
            car=name, gear=gear),
        entry=text, keys=tuple(typed), can_confirm=len(parsed.cards) == gear, **common)


def boost_view(state: RaceState, current: str, status: str, name: str,
               common: dict[str, Any]) -> RaceView:
    """The Boost keypad: the Basic card flipped for it."""
    keys = tuple(
        (str(v), str(v), validate(state, Boost(current, v)) is None) for v in BASIC_KEYS
    )
    return RaceView("boost", status,
                    _("{car} boosts: flip a Basic card and enter it.").format(car=name),
                    keys=keys, **common)
