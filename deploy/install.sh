#!/usr/bin/env bash
# Install heat-companion as a touchscreen kiosk on Raspberry Pi OS Bookworm, 64-bit (arm64:
# Pi 3, 4, 5, Zero 2 W) or 32-bit (armhf). Run from a checkout of the repository:
#
#     sudo deploy/install.sh              # install or upgrade, enable the service
#     deploy/install.sh --dry-run         # print every step, change nothing (no root needed)
#     deploy/install.sh --dry-run --arch armhf   # the plan for 32-bit Raspberry Pi OS
#
# Where the libraries come from (the plan differs by architecture; the dry run prints it):
#   - lgpio, gpiozero's pin library on every Pi model: Raspberry Pi OS's own python3-lgpio
#     package, seen by a venv made with --system-site-packages. Where apt has no python3-lgpio
#     (plain Debian or Ubuntu on a Pi), the venv is isolated and lgpio comes from PyPI's wheel
#     (the `pi` extra; PyPI has cp39-cp312 wheels for aarch64 and armv7l).
#   - Kivy: arm64 gets PyPI's manylinux aarch64 wheel (SDL2 bundled). PyPI has no 32-bit ARM
#     Kivy wheel; armhf gets the piwheels wheel (Kivy's documented source for 32-bit Raspberry
#     Pi OS, already configured in its /etc/pip.conf), which links the OS's SDL2 libraries, so
#     those are installed too. --wheels DIR adds wheels of your own (built for this machine).
#
# Safe to run again: it upgrades the app and keeps /etc/heat-companion/wiring.toml,
# /etc/default/heat-companion and the data in /var/lib/heat-companion.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: install.sh [options]

  --dry-run            print every step and change nothing
  --source DIR         repository checkout to install from (default: this script's repo)
  --prefix DIR         where the venv and helpers go (default: /opt/heat-companion)
  --user NAME          service user (default: heat-companion)
  --rotation DEG       rotate the UI by 0, 90, 180 or 270 degrees (console kiosk)
  --gpio-lib FROM      where lgpio comes from: apt (the OS's python3-lgpio), pypi (the
                       `pi` extra's wheel) or auto (default: apt when apt knows the package)
  --wheels DIR         also install wheels from DIR (pip --find-links), e.g. a Kivy wheel
  --no-piwheels        32-bit only: do not add the piwheels index (the OS's pip.conf may)
  --arch ARCH          with --dry-run: print the plan for arm64 or armhf (dpkg architecture)
  --console-boot       boot to the console without a desktop (KMSDRM needs the screen)
  --no-enable          install the service but do not enable it at boot
  --start              (re)start the service at the end
  -h, --help           this help
EOF
}

DRY_RUN=0
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/heat-companion
APP_USER=heat-companion
ROTATION=""
CONSOLE_BOOT=0
ENABLE=1
START=0
GPIO_LIB=auto
WHEELS=""
PIWHEELS=1
ARCH=""
PIWHEELS_URL=https://www.piwheels.org/simple

STATE_DIR=/var/lib/heat-companion
CONF_DIR=/etc/heat-companion
DEFAULTS_FILE=/etc/default/heat-companion
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
JOURNALD_DIR=/etc/systemd/journald.conf.d
SERVICE=heat-companion.service
APP_GROUPS=(gpio dialout video render input)
# Kivy's PyPI wheel bundles SDL2; it needs the system GL/EGL/GBM/DRM libraries and mtdev.
APT_PACKAGES=(python3 python3-venv python3-pip ca-certificates
    libgl1 libegl1 libgles2 libgl1-mesa-dri libgbm1 libdrm2 libmtdev1 udev)
# 32-bit: the piwheels Kivy wheel is built against the OS's SDL2 instead of bundling it.
APT_PACKAGES_32BIT=(libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0)

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --source) SRC=${2:?--source needs a directory}; shift ;;
        --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
        --user) APP_USER=${2:?--user needs a name}; shift ;;
        --rotation) ROTATION=${2:?--rotation needs 0, 90, 180 or 270}; shift ;;
        --gpio-lib) GPIO_LIB=${2:?--gpio-lib needs apt, pypi or auto}; shift ;;
        --wheels) WHEELS=${2:?--wheels needs a directory}; shift ;;
        --no-piwheels) PIWHEELS=0 ;;
        --arch) ARCH=${2:?--arch needs arm64 or armhf}; shift ;;
        --console-boot) CONSOLE_BOOT=1 ;;
        --no-enable) ENABLE=0 ;;
        --start) START=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

