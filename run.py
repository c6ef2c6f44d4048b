#!/usr/bin/env python3
"""Set up what heat-companion needs, then run the app or the whole test suite.

    python3 run.py          # the app (extra arguments go to `heat-companion`)
    python3 run.py test     # every test (extra arguments go to pytest)

Standard library only, so it works on a fresh Debian 12 / Raspberry Pi OS with nothing but
python3. It installs the system libraries Kivy's window needs (and the tools the tests use) with
apt-get when run as root or with password-less sudo, creates `.venv` (bootstrapping pip from PyPI
when the system Python has no ensurepip), and installs the project into it: what running needs,
plus the `pi` extra (lgpio) on a Raspberry Pi, plus the `test` extra for `run.py test`. A stamp in
`.venv` records the pyproject.toml it installed and the extras, so switching between the two
commands installs nothing again. Then it hands over: `run.py` becomes the app (same process, so
signals reach it), or runs pytest as a child, passing SIGTERM and SIGHUP on; pytest's "no tests
collected" counts as a failure.
"""

from __future__ import annotations

import ctypes.util
import hashlib
import json
import os
import platform
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"
STAMP = VENV / ".heat-companion-installed"

# Debian package -> how to tell it is already there.
APP_PACKAGES = {
    "libgl1": lambda: ctypes.util.find_library("GL") is not None,
    "libegl1": lambda: ctypes.util.find_library("EGL") is not None,
    "libgles2": lambda: ctypes.util.find_library("GLESv2") is not None,
    "libgl1-mesa-dri": lambda: any(
        Path(f"/usr/lib/{arch}/dri").exists()
        for arch in ("x86_64-linux-gnu", "aarch64-linux-gnu", "arm-linux-gnueabihf")
    ),
    "libmtdev1": lambda: ctypes.util.find_library("mtdev") is not None,
}
# 32-bit ARM (Raspberry Pi OS armhf): PyPI has no Kivy wheel; the piwheels one (the OS's pip
# is set up for piwheels) links the OS's SDL2 libraries instead of bundling them.
ARM32_PACKAGES = {
    package: (lambda lib=lib: ctypes.util.find_library(lib) is not None)
    for package, lib in (("libsdl2-2.0-0", "SDL2-2.0"), ("libsdl2-image-2.0-0", "SDL2_image-2.0"),
                         ("libsdl2-mixer-2.0-0", "SDL2_mixer-2.0"),
                         ("libsdl2-ttf-2.0-0", "SDL2_ttf-2.0"))
}
TEST_PACKAGES = {
    "shellcheck": lambda: shutil.which("shellcheck") is not None,
    "systemd": lambda: shutil.which("systemd-analyze") is not None,
    # the crash test's sync tracer (bench/synctrace.py) is a small C shim built at test time
    "gcc": lambda: shutil.which("cc") is not None or shutil.which("gcc") is not None,
    "libc6-dev": lambda: Path("/usr/include/dlfcn.h").exists(),  # gcc only recommends it
}


def say(text: str) -> None:
    print(f"[run.py] {text}", file=sys.stderr, flush=True)


def apt_install(packages: list[str]) -> None:
    if not packages or not sys.platform.startswith("linux") or not shutil.which("apt-get"):
        return
    if os.geteuid() == 0:
        prefix: list[str] = []
    elif shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"],
                                                 capture_output=True).returncode == 0:
        prefix = ["sudo", "-n"]
    else:
        say("missing system packages (install them with sudo apt-get install -y "
            + " ".join(packages) + ")")
        return
    say("installing system packages: " + " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(prefix + ["apt-get", "update", "-q"], check=False, env=env,
                   stdout=subprocess.DEVNULL)
    result = subprocess.run(prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends",
                                      *packages], env=env, stdout=subprocess.DEVNULL)
    if result.returncode != 0:
        say("apt-get could not install " + " ".join(packages))


def bootstrap_pip() -> None:
    """Install pip into a venv made --without-pip, from the pip wheel on PyPI."""
    index = "https://pypi.org/pypi/pip/json"
    with urllib.request.urlopen(index, timeout=60) as reply:
        info = json.load(reply)
    wheel = next(u for u in info["urls"] if u["filename"].endswith(".whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        with urllib.request.urlopen(urllib.parse.urljoin(index, wheel["url"]),
                                    timeout=120) as reply:
            data = reply.read()
        if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
            raise SystemExit("pip wheel download is corrupt; try again")
        path.write_bytes(data)
        subprocess.run([str(PY), str(path / "pip"), "install", "-q", str(path)], check=True)


def ensure_venv() -> None:
    if PY.exists():
        return
    say("creating .venv")
    made = subprocess.run([sys.executable, "-m", "venv", str(VENV)], capture_output=True)
    if made.returncode != 0:
        # Debian's python3 without python3-venv has no ensurepip: try apt, else fetch pip.
        apt_install(["python3-venv"])
        shutil.rmtree(VENV, ignore_errors=True)
        made = subprocess.run([sys.executable, "-m", "venv", str(VENV)], capture_output=True)
        if made.returncode != 0:
            shutil.rmtree(VENV, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(VENV)], check=True)
            bootstrap_pip()


