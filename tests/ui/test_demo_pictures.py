"""The demo's pictures (``heat-companion demo --headless --size WxH``, ``docs/screens``) show
the window as it is drawn, at any window width."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.ui
@pytest.mark.parametrize("size", [(1366, 768), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_picture_of_the_window_is_the_window(ui, tmp_path: Path,
                                               size: tuple[int, int]) -> None:
    """1366 px of RGB is no multiple of 4 bytes a row: Kivy's own screenshot came out sheared
    (the right of the race screen wrapped round to its left)."""
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    from companion.ui.demo.run import save_window
    from companion.ui.demo.table_shots import start

    start(ui.app, ("Maximilianus", "Bartholomew"), 2, track="usa")
    try:
        Window.size = size
        ui.pump(3)
        width, height = size
        # The window as drawn, read before the picture is saved: saving draws into an Fbo
        # (Kivy's Texture.save), and after it the window's buffer is not always the frame
        # drawn (seen once in a whole suite, in an order where 208 points then differed).
        drawn = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
        path = tmp_path / "race.png"
        save_window(Window, path)
        picture = CoreImage.load(str(path), keep_data=True)
        assert tuple(picture.size) == size
        # Offscreen, SDL's window keeps the buffer it was made with (800x480): what lies
        # beyond it in a larger window is undefined and changes from one read to the next
        # (columns from 829 differed, never inside). A sheared picture is sheared there too:
        # each row 2 bytes further along than the last, 200 px by the 300th row.
        differ = []
        for x in range(3, min(width, 800), width // 23):
            for y in range(max(2, height - 480), height, height // 17):
                at = ((height - 1 - y) * width + x) * 4  # the window's rows go up
                expected = [c / 255 for c in drawn[at:at + 3]]
                if picture.read_pixel(x, y)[:3] != pytest.approx(expected, abs=1.5 / 255):
                    differ.append((x, y))
        assert not differ, f"{len(differ)} of the points differ, first {differ[:5]}"
        # and the window shows something (a picture of a blank window would pass)
        assert len({bytes(drawn[i:i + 3]) for i in range(0, len(drawn), 4 * 997)}) > 5
    finally:
        Window.size = (800, 480)
        ui.pump(3)
        ui.app.show("start")
        ui.pump(2)