case $ROTATION in
    "" | 0 | 90 | 180 | 270) ;;
    *) echo "install.sh: --rotation must be 0, 90, 180 or 270" >&2; exit 2 ;;
esac
if [[ ! $PREFIX =~ ^/[A-Za-z0-9._/-]+$ ]]; then
    echo "install.sh: --prefix must be an absolute path of letters, digits, . _ - /" >&2
    exit 2
fi
if [[ ! $APP_USER =~ ^[a-z_][a-z0-9_-]{0,30}$ ]]; then
    echo "install.sh: --user must be a lower-case login name" >&2
    exit 2
fi
case $GPIO_LIB in
    apt | pypi | auto) ;;
    *) echo "install.sh: --gpio-lib must be apt, pypi or auto" >&2; exit 2 ;;
esac
if [[ -n $WHEELS && ! -d $WHEELS ]]; then
    echo "install.sh: --wheels: no directory $WHEELS" >&2
    exit 2
fi
if [[ -n $ARCH ]]; then
    case $ARCH in
        arm64 | armhf | amd64) ;;
        *) echo "install.sh: --arch must be arm64 or armhf (or amd64)" >&2; exit 2 ;;
    esac
    if ((!DRY_RUN)); then
        echo "install.sh: --arch is only for --dry-run (a real install uses this machine's)" >&2
        exit 2
    fi
fi

STEP=0
step() {
    STEP=$((STEP + 1))
    printf '\n==> [%d] %s\n' "$STEP" "$*"
}

note() { printf '    %s\n' "$*"; }

warn() { printf 'warning: %s\n' "$*" >&2; }

# Shell-quote one word for display, only when needed.
quote() {
    if [[ $1 =~ ^[A-Za-z0-9_./:=,@%+-]+$|^[A-Za-z0-9_./-]+\[[a-z]+\]$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}

# Print a command, then run it unless this is a dry run.
run() {
    local word line="+"
    for word in "$@"; do
        line+=" $(quote "$word")"
    done
    printf '%s\n' "$line"
    if ((!DRY_RUN)); then
        "$@"
    fi
}

# Like run, but a failure is reported and the install goes on (for steps that only matter on a
# booted system, e.g. reloading udev).
try() {
    if ! run "$@"; then
        warn "'$1' failed; going on (it takes effect at the next boot)"
    fi
}

# write_file DEST MODE [quiet]: write stdin to DEST; a dry run prints the content instead
# (or only the name when "quiet").
write_file() {
    local dest=$1 mode=$2 tmp
    printf '+ write %s (mode %s)\n' "$dest" "$mode"
    if ((DRY_RUN)); then
        if [[ ${3:-} == quiet ]]; then
            cat >/dev/null
        else
            sed 's/^/    | /'
        fi
        return
    fi
    tmp=$(mktemp)
    cat >"$tmp"
    install -m "$mode" "$tmp" "$dest"
    rm -f "$tmp"
}

if ((DRY_RUN)); then
    echo "Dry run: printing the steps; nothing is changed."
fi

step "Check the system"
[[ -f $SRC/pyproject.toml ]] || { echo "install.sh: no pyproject.toml in $SRC (use --source)" >&2; exit 1; }
note "source: $SRC"
note "prefix: $PREFIX, user: $APP_USER"
if ((EUID != 0)); then
    if ((DRY_RUN)); then
        note "not root (fine for a dry run; the real install needs sudo)"
    else
        echo "install.sh: run as root (sudo), or use --dry-run" >&2
        exit 1
    fi
fi
# The userland's architecture, not the kernel's: 32-bit Raspberry Pi OS boots a 64-bit kernel on
# the Pi 4 and 5, so `uname -m` says aarch64 there while Python and every library are armhf.
if [[ -z $ARCH ]]; then
    ARCH=$(dpkg --print-architecture 2>/dev/null) || ARCH=unknown
    note "architecture: $ARCH (dpkg), kernel $(uname -m)"
else
    note "architecture: $ARCH (--arch: the plan for that system, not this one)"
fi
case $ARCH in
    arm64) ;;
    armhf)
        if [[ $(uname -m) == armv6l ]]; then
            warn "an ARMv6 board (Pi 1, Zero W) is too slow for the app and untested"
        fi ;;
    *) warn "this is $ARCH; the supported systems are Raspberry Pi OS arm64 and armhf" ;;
