"""The round of a race, step by step: ``validate`` an input, ``apply`` it, get the outcomes.

Sources: docs/rules.md §1 (base rules) and docs/race-file.md (input order and rejections); the
checks live in ``checks.py``, a human car's turn in ``turn.py``, everything that needs no decision
in ``flow.py``. ``validate`` returns a :class:`Rejection` a player can read, or None; ``apply``
trusts that the input was validated and raises :class:`IllegalActionError` (a bug) if it was
not. After every input the engine plays everything that needs no decision (Legends, clogged
cars, the end of a round) until a table decision is needed again.
"""

from __future__ import annotations

from types import MappingProxyType

from .actions import Action, ChooseGear, LegendCard, RunRound
from .checks import cooldown_limit, slipstream_partner, validate
from .evolve import evolve
from .explain import N_
from .flow import advance
from .outcomes import Applied, IllegalActionError, Outcome, Rejection, said
from .state import Phase, RaceState
from .turn import apply_turn

__all__ = [
    "Applied", "IllegalActionError", "Outcome", "Rejection", "apply", "cooldown_limit", "play",
    "settle", "slipstream_partner", "validate",
]


def _apply(state: RaceState, action: Action, out: list[Outcome]) -> RaceState:
    if isinstance(action, ChooseGear) and not state.modules.tournament:
        planned = dict(state.planned)
        planned[action.car] = action.gear
        clogged = state.clogged | {action.car} if action.clogged else state.clogged - {action.car}
        return evolve(state, planned=MappingProxyType(planned), clogged=clogged)
    if isinstance(action, RunRound):
        return evolve(state, phase=Phase.TURNS, turn_index=0, turn=None)
    if isinstance(action, LegendCard):
        out.append(said("legend_card", None, N_("Legends card {card} is drawn for this round."),
                        card=action.card))
        return evolve(state, legend_card=action.card,
                       deck=evolve(state.deck, drawn=state.deck.drawn + (action.card,)))
    return apply_turn(state, action, out)


def apply(state: RaceState, action: Action) -> Applied:
    """Apply a validated input and play on until the table must decide again."""
    rejection = validate(state, action)
    if rejection is not None:
        raise IllegalActionError(rejection.text())
    out: list[Outcome] = []
    state = advance(_apply(state, action, out), out)
    return Applied(state, tuple(out))


def play(state: RaceState, action: Action) -> Applied | Rejection:
    """Validate, then apply: the one path every input takes."""
    rejection = validate(state, action)
    if rejection is not None:
        return rejection
    out: list[Outcome] = []
    state = advance(_apply(state, action, out), out)
    return Applied(state, tuple(out))


def settle(state: RaceState) -> Applied:
    """Play whatever needs no decision from a fresh state (used right after setup)."""
    out: list[Outcome] = []
    state = advance(state, out)
    return Applied(state, tuple(out))
