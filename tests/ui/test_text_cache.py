"""Kept label textures (:mod:`companion.ui.widgets.text_cache`): a label shows exactly what
Kivy's own rendering shows, whatever it showed before and however often its text changed
between two frames; labels showing the same text in the same style share one texture; the
cache stays within its bounds; markup is kept with its references; empty text keeps Kivy's
path."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pixels import widget_pixels

pytestmark = pytest.mark.ui


@contextmanager
def kivys_own() -> Iterator[None]:
    """Labels render their own textures (as Kivy's) inside the block."""
    from companion.ui.widgets import text_cache

    kept = text_cache.installed()
    assert kept is not None, "the app installs the kept textures"
    text_cache.uninstall()
    try:
        yield
    finally:
        text_cache.install(kept)


def _as_kivy_draws(widget: Any) -> None:
    kept = widget_pixels(widget)
    assert sum(1 for x in kept if x > 200) > 30, "nothing drawn"
    with kivys_own():
        own = widget_pixels(widget)
    assert kept == own


def _label(**kwargs: Any) -> Any:
    from kivy.uix.label import Label

    return Label(**{"font_size": 20, "size": (220, 48), "pos": (0, 0), **kwargs})


def _rendered_once(style: dict[str, Any]) -> tuple[Any, Any]:
    """Two labels in ``style``: the second takes the texture the first rendered (one render,
    then one hit)."""
    from companion.ui.widgets import text_cache

    kept = text_cache.installed()
    assert kept is not None
    first = _label(**style)
    first.texture_update()
    renders, hits = kept.renders, kept.hits
    twin = _label(**style)
    twin.texture_update()
    assert twin.texture is first.texture
    assert (kept.renders, kept.hits) == (renders, hits + 1)
    return first, twin


STYLES: list[dict[str, Any]] = [
    {"text": "Space 14"},
    {"text": "Maximilianus", "bold": True, "color": (0.2, 0.9, 0.3, 1)},
    {"text": "스트레스 2 · 熱度 3", "font_size": 24},
    {"text": "Legend Black to space 14, Race Line", "text_size": (200, None),
     "halign": "center"},
    {"text": "Bernadette's cards", "disabled": True},
    {"text": "Cooldown 2\n[size=14]Wings 6: 2 Heat[/size]", "markup": True, "halign": "center",
     "text_size": (210, None)},
    {"text": "[b]Boost[/b] (1 Heat)", "markup": True, "color": (0.9, 0.5, 0.1, 1)},
    {"text": "[b]Slipstream[/b] +2", "markup": True, "disabled": True},
]


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s["text"][:12])
def test_a_kept_texture_draws_what_kivy_draws(ui, style: dict[str, Any]) -> None:
    label = _label(**style)
    twin = _label(**style)
    ui.pump(1)
    assert twin.texture is label.texture  # rendered once
    _as_kivy_draws(label)


def test_a_text_changed_twice_between_frames_shows_the_right_text(ui) -> None:
    """The texture of "14", made and then left before any frame filled it, still shows "14"
    when the label comes back to it (Kivy's label would have drawn "15" into it)."""
    label = _label(text="Space 14")
    label.texture_update()
    fourteen = label.texture
    label.text = "Space 15"
    label.texture_update()
    fifteen = label.texture
    assert fifteen is not fourteen
    label.text = "Space 14"
    label.texture_update()
    assert label.texture is fourteen
    ui.pump(1)
    _as_kivy_draws(label)
    label.text = "Space 15"
    ui.pump(1)
    assert label.texture is fifteen
    _as_kivy_draws(label)


def test_what_shapes_the_text_makes_another_texture(ui) -> None:
    base = {"text": "Gear 3 ready, cards next"}
    first, _same = _rendered_once(base)
    for change in ({"color": (1, 0, 0, 1)}, {"font_size": 21}, {"bold": True},
                   {"text_size": (90, None)}, {"text": "Gear 3 ready, cards next."},
                   {"padding": (4, 0, 4, 0)}, {"halign": "right", "text_size": (220, None)}):
        other = _label(**{**base, **change})
        other.texture_update()
        assert other.texture is not first.texture, change
    wrapped = _label(**base, text_size=(90, None))
    wrapped.texture_update()
    assert wrapped.texture_size[1] > first.texture_size[1]  # two lines: its own rendering


