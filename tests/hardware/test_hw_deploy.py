"""deploy/: shell scripts (shellcheck, dry runs), the systemd unit, the udev rule, the Kivy
config helper, and docs that must agree with the sample wiring file.

System tools needed: shellcheck (apt: shellcheck) and systemd-analyze (apt: systemd).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "heat-companion.service"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
MUTATING = ["apt-get", "useradd", "usermod", "groupadd", "userdel", "systemctl", "udevadm",
            "runuser", "install", "raspi-config", "python3", "rm", "mkdir", "cp", "chown",
            "chmod", "ln", "tee", "mktemp"]


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: apt-get install {package}"
    return path


# -- shell scripts ----------------------------------------------------------------------------


def test_scripts_exist_and_are_executable() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"install.sh", "uninstall.sh", "heat-companion-display-env.sh"} <= names
    assert all(os.access(p, os.X_OK) for p in SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_clean(script: Path) -> None:
    result = subprocess.run([tool("shellcheck", "shellcheck"), "--severity=style", str(script)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def run_script(tmp_path: Path, script: str, *args: str,
               apt_knows_lgpio: bool | None = None) -> subprocess.CompletedProcess[str]:
    """Run a deploy script with every command that could change the system replaced by a
    stub that records the call, so a dry run that runs anything is caught. With
    ``apt_knows_lgpio`` set, ``apt-cache`` answers as Raspberry Pi OS (True) or plain Debian
    (False) would about python3-lgpio."""
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    log = tmp_path / "called.log"
    for name in MUTATING:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n', encoding="utf-8")
        stub.chmod(0o755)
    apt_cache = stubs / "apt-cache"
    if apt_knows_lgpio is None:
        apt_cache.unlink(missing_ok=True)
    else:
        answer = "echo 'Package: python3-lgpio'; exit 0" if apt_knows_lgpio else (
            "echo 'E: No packages found' >&2; exit 100")
        apt_cache.write_text(f'#!/bin/sh\necho "apt-cache $*" >> "{tmp_path}/read.log"\n'
                             f'{answer}\n', encoding="utf-8")
        apt_cache.chmod(0o755)
    env = {"PATH": f"{stubs}:{os.environ['PATH']}", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    return subprocess.run(["bash", str(DEPLOY / script), *args], capture_output=True, text=True,
                          env=env, timeout=30, check=False)


def test_install_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "opt" / "heat-companion"
    result = run_script(tmp_path, "install.sh", "--dry-run", "--prefix", str(prefix),
                        "--user", "heattestuser", "--rotation", "90", "--console-boot", "--start",
                        "--arch", "arm64", "--gpio-lib", "apt")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not (tmp_path / "called.log").exists(), (tmp_path / "called.log").read_text()
    assert not prefix.exists()
    steps = re.findall(r"^==> \[\d+\] (.*)$", out, re.MULTILINE)
    assert steps == [
        "Check the system",
        "Install system packages",
        "Create the service user heattestuser",
        "Create directories",
        "Install the app into a virtual environment",
        "Configuration",
        "Kivy display and touch configuration (one touch per tap)",
        "Check the install (libraries and pin factories import as heattestuser)",
        "udev rule for the USB hub (/dev/heat-hub)",
        "Cap the journal (logs go to journald)",
        "systemd service",
        "Boot to the console (no desktop holding the screen)",
        "Start the service",
    ]
    commands = re.findall(r"^\+ (.*)$", out, re.MULTILINE)
    expect = [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3 python3-venv python3-pip "
        "ca-certificates libgl1 libegl1 libgles2 libgl1-mesa-dri libgbm1 libdrm2 libmtdev1 udev "
        "python3-lgpio",
        "useradd --system --user-group --home-dir /var/lib/heat-companion --no-create-home "
        "--shell /usr/sbin/nologin --comment 'Heat companion kiosk' heattestuser",
        "usermod --append --groups gpio,dialout,video,render,input heattestuser",
        f"install -d -m 0755 {prefix} {prefix}/bin {prefix}/share/doc /etc/heat-companion",
        "install -d -m 0750 -o heattestuser -g heattestuser /var/lib/heat-companion "
        "/var/lib/heat-companion/kivy",
        f"python3 -m venv --system-site-packages --upgrade-deps {prefix}/venv",
        f"{prefix}/venv/bin/pip install --upgrade --no-cache-dir --only-binary kivy {REPO}",
        f"install -m 0755 {DEPLOY}/heat-companion-display-env.sh "
        f"{prefix}/bin/heat-companion-display-env",
        "write /etc/default/heat-companion (mode 0644)",
        f"runuser -u heattestuser -- env KIVY_HOME=/var/lib/heat-companion/kivy "
        f"{prefix}/venv/bin/python {DEPLOY}/configure_kivy.py",
        f"runuser -u heattestuser -- env -C /var/lib/heat-companion "
        f"KIVY_HOME=/var/lib/heat-companion/kivy "
        f"{prefix}/venv/bin/python {DEPLOY}/check_install.py --require-lgpio",
        f"install -m 0644 {DEPLOY}/99-heat-hub.rules /etc/udev/rules.d/99-heat-hub.rules",
        "udevadm control --reload-rules",
        "udevadm trigger --subsystem-match=tty --action=add",
        "write /etc/systemd/journald.conf.d/heat-companion.conf (mode 0644)",
        "write /etc/systemd/system/heat-companion.service (mode 0644)",
        "systemctl daemon-reload",
        "systemctl enable heat-companion.service",
        "systemctl restart heat-companion.service",
    ]
    for line in expect:
        assert line in commands, f"missing step: {line}\n{out}"
    assert "KCFG_GRAPHICS_ROTATION=90" in out
    assert any(c.startswith(("raspi-config nonint do_boot_behaviour B1",
                             "systemctl set-default multi-user.target")) for c in commands)
    assert out.rstrip().endswith("control: systemctl status|restart|stop heat-companion")
    assert "Done (dry run: nothing was changed)." in out


def test_install_rejects_bad_options(tmp_path: Path) -> None:
    for args in (["--rotation", "45"], ["--prefix", "relative"], ["--user", "Bad User"],
                 ["--bogus"], ["--gpio-lib", "pip"], ["--arch", "i386"],
                 ["--wheels", str(tmp_path / "missing")]):
        result = run_script(tmp_path, "install.sh", "--dry-run", *args)
        assert result.returncode == 2, args
    # --arch shows another machine's plan: a real install may not pretend to be one.
    result = run_script(tmp_path, "install.sh", "--arch", "armhf")
    assert result.returncode == 2 and "only for --dry-run" in result.stderr
    assert not (tmp_path / "called.log").exists()


# -- the plans for 64- and 32-bit Raspberry Pi OS (install.sh --dry-run --arch) ----------------


def plan(tmp_path: Path, *args: str, apt_knows_lgpio: bool | None = None) -> tuple[str, list[str]]:
    """The dry run's output and its commands (``+ ...`` lines)."""
    result = run_script(tmp_path, "install.sh", "--dry-run", "--prefix", str(tmp_path / "opt"),
                        *args, apt_knows_lgpio=apt_knows_lgpio)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (tmp_path / "called.log").exists(), (tmp_path / "called.log").read_text()
    return result.stdout, re.findall(r"^\+ (.*)$", result.stdout, re.MULTILINE)


