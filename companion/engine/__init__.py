"""The rules of Heat: Pedal to the Metal, pure and deterministic.

Standard library only: no I/O, no clock, no global random state. A race is a frozen
:class:`RaceState`; every table input is an :data:`Action` that :func:`validate` checks (a
:class:`Rejection` says why not, in words) and :func:`apply` turns into a new state plus the
:class:`Outcome` list that explains what happened.
"""

from .actions import (
    STRESS,
    Accelerate,
    Action,
    ActionFormatError,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DirectPlay,
    DraftMove,
    EndTurn,
    LegendCard,
    PayHeat,
    Reveal,
    RunRound,
    Slipstream,
    SuperCool,
    Upgrade,
    action_from_dict,
    action_to_dict,
)
from .conditions import corner_limit
from .explain import Explanation, explain
from .rules import (
    Applied,
    IllegalActionError,
    Outcome,
    Rejection,
    apply,
    cooldown_limit,
    play,
    slipstream_partner,
    validate,
)
from .setup import CarEntry, RaceSetup, SetupError, fill_grid, start_race
from .state import (
    LEGEND_COLOURS,
    CarState,
    DeckMode,
    Phase,
    RaceState,
    TurnStage,
    TurnState,
)
from .track import Corner, Track

__all__ = [
    "LEGEND_COLOURS",
    "STRESS",
    "Accelerate",
    "Action",
    "ActionFormatError",
    "Adrenaline",
    "Applied",
    "Boost",
    "CarEntry",
    "CarState",
    "ChooseGear",
    "Cooldown",
    "DirectPlay",
    "Corner",
    "DeckMode",
    "DraftMove",
    "EndTurn",
    "Explanation",
    "IllegalActionError",
    "LegendCard",
    "Outcome",
    "PayHeat",
    "Phase",
    "RaceSetup",
    "RaceState",
    "Rejection",
    "Reveal",
    "RunRound",
    "SetupError",
    "Slipstream",
    "SuperCool",
    "Track",
    "TurnStage",
    "TurnState",
    "Upgrade",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "cooldown_limit",
    "corner_limit",
    "explain",
    "fill_grid",
    "play",
    "slipstream_partner",
    "start_race",
    "validate",
]
