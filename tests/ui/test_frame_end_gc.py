"""The garbage collector's work is done when a frame has been shown, not in the middle of a tap
(issue 10, "Speed, measured honestly"; ``companion/ui/app/frame_end_gc.py``): a full
collection in a tap cost it 3-4 ms on the development host (``bench/tap_parts.py``)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from companion.ui.app.frame_end_gc import FrameEndCollector, due

THRESHOLDS = (700, 10, 10)  # CPython's defaults


@pytest.mark.parametrize(("counts", "generation"), [
    ((0, 0, 0), None),
    ((349, 4, 8), None),  # nothing at half its threshold, the full one two collections away
    ((350, 0, 0), 0),
    ((10, 5, 0), 1),
    ((360, 7, 3), 1),  # the oldest due first: it takes the younger ones with it
    ((10, 0, 9), 2),
    ((700, 9, 9), 2),
])
def test_the_collection_nearly_due_is_chosen(counts: tuple[int, int, int],
                                            generation: int | None) -> None:
    assert due(counts, THRESHOLDS) == generation


def test_automatic_collection_turned_off_stays_off() -> None:
    assert due((5000, 50, 50), (0, 10, 10)) is None


class StandIn:
    """The parts of :mod:`gc` the collector uses, with counts set by the test."""

    def __init__(self, counts: tuple[int, int, int], enabled: bool = True) -> None:
        self.counts = counts
        self.enabled = enabled
        self.collected: list[int] = []

    def isenabled(self) -> bool:
        return self.enabled

    def get_count(self) -> tuple[int, int, int]:
        return self.counts

    def get_threshold(self) -> tuple[int, int, int]:
        return THRESHOLDS

    def collect(self, generation: int = 2) -> int:
        self.collected.append(generation)
        self.counts = (0, 0, 0) if generation == 2 else self.counts
        return 0


def test_a_frame_end_collects_what_is_due_and_counts_it() -> None:
    stand_in = StandIn((400, 1, 2))
    collector = FrameEndCollector(stand_in)
    collector.after_frame()
    assert stand_in.collected == [0]
    assert collector.collections == [1, 0, 0]
    stand_in.counts = (3, 0, 9)
    collector.after_frame()
    assert stand_in.collected == [0, 2]
    collector.after_frame()  # nothing due any more
    assert stand_in.collected == [0, 2]


def test_a_collector_turned_off_by_someone_is_left_off() -> None:
    stand_in = StandIn((5000, 9, 9), enabled=False)
    FrameEndCollector(stand_in).after_frame()
    assert stand_in.collected == []


@pytest.mark.ui
def test_the_app_collects_at_the_end_of_a_frame_it_draws(ui: Any) -> None:
    """Objects made since the last collection, half a threshold's worth: the next frame the
    app draws ends with their collection; a stopped app's frames do not."""
    from kivy.core.window import Window

    collector = ui.app.frame_end_gc
    gc.collect()
    made = [{} for _ in range(gc.get_threshold()[0] // 2 + 50)]  # kept: counted, not freed
    before = list(collector.collections)
    Window.canvas.ask_update()
    ui.pump(1)
    assert collector.collections[0] > before[0]
    assert gc.get_count()[0] < len(made)
    ui.stop()
    gc.collect()
    made += [{} for _ in range(gc.get_threshold()[0] // 2 + 50)]
    after_stop = list(collector.collections)
    Window.canvas.ask_update()
    ui.pump(1)
    assert collector.collections == after_stop
