"""The table's inputs in words (Kivy-free): what Undo took back and Redo brought back, and
where the cars it moved go ("Undone: Ana's cards 3, 4, 2." "Ana back to space 12, Race Line.").

Each function returns a callable that renders the sentence in the language of the moment, so
it follows a language switch like the engine's explanations do.
"""

from __future__ import annotations

from companion import engine
from companion.engine import (
    STRESS,
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DraftMove,
    EndTurn,
    LegendCard,
    PayHeat,
    RaceState,
    Reveal,
    Slipstream,
    SuperCool,
    Upgrade,
)
from companion.i18n import Text, _, listed
from companion.i18n.counts import fill

from .names import car_label
from .words import design_name, param_text

DirectPlay = getattr(engine, "DirectPlay", None)
RunRound = getattr(engine, "RunRound", None)


def cards_text(reveal: Reveal) -> str:
    """The cards of a reveal as typed, listed as the current language lists: "3, Stress=2,
    Brakes 1/3=3"."""
    flips = iter(reveal.stress)
    shown = []
    for card in reveal.cards:
        if card == STRESS:
            flip = next(flips, None)
            shown.append(_("Stress") + (f"={flip}" if flip is not None else ""))
        elif isinstance(card, Upgrade):
            text = design_name(card.design)
            if card.value is not None:
                text += f"={card.value}"
            if card.plus:
                text += " (+" + ",".join(str(v) for v in card.plus) + ")"
            shown.append(text)
        else:
            shown.append(str(card))
    return listed(shown)  # "4、 4、 4" in Traditional Chinese (a table test saw "4, 4, 4")


def _what(action: Action, state: RaceState) -> str:
    """The input in a few words, in the current language."""
    car_id = getattr(action, "car", None)
    car = car_label(state, car_id) if isinstance(car_id, str) else ""
    if isinstance(action, ChooseGear):
        if action.clogged:
            return _("{car}'s clogged hand").format(car=car)
        return _("{car}'s gear {gear}").format(car=car, gear=action.gear)
    if isinstance(action, Reveal):
        return _("{car}'s cards {cards}").format(car=car, cards=cards_text(action))
    if isinstance(action, Adrenaline):
        return _("{car}'s Adrenaline").format(car=car)
    if isinstance(action, Cooldown):
        return _("{car}'s Cooldown {n}").format(car=car, n=action.amount)
    if isinstance(action, Boost):
        return _("{car}'s Boost (flipped {value})").format(car=car, value=action.value)
    if isinstance(action, SuperCool):
        return _("{car}'s Super cool {n}").format(car=car, n=action.amount)
    if isinstance(action, PayHeat):
        if action.unpaid:
            return _("{car}'s Heat, with unpaid cards flipped {flips}").format(
                car=car, flips=listed(str(v) for v in action.unpaid))
        return _("{car}'s Heat paid").format(car=car)
    if isinstance(action, Slipstream):
        return _("{car}'s Slipstream").format(car=car)
    if isinstance(action, DraftMove):
        return _("{car}'s Draft").format(car=car)
    if isinstance(action, Accelerate):
        return _("{car}'s Accelerate").format(car=car)
    if DirectPlay is not None and isinstance(action, DirectPlay):
        return _("{car} playing {card}").format(car=car, card=design_name(action.card.design))
    if isinstance(action, EndTurn):
        return _("the end of {car}'s turn").format(car=car)
    if isinstance(action, LegendCard):
        return _("Legends card {card}").format(card=action.card)
    if RunRound is not None and isinstance(action, RunRound):
        return _("the Legends' round")
    return str(getattr(action, "kind", type(action).__name__))


def undone(action: Action, state: RaceState) -> Text:
    """"Undone: Ana's cards 3, 4, 2." (``state``: where the car names come from)."""
    return lambda: _("Undone: {what}.").format(what=_what(action, state))


def redone(action: Action, state: RaceState) -> Text:
    return lambda: _("Redone: {what}.").format(what=_what(action, state))


def moved_cars(before: RaceState, after: RaceState) -> list[str]:
    """Cars on the track in ``after`` whose space, spot or presence on the track differ
    between the two states, in the order of ``after``'s cars."""
    changed = []
    for car in after.cars:
        if car.id not in before.index or not car.on_track:
            continue
        old = before.car(car.id)
        if (old.distance, old.race_line, old.on_track) != (car.distance, car.race_line,
                                                           car.on_track):
            changed.append(car.id)
    return changed


def cards_changed(before: RaceState, after: RaceState) -> list[str]:
    """Drivers in ``after`` whose gear, Heat (in the engine or in all) or Stress cards taken
    differ between the two states: cards the table moves by hand when an input is undone or
    redone (a spin-out's Stress cards, the Heat paid), in the order of ``after``'s cars."""
    changed = []
    for car in after.cars:
        if car.legend or car.id not in before.index:
            continue
        old = before.car(car.id)
        # A gear chosen while others still choose waits in ``planned`` (applied when all have
        # chosen: docs/rules.md §1.2), and the driver's dial already shows it. So a gear
        # counts only for a car with no choice waiting on either side: undoing a round's last
        # gear choice leaves the others' choices standing, and their dials do not move.
        waiting = car.id in before.planned or car.id in after.planned
        shifted = old.gear != car.gear and not waiting
        if shifted or (old.engine, old.heat, old.stress_taken) != (
                car.engine, car.heat, car.stress_taken):
            changed.append(car.id)
    return changed


def cards_now(state: RaceState, car_id: str, undone: bool) -> Text:
    """"Ana: back in gear 4; 5 Heat in the engine of 7; 0 Stress cards taken." (after an
    undo; "now in gear" after a redo; "gear 3 chosen" while the driver's choice waits for the
    others'): what the driver's dial, engine and Stress pile hold again."""
    car = state.car(car_id)
    chosen = state.planned.get(car_id)

    def said() -> str:
        if chosen is not None:  # the choice stands; the round has not shifted gears yet
            template = _("{car}: gear {gear} chosen; {engine} Heat in the engine of {heat}; "
                         "{stress} Stress card(s) taken.")
        elif undone:
            template = _("{car}: back in gear {gear}; {engine} Heat in the engine of {heat}; "
                         "{stress} Stress card(s) taken.")
        else:
            template = _("{car}: now in gear {gear}; {engine} Heat in the engine of {heat}; "
                         "{stress} Stress card(s) taken.")
        return fill(template, car=car_label(state, car_id), gear=chosen or car.gear,
                    engine=car.engine, heat=car.heat, stress=car.stress_taken)

    return said


def _where(state: RaceState, car_id: str) -> tuple[Text, int, str]:
    """The car's label (rendered when shown: a Legend's name in the player's language), its
    space and its spot ("Race Line" or "outside", untranslated)."""
    car = state.car(car_id)
    spot = "Race Line" if car.race_line else "outside"
    return lambda: car_label(state, car_id), state.track.space_of(car.distance), spot


def back_to(state: RaceState, car_id: str) -> Text:
    """"Ana back to space 12, Race Line." (where an undo puts the car)."""
    name, space, spot = _where(state, car_id)
    return lambda: fill(_("{car} back to space {space}, {spot}."),
                        car=name(), space=space, spot=param_text(spot))


def placed_at(state: RaceState, car_id: str) -> Text:
    """"Ana to space 23, Race Line." (where a redo puts the car)."""
    name, space, spot = _where(state, car_id)
    return lambda: _("{car} to space {space}, {spot}.").format(
        car=name(), space=space, spot=param_text(spot))
