"""Open one screen as the first screen of a fresh app, in a fresh process.

``python tests/ui/first_screen_probe.py SCREEN DATA``: in each of en, zh_TW and ko, start the
app on the data folder ``DATA`` (which holds an unfinished season race) and show ``SCREEN``
before any other screen but Start (cold); then start it again, tap Continue, and show
``SCREEN`` (after Continue). Prints one JSON line per opening: ``{"screen", "language",
"after", "shown", "error"}``.

A process of its own because Kivy's class registry and the kv rules are global per process:
once another screen has imported a widget class, a screen whose kv leans on it opens fine, so
only a fresh process shows the crash a table would see (``Unknown class <NameInput>``).
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any

from companion.ui.headless import use_headless_kivy

use_headless_kivy()

LANGUAGES = ("en", "zh_TW", "ko")


def open_first(screen: str, data: Path, language: str, after_continue: bool) -> dict[str, Any]:
    from kivy.base import EventLoop, runTouchApp

    from companion.ui.app import HeatApp

    settings = data / "settings.json"
    saved = json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else {}
    settings.write_text(json.dumps({**saved, "language": language}), encoding="utf-8")
    result: dict[str, Any] = {"screen": screen, "language": language,
                              "after": "continue" if after_continue else "cold",
                              "shown": False, "error": ""}
    app = HeatApp(data=data)
    try:
        app._run_prepare()
        runTouchApp(embedded=True)
        for _ in range(3):
            EventLoop.idle()
        assert app.first_frame_done and app.language == language
        if after_continue:
            assert app.continue_target() is not None, "no unfinished race to continue"
            app.continue_race()
            for _ in range(2):
                EventLoop.idle()
            assert app.sm.current == "race", app.sm.current
        shown = app.show(screen)
        for _ in range(3):
            EventLoop.idle()
        result["shown"] = app.sm.current == screen and bool(shown.children)
    except BaseException:
        result["error"] = traceback.format_exc(limit=8)[-2500:]
    finally:
        try:
            app._stop()
        except BaseException:
            result["error"] = result["error"] or traceback.format_exc(limit=4)[-1500:]
    return result


def main(argv: list[str]) -> int:
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    Config.set("graphics", "maxfps", "0")  # the probe pumps frames, it never waits for them
    Config.set("graphics", "multisamples", "0")  # one sample a pixel (as tests/ui/conftest.py)
    screen, data = argv[0], Path(argv[1])
    for after_continue in (False, True):
        for language in LANGUAGES:
            print(json.dumps(open_first(screen, data, language, after_continue)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
