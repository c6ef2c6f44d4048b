"""Test-wide environment, set before anything imports Kivy or gpiozero (SDL offscreen, mock
pins)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="heat-kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# A new table's language follows the system's (companion.i18n.system_language): the suite
# starts every app in English whatever the host's locale.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
os.environ.setdefault("HEAT_COMPANION_DATA", tempfile.mkdtemp(prefix="heat-data-"))

# Hypothesis draws the same examples on every run of the suite (derandomize), so a landing is
# never blocked by an example no earlier run drew; a failure it finds is the same on every host.
# To explore new examples: HEAT_HYPOTHESIS=explore python3 run.py test tests/engine (and add any
# race it finds as a fixed test, as test_a_physical_deck_card_is_drawn_in_the_round_it_begins).
from hypothesis import settings  # noqa: E402

settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile("suite" if os.environ.get("HEAT_HYPOTHESIS") != "explore" else "explore")


import pytest  # noqa: E402


@pytest.fixture
def transactions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The write transactions the race log commits from now on: one ``1`` per transaction."""
    from collections.abc import Iterator
    from contextlib import contextmanager
    from sqlite3 import Connection

    from companion.storage.db import EventLog

    committed: list[int] = []
    transaction = EventLog.transaction

    @contextmanager
    def counted(self: EventLog) -> Iterator[Connection]:
        with transaction(self) as connection:
            yield connection
        committed.append(1)

    monkeypatch.setattr(EventLog, "transaction", counted)
    return committed


BLOCKER = textwrap.dedent("""
    import importlib.abc
    import sys

    BLOCKED = {blocked!r}

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"{{name}} is blocked in this test", name=name)
            return None

    sys.meta_path.insert(0, Blocker())
    for name in BLOCKED:
        try:
            __import__(name)
        except ImportError:
            pass
        else:
            raise SystemExit(f"blocker failed for {{name}}")
""")
"""The start of a child process in which importing any of ``BLOCKED`` fails."""

BlockedRun = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def run_blocked(tmp_path: Path) -> BlockedRun:
    """``run_blocked(blocked, code, *args, env=None)``: run ``code`` (its own ``{`` and ``}``
    as they are) in a child Python where importing the ``blocked`` top-level modules fails,
    in ``tmp_path``; a layer's isolation test (the engine's, the hardware's)."""

    def run(blocked: Sequence[str], code: str, *args: str,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        child = BLOCKER.format(blocked=tuple(blocked)) + textwrap.dedent(code)
        return subprocess.run([sys.executable, "-c", child, *args], capture_output=True,
                              text=True, timeout=60, cwd=str(tmp_path), env=env)

    return run
