"""Check an installed heat-companion: every library the kiosk needs imports, and say where each
one came from (the venv, or the OS's own package seen through --system-site-packages).

Run by install.sh as the service user with the kiosk's Python:

    /opt/heat-companion/venv/bin/python deploy/check_install.py --require-lgpio

Exit 0 when everything imports, 1 (with one line per missing piece) otherwise. Importing Kivy
opens no window; ``lgpio`` is only imported (opening a gpiochip needs the real board).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys

# module -> distribution name (for the version)
REQUIRED = {"companion": "heat-companion", "kivy": "Kivy", "gpiozero": "gpiozero",
            "serial": "pyserial"}
PIN_FACTORIES = {"mock": "gpiozero.pins.mock:MockFactory",
                 "lgpio": "gpiozero.pins.lgpio:LGPIOFactory"}


def version_of(distribution: str, module: object) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(module, "__version__", "?"))


def origin(module: object) -> str:
    path = os.path.realpath(str(getattr(module, "__file__", "") or ""))
    return "venv" if path.startswith(os.path.realpath(sys.prefix) + os.sep) else path


def check(names: dict[str, str]) -> list[str]:
    problems: list[str] = []
    for name, distribution in names.items():
        try:
            module = importlib.import_module(name)
        except Exception as error:  # an ImportError, or a broken native library
            problems.append(f"{name}: cannot import: {error}")
            continue
        print(f"ok  {name} {version_of(distribution, module)} ({origin(module)})")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--require-lgpio", action="store_true",
                        help="lgpio and gpiozero's lgpio pin factory must import (on a Pi)")
    args = parser.parse_args(argv)
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG"):
        os.environ.setdefault(name, "1")
    names = dict(REQUIRED)
    problems = []
    if args.require_lgpio:
        names["lgpio"] = "lgpio"
        # lgpio's Python module creates its notification FIFO (.lgd-nfyN) in the current
        # directory when imported, and the import fails where it cannot.
        if not os.access(os.getcwd(), os.W_OK):
            problems.append(f"lgpio: the working directory {os.getcwd()} is not writable by this "
                            "user (lgpio creates .lgd-nfyN there): run from the service's "
                            "working directory")
    problems += check(names)
    factories = dict(PIN_FACTORIES) if args.require_lgpio else {"mock": PIN_FACTORIES["mock"]}
    for label, target in factories.items():
        module_name, _, attribute = target.partition(":")
        try:
            getattr(importlib.import_module(module_name), attribute)
        except Exception as error:
            problems.append(f"gpiozero {label} pin factory: cannot import: {error}")
        else:
            print(f"ok  gpiozero pin factory {label} ({target})")
    for problem in problems:  # to the real stderr: importing Kivy redirects sys.stderr
        print(f"MISSING  {problem}", file=sys.__stderr__)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
