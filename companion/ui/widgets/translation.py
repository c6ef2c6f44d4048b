"""``tr``: the translation object kv rules bind to, so labels follow a language switch.

In kv write ``text: tr._("New race")`` (after
``#:import tr companion.ui.widgets.translation.tr``). Kivy binds the rule to ``tr._``;
:func:`companion.i18n.set_language` calls :meth:`Lang.switch`, which re-runs every such rule.
Python code uses :func:`companion.i18n._` and re-renders itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.event import Observable

from companion import i18n


class Lang(Observable):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.observers: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
        i18n.add_listener(self.switch)

    def _(self, text: str) -> str:
        return i18n._(text)

    def fbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            self.observers.append((func, args, kwargs))
            return None
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            key = (func, args, kwargs)
            if key in self.observers:
                self.observers.remove(key)
            return None
        return super().funbind(name, func, *args, **kwargs)

    def switch(self, _language: str) -> None:
        for func, args, _kwargs in list(self.observers):
            func(*args, None, None)

    def reset(self) -> None:
        """Forget the bindings of a previous App instance (tests start the app repeatedly)."""
        self.observers.clear()


tr = Lang()
