"""Random legal races, played through the engine: the one generator the tests and the benchmarks
share (it is not engine code and the app does not use it).

* ``deck.py``: a driver's simulated cards (base deck or Garage deck, Sponsorship cards);
* ``choices.py``: what the rules allow now, asked of the engine (gears, reveals, React steps);
* ``drivers.py``: sensible, Heat-burning and random drivers;
* ``runner.py``: a whole race played by drivers, each from its own deck (honest hands);
* ``inputs.py``: one random legal input from the state alone (for logs with undo and redo).

Randomness is seeded (SplitMix64 from ``companion.engine.rng``, or a caller's ``random.Random``),
so a generated race is the same every time.
"""

from .choices import gear_cost, heat_owed, legal_gears, react_options
from .deck import HEAT, Card, DeckSim, Rand, starting_deck
from .drivers import DRIVERS, Driver, HotDriver, Plan, RandomDriver, SensibleDriver
from .inputs import next_action
from .runner import RaceRun, StepHook, run_race

__all__ = [
    "DRIVERS", "HEAT", "Card", "DeckSim", "Driver", "HotDriver", "Plan", "RaceRun", "Rand",
    "RandomDriver", "SensibleDriver", "StepHook", "gear_cost", "heat_owed", "legal_gears",
    "next_action", "react_options", "run_race", "starting_deck",
]