esac
# shellcheck source=/dev/null
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}") || codename=unknown
[[ $codename == bookworm ]] || warn "this is '$codename'; the supported release is Bookworm"

step "Install system packages"
run apt-get update
# lgpio: the OS's package when apt knows it (Raspberry Pi OS does, on arm64 and armhf); asked
# after `apt-get update`, since a fresh image may have no package lists yet.
if [[ $GPIO_LIB == auto ]]; then
    if apt-cache show python3-lgpio >/dev/null 2>&1; then
        GPIO_LIB=apt
    else
        GPIO_LIB=pypi
    fi
fi
PIP_TARGET=$SRC
VENV_ARGS=(--upgrade-deps)
SYSTEM_SITE=false
if [[ $GPIO_LIB == apt ]]; then
    APT_PACKAGES+=(python3-lgpio)
    VENV_ARGS=(--system-site-packages --upgrade-deps)
    SYSTEM_SITE=true
    note "lgpio: the OS's python3-lgpio, seen by the venv (--system-site-packages)"
else
    PIP_TARGET="${SRC}[pi]"
    note "lgpio: PyPI's wheel (the pi extra), in an isolated venv"
fi
# Kivy only as a wheel: building it from source takes hours on a Pi and needs compilers and
# SDL2 headers this script does not install. Without a wheel the install stops and says why.
PIP_ARGS=(install --upgrade --no-cache-dir --only-binary kivy)
if [[ $ARCH == armhf ]]; then
    APT_PACKAGES+=("${APT_PACKAGES_32BIT[@]}")
    if ((PIWHEELS)) && ! grep -qs piwheels /etc/pip.conf; then
        PIP_ARGS+=(--extra-index-url "$PIWHEELS_URL")
    fi
    note "kivy: the piwheels wheel for 32-bit Raspberry Pi OS (PyPI has no armv7l wheel)"
elif [[ $ARCH == arm64 ]]; then
    note "kivy: PyPI's manylinux aarch64 wheel"
fi
if [[ -n $WHEELS ]]; then
    PIP_ARGS+=(--find-links "$WHEELS")
    note "wheels: also from $WHEELS"
fi
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "Create the service user $APP_USER"
if id -u "$APP_USER" >/dev/null 2>&1; then
    note "user $APP_USER exists"
else
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Heat companion kiosk" "$APP_USER"
fi
for group in "${APP_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
        warn "group $group does not exist (not Raspberry Pi OS?): creating it"
        run groupadd --system "$group"
    fi
done
run usermod --append --groups "$(IFS=,; echo "${APP_GROUPS[*]}")" "$APP_USER"

step "Create directories"
run install -d -m 0755 "$PREFIX" "$PREFIX/bin" "$PREFIX/share/doc" "$CONF_DIR"
run install -d -m 0750 -o "$APP_USER" -g "$APP_USER" "$STATE_DIR" "$STATE_DIR/kivy"

step "Install the app into a virtual environment"
if [[ -x $PREFIX/venv/bin/python ]] &&
    grep -qsx "include-system-site-packages = $SYSTEM_SITE" "$PREFIX/venv/pyvenv.cfg"; then
    note "reusing $PREFIX/venv"
elif [[ -x $PREFIX/venv/bin/python ]]; then
    note "$PREFIX/venv was made for the other lgpio source: making it again"
    run python3 -m venv --clear "${VENV_ARGS[@]}" "$PREFIX/venv"
else
    run python3 -m venv "${VENV_ARGS[@]}" "$PREFIX/venv"
fi
if ! run "$PREFIX/venv/bin/pip" "${PIP_ARGS[@]}" "$PIP_TARGET"; then
    echo "install.sh: pip could not install the app (above)." >&2
    if [[ $ARCH == armhf ]]; then
        echo "install.sh: on 32-bit Raspberry Pi OS Kivy comes from piwheels ($PIWHEELS_URL):" \
            "check the network, or build a Kivy wheel for this machine and pass --wheels DIR." >&2
    fi
    exit 1
