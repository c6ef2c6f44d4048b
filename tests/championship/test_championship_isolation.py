"""``companion.championship`` is pure: standard library, the engine and the track data only;
no file, clock or process access of its own."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import companion.championship

PACKAGE = Path(companion.championship.__file__).parent
ALLOWED_PROJECT = ("companion.engine", "tracks", "companion.championship")
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"os", "pathlib", "sqlite3", "subprocess", "time", "datetime", "random",
                     "shutil", "socket"}


def imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "companion.championship." if node.level else ""
            found.add(base + (node.module or ""))
    return found


def test_only_stdlib_engine_and_tracks() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in imports(tree):
            top = name.split(".")[0]
            assert top not in FORBIDDEN_MODULES, (path.name, name)
            assert (top in sys.stdlib_module_names or name.startswith(ALLOWED_PROJECT)), (
                path.name, name)
        calls = {n.func.id for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert not calls & FORBIDDEN_CALLS, path.name
