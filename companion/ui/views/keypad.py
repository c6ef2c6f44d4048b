"""The card keypads of the race screen (Kivy-free): the cards a car reveals, typed key by key,
and what the keypads show and ask (:func:`reveal_view`, :func:`boost_view`).

The keys typed are kept as a list and the entry is read from them, so "back" simply forgets the
last key (a flipped card before its Stress card, a "+" flip before its upgrade card). Keys:

* ``0``-``5``: a Basic card (0 and 5 only with the Starting Upgrades, i.e. without a Garage);
* ``stress``: a Stress card, then the Basic card flipped for it;
* ``up:<design>``: a Garage upgrade or Sponsorship card (``companion.engine.garage``); a card
  with a choice then asks its value, and each "+" the Basic card flipped for it;
* after Move, when the engine cannot pay a card's Heat, the Basic card flipped for each such
  card (it resolves as a Stress card; ``Reveal.unpaid``).

One car's keypad keeps its keys in the same places whatever it asks next (cards, a flipped
card, a value): only what each key accepts changes. A key that cannot be typed now is shown
disabled, and says why when tapped (:meth:`Entry.why_not`). The cards go in when the last one
is typed (:attr:`Entry.complete`): no Move key to confirm what the count already says; Undo
puts them back on the keypad to fix a mistyped one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.engine import (
    STRESS,
    Boost,
    CarState,
    RaceState,
    Reveal,
    TurnStage,
    Upgrade,
    validate,
)
from companion.engine.garage import DESIGNS
from companion.engine.gate import COPIES_IN_DECK
from companion.i18n import N_, _
from companion.i18n.counts import fill

from .names import car_name
from .race_view import RaceView
from .words import design_name, render

CARD_KEYS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
BASIC_KEYS: tuple[int, ...] = (1, 2, 3, 4)
UNPAID_TEMPLATE = ("The engine cannot pay for {count} upgrade card(s): give a flipped Basic card "
                   "for each (they resolve as Stress), not {given}.")
"""The engine's rejection that asks for ``unpaid`` flips (``checks._validate_reveal``)."""
SPONSOR_DESIGNS: tuple[str, ...] = tuple(d.id for d in DESIGNS.values() if d.sponsor)


@dataclass
class UpCard:
    design: str
    value: int | None = None
    plus: list[int] = field(default_factory=list)

    def card(self) -> Upgrade:
        return Upgrade(self.design, self.value, tuple(self.plus))

    def text(self) -> str:
        name = design_name(self.design)
        design = DESIGNS[self.design]
        if design.choice:
            name += "=" + (str(self.value) if self.value is not None else "?")
        if design.plus:
            flips = [str(v) for v in self.plus] + ["?"] * (design.plus - len(self.plus))
            name += " (+" + ",".join(flips) + ")"
        return name


@dataclass
class Parsed:
    cards: list[int | str | UpCard]
    flips: list[int]
    pending: str | None = None
    """``flip`` (a Stress card's), ``value`` (a card's choice), ``plus`` (a "+" flip)."""
    design: str | None = None
    """The upgrade card waiting for its value or "+" flips."""

    def reveal_cards(self) -> tuple[int | str | Upgrade, ...]:
        return tuple(c.card() if isinstance(c, UpCard) else c for c in self.cards)


