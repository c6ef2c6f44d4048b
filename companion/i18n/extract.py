"""Build the message template and keep the catalogs in step with the sources.

    python -m companion.i18n.extract          # write heat_companion.pot, merge into each .po
    python -m companion.i18n.extract --check  # exit 1 if a catalog misses or has extra msgids

Messages come from the app (``_("...")`` in ``companion/ui/**/*.py``, ``tr._("...")`` in its
``.kv`` files, ``N_("...")`` anywhere in ``companion/ui`` and ``companion/i18n``; each package is
read with its subpackages, in path order) and from the engine's explanation templates
(``N_("...")`` in ``companion/engine``), the storage faults' reasons (``N_("...")`` in
``companion/storage``) and the table hardware's reasons (``N_("...")`` in ``hardware/``, beside
``companion/``), which the app translates where it shows them, and from the bundled tracks'
``unverified`` notes
(``tracks/data/*.json``), which the New race screen shows in the player's language.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from . import DOMAIN, LANGUAGES, LOCALE_DIR
from .pofile import Catalog, read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("ui", "engine", "i18n", "storage", "../hardware")
"""Folders read for messages, relative to the ``companion`` package."""
TRACK_DATA = ROOT.parent / "tracks" / "data"
_KV_CALL = re.compile(r"""tr\._\(\s*(?P<q>["'])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*\)""")


def _py_messages(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        if name not in ("_", "N_"):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((arg.value, node.lineno))
    return found


def _kv_messages(path: Path) -> list[tuple[str, int]]:
    found = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for match in _KV_CALL.finditer(line):
            found.append((ast.literal_eval(match.group("q") + match.group("text")
                                           + match.group("q")), lineno))
    return found


def track_notes(folder: Path = TRACK_DATA) -> list[tuple[str, str]]:
    """``(note, file)`` for every ``unverified`` note of the bundled tracks, in file order."""
    found = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        notes = doc.get("unverified", []) if isinstance(doc, dict) else []
        for note in notes if isinstance(notes, list) else []:
            if isinstance(note, str) and note:
                found.append((note, str(path.relative_to(folder.parent.parent))))
    return found


def messages(root: Path = ROOT) -> dict[str, list[str]]:
    """msgid -> the files that use it, in source order (tracks' notes last)."""
    out: dict[str, list[str]] = {}
    for package in SOURCES:
        for path in sorted((root / package).resolve().rglob("*")):
            if path.suffix == ".py":
                found = _py_messages(path)
            elif path.suffix == ".kv":
                found = _kv_messages(path)
            else:
                continue
            for text, _lineno in found:
                where = str(path.relative_to(root.parent.resolve()))
                if text and where not in out.get(text, []):
                    out.setdefault(text, []).append(where)
    if root == ROOT:
        for note, where in track_notes():
            if where not in out.get(note, []):
                out.setdefault(note, []).append(where)
    return out


def template() -> Catalog:
    return Catalog({msgid: "" for msgid in messages()}, refs=messages())


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    pot = template()
    stale = []
    pot_path = LOCALE_DIR / f"{DOMAIN}.pot"
    pot_text = write_po(pot, language="")
    # the whole text, source references included (a catalog filled in by a script once lost
    # every "#:" line and still passed a check of its msgids alone)
    if not pot_path.exists() or pot_path.read_text(encoding="utf-8") != pot_text:
        stale.append(str(pot_path))
        if not check:
            pot_path.parent.mkdir(parents=True, exist_ok=True)
            pot_path.write_text(pot_text, encoding="utf-8")
    for language in LANGUAGES:
        if language == "en":
            continue
        path = po_path(language)
        old = read_po(path.read_text(encoding="utf-8")) if path.exists() else Catalog({})
        merged = Catalog({m: old.messages.get(m, "") for m in pot.messages}, refs=pot.refs)
        text = write_po(merged, language=language)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(str(path))
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    if check and stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
