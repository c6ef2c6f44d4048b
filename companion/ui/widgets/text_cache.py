"""Label textures shared by what they show: text rendered once is not rendered again.

Kivy renders a label's texture whenever its text or style changes: the text is laid out word
by word (a font measurement per word) and, at the next frame, rasterised. The race screen
shows the same few hundred strings over and over (a driver's name, "Gear 3", the space
numbers in the race order, the React choices, the prompts that come back every round): about
nine label updates in ten repeat a text and style rendered before. With :func:`install`, a
label whose text, text box and every rendering option (font, size, colour, alignment,
padding, shortening...) match a texture rendered before shows that texture and renders
nothing; a new one is rendered once and kept.

The kept textures are never drawn into again. Kivy's own label keeps one texture per label
and renders the label's next text into it; a texture shared by several labels cannot be, so
each one kept is rendered by a label of the cache's own (:class:`LabelTextures`), a copy of
the label's settings at that moment, which nothing else touches: its texture, filled at the
first frame that draws it (as Kivy's are), always shows the text it was made for.

Kept: the most recently used :data:`MAX_TEXTURES` textures, at most :data:`MAX_BYTES` of
pixels; a label still showing a texture the cache let go keeps it as long as it needs it. A
texture over :data:`LARGE_BYTES` (mostly a paragraph: a round's rulings, 85-360 KB each at
800x480, seldom shown twice) is kept apart at first, only the :data:`MAX_LARGE` latest (at most
:data:`MAX_LARGE_BYTES`), and with the others once it is shown again (a prompt of two lines
that comes back at every turn). Kept with the others from the start, the rulings filled the
budget and pushed out the names, space numbers and prompts that come back at every turn (a
one-lap race of four drivers and two Legends: 259 textures in 16 MB, 15.8 MB of them rulings),
so those were rendered again and again: the same race played again rendered 141 small texts
(now 1).
Markup is kept too (a React choice's two lines, in two sizes, come back at every turn): its
text is composed as Kivy's label composes it (in its colour), rendered at once as Kivy renders
markup, and its references and anchors are kept with the texture. Empty text keeps Kivy's own
path. Main thread only, as all of Kivy's drawing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel as CoreMarkupLabel
from kivy.uix.label import Label
from kivy.utils import get_hex_from_color

from . import line_breaks
from .line_breaks import (
    FILL_FIXES,
    ORPHAN_FIXES,
    fill_break,
    has_chinese,
    kept_spaces,
    orphan_break,
)

MAX_TEXTURES = 1500
"""Textures kept (a race of six cars uses about 400 different ones, the whole demo 1,800)."""
MAX_BYTES = 16 * 1024 * 1024
"""Pixels kept, in bytes (RGBA): a line of text at 800x480 is a few kilobytes."""
LARGE_BYTES = 64 * 1024
"""A texture bigger than this is kept apart (a line across the race screen's panel at 800x480
is about 40 KB; a ruling of two lines or more, 85-360 KB)."""
MAX_LARGE = 48
"""Large textures kept apart at most (the latest ones, however few of them are shown again: a
texture of a prompt that comes back at every turn, such as React's, is shown again before 48
others have come, and is then kept with the others)."""
MAX_LARGE_BYTES = 8 * 1024 * 1024
"""Their pixels at most, in bytes."""
NOT_KEY = frozenset({"text", "text_size", "font_name_r"})
"""Options a rendering does not read (the text and its box are kept apart, and the font's
file is found again from its name by each rendering)."""


def _frozen(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    return value


def _copied(value: Any) -> Any:
    return [_copied(item) for item in value] if isinstance(value, (list, tuple)) else value


@dataclass(frozen=True)
class Kept:
    """A texture rendered once, with what Kivy's rendering says about it."""

    texture: Any
    shortened: bool
    renderer: Any
    """The cache's own core label that rendered it (it fills the texture at its first draw,
    and again should the GL context be lost)."""
    nbytes: int
    refs: dict[str, Any]
    """Markup: the boxes of each ``[ref]`` in the texture, as its rendering found them."""
    anchors: dict[str, Any]
    """Markup: the position of each ``[anchor]``."""


