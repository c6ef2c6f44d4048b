"""The test harness's ``forget_recycled_views`` leaves Kivy's RecycleView cache consistent.

Kivy keeps unused RecycleView rows in a module-level cache with a running count; when the count
reaches its limit it trims the cache, dividing by the number of classes cached. Emptying the
cache without resetting the count (as the harness did) let a long test process reach the limit
with an empty cache: a ZeroDivisionError in Kivy's ``_clean_cache`` at the next data change.
"""

from __future__ import annotations

from recycled_views import forget_recycled_views


def test_forgetting_the_cache_resets_its_count() -> None:
    from kivy.uix.label import Label
    from kivy.uix.recycleview import views

    views._cached_views[Label].extend(Label() for _ in range(3))
    views._cache_count += 3
    forget_recycled_views()
    assert views._cache_count == 0
    assert not any(views._cached_views.values())


def test_a_data_change_after_many_forgotten_rows_does_not_fail() -> None:
    from kivy.uix.label import Label
    from kivy.uix.recycleview import views
    from kivy.uix.recycleview.views import RecycleDataAdapter

    # Rows of earlier apps of the process, as many as Kivy's limit, then forgotten.
    views._cached_views[Label].append(Label())
    views._cache_count = views._max_cache_size
    forget_recycled_views()
    RecycleDataAdapter().invalidate()  # what a RecycleView does when its data change
    assert views._cache_count == 0
