"""Every English word the engine puts into an explanation's parameters is translated.

The engine fills its templates with raw values: car ids (shown as driver names), numbers, and a
few English words or phrases (``spot="Race Line"``, ``step="reveal cards"``,
``how=f"at Speed {speed}"``). This file finds those words in the engine's source, so a new one
fails here until :mod:`companion.ui.views.words` and both catalogs know it.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from companion import i18n
from companion.engine import explain
from companion.ui.views.words import PARAM_PATTERNS, PARAM_WORDS, param_text, render

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"
TRANSLATED = ("zh_TW", "ko")
SAMPLE_NUMBER = "7"
"""What an f-string's ``{...}`` part becomes when a pattern word is checked."""


def _template_fields(trees: list[ast.Module]) -> set[str]:
    fields: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "N_" and node.args and isinstance(node.args[0], ast.Constant):
                text = node.args[0].value
                fields |= {name for _l, name, _s, _c in string.Formatter().parse(text) if name}
    return fields


def _literals(node: ast.AST) -> list[str]:
    """English text a parameter expression can evaluate to: string constants, the branches of
    ``a if c else b``, and f-strings (their ``{...}`` parts as ``SAMPLE_NUMBER``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [text for value in node.values for text in _literals(value)]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else SAMPLE_NUMBER
                        for v in node.values)]
    return []  # names, attributes, calls such as str(x): data, not words


def engine_param_words() -> dict[str, str]:
    """English words that reach an explanation parameter -> where (file:line)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in
             sorted(ENGINE.glob("*.py"))}
    fields = _template_fields(list(trees.values()))
    signatures: dict[str, list[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                signatures[node.name] = [a.arg for a in node.args.posonlyargs + node.args.args]
    found: dict[str, str] = {}

    def add(expr: ast.AST, path: Path) -> None:
        for text in _literals(expr):
            if re.search(r"[A-Za-z]{2,}", text):
                found.setdefault(text, f"{path.name}:{expr.lineno}")

    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for keyword in node.keywords:
                    if keyword.arg in fields:
                        add(keyword.value, path)
                name = node.func.id if isinstance(node.func, ast.Name) else ""
                for position, arg in enumerate(node.args):
                    params = signatures.get(name, [])
                    if position < len(params) and params[position] in fields:
                        add(arg, path)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in fields:
                        add(value, path)
    return found


def test_the_scan_finds_the_known_words() -> None:
    words = engine_param_words()
    for known in ("Race Line", "outside", "reveal cards", "reveal a gear", "end the turn"):
        assert known in words, sorted(words)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_engine_parameter_word_is_translated(language: str) -> None:
    words = engine_param_words()
    i18n.set_language(language)
    try:
        missing = {w: where for w, where in words.items()
                   if param_text(w) == w or re.search(r"[A-Za-z]{3,}", param_text(w))}
    finally:
        i18n.set_language("en")
    assert missing == {}, "add these to companion/ui/views/words.py and the catalogs"


def test_words_table_has_no_stale_entries() -> None:
    words = engine_param_words()
    stale = [w for w in PARAM_WORDS if w not in words and w.lower() not in
             {x.lower() for x in words} and w not in ("Stress", "stress")]
    assert stale == []
    for pattern, _template in PARAM_PATTERNS:
        assert any(pattern.fullmatch(w) for w in words), pattern.pattern


def test_render_translates_template_and_parameter_word() -> None:
    why = explain("{car} passes a Press Corner at Speed {speed}: {cards} Sponsorship card(s).",
                  car="red", speed=12, cards=2)
    assert render(why) == "Red passes a Press Corner at Speed 12: 2 Sponsorship cards."
    i18n.set_language("zh_TW")
    try:
        text = render(why)
        assert "12" in text and "紅" in text and not re.search(r"[A-Za-z]{3,}", text)
        i18n.set_language("ko")
        text = render(explain("Cannot {step}: it is {current}'s turn.", step="reveal a gear",
                              current="blue"))
        assert not re.search(r"[A-Za-z]{3,}", text), text
    finally:
        i18n.set_language("en")