class _Pool:
    """Kept textures by key, the least recently used let go first: at most ``max_textures``
    of them, ``max_bytes`` of pixels."""

    def __init__(self, max_textures: int, max_bytes: int) -> None:
        self.max_textures = max_textures
        self.max_bytes = max_bytes
        self.kept: OrderedDict[tuple[Any, ...], Kept] = OrderedDict()
        self.nbytes = 0

    def add(self, key: tuple[Any, ...], kept: Kept) -> None:
        self.kept[key] = kept
        self.nbytes += kept.nbytes
        while self.kept and (len(self.kept) > self.max_textures
                             or self.nbytes > self.max_bytes):
            _key, dropped = self.kept.popitem(last=False)
            self.nbytes -= dropped.nbytes

    def take(self, key: tuple[Any, ...]) -> Kept | None:
        """The texture kept for ``key``, no longer kept here."""
        kept = self.kept.pop(key, None)
        if kept is not None:
            self.nbytes -= kept.nbytes
        return kept

    def clear(self) -> None:
        self.kept.clear()
        self.nbytes = 0


class LabelTextures:
    """The kept textures, by text and style (most recently used last)."""

    def __init__(self, max_textures: int = MAX_TEXTURES, max_bytes: int = MAX_BYTES,
                 large_bytes: int = LARGE_BYTES, max_large: int = MAX_LARGE,
                 max_large_bytes: int = MAX_LARGE_BYTES) -> None:
        self._pool = _Pool(max_textures, max_bytes)
        self._large = _Pool(max_large, max_large_bytes)
        """Large textures shown once so far, kept apart (the latest last)."""
        self.large_bytes = large_bytes
        self.hits = 0
        """Label updates that took a kept texture."""
        self.renders = 0
        """Label updates that rendered their text (kept from then on)."""

    @property
    def max_bytes(self) -> int:
        """The pixels the textures kept with the others may take (the large ones aside)."""
        return self._pool.max_bytes

    @property
    def nbytes(self) -> int:
        """The pixels of the textures kept with the others (the large ones aside)."""
        return self._pool.nbytes

    def __len__(self) -> int:
        return len(self._pool.kept) + len(self._large.kept)

    @property
    def large(self) -> int:
        """Large textures kept apart."""
        return len(self._large.kept)

    def clear(self) -> None:
        self._pool.clear()
        self._large.clear()

    @staticmethod
    def key(core: Any) -> tuple[Any, ...]:
        """What a rendering depends on: the text, its box and the options that shape it, by
        name (in the order the core label holds them: labels made alike hold them alike; two
        that do not only miss each other's textures)."""
        options = tuple([(name, tuple(value) if isinstance(value, list) else value)
                         for name, value in core.options.items() if name not in NOT_KEY])
        return (core.text, _frozen(core.usersize), options)

    def peek(self, core: Any) -> Kept | None:
        """The kept texture of what ``core`` would render now, if there is one (nothing
        rendered, nothing counted)."""
        key = self.key(core)
        return self._pool.kept.get(key) or self._large.kept.get(key)

    def texture_for(self, core: Any) -> Kept:
        """The texture of what ``core`` (a label's core label) would render now."""
        key = self.key(core)
        kept = self._pool.kept.get(key)
        if kept is not None:
            self._pool.kept.move_to_end(key)
            self.hits += 1
            return kept
        kept = self._large.take(key)
        if kept is not None:  # a large one shown again: kept with the others from now on
            self.hits += 1
            self._pool.add(key, kept)
            return kept
        kept = self._render(core)
        self.renders += 1
        (self._large if kept.nbytes > self.large_bytes else self._pool).add(key, kept)
        return kept

    @staticmethod
    def _render(core: Any) -> Kept:
        renderer = type(core)()
        renderer.options = {name: _copied(value) for name, value in core.options.items()}
        renderer.text = core.text
        renderer.usersize = _copied(core.usersize)
        markup = type(renderer) is CoreMarkupLabel
        if not markup and _wrapped(renderer):  # laid out once, its numbers and asides kept
            extents = renderer.get_cached_extents()
            renderer.text = kept_spaces(renderer.text, _text_width(renderer),
                                        lambda line: float(extents(line)[0]))
        renderer.refresh()
        if not markup:
            _broken(renderer)
        texture = renderer.texture
        if markup and texture is not None:  # rendered now, as Kivy's label renders markup:
            texture.bind()  # the rendering is what finds its references and anchors
        width, height = texture.size if texture is not None else (0, 0)
        return Kept(texture, bool(renderer.is_shortened), renderer, 4 * width * height,
                    dict(renderer.refs) if markup else {},
                    dict(renderer.anchors) if markup else {})

    def update(self, label: Any, kivy_update: Callable[..., None], *largs: Any) -> None:
        """``Label.texture_update`` for ``label``: a kept texture when there is one, Kivy's
        own ``kivy_update`` for text with nothing to draw."""
        core = label._label
        text = core.text
        markup = type(core) is CoreMarkupLabel
        stripped = label.halign == "justify" or label.strip
        if ((type(core) is not CoreLabel and not markup) or not text
                or (stripped and not text.strip())):
            kivy_update(label, *largs)
            return
        if markup:  # composed as Kivy's label composes it: the text in the label's colour
            colour = label.disabled_color if label.disabled else label.color
            shown = label.text.strip() if stripped else label.text
            core.text = f"[color={get_hex_from_color(colour)}]{shown}[/color]"
        try:
            kept = self.texture_for(core)
        except TypeError:  # an option that cannot be a key (nested in a list): Kivy's way
            kivy_update(label, *largs)
            return
        label.texture = None
        if markup:
            label.refs = dict(kept.refs)
            label.anchors = dict(kept.anchors)
        if kept.texture is not None:
            label.texture = kept.texture
            label.texture_size = list(kept.texture.size)
        label.is_shortened = kept.shortened