def command(commands: list[str], start: str) -> str:
    found = [c for c in commands if c.startswith(start)]
    assert len(found) == 1, (start, commands)
    return found[0]


BASE_APT = ("python3 python3-venv python3-pip ca-certificates libgl1 libegl1 libgles2 "
            "libgl1-mesa-dri libgbm1 libdrm2 libmtdev1 udev")
SDL2_RUNTIME = "libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0"
PIWHEELS = "--extra-index-url https://www.piwheels.org/simple"
KIVY_HOME = "/var/lib/heat-companion/kivy"


def test_plan_arm64_raspberry_pi_os(tmp_path: Path) -> None:
    """64-bit Pi OS: lgpio is the OS's package (the venv sees it), Kivy is PyPI's aarch64
    wheel with SDL2 inside, so no SDL2 packages and no second index."""
    out, commands = plan(tmp_path, "--arch", "arm64", apt_knows_lgpio=True)
    opt = tmp_path / "opt"
    assert command(commands, "apt-get install") == (
        f"apt-get install -y --no-install-recommends {BASE_APT} python3-lgpio")
    assert command(commands, "python3 -m venv") == (
        f"python3 -m venv --system-site-packages --upgrade-deps {opt}/venv")
    assert command(commands, f"{opt}/venv/bin/pip") == (
        f"{opt}/venv/bin/pip install --upgrade --no-cache-dir --only-binary kivy {REPO}")
    check = (f"runuser -u heat-companion -- env -C /var/lib/heat-companion KIVY_HOME={KIVY_HOME} "
             f"{opt}/venv/bin/python {DEPLOY}/check_install.py")
    assert command(commands, check) == f"{check} --require-lgpio"
    assert "kivy: PyPI's manylinux aarch64 wheel" in out
    assert "piwheels" not in out and "libsdl2" not in out
    assert "apt-cache show python3-lgpio" in (tmp_path / "read.log").read_text()