def is_raspberry_pi() -> bool:
    """True on a Raspberry Pi (the device tree names the board); HEAT_COMPANION_PI=1/0 forces it."""
    forced = os.environ.get("HEAT_COMPANION_PI", "")
    if forced in ("0", "1"):
        return forced == "1"
    for model in (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model")):
        try:
            if model.read_bytes().startswith(b"Raspberry Pi"):
                return True
        except OSError:
            continue
    return False


def wanted_extras(testing: bool) -> set[str]:
    """The extras this command needs: `pi` on a Raspberry Pi, `test` for the test suite."""
    return ({"pi"} if is_raspberry_pi() else set()) | ({"test"} if testing else set())


def read_stamp(digest: str) -> set[str] | None:
    """The extras installed for this pyproject.toml, or None when it was never installed (or
    pyproject.toml changed since). A stamp written before extras were recorded held only the
    digest, and that install always had the `test` extra."""
    try:
        text = STAMP.read_text()
    except OSError:
        return None
    try:
        stamp = json.loads(text)
    except ValueError:
        return {"test"} if text.strip() == digest else None
    if not isinstance(stamp, dict) or stamp.get("pyproject") != digest:
        return None
    extras = stamp.get("extras")
    if not isinstance(extras, list) or not all(isinstance(e, str) for e in extras):
        return None
    return set(extras)


def previous_extras() -> set[str]:
    """Extras an older install had, whatever pyproject.toml it was for (kept on reinstall)."""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return {"test"} if STAMP.exists() else set()
    extras = stamp.get("extras") if isinstance(stamp, dict) else None
    return {e for e in extras if isinstance(e, str)} if isinstance(extras, list) else set()


def ensure_project(extras: set[str]) -> None:
    """Install the project (editable) with `extras`, unless the stamp says it already is."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    installed = read_stamp(digest)
    if installed is not None and extras <= installed:
        return
    # Keep what an earlier install had, so the other command does not reinstall next time.
    extras = extras | (installed if installed is not None else previous_extras())
    target = f"{ROOT}[{','.join(sorted(extras))}]" if extras else str(ROOT)
    say("installing heat-companion" + (f" with {', '.join(sorted(extras))}" if extras else "")
        + " into .venv")
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "-e", target], check=True)
    STAMP.write_text(json.dumps({"pyproject": digest, "extras": sorted(extras)}))


def system_packages(testing: bool) -> dict[str, Callable[[], bool]]:
    """Debian packages this command needs, each with how to tell it is already there."""
    wanted = dict(APP_PACKAGES, **(TEST_PACKAGES if testing else {}))
    machine = platform.machine()
    if machine.startswith("armv") or (machine == "aarch64" and struct.calcsize("P") == 4):
        wanted.update(ARM32_PACKAGES)  # a 32-bit userland, also under a 64-bit kernel
    return wanted


def main(argv: list[str]) -> int:
    testing = bool(argv) and argv[0] == "test"
    wanted = system_packages(testing)
    apt_install([name for name, present in wanted.items() if not present()])
    ensure_venv()
    ensure_project(wanted_extras(testing))
    os.chdir(ROOT)
    if testing:
        code = run_forwarding_signals([str(PY), "-m", "pytest", *suite_workers(argv[1:]),
                                       *argv[1:]])
        if code == 5:
            say("pytest collected no tests: that is a failure")
            return 1
        return code
    start_app(argv)
    return 1  # not reached: start_app replaces this process


# What one of the suite's worker processes may hold at its peak (each has its own Kivy window and
# app; 1.29 GB measured with two workers on 2026-12-07), with room to spare.
WORKER_MEMORY = 1.6 * 2**30
MAX_WORKERS = 4
CPU_QUOTA = Path("/sys/fs/cgroup/cpu.max")
MEMINFO = Path("/proc/meminfo")


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity, less a cgroup v2 CPU quota if one is
    set (a container given 2 CPUs of a 64-CPU host sees all 64 in its affinity)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # (not Linux)
        cpus = os.cpu_count() or 1
    try:
        quota, period = CPU_QUOTA.read_text().split()[:2]
        if quota != "max":
            cpus = min(cpus, int(quota) // int(period))
    except (OSError, ValueError):
        pass
    return max(1, cpus)


def available_memory() -> float | None:
    """MemAvailable from /proc/meminfo in bytes, or None where there is none."""
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def suite_workers(args: list[str]) -> list[str]:
    """pytest-xdist's options for the whole suite: one worker process per usable CPU, as many
    as the memory holds, at most MAX_WORKERS; each test file runs whole in one worker, in
    order. Nothing when the arguments choose for themselves (`-n ...`, `-p no:xdist`) or when
    there is one worker to have."""
    for i, arg in enumerate(args):
        if arg.startswith(("-n", "--numprocesses", "--dist")):
            return []
        if arg == "-p" and i + 1 < len(args) and args[i + 1] == "no:xdist":
            return []
        if arg == "-pno:xdist":
            return []
    workers = min(usable_cpus(), MAX_WORKERS)
    memory = available_memory()
    if memory is not None:
        workers = min(workers, max(1, int(memory // WORKER_MEMORY)))
    return ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []


def start_app(argv: list[str]) -> None:
    """Replace this process with the app: the app keeps run.py's process id, so a signal sent to
    it (a SIGTERM from a service manager or `kill`) reaches the app, which closes its log
    cleanly, and its exit status is the command's."""
    app = str(VENV / "bin" / "heat-companion")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(app, [app, *argv])


def run_forwarding_signals(command: list[str]) -> int:
    """Run `command` as a child and return its exit status; a SIGTERM or SIGHUP sent to run.py
    is passed on to the child (so `kill` of run.py stops the tests too). SIGINT is left to the
    terminal, which already sends Ctrl-C to the whole process group: passed on as well, pytest
    would take one Ctrl-C for two and stop without its summary."""
    child = subprocess.Popen(command)

    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)

    handled = (signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.signal(signum, forward) for signum in handled}
    previous_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code = child.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        signal.signal(signal.SIGINT, previous_int)
    return 128 - code if code < 0 else code  # killed by signal N: the shell's 128 + N


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
