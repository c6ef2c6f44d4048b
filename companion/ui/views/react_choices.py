"""React (steps 4-7 of a car's turn) as buttons, and the rulings of the choices (Kivy-free).

:func:`react_buttons` offers what the current car is entitled to now, each decided by asking
the engine's ``validate``; a choice the car's cards or gear hold but the rules refuse here is a
greyed button whose ``why`` is the engine's reason (or the sector's, for Cooldown in a Cloud
sector), so the table sees why it is not offered. Labels say the outcome before the tap:
"Cannot pay" (Wings 6: 2 Heat), "Draft 2" (behind Blue), "Slipstream +2" (decline Storm +2),
the part in brackets a smaller second line (``ReactButton.detail``).

:func:`react_ruling` rewrites the engine's sentence of a Draft or a slipstream with what the
table must check: the car it ends behind, the space, and the sector bonus taken or declined.
Rules: docs/rules.md §1.7-1.8 (Cooldown, slipstream), §4.3-4.4 (Super cool, Draft, upgrade
Heat paid after Cooldown), §5 (weather and road tokens); docs/rules-decisions.md 13-14.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion import engine, i18n
from companion.engine import (
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    Cooldown,
    DraftMove,
    EndTurn,
    Explanation,
    Outcome,
    RaceState,
    Slipstream,
    SuperCool,
    TurnStage,
    Upgrade,
    cooldown_limit,
    explain,
    payment,
    validate,
)
from companion.engine.cards import subset_sums, unpayable
from companion.engine.checks import super_cool_limit
from companion.engine.conditions import (
    cooldown_allowed,
    cooldown_bonus,
    plain_slipstream_spaces,
    sector_slipstream_bonus,
    sector_token,
    sector_weather,
    slipstream_spaces,
)
from companion.engine.garage import DESIGNS
from companion.engine.modules import Road, Weather
from companion.engine.reactchecks import draft_spaces
from companion.i18n import N_, _, sentences

from .keypad import BASIC_KEYS
from .names import car_label
from .race_view import ReactButton
from .words import design_name, render, weather_name

DirectPlay: Any = getattr(engine, "DirectPlay", None)
"""Gas Pedal cards played from hand during React, when the engine has it."""

__all__ = ["DirectPlay", "bonus_source", "cars_ahead_of", "react_buttons", "react_ruling"]


_last: tuple[RaceState | None, str, tuple[ReactButton, ...]] = (None, "", ())
"""The last state asked about, in which language, and its buttons: a tap asks up to three
times of the same state (the choice tapped, whether anything is left to decide, the prompt);
the state is frozen, so the answer is the same (about 0.25 ms a time here)."""


def react_buttons(state: RaceState) -> tuple[ReactButton, ...]:
    """Only what the current car is entitled to now (asked of ``validate``), plus a greyed
    button with the reason for a symbol of its cards (or its Cooldown) refused here."""
    global _last
    asked, language, buttons = _last
    if asked is state and language == i18n.language():
        return buttons
    buttons = _react_buttons(state)
    _last = (state, i18n.language(), buttons)
    return buttons


def _react_buttons(state: RaceState) -> tuple[ReactButton, ...]:
    current = state.current_car
    if current is None or state.turn is None or state.turn.stage is TurnStage.REVEAL:
        return ()
    car = state.car(current)
    buttons: list[ReactButton] = []
    if validate(state, Adrenaline(current)) is None:
        buttons.append(ReactButton("adrenaline", _("Adrenaline +1")))
    for design in dict.fromkeys(d for d in car.upgrades if DESIGNS[d].direct):
        if DirectPlay is not None and validate(
                state, DirectPlay(current, Upgrade(design))) is None:
            buttons.append(ReactButton(f"direct:{design}", _("Play {card}").format(
                card=design_name(design))))
    buttons += _cooldowns(state, current)
    buttons += _super_cools(state, current)
    buttons += _unpaid(state)
    if any(validate(state, Boost(current, v)) is None for v in BASIC_KEYS):
        buttons.append(ReactButton("boost", _("Boost (1 Heat)")))
    if validate(state, Accelerate(current)) is None:
        speed = state.turn.accelerate * state.turn.plus_resolved
        buttons.append(ReactButton("accelerate", _("Accelerate +{n}").format(n=speed)))
    buttons += _draft(state, current)
    buttons += _slipstreams(state, current)
    buttons.append(_end(state, current, buttons))
    return tuple(buttons)


def _end(state: RaceState, current: str, offered: list[ReactButton]) -> ReactButton:
    """End turn, greyed with the engine's reason when it would refuse it: with upgrade Heat
    the engine cannot pay it was offered, and its tap refused with a reason that did not name
    "Cannot pay", the button to use (found by a table test); the reason says so now."""
    refusal = validate(state, EndTurn(current))
    if refusal is None:
        return ReactButton("end", _("End turn"))
    why = render(refusal.reason, state)
    if any(button.key == "unpaid" for button in offered):
        why = sentences(why, _('Tap "{button}" to enter them.').format(button=_("Cannot pay")))
    return ReactButton("end", _("End turn"), why=why)


def _before(state: RaceState, stage: TurnStage) -> bool:
    """The turn has not passed ``stage`` yet (a greyed button is for a step still to come)."""
    return state.turn is not None and state.turn.stage.value < stage.value


def _cooldowns(state: RaceState, current: str) -> list[ReactButton]:
    """A Cooldown per amount the car may take; in a Rain or Snow sector, which adds 1
    (docs/rules.md §5), each says so ("incl. Rain +1": a Cooldown 2 in gear 2 went
    unexplained, found by a table test)."""
    car = state.car(current)
    bonus = cooldown_bonus(state, car)
    weather = sector_weather(state, car.distance)
    # "incl.": "Cooldown 1 / with Rain +1" read as 1 + 1 (found by a table test)
    detail = (_("incl. {source} +{bonus}").format(source=weather_name(weather), bonus=bonus)
              if bonus and weather is not None else "")
    buttons = [ReactButton(f"cooldown:{amount}", _("Cooldown {n}").format(n=amount),
                           series=_("Cooldown"), amount=str(amount), detail=detail)
               for amount in range(1, cooldown_limit(state, car) + 1)
               if validate(state, Cooldown(current, amount)) is None]
    if not buttons and not cooldown_allowed(state, car) and _before(state, TurnStage.COOLDOWN):
        # a Cloud weather sector (docs/rules.md §5): the one refusal validate does not word
        buttons.append(ReactButton("cooldown", _("Cooldown"), detail=_("Cloud sector"), why=_(
            "No Cooldown in a Cloud weather sector (Super cool is still allowed).")))
    return buttons


def _super_cools(state: RaceState, current: str) -> list[ReactButton]:
    car = state.car(current)
    buttons = [ReactButton(f"super_cool:{amount}", _("Super cool {n}").format(n=amount),
                           series=_("Super cool"), amount=str(amount))
               for amount in range(1, super_cool_limit(state, car) + 1)
               if validate(state, SuperCool(current, amount)) is None]
    turn = state.turn
    if not buttons and turn is not None and turn.card_super_cool and _before(
            state, TurnStage.SUPER_COOL):
        refusal = validate(state, SuperCool(current, 1))
        if refusal is not None:
            buttons.append(ReactButton("super_cool", _("Super cool {n}").format(
                n=turn.card_super_cool), why=render(refusal.reason, state)))
    return buttons


def _unpaid(state: RaceState) -> list[ReactButton]:
    """Upgrade cards whose Heat the engine cannot pay now: declared unpaid, each resolves as a
    Stress card (docs/rules-decisions.md 13); absent when the engine can pay them all."""
    turn = state.turn
    if turn is None or not payment.due(state):
        return []
    short = [card.design for card, cannot in zip(
        turn.pending, unpayable(turn.pending, state.car(turn.car).engine), strict=True)
        if cannot]
    if not short:
        return []
    if len(short) == 1:
        detail = _("{card}: {heat} Heat").format(card=design_name(short[0]),
                                                 heat=DESIGNS[short[0]].heat)
    else:  # how many cards and the Heat they owe together (their names would not fit)
        detail = _("{n} cards: {heat} Heat").format(
            n=len(short), heat=sum(DESIGNS[design].heat for design in short))
    return [ReactButton("unpaid", _("Cannot pay"), detail=detail)]


def cars_ahead_of(state: RaceState, distance: int, car_id: str) -> list[str]:
    """The other cars on the space right in front of ``distance`` (race order)."""
    space = state.track.space_of(distance + 1)
    return [c for c in state.order if c != car_id and state.car(c).on_track
            and state.track.space_of(state.car(c).distance) == space]


def _draft(state: RaceState, current: str) -> list[ReactButton]:
    turn = state.turn
    car = state.car(current)
    if validate(state, DraftMove(current)) is None:
        spaces = draft_spaces(payment.settled(state), car) or 0
        ahead = cars_ahead_of(state, car.distance + spaces, current)
        detail = _("behind {car}").format(car=car_label(state, ahead[0])) if ahead else ""
        return [ReactButton("draft", _("Draft {n}").format(n=spaces), detail=detail)]
    if turn is not None and turn.draft and _before(state, TurnStage.DRAFT):
        refusal = validate(state, DraftMove(current))
        assert refusal is not None
        return [ReactButton("draft", _("Draft {n}").format(n=turn.draft),
                            why=render(refusal.reason, state))]
    return []


BONUS_SOURCES: dict[Weather | Road, str] = {
    Road.SLIPSTREAM_PLUS: N_("road token"), Weather.STORM: N_("Storm"), Weather.SUN: N_("Sun"),
}
"""What gives a sector's optional slipstream bonus (docs/rules.md §5), as a msgid (translated
where shown, in the language of the moment)."""


def bonus_source(state: RaceState, distance: int) -> str:
    """What gives the sector's optional slipstream bonus: ``"Storm"``, ``"Sun"`` or ``"road
    token"`` (the English msgid; "" when the sector gives none)."""
    if sector_token(state, distance) is Road.SLIPSTREAM_PLUS:
        return BONUS_SOURCES[Road.SLIPSTREAM_PLUS]
    weather = state.modules.weather
    return BONUS_SOURCES.get(weather, "") if weather is not None else ""


