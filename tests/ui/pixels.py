"""A widget's pixels as Kivy draws it (for the tests that compare drawings)."""

from __future__ import annotations

from typing import Any


def widget_pixels(widget: Any) -> bytes:
    """The widget drawn alone on a plain background, after its texture is brought up to date
    (RGBA, its size)."""
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    widget.texture_update()
    fbo = Fbo(size=(int(widget.width), int(widget.height)))
    with fbo:
        ClearColor(0.1, 0.2, 0.3, 1)
        ClearBuffers()
    fbo.add(widget.canvas)
    fbo.draw()
    data = bytes(fbo.pixels)
    fbo.remove(widget.canvas)
    return data
