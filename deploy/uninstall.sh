#!/usr/bin/env bash
# Remove heat-companion installed by deploy/install.sh.
#
#     sudo deploy/uninstall.sh            # remove the app, service, udev rule; keep data+config
#     sudo deploy/uninstall.sh --purge    # also delete data, configuration and the user
#     deploy/uninstall.sh --dry-run       # print every step, change nothing
set -euo pipefail

usage() {
    cat <<'EOF_USAGE'
Usage: uninstall.sh [--dry-run] [--purge] [--prefix DIR] [--user NAME]

  --dry-run      print every step and change nothing
  --purge        also delete /var/lib/heat-companion (race data), /etc/heat-companion,
                 /etc/default/heat-companion and the service user
  --prefix DIR   where install.sh put the venv (default: /opt/heat-companion)
  --user NAME    service user (default: heat-companion)
EOF_USAGE
}

DRY_RUN=0
PURGE=0
PREFIX=/opt/heat-companion
APP_USER=heat-companion
STATE_DIR=/var/lib/heat-companion
CONF_DIR=/etc/heat-companion
DEFAULTS_FILE=/etc/default/heat-companion
UNIT=/etc/systemd/system/heat-companion.service
UDEV_RULE=/etc/udev/rules.d/99-heat-hub.rules
JOURNALD_CONF=/etc/systemd/journald.conf.d/heat-companion.conf

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
        --user) APP_USER=${2:?--user needs a name}; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# Never rm -rf something that is not clearly ours.
if [[ ! $PREFIX =~ ^/[A-Za-z0-9._/-]+$ || $PREFIX == / || $PREFIX == /usr || $PREFIX == /opt ]]; then
    echo "uninstall.sh: refusing to remove prefix '$PREFIX'" >&2
    exit 2
fi
if [[ ! $APP_USER =~ ^[a-z_][a-z0-9_-]{0,30}$ ]]; then
    echo "uninstall.sh: --user must be a lower-case login name" >&2
    exit 2
fi

STEP=0
step() {
    STEP=$((STEP + 1))
    printf '\n==> [%d] %s\n' "$STEP" "$*"
}

# Print a command, then run it unless this is a dry run.
run() {
    printf '+ %s\n' "$*"
    if ((!DRY_RUN)); then
        "$@"
    fi
}

# Like run, but a failure (e.g. already removed) is only reported.
try() {
    printf '+ %s\n' "$*"
    if ((!DRY_RUN)); then
        "$@" || printf '    (failed; continuing)\n'
    fi
}

if ((DRY_RUN)); then
    echo "Dry run: printing the steps; nothing is changed."
elif ((EUID != 0)); then
    echo "uninstall.sh: run as root (sudo), or use --dry-run" >&2
    exit 1
fi

step "Stop and disable the service"
try systemctl disable --now heat-companion.service
run rm -f "$UNIT"
try systemctl daemon-reload
try systemctl reset-failed heat-companion.service

step "Remove the udev rule and the journal cap"
run rm -f "$UDEV_RULE" "$JOURNALD_CONF"
try udevadm control --reload-rules

step "Remove the app ($PREFIX)"
run rm -rf -- "$PREFIX"

if ((PURGE)); then
    step "Purge data, configuration and the user"
    run rm -rf -- "$STATE_DIR" "$CONF_DIR"
    run rm -f "$DEFAULTS_FILE"
    try userdel "$APP_USER"
else
    step "Keep data and configuration"
    printf '    kept: %s (race data), %s, %s, user %s (use --purge to delete)\n' \
        "$STATE_DIR" "$CONF_DIR" "$DEFAULTS_FILE" "$APP_USER"
fi

printf '\nDone%s.\n' "$( ((DRY_RUN)) && echo ' (dry run: nothing was changed)')"