def _wrapped(renderer: Any) -> bool:
    """The text is wrapped in a width, not shortened nor cut to some lines."""
    options = renderer.options
    size = renderer.usersize
    return bool(size and size[0] is not None and not options.get("shorten")
                and not options.get("max_lines"))


def _text_width(renderer: Any) -> float:
    """The width a wrapped text's lines have: its box less the padding on either side."""
    padding = renderer.options.get("padding") or (0, 0, 0, 0)
    return float(renderer.usersize[0] - padding[0] - padding[2])


def _broken(renderer: Any) -> None:
    """Its numbers kept with the words beside them and its short asides in parentheses whole
    (:func:`.line_breaks.kept_spaces`, by :meth:`LabelTextures._render` before the first
    layout), then rendered again with line breaks put in (:func:`_break_lines`): where Kivy
    moved a Chinese run down to the next line whole and the line before has room for its
    first characters (:func:`.line_breaks.fill_break`; not after a line that ends a sentence
    or a clause: that break reads well), and where Kivy broke a word by characters where a
    line may not break (a Chinese clause's full stop alone on the last line:
    :func:`.line_breaks.orphan_break`). A text whose lines filled so are no fewer than
    unfilled is drawn unfilled: a Chinese word or a number's noun is not broken for no line
    saved ("…得到 2 張贊助" / "卡"). :class:`.text_fit.TextFit` counts the lines so broken. Only
    for text wrapped in a width, not shortened."""
    if not _wrapped(renderer):
        return
    text = renderer.text
    chinese_text = has_chinese(text)
    if not _break_lines(renderer, FILL_FIXES if chinese_text else 0):
        return  # no line filled: as laid out
    filled, count = renderer.text, len(renderer._cached_lines)
    renderer.text = text
    renderer.refresh()
    _break_lines(renderer, 0)
    if count < len(renderer._cached_lines):
        renderer.text = filled
        renderer.refresh()