def test_plan_armhf_raspberry_pi_os(tmp_path: Path) -> None:
    """32-bit Pi OS: the OS's lgpio, Kivy from piwheels (PyPI has no armv7l Kivy), and the
    OS's SDL2 libraries that the piwheels Kivy links against."""
    out, commands = plan(tmp_path, "--arch", "armhf", apt_knows_lgpio=True)
    opt = tmp_path / "opt"
    assert command(commands, "apt-get install") == (
        f"apt-get install -y --no-install-recommends {BASE_APT} python3-lgpio {SDL2_RUNTIME}")
    assert command(commands, "python3 -m venv") == (
        f"python3 -m venv --system-site-packages --upgrade-deps {opt}/venv")
    assert command(commands, f"{opt}/venv/bin/pip") == (
        f"{opt}/venv/bin/pip install --upgrade --no-cache-dir --only-binary kivy {PIWHEELS} {REPO}")
    assert "architecture: armhf (--arch" in out
    assert "kivy: the piwheels wheel for 32-bit Raspberry Pi OS" in out


@pytest.mark.parametrize("arch", ["arm64", "armhf"])
def test_plan_without_the_os_lgpio_package(tmp_path: Path, arch: str) -> None:
    """Plain Debian/Ubuntu on a Pi (apt has no python3-lgpio): an isolated venv and the `pi`
    extra, whose marker covers both architectures."""
    out, commands = plan(tmp_path, "--arch", arch, apt_knows_lgpio=False)
    opt = tmp_path / "opt"
    assert "python3-lgpio" not in command(commands, "apt-get install")
    assert command(commands, "python3 -m venv") == f"python3 -m venv --upgrade-deps {opt}/venv"
    pip = command(commands, f"{opt}/venv/bin/pip")
    assert pip.endswith(f" {REPO}[pi]")
    assert (PIWHEELS in pip) == (arch == "armhf")
    assert "lgpio: PyPI's wheel (the pi extra)" in out
    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]["pi"]
    assert len(extra) == 1 and extra[0].startswith("lgpio>=0.2.2;")
    for machine in ("aarch64", "armv7l"):  # uname -m of 64- and 32-bit Pi OS userlands
        assert f"platform_machine == '{machine}'" in extra[0]


def test_plan_options_for_offline_and_own_wheels(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _, commands = plan(tmp_path, "--arch", "armhf", "--gpio-lib", "pypi", "--no-piwheels",
                       "--wheels", str(wheels))
    opt = tmp_path / "opt"
    assert command(commands, f"{opt}/venv/bin/pip") == (
        f"{opt}/venv/bin/pip install --upgrade --no-cache-dir --only-binary kivy "
        f"--find-links {wheels} {REPO}[pi]")


def test_plan_remakes_a_venv_made_for_the_other_lgpio_source(tmp_path: Path) -> None:
    venv = tmp_path / "opt" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\n", encoding="utf-8")
    (venv / "bin" / "python").chmod(0o755)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n",
                                     encoding="utf-8")
    out, commands = plan(tmp_path, "--arch", "arm64", "--gpio-lib", "apt")
    assert command(commands, "python3 -m venv") == (
        f"python3 -m venv --clear --system-site-packages --upgrade-deps {venv}")
    assert "made for the other lgpio source" in out
    out, commands = plan(tmp_path, "--arch", "arm64", "--gpio-lib", "pypi")
    assert not [c for c in commands if c.startswith("python3 -m venv")]
    assert f"reusing {venv}" in out


def test_install_without_root_refuses_to_run(tmp_path: Path) -> None:
    """As an ordinary user the script stops at once. Under root (CI) it runs as `nobody`, from
    a copy in a folder `nobody` can read: the checkout itself may sit in a folder only its
    owner can enter (issue 13)."""
    if os.geteuid() == 0:  # CI runs as root: drop to nobody for this check when possible
        setpriv = shutil.which("setpriv")
        assert setpriv, "setpriv (util-linux) is needed for this test"
        copy = Path(tempfile.mkdtemp(prefix="heat-install-"))
        try:
            copy.chmod(0o755)
            (copy / "deploy").mkdir(mode=0o755)
            shutil.copy(DEPLOY / "install.sh", copy / "deploy" / "install.sh")
            shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
            for path in (copy / "deploy", copy / "deploy" / "install.sh", copy / "pyproject.toml"):
                path.chmod(0o755 if path.is_dir() or path.suffix == ".sh" else 0o644)
            result = subprocess.run(
                [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "bash",
                 str(copy / "deploy" / "install.sh")],
                capture_output=True, text=True, check=False, timeout=30, cwd="/")
        finally:
            shutil.rmtree(copy)
    else:
        result = run_script(tmp_path, "install.sh")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "run as root" in result.stderr


