"""Write Kivy's config.ini for the kiosk so that every tap arrives exactly once.

With the SDL2 window, SDL already delivers touch (Kivy's automatic "sdl" provider). Kivy's
default Linux config also adds ``%(name)s = probesysfs`` (mtdev reading the same
/dev/input/event*), and SDL synthesises mouse events from touches that the ``mouse`` provider
turns into a second touch. So: remove every probesysfs/mtdev/hidinput entry, keep ``mouse`` only
for a real mouse (``disable_on_activity``), and the service sets ``SDL_TOUCH_MOUSE_EVENTS=0``.
Run by install.sh as the service user:

    KIVY_HOME=/var/lib/heat-companion/kivy python deploy/configure_kivy.py
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    home = os.environ.get("KIVY_HOME")
    if not home:
        print("configure_kivy: set KIVY_HOME to the service's Kivy directory", file=sys.stderr)
        return 2
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG"):
        os.environ.setdefault(name, "1")
    os.makedirs(home, exist_ok=True)
    from kivy.config import Config  # creates config.ini with Kivy's defaults if missing

    for option in list(Config.options("input")):
        Config.remove_option("input", option)
    Config.set("input", "mouse", "mouse,disable_on_activity")
    Config.filename = os.path.join(home, "config.ini")
    Config.write()
    print(f"configure_kivy: wrote {Config.filename} ([input] mouse only; touch via SDL)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
