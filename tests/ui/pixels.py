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


def accent_bar_hits(view: Any, accent: Any) -> int:
    """How many points along ``view``'s right edge (a ScrollView's vertical bar, every 8 px)
    the window shows in the ``accent`` colour (near enough)."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    right, bottom = view.to_window(view.right, view.y)
    x = int(right - view.bar_width / 2 - view.bar_margin)
    want = [round(v * 255) for v in accent[:3]]
    hits = 0
    for y in range(int(bottom) + 4, int(bottom + view.height) - 4, 8):
        data = glReadPixels(x, y, 1, 1, GL_RGB, GL_UNSIGNED_BYTE)
        hits += all(abs(c - a) <= 40 for c, a in zip(data[:3], want, strict=True))
    return hits