def test_uninstall_dry_run(tmp_path: Path) -> None:
    result = run_script(tmp_path, "uninstall.sh", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "called.log").exists()
    commands = re.findall(r"^\+ (.*)$", result.stdout, re.MULTILINE)
    assert commands == [
        "systemctl disable --now heat-companion.service",
        "rm -f /etc/systemd/system/heat-companion.service",
        "systemctl daemon-reload",
        "systemctl reset-failed heat-companion.service",
        "rm -f /etc/udev/rules.d/99-heat-hub.rules "
        "/etc/systemd/journald.conf.d/heat-companion.conf",
        "udevadm control --reload-rules",
        "rm -rf -- /opt/heat-companion",
    ]
    assert "kept: /var/lib/heat-companion (race data)" in result.stdout
    purge = run_script(tmp_path, "uninstall.sh", "--dry-run", "--purge")
    assert "rm -rf -- /var/lib/heat-companion /etc/heat-companion" in purge.stdout
    assert "userdel heat-companion" in purge.stdout
    for prefix in ("/", "/opt", "relative"):
        assert run_script(tmp_path, "uninstall.sh", "--dry-run", "--prefix", prefix).returncode == 2


@pytest.mark.parametrize(
    ("statuses", "preset", "expected"),
    [
        ({"card0-HDMI-A-1": "disconnected", "card1-DSI-1": "connected"}, "",
         "SDL_KMSDRM_DEVICE_INDEX=1\n"),
        ({"card2-HDMI-A-2": "connected"}, "", "SDL_KMSDRM_DEVICE_INDEX=2\n"),
        ({"card0-HDMI-A-1": "disconnected"}, "", ""),
        ({"card1-DSI-1": "connected"}, "0", ""),
        ({}, "", ""),
    ],
)
def test_display_env_helper(tmp_path: Path, statuses: dict[str, str], preset: str,
                            expected: str) -> None:
    for connector, status in statuses.items():
        d = tmp_path / "sys" / "class" / "drm" / connector
        d.mkdir(parents=True)
        (d / "status").write_text(status + "\n", encoding="utf-8")
    (tmp_path / "sys" / "class" / "drm" / "card0").mkdir(parents=True, exist_ok=True)
    out = tmp_path / "display.env"
    env = {"PATH": os.environ["PATH"], "HEAT_COMPANION_SYSFS": str(tmp_path / "sys")}
    if preset:
        env["SDL_KMSDRM_DEVICE_INDEX"] = preset
    subprocess.run(["sh", str(DEPLOY / "heat-companion-display-env.sh"), str(out)], env=env,
                   check=True, timeout=10)
    assert out.read_text(encoding="utf-8") == expected


# -- systemd unit -----------------------------------------------------------------------------


def unit_entries() -> list[tuple[str, str, str]]:
    """(section, key, value) for every line of the unit (keys may repeat)."""
    entries, section = [], ""
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {raw!r}"
        entries.append((section, key, value))
    return entries


def test_unit_verifies_with_systemd_analyze(tmp_path: Path) -> None:
    """`systemd-analyze verify` must print nothing. It checks that the programs exist, so the
    install paths are pointed at stand-ins first."""
    analyze = tool("systemd-analyze", "systemd")
    root = tmp_path / "root"
    for rel in ("venv/bin/heat-companion", "bin/heat-companion-display-env"):
        exe = root / rel
        exe.parent.mkdir(parents=True, exist_ok=True)
        exe.write_text("#!/bin/sh\n", encoding="utf-8")
        exe.chmod(0o755)
    unit = tmp_path / "heat-companion.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/heat-companion", str(root)),
                    encoding="utf-8")
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                            check=False, timeout=60, env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", (
        result.stdout + result.stderr)