def _slipstreams(state: RaceState, current: str) -> list[ReactButton]:
    """A slipstream per sum of the cards' optional bonuses; where the sector gives a bonus
    ("you may add", docs/rules.md §5.4), with it and without it, each labelled so."""
    turn = state.turn
    assert turn is not None
    car = state.car(current)
    base = slipstream_spaces(state, car) or 0
    plain = plain_slipstream_spaces(state, car) or 0
    bonus = sector_slipstream_bonus(state, car)
    source = _(bonus_source(state, car.distance)) if bonus else ""
    buttons: list[ReactButton] = []
    series = _("Slipstream")

    def button(key: str, spaces: int, **more: str) -> ReactButton:
        return ReactButton(key, _("Slipstream +{n}").format(n=spaces), series=series,
                           amount=f"+{spaces}", **more)

    for extra in sorted(subset_sums(turn.slipstream_bonuses)):
        key = "slipstream" if extra == 0 else f"slipstream:{extra}"
        taken = validate(state, Slipstream(current, extra))
        plain_ok = bool(bonus) and validate(state, Slipstream(current, extra, False)) is None
        if not bonus:
            if taken is None:
                buttons.append(button(key, base + extra))
            continue
        with_bonus = _("with {source} +{bonus}").format(source=source, bonus=bonus)
        if taken is None:
            buttons.append(button(key, base + extra, detail=with_bonus))
        elif plain_ok:  # the bonus alone is refused (it would cross the finish): say why
            buttons.append(button(key, base + extra, detail=with_bonus,
                                  why=render(taken.reason, state)))
        if plain_ok:
            buttons.append(button(
                f"slipstream_plain:{extra}", plain + extra,
                detail=_("decline {source} +{bonus}").format(source=source, bonus=bonus)))
    return buttons


