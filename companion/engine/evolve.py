"""A fast ``dataclasses.replace`` for the engine's frozen, slotted state values.

Replaying a long race makes tens of thousands of small copies; ``dataclasses.replace`` spends most
of its time rebuilding keyword arguments and re-running ``__init__``. The state classes have no
``__post_init__`` checks, so a copy of the slots with some values changed is the same thing.
Unknown field names still raise, as with ``replace``.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_SLOTS: dict[type, tuple[str, ...]] = {}
_setattr = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes`` applied."""
    cls = type(obj)
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = tuple(cls.__dict__["__slots__"])
        if getattr(cls, "__post_init__", None) is not None:
            raise TypeError(f"{cls.__name__} validates in __post_init__: use dataclasses.replace")
    for name in changes:
        if name not in slots:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    new = object.__new__(cls)
    for name in slots:
        _setattr(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