def test_a_shortened_text_says_so_from_a_kept_texture(ui) -> None:
    style = {"text": "Maximilianus Bartholomew", "shorten": True, "text_size": (80, None)}
    label = _label(**style)
    label.texture_update()
    twin = _label(**style)
    twin.texture_update()
    assert twin.texture is label.texture
    assert label.is_shortened and twin.is_shortened
    whole = _label(text="Max", shorten=True, text_size=(80, None))
    whole.texture_update()
    assert not whole.is_shortened


def test_markup_is_kept_with_its_references(ui) -> None:
    """A markup label is composed in its colour as Kivy composes it; the texture is shared by
    the labels showing the same, and each gets the references and anchors Kivy's own rendering
    finds; another colour is another texture."""
    from companion.ui.widgets import text_cache

    style = {"text": "Why? [anchor=end][ref=why]Tap here[/ref] again", "markup": True}
    marked, twin = _rendered_once(style)
    assert text_cache.renderer(twin) is not twin._label  # the cache's own rendering
    with kivys_own():
        own = _label(**style)
        own.texture_update()
    assert own.texture is not marked.texture
    assert "why" in own.refs and "end" in own.anchors
    for label in (marked, twin):
        assert dict(label.refs) == dict(own.refs)
        assert dict(label.anchors) == dict(own.anchors)
        assert label._label.text == own._label.text  # composed alike: in the label's colour
    twin.refs["why"] = []  # each label has its own copy
    assert marked.refs["why"] == own.refs["why"]
    red = _label(**style, color=(1, 0, 0, 1))
    red.texture_update()
    assert red.texture is not marked.texture
    _as_kivy_draws(red)


def test_empty_text_keeps_kivys_way(ui) -> None:
    from companion.ui.widgets import text_cache

    kept = text_cache.installed()
    assert kept is not None
    before = len(kept)
    for style in ({"text": ""}, {"text": "", "markup": True},
                  {"text": "   ", "markup": True, "strip": True}):
        empty = _label(**style)
        empty.texture_update()
        assert empty.texture is None and list(empty.texture_size) == [0, 0], style
    assert len(kept) == before


def test_the_cache_stays_within_its_bounds(ui) -> None:
    from kivy.uix.label import Label

    from companion.ui.widgets.text_cache import LabelTextures, installed

    kept = installed()
    assert kept is not None
    kivy_update = Label.texture_update.kivy_update  # type: ignore[attr-defined]
    few = LabelTextures(max_textures=3)
    labels = [_label(text=f"Legend {n}") for n in range(5)]
    for label in labels:
        few.update(label, kivy_update)
    assert len(few) == 3 and few.renders == 5
    few.update(labels[0], kivy_update)  # let go, so rendered again
    assert few.renders == 6
    assert labels[1].texture is not None  # a label keeps what it shows
    small = LabelTextures(max_bytes=labels[0].texture.width * labels[0].texture.height * 4 * 2)
    for label in labels:
        small.update(label, kivy_update)
    assert len(small) <= 2 and small.nbytes <= small.max_bytes


def test_a_race_mostly_takes_kept_textures(ui, monkeypatch) -> None:
    """Over a scripted race of four drivers and two Legends, most label updates take a
    texture rendered before (the same names, gears, keys and space numbers come back; the
    rulings and the round's prompts are new each time). The same race played again renders
    again only its large texts (the rulings, kept apart and let go): its names, space numbers,
    gears, keys and prompts of one or two lines are all still kept. Kept with the others, the
    first race's rulings filled the budget, and the same race played again rendered 141 of
    those again (43 in its first 60 taps)."""
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets import text_cache

    kept = text_cache.installed()
    assert kept is not None
    drivers = ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina")
    start(ui.app, drivers, 2)
    ui.pump()
    renders, hits = kept.renders, kept.hits
    assert ui.player.play_to_end() > 100
    ui.pump()
    new_renders, new_hits = kept.renders - renders, kept.hits - hits
    assert new_hits > new_renders > 0, (new_hits, new_renders)

    ui.app.show("start")
    ui.pump()
    render = kept._render
    small: list[str] = []

    def counted(core: Any) -> Any:
        made = render(core)
        if made.nbytes <= text_cache.LARGE_BYTES:
            small.append(core.text)
        return made

    monkeypatch.setattr(kept, "_render", counted)
    start(ui.app, drivers, 2)  # the same seed: the same race, its first 60 taps
    ui.pump()
    for _tap in range(60):
        assert ui.player.step() is not None
    assert len(small) <= 3, small


