#!/bin/sh
# heat-companion-display-env OUTPUT: write SDL_KMSDRM_DEVICE_INDEX=<n> to OUTPUT for the first
# DRM card with a connected display (HDMI or DSI). Run by heat-companion.service before the app
# (ExecStartPre); on a Pi 5 the v3d (render-only) and vc4 (display) cards can swap numbers
# between boots, and SDL's KMSDRM driver may otherwise pick the card without a screen.
# Writes an empty file (SDL's own choice) when SDL_KMSDRM_DEVICE_INDEX is already set
# (e.g. in /etc/default/heat-companion) or no connected display is found.
set -eu

out=${1:?usage: heat-companion-display-env OUTPUT_FILE}
sysfs=${HEAT_COMPANION_SYSFS:-/sys}

: > "$out"
if [ -n "${SDL_KMSDRM_DEVICE_INDEX:-}" ]; then
    exit 0
fi
for status in "$sysfs"/class/drm/card*-*/status; do
    [ -r "$status" ] || continue
    if [ "$(cat "$status")" = connected ]; then
        connector=${status%/status}
        connector=${connector##*/}
        card=${connector%%-*}
        echo "SDL_KMSDRM_DEVICE_INDEX=${card#card}" > "$out"
        exit 0
    fi
done
exit 0
