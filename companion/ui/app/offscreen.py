"""Offscreen, every frame waits for its pixels: frames that are never finished pile up."""

from __future__ import annotations

from kivy.core.window import Window
from kivy.graphics.opengl import glFinish

from ..headless import offscreen

_finishing = False


def finish_every_frame_offscreen() -> None:
    """Offscreen, every frame waits for its pixels (``glFinish`` when the window flips).

    SDL's offscreen window draws into an EGL pbuffer, whose buffer swap does nothing; with
    Mesa's software rasteriser (llvmpipe, Debian 12's Mesa 22.3) rasterising on its own
    threads, the frames' work then piles up and is never freed: on the race screen a frame
    kept 4-9 MB for good, a whole scripted race 1.2 GB, and the UI test session grew past
    5 GB. A frame that ends with ``glFinish`` keeps nothing (the same race: 45 MB); with a
    display (X11, measured under Xvfb) nothing piles up and nothing is done here. Once per
    process."""
    global _finishing
    if _finishing or not offscreen():
        return
    Window.fbind("on_flip", lambda *_args: glFinish())
    _finishing = True
