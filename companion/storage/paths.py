"""Where the race log lives: one rule for the app and the command-line tools.

The data folder is, in order: the ``--data`` option, the ``HEAT_COMPANION_DATA`` environment
variable, ``$XDG_DATA_HOME/heat-companion`` (when ``XDG_DATA_HOME`` is an absolute path), else
``~/.local/share/heat-companion``. The log is ``races.sqlite3`` in it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV_VAR = "HEAT_COMPANION_DATA"
APP_DIR = "heat-companion"
LOG_FILE = "races.sqlite3"

PathLike = str | os.PathLike[str]


def data_dir(override: PathLike | None = None, *, environ: Mapping[str, str] | None = None) -> Path:
    """The data folder (not created here)."""
    env = os.environ if environ is None else environ
    if override is not None and str(override):
        return Path(override).expanduser()
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]).expanduser()
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: relative values are ignored
        return Path(xdg) / APP_DIR
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / APP_DIR


def default_log_path(
    override: PathLike | None = None, *, environ: Mapping[str, str] | None = None
) -> Path:
    """The race log file in :func:`data_dir`."""
    return data_dir(override, environ=environ) / LOG_FILE
