"""The garbage collector's work done when a frame has been shown, not in the middle of a tap.

Python's collector runs when enough objects have been made since its last run, wherever that
happens to be: often in the middle of a tap (a tap that puts up a new prompt makes thousands).
A collection of the youngest objects costs little; a full one walks every object not frozen
(``gc.freeze()``, once start-up and the race screen are built) and cost a race's tap 3-4 ms of
CPU on the development host (``bench/tap_parts.py``'s ``gc``), several times that on a Pi: on a
tap it is a late frame. The app's frames come in bursts, one or a few after each input, then
none until the next one (Kivy draws a frame only when something changed), so the moment
right after a frame has been shown is the app's idle time: :class:`FrameEndCollector` runs
there the collection that is nearly due (each generation at half its threshold, the full one
a little before CPython would), and a tap rarely finds one due. CPython's own collections
stay on: a tap that makes more than half a threshold's worth of objects still gets one, as it
would without this.
"""

from __future__ import annotations

import gc
from typing import Any, Protocol


class Collector(Protocol):
    """What is used of the :mod:`gc` module (a stand-in in the tests)."""

    def isenabled(self) -> bool: ...

    def get_count(self) -> tuple[int, int, int]: ...

    def get_threshold(self) -> tuple[int, int, int]: ...

    def collect(self, generation: int = 2) -> int: ...


def due(counts: tuple[int, int, int], thresholds: tuple[int, int, int]) -> int | None:
    """The oldest generation worth collecting now, None for none.

    CPython collects generation 0 when more than its threshold of objects were made (net)
    since the last collection, generation 1 every threshold-1-th collection of generation 0,
    and the full collection (2) every threshold-2-th collection of generation 1 (when enough
    long-lived objects are new since the last). Here: generations 0 and 1 at half their
    thresholds, the full one when one more collection of generation 1 would make it due."""
    young, middle, old = counts
    t_young, t_middle, t_old = thresholds
    if t_young <= 0:  # thresholds of 0: automatic collection turned off, leave it so
        return None
    if old >= max(1, t_old - 1):
        return 2
    if middle >= max(1, t_middle // 2):
        return 1
    if young >= max(1, t_young // 2):
        return 0
    return None


class FrameEndCollector:
    """Collects what is nearly due at the end of every frame (:meth:`after_frame`, bound to
    the window's ``on_flip``)."""

    def __init__(self, collector: Collector | None = None) -> None:
        self.collector: Collector = collector if collector is not None else gc
        self.collections = [0, 0, 0]
        """Collections run at frames' ends, per generation (for benches and tests)."""

    def after_frame(self, *_args: Any) -> None:
        collector = self.collector
        if not collector.isenabled():  # someone turned the collector off: leave it off
            return
        generation = due(collector.get_count(), collector.get_threshold())
        if generation is not None:
            collector.collect(generation)
            self.collections[generation] += 1

    def install(self, window: Any) -> None:
        """Run at the end of every frame ``window`` shows (its ``on_flip``)."""
        window.fbind("on_flip", self.after_frame)

    def uninstall(self, window: Any) -> None:
        window.funbind("on_flip", self.after_frame)
