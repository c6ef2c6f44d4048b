"""Minimal ``sd_notify(3)`` for a ``Type=notify`` systemd service, standard library only.

Every helper returns True when the message was sent and False (doing nothing) outside systemd,
i.e. when ``$NOTIFY_SOCKET`` is unset, so the app can call them unconditionally::

    sdnotify.ready()                       # after the first frame is drawn
    interval = sdnotify.watchdog_interval()  # seconds between pings, or None
    # every `interval` s, from the UI thread (Kivy Clock), so a frozen UI stops the pings:
    sdnotify.watchdog()
    sdnotify.status("Race in progress: lap 2/3")
    sdnotify.stopping()
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(state: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``; several assignments separated by newlines)."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "@/":
        return False
    if address[0] == "@":
        address = "\0" + address[1:]  # abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:
        return False
    return True


def ready(env: Mapping[str, str] | None = None) -> bool:
    return notify("READY=1", env)


def watchdog(env: Mapping[str, str] | None = None) -> bool:
    return notify("WATCHDOG=1", env)


def status(text: str, env: Mapping[str, str] | None = None) -> bool:
    return notify("STATUS=" + text.replace("\n", " "), env)


def stopping(env: Mapping[str, str] | None = None) -> bool:
    return notify("STOPPING=1", env)


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """Half of systemd's ``WatchdogSec`` in seconds (how often to call :func:`watchdog`), or None
    when no watchdog is armed for this process (``$WATCHDOG_PID`` names another one)."""
    env = os.environ if env is None else env
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 2_000_000
