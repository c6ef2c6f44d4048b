"""Kv rules evaluated without Kivy's debug trace (:mod:`companion.ui.widgets.kv_rules`): the app
puts its evaluation in; a rule evaluated by it sets what Kivy's sets and counts itself, and
formats no trace (the widget's repr is not asked for); a Kivy whose ``call_fn`` is not the
expected one, or a log at the TRACE level, keeps Kivy's own."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytestmark = pytest.mark.ui

RULES = """
<KvRulesProbe>:
    Label:
        id: shown
        text: root.name + " ready"
"""


@contextmanager
def kivy_call_fn(fn: Any = None) -> Iterator[Any]:
    """Inside the block, kv rules bound are evaluated by Kivy's own ``call_fn`` (or by
    ``fn``); the app's evaluation is put back after it."""
    from kivy.lang import builder

    from companion.ui.widgets import kv_rules

    installed = builder.call_fn is kv_rules.call_fn
    kv_rules.uninstall()
    kivys = builder.call_fn
    if fn is not None:
        builder.call_fn = fn
    try:
        yield kivys
    finally:
        builder.call_fn = kivys
        if installed:
            assert kv_rules.install()


def _probe() -> Any:
    """A widget with a kv rule: its label shows its ``name``."""
    from kivy.factory import Factory
    from kivy.lang import Builder
    from kivy.properties import StringProperty
    from kivy.uix.boxlayout import BoxLayout

    if "KvRulesProbe" not in Factory.classes:
        class KvRulesProbe(BoxLayout):  # type: ignore[misc]
            name = StringProperty("Ana")

        Factory.register("KvRulesProbe", cls=KvRulesProbe)
        Builder.load_string(RULES)
    return Factory.KvRulesProbe()


def _text_rule() -> Any:
    """The probe's label's ``text`` rule (it counts its evaluations)."""
    from kivy.lang import Builder

    rule = next(r for selector, r in Builder.rules
                if getattr(selector, "key", "") == "kvrulesprobe")
    return rule.children[0].properties["text"]


def _label_reprs(probe: Any) -> int:
    """How many times the probe's label was asked for its repr while its rule ran twice."""
    from kivy.uix.label import Label

    asked = []
    own = Label.__dict__.get("__repr__")
    inherited = Label.__repr__

    def counting(self: Any) -> str:
        asked.append(self)
        return str(inherited(self))

    Label.__repr__ = counting
    try:
        probe.name = "Bartholomew"
        probe.name = "Wilhelmina"
    finally:
        if own is None:
            del Label.__repr__
        else:
            Label.__repr__ = own
    return len(asked)  # (only the probe's label has a rule watching the name)


def test_the_app_evaluates_kv_rules_with_its_own(ui) -> None:
    from kivy.lang import builder

    from companion.ui.widgets import kv_rules

    assert kv_rules.kivy_call_fn_known()  # this Kivy's call_fn is the one it stands in for
    assert builder.call_fn is kv_rules.call_fn


def test_a_rule_sets_what_kivys_sets_without_formatting_a_trace(ui) -> None:
    probe = _probe()
    counted = _text_rule().count
    assert probe.ids.shown.text == "Ana ready"
    assert _label_reprs(probe) == 0  # the app's: no trace formatted
    assert probe.ids.shown.text == "Wilhelmina ready"
    assert _text_rule().count == counted + 2  # counted as Kivy counts
    with kivy_call_fn():
        kivys = _probe()
        assert _label_reprs(kivys) == 2  # Kivy's formats the widget into its trace each time
        assert kivys.ids.shown.text == "Wilhelmina ready"


def test_a_kivy_with_another_call_fn_keeps_it(ui) -> None:
    from kivy.lang import builder

    from companion.ui.widgets import kv_rules

    def other(args: Any, instance: Any, value: Any) -> None:
        element, key, rule_value, _rule, idmap = args
        setattr(element, key, eval(rule_value, idmap))

    with kivy_call_fn(other):
        assert not kv_rules.kivy_call_fn_known()
        assert kv_rules.install() is False
        assert builder.call_fn is other


def test_a_log_at_trace_level_keeps_kivys(ui) -> None:
    from kivy.lang import builder
    from kivy.logger import Logger

    from companion.ui.widgets import kv_rules

    level = Logger.level
    with kivy_call_fn() as kivys:
        Logger.setLevel(logging.getLevelName("TRACE"))
        try:
            assert kv_rules.install() is False
            assert builder.call_fn is kivys
        finally:
            Logger.setLevel(level)
