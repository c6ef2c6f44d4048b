"""Widgets by test name: every widget the tests and the demo press or read has a ``test_name``
(the race screen also finds its own buttons this way to update them in place)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in list(widget.children):
        yield from walk(child)


def find(root: Any, test_name: str) -> Any:
    """The widget with ``test_name`` under ``root`` (raises LookupError)."""
    for widget in walk(root):
        if getattr(widget, "test_name", None) == test_name:
            return widget
    raise LookupError(test_name)


def find_all(root: Any, prefix: str) -> list[Any]:
    return [w for w in walk(root) if str(getattr(w, "test_name", "")).startswith(prefix)]
