"""The championship tests reuse the simulated-deck driver of ``tests/engine/strategies.py``."""

from __future__ import annotations

import sys
from pathlib import Path

ENGINE_TESTS = Path(__file__).resolve().parents[1] / "engine"
if str(ENGINE_TESTS) not in sys.path:
    sys.path.insert(0, str(ENGINE_TESTS))