def _break_lines(renderer: Any, most_fills: int) -> int:
    """Puts line breaks into the renderer's text, laid out again after each, at most
    ``most_fills`` that fill a line and :data:`.line_breaks.ORPHAN_FIXES` that keep closing
    punctuation from beginning one; the break nearer the text's start first (it changes the
    lines after it), as :class:`.text_fit.TextFit` counts. Returns the fills put in."""
    width = _text_width(renderer)

    def measure(line: str) -> float:
        return float(renderer.get_extents(line)[0])

    fills = fixes = 0
    while True:
        text = renderer.text
        lines = ["".join(word.text for word in line.words)
                 for line in renderer._cached_lines]
        if len(lines) < 2:
            return fills
        fill = (fill_break(text, lines, width, measure) if fills < most_fills else None)
        orphan = None
        # only a line with no space in it can end inside a word Kivy broke by characters
        if fixes < ORPHAN_FIXES and any(" " not in line.strip() for line in lines[:-1]):
            orphan = orphan_break(text, lines, width, measure)
        if fill is not None and (orphan is None or fill < orphan):
            at, fills = fill, fills + 1
        elif orphan is not None:
            at, fixes = orphan, fixes + 1
        else:
            return fills
        renderer.text = f"{text[:at]}\n{text[at:]}"
        renderer.refresh()


TEXTURES = LabelTextures()
"""The app's kept textures (:func:`install` makes every label use them)."""


def keep_names(names: Iterable[str]) -> None:
    """Keep ``names`` (the race's drivers', in place of those before) whole on one line
    wherever each fits one (:func:`.line_breaks.keep_names`): a Chinese line filled to save
    a line broke a driver's name ("…보내지 않은 歐陽娜娜司馬長風上官婉" / "兒의 카드 입력…",
    found by a table test). When the names change, the lines counted and the textures kept
    are forgotten (a text with a name may break elsewhere now)."""
    if line_breaks.keep_names(names):
        from .text_fit import FIT

        FIT.forget_lines()
        TEXTURES.clear()


def install(textures: LabelTextures = TEXTURES) -> None:
    """Every :class:`~kivy.uix.label.Label` (buttons included) made from now on takes its
    texture from ``textures``. Once per process; a second call changes nothing."""
    current = Label.texture_update
    if getattr(current, "kept_textures", None) is not None:
        return
    kivy_update = current

    def texture_update(self: Any, *largs: Any) -> None:
        textures.update(self, kivy_update, *largs)

    texture_update.__name__ = "texture_update"  # Kivy's triggers look methods up by name
    texture_update.__doc__ = Label.texture_update.__doc__
    texture_update.kept_textures = textures  # type: ignore[attr-defined]
    texture_update.kivy_update = kivy_update  # type: ignore[attr-defined]
    Label.texture_update = texture_update


def uninstall() -> None:
    """Labels made from now on render their own textures again (as Kivy's)."""
    current = Label.texture_update
    kivy_update = getattr(current, "kivy_update", None)
    if kivy_update is not None:
        Label.texture_update = kivy_update


def renderer(label: Any) -> Any:
    """The core label that rendered what ``label`` shows now (its lines, its size): the
    cache's own when the texture is a kept one, else the label's (Kivy's path)."""
    kept = installed()
    core = label._label
    if kept is not None:
        found = kept.peek(core)
        if found is not None and found.texture is label.texture:
            return found.renderer
    return core


def installed() -> LabelTextures | None:
    """The kept textures labels use now (None: Kivy's own rendering)."""
    kept: LabelTextures | None = getattr(Label.texture_update, "kept_textures", None)
    return kept
