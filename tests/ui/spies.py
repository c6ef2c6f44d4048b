"""Count what Kivy does during a tap: a method of a class made to report each call.

Kivy's clock triggers call ``do_layout`` and ``texture_update`` by name on the class, so the spy
takes the method's place there (under the same name) and hands every call on unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def calls_to(cls: type, name: str, record: Callable[[Any], None]) -> Iterator[None]:
    """Inside the block, every call of ``cls.<name>`` first calls ``record(self)``."""
    own = name in cls.__dict__
    original = getattr(cls, name)

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        record(self)
        return original(self, *args, **kwargs)

    spy.__name__ = name  # (Kivy's triggers look the method up by its name)
    setattr(cls, name, spy)
    try:
        yield
    finally:
        if own:
            setattr(cls, name, original)
        else:
            delattr(cls, name)
