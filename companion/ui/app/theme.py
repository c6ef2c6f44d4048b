"""Dark (default) and light palettes; the App copies one into its colour properties.

``off_fg``: a greyed button's text (and an off button's), at 4.5:1 at least against ``btn``
and ``off`` (WCAG 2 text: a greyed End turn read from arm's length), and at most half the
contrast of ``btn_fg`` on the button (it still reads greyed)."""

from __future__ import annotations

Colour = tuple[float, float, float, float]

THEMES: dict[str, dict[str, Colour]] = {
    "dark": {
        "bg": (0.07, 0.08, 0.10, 1), "panel": (0.13, 0.14, 0.17, 1),
        "fg": (0.95, 0.95, 0.95, 1), "muted": (0.66, 0.68, 0.72, 1),
        "btn": (0.22, 0.24, 0.29, 1), "btn_fg": (1, 1, 1, 1),
        "accent": (0.95, 0.45, 0.10, 1), "accent_fg": (0.05, 0.05, 0.05, 1),
        "ok": (0.20, 0.62, 0.33, 1), "warn": (1.0, 0.42, 0.36, 1),
        "off": (0.16, 0.17, 0.20, 1), "off_fg": (0.66, 0.67, 0.71, 1),
        "track": (0.30, 0.31, 0.34, 1), "track_edge": (0.55, 0.56, 0.60, 1),
    },
    "light": {
        "bg": (0.96, 0.96, 0.94, 1), "panel": (0.88, 0.89, 0.90, 1),
        "fg": (0.08, 0.08, 0.10, 1), "muted": (0.33, 0.35, 0.38, 1),
        "btn": (0.78, 0.80, 0.84, 1), "btn_fg": (0.05, 0.05, 0.08, 1),
        "accent": (0.72, 0.28, 0.0, 1), "accent_fg": (1, 1, 1, 1),
        "ok": (0.08, 0.44, 0.20, 1), "warn": (0.75, 0.10, 0.08, 1),
        "off": (0.86, 0.87, 0.88, 1), "off_fg": (0.30, 0.31, 0.34, 1),
        "track": (0.62, 0.63, 0.66, 1), "track_edge": (0.35, 0.36, 0.40, 1),
    },
}
DEFAULT_THEME = "dark"