@dataclass
class Entry:
    keys: list[str] = field(default_factory=list)
    boosting: bool = False
    unpaid_needed: int = 0
    unpaid: list[int] = field(default_factory=list)

    def clear(self) -> None:
        self.keys.clear()
        self.unpaid.clear()
        self.unpaid_needed = 0
        self.boosting = False

    def parse(self) -> Parsed:
        out = Parsed([], [])
        for key in self.keys:
            card = out.cards[-1] if out.cards else None
            if out.pending == "flip":
                out.flips.append(int(key))
                out.pending = None
            elif out.pending == "value" and isinstance(card, UpCard):
                card.value = int(key)
                out.pending = "plus" if DESIGNS[card.design].plus else None
            elif out.pending == "plus" and isinstance(card, UpCard):
                card.plus.append(int(key))
                if len(card.plus) == DESIGNS[card.design].plus:
                    out.pending = None
            elif key == STRESS:
                out.cards.append(STRESS)
                out.pending = "flip"
            elif key.startswith("up:"):
                design = DESIGNS[key[3:]]
                out.cards.append(UpCard(design.id))
                out.pending = "value" if design.choice else ("plus" if design.plus else None)
            else:
                out.cards.append(int(key))
            out.design = out.cards[-1].design if out.pending in ("value", "plus") and isinstance(
                out.cards[-1], UpCard) else None
        return out

    @property
    def flip_pending(self) -> bool:
        return self.parse().pending is not None

    def complete(self, car: CarState) -> bool:
        """Everything the car revealed is typed: as many cards as its gear, each with its
        flipped card and value, and a flipped card for each card the engine cannot pay."""
        if self.unpaid_needed:
            return len(self.unpaid) == self.unpaid_needed
        parsed = self.parse()
        return parsed.pending is None and len(parsed.cards) == car.gear

    def restore(self, reveal: Reveal) -> None:
        """Put an undone reveal back on the keypad, key by key."""
        self.clear()
        flips = iter(reveal.stress)
        for card in reveal.cards:
            if card == STRESS:
                self.keys.append(STRESS)
                flip = next(flips, None)
                if flip is not None:
                    self.keys.append(str(flip))
            elif isinstance(card, Upgrade):
                self.keys.append(f"up:{card.design}")
                if card.value is not None and DESIGNS[card.design].choice:
                    self.keys.append(str(card.value))
                self.keys += [str(v) for v in card.plus]
            else:
                self.keys.append(str(card))
        if reveal.unpaid:
            self.unpaid_needed = len(reveal.unpaid)
            self.unpaid = list(reveal.unpaid)

    def allowed(self, key: str, car: CarState, shown: tuple[int, ...] = ()) -> bool:
        """May ``key`` be typed now (the keypad's own limits; the engine judges the play)?
        ``shown``: the Basic card values already in play this turn before this keypad (the
        cards revealed, when it asks the flips of cards left unpaid after Cooldown)."""
        parsed = self.parse()
        return self._allowed(key, car, parsed) and not self._all_copies_in(key, parsed, shown)

    def _allowed(self, key: str, car: CarState, parsed: Parsed) -> bool:
        if self.unpaid_needed:
            return key.isdigit() and int(key) in BASIC_KEYS and (
                len(self.unpaid) < self.unpaid_needed)
        if parsed.pending == "value":
            return key.isdigit() and int(key) in DESIGNS[parsed.design or ""].speeds
        if parsed.pending in ("flip", "plus"):
            return key.isdigit() and int(key) in BASIC_KEYS
        if len(parsed.cards) >= car.gear:
            return False
        if key == STRESS:
            return True
        if key.startswith("up:"):
            return dict(upgrade_keys(car, parsed)).get(key[3:], False)
        values = BASIC_KEYS if car.upgrades else CARD_KEYS
        return key.isdigit() and int(key) in values

    def _all_copies_in(self, key: str, parsed: Parsed, shown: tuple[int, ...]) -> bool:
        """``key`` would be one more Basic card of a value whose every copy in a deck is in
        play already (docs/rules.md §0: three of each value 1-4, one 0 and one 5): the engine
        refuses the play, so the key is greyed before it is typed (a fourth 1 was typed,
        then refused; found by a table test). A card's chosen value is no Basic card."""
        if not key.isdigit() or int(key) not in COPIES_IN_DECK or (
                parsed.pending == "value" and not self.unpaid_needed):
            return False
        value = int(key)
        return basic_in_play(parsed, self.unpaid, shown).count(value) >= COPIES_IN_DECK[value]

    def why_not(self, key: str, car: CarState, shown: tuple[int, ...] = ()) -> str:
        """Why ``key`` cannot be typed now, in words ("" if it can)."""
        if key == "back":
            return "" if self.keys or self.unpaid_needed else _("No card entered yet.")
        parsed = self.parse()
        if not self._allowed(key, car, parsed):
            return self._why_refused(key, car, parsed)
        if self._all_copies_in(key, parsed, shown):
            return fill(_("Every card of value {value} (a deck has {copies}) is in play this "
                          "turn already."), value=int(key), copies=COPIES_IN_DECK[int(key)])
        return ""

    def _why_refused(self, key: str, car: CarState, parsed: Parsed) -> str:
        if self.unpaid_needed:
            if key.isdigit() and int(key) in BASIC_KEYS:
                return fill(_("{count} of {count} flipped card(s) entered: no more are "
                              "needed. Tap < to change one."), count=self.unpaid_needed)
            return _("Enter a flipped Basic card (1 to 4) for each card the engine cannot "
                     "pay.")
        if parsed.pending == "flip":
            return _("Stress card: enter the Basic card flipped for it first (1 to 4).")
        if parsed.pending == "plus":
            return _("{card}: enter the Basic card flipped for its \"+\" first (1 to 4).").format(
                card=design_name(parsed.design or ""))
        if parsed.pending == "value":
            design = parsed.design or ""
            return _("{card}: choose the value it is played at first ({values}).").format(
                card=design_name(design), values="/".join(str(v) for v in DESIGNS[design].speeds))
        if len(parsed.cards) >= car.gear:
            return fill(_("In gear {gear} a car reveals {gear} card(s); no more can be "
                          "entered. Tap < to change one."), gear=car.gear)
        if key[3:] in SPONSOR_DESIGNS and car.sponsor_cards > 0:
            # a car holds Sponsorship cards, not designs: its count is what is used up (it
            # said "Every Sponsorship 3 card ... is already entered" of a design it never had)
            return fill(_("{car} holds {count} Sponsorship card(s): {count} of {count} "
                          "entered. Tap < to change one."),
                        car=car_name(car), count=car.sponsor_cards)
        if key.startswith("up:"):
            return _("Every {card} card this car has is already entered.").format(
                card=design_name(key[3:]))
        if key.isdigit():
            return fill(_("No Basic card here is a {value}: {value} is only a value chosen "
                          "for a card with a choice."), value=key)
        return ""

    def press(self, key: str, car: CarState, shown: tuple[int, ...] = ()) -> None:
        if key == "back":
            self.back()
        elif self.allowed(key, car, shown):
            if self.unpaid_needed:
                self.unpaid.append(int(key))
            else:
                self.keys.append(key)

    def back(self) -> None:
        if self.unpaid_needed:
            if self.unpaid:
                self.unpaid.pop()
            else:
                self.unpaid_needed = 0
        elif self.keys:
            self.keys.pop()

    def reveal(self, car: str) -> Reveal:
        parsed = self.parse()
        return Reveal(car, parsed.reveal_cards(), tuple(parsed.flips), tuple(self.unpaid))

    def text(self, between: str = "  ") -> str:
        """The entry as the keypad's line shows it (``between`` the cards)."""
        parsed = self.parse()
        shown = []
        flips = iter(parsed.flips)
        for card in parsed.cards:
            if card == STRESS:
                flip = next(flips, None)
                shown.append(f"{_('Stress')}={flip}" if flip is not None else _("Stress") + "=?")
            elif isinstance(card, UpCard):
                shown.append(card.text())
            else:
                shown.append(str(card))
        if self.unpaid_needed:
            flips_text = [str(v) for v in self.unpaid]
            flips_text += ["?"] * (self.unpaid_needed - len(self.unpaid))
            shown.append(_("unpaid: {flips}").format(flips=",".join(flips_text)))
        return between.join(shown)


