"""Translations for the app: gettext catalogs for en, zh_TW and ko, switchable at run time.

Kivy-free. Every player-facing string goes through :func:`_` (UI code) or is an engine template
marked with ``N_`` (translated where it is shown, see :func:`render`). The catalogs live in
``locale/<lang>/LC_MESSAGES/heat_companion.{po,mo}``; ``extract.py`` rebuilds the template from
the sources and ``msgfmt.py`` compiles the ``.mo`` files kept in the repository.

>>> set_language("en"); _("New race")
'New race'
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

DOMAIN = "heat_companion"
LOCALE_DIR = Path(__file__).with_name("locale")
FONT_PATH = Path(__file__).with_name("fonts") / "HeatSans.ttf"
LANGUAGES: dict[str, str] = {"en": "English", "zh_TW": "繁體中文", "ko": "한국어"}
"""Language code -> its own name (shown untranslated in Settings)."""
DEFAULT_LANGUAGE = "en"

Text = Callable[[], str]
"""A message rendered in the current language when it is shown (a language switch shows it
again in the new one): ``lambda: _("Nothing to undo.")``."""

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext no-op marker
    """Mark a string for extraction without translating it here."""
    return message


def translation(language: str) -> gettext.NullTranslations:
    """The catalog for ``language`` (English = the msgids themselves)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[language])


def set_language(language: str) -> None:
    """Switch every later :func:`_` call to ``language`` and tell the listeners."""
    global _current, _language
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    _current = translation(language)
    _language = language
    for listener in list(_listeners):
        listener(language)


def language() -> str:
    return _language


TRADITIONAL_CHINESE = ("zh_tw", "zh_hk", "zh_mo", "zh_hant")
"""Locales whose Chinese is written in traditional characters (the app's zh_TW)."""


def system_language(environ: Mapping[str, str]) -> str:
    """The app's language closest to the system's (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, then ``LANG``, in gettext's order; ``zh_TW.UTF-8`` -> ``zh_TW``,
    ``ko_KR`` -> ``ko``, Hong Kong's Chinese -> ``zh_TW``), else English: a new table on a
    Korean or Chinese system starts in its language rather than looking for Settings in
    English (a table test found it had to)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for entry in environ.get(name, "").split(":"):
            code = entry.split(".")[0].split("@")[0].replace("-", "_").lower()
            if not code or code in ("c", "posix"):
                continue
            if code.startswith(TRADITIONAL_CHINESE):
                return "zh_TW"
            if code == "ko" or code.startswith("ko_"):
                return "ko"
            if code == "en" or code.startswith("en_"):
                return "en"
        if environ.get(name):
            break  # the first variable set decides, as gettext's lookup does
    return DEFAULT_LANGUAGE


def add_listener(listener: Callable[[str], None]) -> None:
    _listeners.append(listener)


def remove_listener(listener: Callable[[str], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.gettext(message)


def listed(items: Iterable[str]) -> str:
    """Names (cars, tracks, letters) in a list, as the current language writes one:
    "Ana, Ben" in English and Korean, "Ana、 Ben" in Traditional Chinese (an English comma
    between Chinese names read as a mistake: found by a table test; the space after "、"
    is where a line may break: Kivy breaks a line only at a space)."""
    return _(", ").join(items)


def sentences(*parts: str) -> str:
    """Sentences one after another, as the current language writes them: a space between them
    in English and Korean, none in Traditional Chinese (its sentences end with a full-width
    "。", and an ASCII space after one read as a mistake: a season's note read "未驗證資料。
    第 2 場…", found by a table test). Empty parts are left out."""
    gap = "" if _language == "zh_TW" else " "
    return gap.join(part for part in parts if part)
