"""The hardware layer turns pins and serial lines into neutral events and knows nothing of the
rules, the app or Kivy (docs/architecture.md: "It never imports the engine or Kivy"): no module
of ``hardware/`` names them, and the whole package imports and plays a table's inputs, LEDs and
a hub session in a process where importing them fails."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import hardware

PACKAGE = Path(hardware.__file__).resolve().parent
FORBIDDEN = ("companion", "kivy", "tracks")


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_hardware_module_names_the_engine_the_app_or_kivy() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) > 10
    found = {f"{path.name}: {name}" for path in modules for name in _imported(path)
             if name.split(".")[0] in FORBIDDEN}
    assert not found


CHILD = """
    import json
    import pkgutil

    import hardware
    from hardware import protocol as p
    from hardware.events import TableButton
    from hardware.hub_session import HubSession

    for info in pkgutil.iter_modules(hardware.__path__):
        __import__(f"hardware.{info.name}")
    queue = hardware.InputQueue()
    table = hardware.FakeTable(queue, seats=(1, 2))
    table.turn_dial(1, 3)
    table.press_ready(1)
    table.press(TableButton.NEXT)
    table.set_led(1, hardware.LedPattern.BLINK)
    table.beep(2)
    session = HubSession("hub", (5, 6))
    session.opened(0.0)
    for line in (p.frame("HELLO", 2, "3f2a9c01", 0, "5,6"), p.frame("SYNCED", 0),
                 p.frame("PRESS", 1, "READY", 5, 2)):
        session.receive(line.rstrip(b"\\n"), 0.1)
    events = [repr(e) for e in queue.drain()]
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    print(json.dumps({"events": events, "loaded": loaded, "hub": session.state.value}))
"""


def test_the_hardware_package_works_with_the_engine_the_app_and_kivy_unimportable(
        run_blocked: Any) -> None:
    proc = run_blocked(FORBIDDEN, CHILD,
                       env={"PYTHONPATH": str(PACKAGE.parent), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["loaded"] == []
    assert result["hub"] == "online"
    assert repr(hardware.SeatReady(1, 3)) in result["events"]
    assert repr(hardware.ButtonPressed(hardware.TableButton.NEXT)) in result["events"]