fi
run install -m 0755 "$SRC/deploy/heat-companion-display-env.sh" "$PREFIX/bin/heat-companion-display-env"
run install -m 0644 "$SRC/docs/wiring.md" "$SRC/docs/serial-protocol.md" "$PREFIX/share/doc/"

step "Configuration"
if [[ -e $CONF_DIR/wiring.toml ]]; then
    note "keeping $CONF_DIR/wiring.toml"
else
    run install -m 0644 "$SRC/deploy/wiring.toml" "$CONF_DIR/wiring.toml"
fi
if [[ -e $DEFAULTS_FILE && -z $ROTATION ]]; then
    note "keeping $DEFAULTS_FILE"
else
    write_file "$DEFAULTS_FILE" 0644 <<EOF
# Site settings for heat-companion.service (read as environment; see the unit file).
# Rotate the UI on the console (the kernel's video=...,rotate= does not rotate DRM apps):
KCFG_GRAPHICS_ROTATION=${ROTATION:-0}
# Force the DRM card if the automatic choice is wrong (/dev/dri/cardN):
#SDL_KMSDRM_DEVICE_INDEX=1
# Log level of the app and Kivy (debug, info, warning, error):
#KCFG_KIVY_LOG_LEVEL=info
EOF
fi

step "Kivy display and touch configuration (one touch per tap)"
run runuser -u "$APP_USER" -- env "KIVY_HOME=$STATE_DIR/kivy" \
    "$PREFIX/venv/bin/python" "$SRC/deploy/configure_kivy.py"

step "Check the install (libraries and pin factories import as $APP_USER)"
# In the service's working directory: importing lgpio creates its notification FIFO
# (.lgd-nfyN) in the current directory, which must be writable by the service user.
run runuser -u "$APP_USER" -- env -C "$STATE_DIR" "KIVY_HOME=$STATE_DIR/kivy" \
    "$PREFIX/venv/bin/python" "$SRC/deploy/check_install.py" --require-lgpio

step "udev rule for the USB hub (/dev/heat-hub)"
run install -m 0644 "$SRC/deploy/99-heat-hub.rules" "$UDEV_DIR/99-heat-hub.rules"
# Without a running udev (a chroot or container) the rule applies at the next boot.
try udevadm control --reload-rules
try udevadm trigger --subsystem-match=tty --action=add

step "Cap the journal (logs go to journald)"
run install -d -m 0755 "$JOURNALD_DIR"
write_file "$JOURNALD_DIR/heat-companion.conf" 0644 <<'EOF'
# Installed by heat-companion: keep the journal small on an SD card.
[Journal]
SystemMaxUse=64M
EOF
try systemctl try-restart systemd-journald.service

step "systemd service"
note "from deploy/$SERVICE with the prefix and user filled in"
sed -e "s#/opt/heat-companion#$PREFIX#g" \
    -e "s#^User=heat-companion\$#User=$APP_USER#" -e "s#^Group=heat-companion\$#Group=$APP_USER#" \
    "$SRC/deploy/$SERVICE" | write_file "$UNIT_DIR/$SERVICE" 0644 quiet
# Without systemd running (a chroot or an image being built) there is nothing to reload: the
# unit is read at the next boot, and `systemctl enable` works offline.
if ((DRY_RUN)) || [[ -d /run/systemd/system ]]; then
    run systemctl daemon-reload
else
    note "systemd is not running here: the unit is loaded at the next boot"
fi
if ((ENABLE)); then
    run systemctl enable "$SERVICE"
else
    note "not enabled (--no-enable)"
fi

if ((CONSOLE_BOOT)); then
    step "Boot to the console (no desktop holding the screen)"
    if command -v raspi-config >/dev/null; then
        run raspi-config nonint do_boot_behaviour B1
    else
        run systemctl set-default multi-user.target
    fi
fi

if ((START)); then
    step "Start the service"
    run systemctl restart "$SERVICE"
fi

printf '\nDone%s.\n' "$( ((DRY_RUN)) && echo ' (dry run: nothing was changed)')"
note "wiring:  $CONF_DIR/wiring.toml (docs: $PREFIX/share/doc/wiring.md)"
note "data:    $STATE_DIR (HEAT_COMPANION_DATA)"
note "logs:    journalctl -u heat-companion -f"
note "control: systemctl status|restart|stop heat-companion"
