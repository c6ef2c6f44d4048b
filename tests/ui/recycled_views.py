"""Kivy's RecycleView row cache, emptied between the apps one test process starts."""

from __future__ import annotations


def forget_recycled_views() -> None:
    """Drop the row widgets Kivy keeps for reuse by every ``RecycleView`` of the process (a
    module-level cache): built by an app that has stopped, their kv rules are bound to that
    app's colours and sizes, and the next app of the same test process would show them with
    the old theme. (The real app runs once per process.) The cache's count is reset with it:
    Kivy trims the cache when the count reaches its limit and divides by the number of view
    classes cached, so a count left from views dropped here would one day divide by zero."""
    from kivy.uix.recycleview import views

    views._cached_views.clear()
    views._cache_count = 0
