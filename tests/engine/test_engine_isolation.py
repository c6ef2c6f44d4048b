"""The engine and the replay path need the standard library only (docs/race-file.md: "Replaying must
need the standard library only (no Kivy, GPIO or serial import on that path)")."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import companion
import tracks

ROOT = Path(companion.__file__).resolve().parent.parent
ENGINE = ROOT / "companion" / "engine"
BLOCKED = ("kivy", "gpiozero", "serial", "lgpio", "RPi")

RACE = {
    "format": "heat-race/1",
    "track": {"id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
              "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                          {"line_after": 20, "limit": 3, "legend_line_after": 16}]},
    "seed": 3,
    "cars": [{"id": "red", "name": "Ana"}, {"id": "green", "legend": True}],
    "legends": {"cards": [3, 3, 3, 3]},
    "rounds": [{"red": {"gear": 3, "cards": [2, 3, "stress"], "stress": [3]}},
               {"red": {"cards": [1, 1, 2], "adrenaline": True, "cooldown": 1, "boost": 2}},
               {"red": {"gear": 2, "cards": [1, 4]}},
               {"red": {"gear": 1, "cards": [3]}},
               {"red": {"gear": 3, "cards": [4, 4, 5]}}],
}

CHILD = """
    import json

    import companion.engine
    import tracks
    from companion import cli, racefile

    race = json.loads(RACE_JSON)
    states = [racefile.state_document(s) for s in racefile.replay(racefile.parse(race))]
    tracks.load_track("usa")
    status = cli.main(["replay", sys.argv[1]])
    loaded = sorted(m for m in sys.modules
                    if m.split(".")[0] in BLOCKED)
    print(json.dumps({"states": states, "loaded": loaded, "status": status}))
"""


def test_engine_tracks_and_racefile_replay_without_kivy_gpio_or_serial(
        tmp_path: Path, run_blocked: Any) -> None:
    """A subprocess in which importing kivy, gpiozero or serial fails replays a race (engine,
    tracks, racefile and the CLI's replay command) and never imports them."""
    race_path = tmp_path / "race.json"
    race_path.write_text(json.dumps(RACE), encoding="utf-8")
    proc = run_blocked(BLOCKED, CHILD.replace("RACE_JSON", repr(json.dumps(RACE))),
                       str(race_path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    # The CLI prints the final state (indented JSON) first, then the child's own report.
    report = json.loads(lines[-1])
    assert report["loaded"] == []
    assert report["status"] == 0
    states = report["states"]
    assert len(states) == 5
    assert states[-1]["over"] is True
    assert [r["car"] for r in states[-1]["results"]] == ["red", "green"]
    printed = json.loads("\n".join(lines[:-1]))
    assert printed == states[-1]


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(level, module)`` of every import in a file; level > 0 is a relative import."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    """engine/__init__.py: "Standard library only: no I/O, no clock, no global random state"."""
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for level, module in imported_modules(path):
            if level == 1:
                continue  # from .x import y: the engine package itself
            assert level == 0, f"{path.name}: import reaches outside the engine package"
            top = module.split(".")[0]
            assert top in sys.stdlib_module_names or module.startswith("companion.engine"), (
                f"{path.name} imports {module}"
            )


def test_replay_path_imports_only_the_standard_library_engine_and_tracks() -> None:
    """docs/race-file.md: replaying needs the standard library only; companion.racefile (with its
    heat-race/2 modules reader) and the tracks package may use the engine and each other."""
    paths = [*sorted((ROOT / "companion" / "racefile").glob("*.py")),
             ROOT / "companion" / "modules_doc.py",
             *sorted(Path(tracks.__file__).parent.glob("*.py"))]
    for path in paths:
        package = path.resolve().parent.relative_to(ROOT).parts
        for level, module in imported_modules(path):
            if level:
                assert level <= len(package), f"{path.name}: relative import beyond the project"
                base = ".".join(package[: len(package) - level + 1])
                module = f"{base}.{module}" if module else base
            top = module.split(".")[0]
            allowed = (top in sys.stdlib_module_names or top == "tracks"
                       or module.startswith(("companion.engine", "companion.racefile"))
                       or module == "companion.modules_doc")
            assert allowed, f"{path.name} imports {module}"