def basic_in_play(parsed: Parsed, unpaid: list[int], shown: tuple[int, ...]) -> list[int]:
    """Every Basic card value in play with the keys typed, as the engine counts them
    (``cards.evaluate``): the cards, the flips for Stress, "+" and unpaid cards, and ``shown``."""
    values = list(shown) + parsed.flips + unpaid
    for card in parsed.cards:
        if isinstance(card, int):
            values.append(card)
        elif isinstance(card, UpCard):
            values += card.plus
    return values


def in_play_before(state: RaceState) -> tuple[int, ...]:
    """The Basic card values already in play when a keypad opens after the reveal (the flips
    of cards left unpaid after Cooldown): the turn's; none at the reveal itself."""
    turn = state.turn
    return turn.cards if turn is not None and turn.stage is not TurnStage.REVEAL else ()


def upgrade_keys(car: CarState, parsed: Parsed | None = None) -> list[tuple[str, bool]]:
    """``(design, enabled)`` for the car's upgrade cards and, when it holds Sponsorship cards,
    each Sponsorship card design; disabled once every copy is on the keypad."""
    typed = Counter(c.design for c in (parsed.cards if parsed else []) if isinstance(c, UpCard))
    owned = Counter(d for d in car.upgrades if not DESIGNS[d].heat_card)
    keys = [(design, typed[design] < count) for design, count in owned.items()]
    if car.sponsor_cards > 0:
        used = sum(typed[d] for d in SPONSOR_DESIGNS)
        keys += [(design, used < car.sponsor_cards) for design in SPONSOR_DESIGNS]
    return keys


# --- what the keypads show --------------------------------------------------------------------

