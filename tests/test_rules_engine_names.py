"""Every "Engine:" line of ``docs/rules.md`` names code that exists.

Each section of the rules reference ends with the engine modules that implement it and, in
brackets, the functions, classes and tables in them (``checks.py`` (``_validate_reveal``)). A
reader follows these to the code, so a name that moved to another module (as the React checks did
to ``reactchecks.py``) makes the reference lie. This test reads every such line and checks each
name is defined at the top level or in a class of the module it is listed under.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "companion" / "engine"
ENGINE_PARAGRAPH = re.compile(r"^Engine: (.*?)(?:\n\n|\Z)", re.S | re.M)
MODULE_NAMES = re.compile(r"`(?:companion/engine/)?([a-z_]+)\.py` \(([^)]*)\)")
NAME = re.compile(r"`([A-Za-z_][A-Za-z_0-9]*)`")


def _defined(module: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _references() -> list[tuple[str, str]]:
    text = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    found: list[tuple[str, str]] = []
    for paragraph in ENGINE_PARAGRAPH.findall(text):
        for module, inside in MODULE_NAMES.findall(" ".join(paragraph.split())):
            found += [(module, name) for name in NAME.findall(inside)]
    return found


def test_the_rules_reference_names_engine_code() -> None:
    references = _references()
    assert len(references) > 40  # the pattern still finds the lines
    missing = []
    for module, name in references:
        path = ENGINE / f"{module}.py"
        if not path.exists():
            missing.append(f"{module}.py does not exist")
        elif name not in _defined(path):
            missing.append(f"{module}.py has no {name}")
    assert not missing, missing