# --- the rulings of a choice ------------------------------------------------------------------

def react_ruling(before: RaceState, after: RaceState, action: Action,
                 outcome: Outcome) -> Callable[[], str] | None:
    """The sentence the table reads for a Draft or a slipstream, in place of the engine's, in
    the language of the moment when called (None: the engine's own sentence says it all)."""
    why = _ruling(before, after, action, outcome)
    if why is None:
        return None
    explanation, source = why
    if not source:
        return lambda: render(explanation, after)
    return lambda: render(replace(explanation, params={**explanation.params,
                                                       "source": _(source)}), after)


def _ruling(before: RaceState, after: RaceState, action: Action,
            outcome: Outcome) -> tuple[Explanation, str] | None:
    """The explanation, and the msgid of the slipstream bonus's source ("" for none)."""
    if isinstance(action, DraftMove) and outcome.kind == "draft":
        car = after.car(action.car)
        ahead = cars_ahead_of(after, car.distance, action.car)
        if not ahead:
            return None
        return explain(N_("{car} drafts {spaces} space(s) to space {space}, right behind "
                          "{other}; Speed unchanged."),
                       car=action.car, spaces=outcome.why.params.get("spaces", 0),
                       space=after.track.space_of(car.distance), other=ahead[0]), ""
    if isinstance(action, Slipstream) and outcome.kind == "slipstream":
        start = _slipstream_start(before, after, action.car)
        if start is None:
            return None
        moving = replace(before.car(action.car), distance=start)
        bonus = sector_slipstream_bonus(before, moving)
        if not bonus:
            return None
        params: dict[str, str | int] = {
            "car": action.car, "other": outcome.why.params.get("other", "-"), "bonus": bonus,
            "spaces": outcome.why.params.get("spaces", 0)}
        source = bonus_source(before, start)
        if action.sector:
            return explain(N_("{car} slipstreams behind {other}: {spaces} more space(s), "
                              "{source} bonus +{bonus} taken; Speed unchanged."),
                           source=source, **params), source
        return explain(N_("{car} slipstreams behind {other}: {spaces} more space(s), {source} "
                          "bonus +{bonus} declined; Speed unchanged."),
                       source=source, **params), source
    return None


def _slipstream_start(before: RaceState, after: RaceState, car_id: str) -> int | None:
    """Where the slipstream began: the car's distance before it, or (a ruling shown again after
    Continue, with no state before) the turn's record of it."""
    if before is not after:
        return before.car(car_id).distance
    turn = after.turn
    return turn.slipstream_from if turn is not None and turn.car == car_id else None