KEY_FAMILIES: dict[str, str] = {
    "4 Wheel Drive": N_("4WD"), "Air Intake": N_("Intake"), "Cooling System": N_("Cooling"),
    "Sponsorship": N_("Sponsor"), "Turbocharger": N_("Turbo"),
}
"""The card families whose names do not fit a keypad key (a quarter of the panel at
800x480, on one line, in some language): the shorter name the key shows (a msgid). The
entry and the prompts name the card in full (:func:`~.words.design_name`)."""


def speeds_text(speeds: tuple[int, ...]) -> str:
    """A card's speeds as short as they read: ``1-4`` for three or more in a row, else
    ``1/3``."""
    if len(speeds) >= 3 and list(speeds) == list(range(speeds[0], speeds[0] + len(speeds))):
        return f"{speeds[0]}-{speeds[-1]}"
    return "/".join(str(v) for v in speeds)


def key_label(design_id: str) -> str:
    """An upgrade or Sponsorship card's keypad key: its family (short) and speeds, e.g.
    "Brakes 1-4", "Sponsor 5"."""
    design = DESIGNS[design_id]
    family = KEY_FAMILIES.get(design.family, design.family)
    return f"{_(family)} {speeds_text(design.speeds)}".strip()



def keypad_keys(car: CarState) -> list[tuple[str, str]]:
    """``(key, label)`` of the car's card keypad, in one fixed order for all its questions:
    the Basic card values (and any other value a card with a choice may take), Stress, the
    car's upgrade and Sponsorship cards, back."""
    values = list(BASIC_KEYS if car.upgrades else CARD_KEYS)
    owned = [design for design, _enabled in upgrade_keys(car)]
    values += sorted({v for d in owned if DESIGNS[d].choice for v in DESIGNS[d].speeds}
                     - set(values))
    keys = [(str(v), str(v)) for v in values]
    keys.append((STRESS, _("Stress")))
    keys += [(f"up:{design}", key_label(design)) for design in owned]
    keys.append(("back", "<"))
    return keys


def reveal_view(state: RaceState, entry: Entry, status: str, name: str,
                common: dict[str, Any]) -> RaceView:
    """Step 3: the cards revealed (and the Basic cards flipped for Stress, values, "+"s and
    Heat the engine cannot pay), on one keypad whose keys stay in place."""
    car = state.car(state.current_car or "")
    gear = car.gear
    parsed = entry.parse()
    layout = keypad_keys(car)
    in_play = in_play_before(state)
    reasons = {key: entry.why_not(key, car, in_play) for key, _label in layout}
    keys = tuple((key, label, not reasons[key]) for key, label in layout)
    why = tuple((key, reason) for key, reason in reasons.items() if reason)
    shown: dict[str, Any] = {"entry": entry.text(), "keys": keys, "key_why": why,
                             "can_confirm": entry.complete(car), **common}
    if entry.unpaid_needed:
        return RaceView(
            "unpaid", status,
            fill(_("The engine cannot pay the Heat of {count} card(s): flip a Basic card "
                   "for each and enter it (it counts as a Stress card)."),
                count=entry.unpaid_needed), **shown)
    if parsed.pending == "flip":
        return RaceView(
            "flip", status,
            _("Stress card: flip Basic cards until one shows, enter its value."), **shown)
    if parsed.pending == "value":
        return RaceView("value", status, _("{card}: which value is played?").format(
            card=design_name(parsed.design or "")), **shown)
    if parsed.pending == "plus":
        return RaceView(
            "plus", status,
            _("{card}: flip a Basic card for its \"+\" and enter its value.").format(
                card=design_name(parsed.design or "")), **shown)
    return RaceView(
        "reveal", status,
        fill(_("{car} is in gear {gear}: enter the {gear} card(s) revealed."),
            car=name, gear=gear), **shown)


def boost_view(state: RaceState, current: str, status: str, name: str,
               common: dict[str, Any]) -> RaceView:
    """The Boost keypad: the Basic card flipped for it (a key the engine would refuse says
    why, in the engine's words)."""
    problems = {v: validate(state, Boost(current, v)) for v in BASIC_KEYS}
    keys = tuple((str(v), str(v), problems[v] is None) for v in BASIC_KEYS)
    why = tuple((str(v), render(problem.reason, state)) for v, problem in problems.items()
                if problem is not None)
    return RaceView("boost", status,
                    _("{car} boosts: flip a Basic card and enter it.").format(car=name),
                    keys=keys, key_why=why, **common)