def test_large_textures_are_kept_apart_until_shown_again(ui) -> None:
    """A large texture (a round's rulings) does not push out the small ones that come back
    at every turn: it is kept apart, only the latest few, and with the others once it is
    shown again (a prompt of two lines that comes back)."""
    from kivy.uix.label import Label

    from companion.ui.widgets.text_cache import LabelTextures

    kivy_update = Label.texture_update.kivy_update  # type: ignore[attr-defined]
    names = [_label(text=f"Driver {n}") for n in range(3)]
    paragraphs = [_label(text=f"Legend {n} to space {n}.\nRace Line.\nNo Heat to pay.",
                         text_size=(220, None)) for n in range(6)]
    measuring = LabelTextures()  # the two kinds' sizes, as rendered here
    for label in (names[0], paragraphs[0]):
        measuring.update(label, kivy_update)
    small, large = (4 * w * h for w, h in (names[0].texture.size, paragraphs[0].texture.size))
    assert large > 2 * small
    # Room for the three names, or for one paragraph and two names: kept together, as
    # before, the paragraphs would push the names out.
    cache = LabelTextures(max_bytes=large + 2 * small + 8, large_bytes=2 * small, max_large=2)
    for label in names:
        cache.update(label, kivy_update)
    for label in paragraphs:
        cache.update(label, kivy_update)
    assert cache.renders == 9 and cache.large == 2 and cache.nbytes == 3 * small
    for label in names:  # every name still kept: nothing rendered again
        cache.update(label, kivy_update)
    assert cache.renders == 9 and cache.hits == 3
    cache.update(paragraphs[0], kivy_update)  # let go (only the latest two are kept apart)
    assert cache.renders == 10
    cache.update(paragraphs[0], kivy_update)  # shown again: kept with the others from now on
    assert cache.renders == 10 and cache.large == 1  # (5 is the other one kept apart)
    assert cache.peek(paragraphs[0]._label) is not None and cache.nbytes <= cache.max_bytes
    assert paragraphs[1].texture is not None  # a label keeps what it shows


def test_no_label_shows_another_text_while_textures_come_and_go(ui, monkeypatch) -> None:
    """With the budgets shrunk so that textures are let go and moved between the pools all
    the time, every label on the race screen shows the texture rendered for its own text and
    style, step after step of a race with Undo, Redo and language switches."""
    import random

    from kivy.uix.label import Label

    from companion import i18n
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets import text_cache

    kept = text_cache.installed()
    assert kept is not None
    monkeypatch.setattr(kept._pool, "max_bytes", 1024 * 1024)
    monkeypatch.setattr(kept._large, "max_textures", 4)
    render = kept._render
    rendered: dict[int, tuple[Any, tuple[Any, ...]]] = {}

    def noted(core: Any) -> Any:
        made = render(core)
        if made.texture is not None:
            rendered[id(made.texture)] = (made.texture, kept.key(core))
        return made

    monkeypatch.setattr(kept, "_render", noted)
    start(ui.app, ("Maximilianus", "Bartholomew", "Konstantinos", "Wilhelmina"), 2)
    ui.pump()
    choose = random.Random(7)
    checked = 0
    try:
        for step in range(150):
            session = ui.app.controller.session
            if step % 9 == 4 and session.can_undo:
                ui.player.press("undo")
            elif step % 13 == 6 and session.can_redo:
                ui.player.press("redo")
            elif step % 40 == 20:
                i18n.set_language(choose.choice(["zh_TW", "ko", "en"]))
                ui.pump()
            elif ui.player.step() is None:
                break
            ui.pump(1)
            for widget in ui.app.sm.current_screen.walk():
                texture = getattr(widget, "texture", None)
                made = rendered.get(id(texture)) if texture is not None else None
                if not isinstance(widget, Label) or made is None or made[0] is not texture:
                    continue
                checked += 1
                assert kept.key(widget._label) == made[1], (widget.text, made[1][0])
    finally:
        i18n.set_language("en")
    assert checked > 3000
