"""A car's swatch shows its colour and shape as they are now, in the pixels drawn.

A race-order row follows its car, so a row that showed a driver (a disc) in one race shows a
Legend (a square) in the next, at another place. The swatch used to hide the unused shape by
giving it size (0, 0); Kivy's Ellipse ignores a zero size (its vertices stay where they were),
so the old disc stayed on screen, in the old colour, in another car's row (seen in the demo:
Legend Yellow's row showed a green disc). These tests read the window's pixels back.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

SIZE = 24


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour drawn at window point (x, y) (origin bottom left) in the last frame."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    data = glReadPixels(int(x), int(y), 1, 1, GL_RGB, GL_UNSIGNED_BYTE)
    return data[0], data[1], data[2]


def _near(colour: tuple[int, int, int], rgba: list[float]) -> bool:
    return all(abs(c - round(v * 255)) <= 3 for c, v in zip(colour, rgba[:3], strict=False))


def _swatch(ui: Any, shape: str, rgba: list[float], pos: tuple[int, int]) -> Any:
    from kivy.core.window import Window

    from companion.ui.widgets.basic import Swatch

    swatch = Swatch(shape=shape, rgba=rgba, size=(SIZE, SIZE), pos=pos)
    Window.add_widget(swatch)
    ui.pump(2)
    return swatch


GREEN = [0.14, 0.65, 0.3, 1]
YELLOW = [0.96, 0.8, 0.1, 1]


def test_a_disc_that_becomes_a_square_elsewhere_leaves_no_disc_behind(ui) -> None:
    from kivy.core.window import Window

    swatch = _swatch(ui, "disc", GREEN, (300, 300))
    try:
        old_centre = (300 + SIZE / 2, 300 + SIZE / 2)
        assert _near(_pixel(*old_centre), GREEN)  # the disc is drawn
        background = _pixel(300 + SIZE / 2, 200 + SIZE / 2)
        swatch.pos, swatch.shape, swatch.rgba = (300, 200), "square", YELLOW
        ui.pump(2)
        assert _near(_pixel(300 + SIZE / 2, 200 + SIZE / 2), YELLOW)
        assert _near(_pixel(300 + 2, 200 + 2), YELLOW)  # a square's corner, not a disc's
        assert _pixel(*old_centre) == background, "the old disc is still drawn"
    finally:
        Window.remove_widget(swatch)


def test_a_square_that_becomes_a_disc_elsewhere_leaves_no_square_behind(ui) -> None:
    from kivy.core.window import Window

    swatch = _swatch(ui, "square", YELLOW, (300, 300))
    try:
        old_centre = (300 + SIZE / 2, 300 + SIZE / 2)
        assert _near(_pixel(*old_centre), YELLOW)
        background = _pixel(300 + SIZE / 2, 200 + SIZE / 2)
        swatch.pos, swatch.shape, swatch.rgba = (300, 200), "disc", GREEN
        ui.pump(2)
        assert _near(_pixel(300 + SIZE / 2, 200 + SIZE / 2), GREEN)
        assert not _near(_pixel(300 + 1, 200 + 1), GREEN)  # a disc leaves its corners free
        assert _pixel(*old_centre) == background, "the old square is still drawn"
    finally:
        Window.remove_widget(swatch)