def test_unit_structure() -> None:
    """What the unit must say, checked without systemd (systemd-analyze only checks syntax)."""
    entries = unit_entries()
    sections = {s for s, _, _ in entries}
    assert sections == {"Unit", "Service", "Install"}
    get = {(s, k): v for s, k, v in entries}
    svc = {k: v for s, k, v in entries if s == "Service"}
    assert svc["Type"] == "notify" and svc["NotifyAccess"] == "main"
    assert int(svc["WatchdogSec"]) >= 10
    assert svc["Restart"] == "on-failure"
    assert svc["User"] == "heat-companion"
    assert set(svc["SupplementaryGroups"].split()) == {"gpio", "dialout", "video", "render",
                                                       "input"}
    assert svc["StateDirectory"] == "heat-companion"
    environment = " ".join(v for s, k, v in entries if k == "Environment")
    assert "HEAT_COMPANION_DATA=%S/heat-companion" in environment
    assert "HEAT_COMPANION_WIRING=/etc/heat-companion/wiring.toml" in environment
    assert "KIVY_NO_ARGS=1" in environment and "SDL_TOUCH_MOUSE_EVENTS=0" in environment
    assert svc["ExecStart"] == "/opt/heat-companion/venv/bin/heat-companion"
    assert svc["StandardOutput"] == svc["StandardError"] == "journal"
    assert get[("Install", "WantedBy")] == "multi-user.target"
    # Hardening that would cut the app off from GPIO, DRM, input or serial devices:
    assert svc.get("PrivateDevices", "no") == "no"
    assert "MemoryDenyWriteExecute" not in svc and "PrivateUsers" not in svc
    assert svc["NoNewPrivileges"] == "yes" and svc["ProtectSystem"] == "strict"
    assert "AF_UNIX" in svc["RestrictAddressFamilies"]  # sd_notify
    # The console script the unit runs is the app's.
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"]
    assert "heat-companion" in scripts


# -- udev, Kivy config, docs ------------------------------------------------------------------


def test_udev_rule() -> None:
    rules = [line for line in (DEPLOY / "99-heat-hub.rules").read_text(encoding="utf-8")
             .splitlines() if line.strip() and not line.startswith("#")]
    assert len(rules) == 2
    for rule in rules:
        keys = dict(re.findall(r'(\w+(?:\{\w+\})?)(?:==|\+=|=)"([^"]*)"', rule))
        assert keys["SUBSYSTEM"] == "tty" and keys["ATTRS{idVendor}"] == "2e8a"
        assert keys["SYMLINK"] == "heat-hub" and keys["GROUP"] == "dialout"
        assert keys["ENV{ID_MM_DEVICE_IGNORE}"] == "1"
    wiring = tomllib.loads((DEPLOY / "wiring.toml").read_text(encoding="utf-8"))
    assert wiring["hub"]["port"] == "/dev/heat-hub"


def test_configure_kivy_keeps_a_single_touch_path(tmp_path: Path) -> None:
    home = tmp_path / "kivy"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env["KIVY_HOME"] = str(home)
    for _ in range(2):  # twice: a second install must not bring probesysfs back
        subprocess.run([sys.executable, str(DEPLOY / "configure_kivy.py")], env=env, check=True,
                       capture_output=True, timeout=60)
    text = (home / "config.ini").read_text(encoding="utf-8")
    section = text.split("[input]", 1)[1].split("\n[", 1)[0]
    assert [line for line in section.splitlines() if line.strip()] == [
        "mouse = mouse,disable_on_activity"]
    assert "config_version" in text


def test_wiring_docs_match_the_sample_file() -> None:
    result = subprocess.run([sys.executable, str(DEPLOY / "wiring_diagram.py"), "--check"],
                            capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    png = (REPO / "docs" / "wiring.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1500, 920)
    assert "![Wiring diagram](wiring.png)" in (REPO / "docs" / "wiring.md").read_text(
        encoding="utf-8")


def test_check_install_names_what_is_missing(tmp_path: Path) -> None:
    """install.sh's last check: here (x86_64, no lgpio) the app's own libraries pass, and asking
    for lgpio fails with one line that names it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env["KIVY_HOME"] = str(tmp_path / "kivy")
    check = [sys.executable, str(DEPLOY / "check_install.py")]
    result = subprocess.run(check, env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("companion", "kivy", "gpiozero", "serial", "gpiozero pin factory mock"):
        assert f"ok  {name} " in result.stdout
    if importlib.util.find_spec("lgpio") is None:
        result = subprocess.run([*check, "--require-lgpio"], env=env, cwd=tmp_path,
                                capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 1
        assert "MISSING  lgpio: cannot import" in result.stderr
        assert "MISSING  gpiozero lgpio pin factory: cannot import" in result.stderr
