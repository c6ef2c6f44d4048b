"""sd_notify against a fake systemd notification socket."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware import sdnotify


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield sock, path
    sock.close()


def test_messages_reach_the_socket(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    env = {"NOTIFY_SOCKET": path}
    assert sdnotify.ready(env)
    assert sdnotify.status("Lap 2/3\nrain", env)
    assert sdnotify.watchdog(env)
    assert sdnotify.stopping(env)
    got = [sock.recv(1024) for _ in range(4)]
    assert got == [b"READY=1", b"STATUS=Lap 2/3 rain", b"WATCHDOG=1", b"STOPPING=1"]


def test_abstract_namespace_socket() -> None:
    name = f"heat-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(64) == b"READY=1"


def test_no_op_outside_systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.ready() is False
    assert sdnotify.watchdog({}) is False
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": "relative/path"}) is False
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone.sock")}) is False


def test_watchdog_interval() -> None:
    pid = str(os.getpid())
    assert sdnotify.watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 10.0
    assert sdnotify.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": pid}) == 10.0
    assert sdnotify.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert sdnotify.watchdog_interval({"WATCHDOG_USEC": "x"}) is None
    assert sdnotify.watchdog_interval({}) is None
