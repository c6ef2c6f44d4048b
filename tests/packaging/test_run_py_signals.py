"""run.py hands over so that signals reach what it runs: the app replaces run.py (same process id,
so a `kill` of run.py stops the app, which then closes its log), and the test command passes
SIGTERM on to pytest. Each test runs run.py's hand-over in a real process against a stand-in for
the app or for pytest, and waits on files, never on time."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 20.0
"""The most a step may take on a loaded host before the test fails (it never sleeps that long
when things work)."""

STAND_IN = f"""#!{sys.executable}
import os, signal, sys, time
from pathlib import Path
out = Path(sys.argv[0]).parent
def stop(signum, frame):
    (out / "signal").write_text(str(signum))
    sys.exit(7)
signal.signal(signal.SIGTERM, stop)
(out / "argv").write_text(" ".join(sys.argv[1:]))
(out / "pid.part").write_text(str(os.getpid()))
os.replace(out / "pid.part", out / "pid")  # whole, or not there
while True:
    time.sleep(0.05)
"""
"""Stands in for the app or for pytest: writes its arguments and process id, then waits for a
SIGTERM, writes which signal came and leaves with status 7."""


def hand_over(venv: Path, call: str) -> str:
    """Python that loads run.py pointed at `venv` and makes `call` (e.g. start_app([...]))."""
    return (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('run_py', {str(REPO / 'run.py')!r})\n"
        "run = importlib.util.module_from_spec(spec); spec.loader.exec_module(run)\n"
        "from pathlib import Path\n"
        f"run.VENV = Path({str(venv)!r}); run.PY = run.VENV / 'bin' / 'python'\n"
        f"sys.exit({call})\n"
    )


def wait_for(path: Path, process: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + WAIT_S
    while not path.exists():
        assert process.poll() is None, f"exited with {process.returncode} before {path.name}"
        assert time.monotonic() < deadline, f"no {path.name} after {WAIT_S} s"
        time.sleep(0.02)
    return path.read_text()


def clean_up(process: subprocess.Popen[bytes], bin_dir: Path) -> None:
    """Leave no process behind, whatever failed."""
    if process.poll() is None:
        process.kill()
        process.wait()
    pid = bin_dir / "pid"
    if pid.exists():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid.read_text()), signal.SIGKILL)


def stand_in(tmp_path: Path, name: str) -> Path:
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / name
    script.write_text(STAND_IN)
    script.chmod(0o755)
    return bin_dir


def test_the_app_takes_run_py_s_place_and_gets_its_signals(tmp_path: Path) -> None:
    bin_dir = stand_in(tmp_path, "heat-companion")
    process = subprocess.Popen(
        [sys.executable, "-c", hand_over(tmp_path / ".venv", "run.start_app(['--data', 'x'])")])
    try:
        assert wait_for(bin_dir / "pid", process) == str(process.pid)  # the same process
        assert (bin_dir / "argv").read_text() == "--data x"
        process.send_signal(signal.SIGTERM)  # sent to run.py alone, not to a group
        assert process.wait(timeout=WAIT_S) == 7  # the app's own exit status
        assert (bin_dir / "signal").read_text() == str(int(signal.SIGTERM))
    finally:
        clean_up(process, bin_dir)


def test_a_sigterm_to_run_py_test_reaches_pytest(tmp_path: Path) -> None:
    bin_dir = stand_in(tmp_path, "python")
    process = subprocess.Popen(
        [sys.executable, "-c", hand_over(
            tmp_path / ".venv", "run.run_forwarding_signals([str(run.PY), '-m', 'pytest', '-q'])")])
    try:
        child = int(wait_for(bin_dir / "pid", process))
        assert child != process.pid  # pytest runs as a child: run.py reads its exit status
        assert (bin_dir / "argv").read_text() == "-m pytest -q"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=WAIT_S) == 7  # run.py waited for pytest and kept its status
        assert (bin_dir / "signal").read_text() == str(int(signal.SIGTERM))
    finally:
        clean_up(process, bin_dir)
