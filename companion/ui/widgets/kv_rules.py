"""Kivy's kv rules, evaluated without building their debug trace.

A kv rule (``text: root.name``) is evaluated again by ``kivy.lang.builder.call_fn`` whenever a
property it watches changes. Kivy 2.3's ``call_fn`` formats two trace messages on every
evaluation (the widget's repr, the rule's source and its value), unless Python runs with
``-O``, and the log then drops them unless it is at the TRACE level. That is most of what an
evaluation costs, and a race tap that puts up a new prompt evaluates 50 to 90 rules
(``bench/tap_parts.py``: ``kv rules`` per tap).

:func:`install` puts in its place an evaluation that does what Kivy's does (count the rule,
evaluate it, set the property) without the messages, only while the log is not at the TRACE
level (someone debugging gets Kivy's messages) and only over the ``call_fn`` it was written
against: Kivy's source is compared with :data:`KIVY_CALL_FN`, and a Kivy that changed it keeps
its own (slower, never wrong). Kivy looks ``call_fn`` up in its module when it binds a rule
and when it runs the canvas rules it put off (``Builder.sync``), so the rules of every widget
made after :func:`install` use it.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import kivy.lang.builder as builder
from kivy.logger import Logger

KIVY_CALL_FN = '''def call_fn(args, instance, v):
    element, key, value, rule, idmap = args
    if __debug__:
        trace('Lang: call_fn %s, key=%s, value=%r, %r' % (
            element, key, value, rule.value))
    rule.count += 1
    e_value = eval(value, idmap)
    if __debug__:
        trace('Lang: call_fn => value=%r' % (e_value, ))
    setattr(element, key, e_value)
'''
"""Kivy 2.3's ``call_fn``, as its source reads."""


def call_fn(args: tuple[Any, Any, Any, Any, dict[str, Any]], instance: Any, v: Any) -> None:
    """Kivy's ``call_fn`` without the trace: the rule ``value`` of ``element``'s ``key``,
    evaluated in ``idmap``, set on ``element``."""
    element, key, value, rule, idmap = args
    rule.count += 1
    setattr(element, key, eval(value, idmap))  # (a kv rule Kivy compiled)


def kivy_call_fn_known() -> bool:
    """Kivy's ``call_fn`` is the one :func:`call_fn` stands in for."""
    kivy_fn = getattr(builder.call_fn, "kivy_call_fn", builder.call_fn)
    try:
        return bool(inspect.getsource(kivy_fn) == KIVY_CALL_FN)
    except (OSError, TypeError):
        return False


def install() -> bool:
    """Kv rules bound from now on are evaluated by :func:`call_fn`; True when they are (False:
    Kivy's own is kept, its source not the expected one or the log at TRACE level). Once per
    process; a second call changes nothing."""
    if builder.call_fn is call_fn:
        return True
    if Logger.isEnabledFor(logging.getLevelName("TRACE")) or not kivy_call_fn_known():
        return False
    call_fn.kivy_call_fn = builder.call_fn  # type: ignore[attr-defined]
    builder.call_fn = call_fn
    return True


def uninstall() -> None:
    """Kv rules bound from now on are evaluated by Kivy's own ``call_fn`` again."""
    kivy_fn = getattr(call_fn, "kivy_call_fn", None)
    if builder.call_fn is call_fn and kivy_fn is not None:
        builder.call_fn = kivy_fn
