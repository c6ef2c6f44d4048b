#!/usr/bin/env bash
# Prove the Raspberry Pi install path on an x86_64 Debian machine, as far as emulation allows:
# build Debian bookworm roots for arm64 and armhf (debootstrap + qemu-user-static), run
# deploy/install.sh inside each (everything but starting the service), then run `replay`,
# `races` and `demo --headless` there, with gpiozero's mock pin factory and its lgpio factory
# importable. Slow (minutes per root, more with --build-kivy), so it is not part of the test
# suite; the suite only shellchecks it.
#
#     sudo deploy/verify-arm.sh                      # both architectures
#     sudo deploy/verify-arm.sh --arch arm64 --work /work/arm-roots
#     sudo deploy/verify-arm.sh --arch armhf --build-kivy   # build Kivy from source (hours?)
#
# The roots are plain Debian, not Raspberry Pi OS: this machine reaches PyPI and Debian only,
# so the Raspberry Pi archive (python3-lgpio) and piwheels (the 32-bit Kivy wheel) are out of
# reach. install.sh therefore takes its fallback there: lgpio from PyPI's wheel, and on armhf
# Kivy from --wheels (built here by --build-kivy) or not at all. The summary says which step
# is blocked by that, and what a Raspberry Pi OS user gets instead.
# shellcheck disable=SC2317  # functions run through `timed` and `trap` look unreachable to it
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: verify-arm.sh [options]

  --arch ARCH       arm64 or armhf (repeatable; default: both)
  --work DIR        roots, wheels, screenshots and logs (default: /var/tmp/heat-companion-arm)
  --build-kivy      armhf: build a Kivy wheel from PyPI's source under emulation (slow)
  --fresh           rebuild the roots even when a finished one exists
  --remove-roots    delete each root when its checks are done (keeps logs and screenshots)
  -h, --help        this help
EOF
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=/var/tmp/heat-companion-arm
ARCHES=()
BUILD_KIVY=0
FRESH=0
REMOVE_ROOTS=0
SUITE=bookworm
MIRROR=http://deb.debian.org/debian
KIVY_VERSION=2.3.1
# A race file from the repository's own tests (a whole solo race, heat-race/1).
SAMPLE=tests/engine/solo/usa.json
INCLUDE=ca-certificates,systemd,systemd-sysv,udev,passwd,login,util-linux,procps

parse_args() {
    while (($#)); do
        case $1 in
            --arch) ARCHES+=("${2:?--arch needs arm64 or armhf}"); shift ;;
            --work) WORK=${2:?--work needs a directory}; shift ;;
            --build-kivy) BUILD_KIVY=1 ;;
            --fresh) FRESH=1 ;;
            --remove-roots) REMOVE_ROOTS=1 ;;
            -h | --help) usage; exit 0 ;;
            *) echo "verify-arm.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
        esac
        shift
    done
    ((${#ARCHES[@]})) || ARCHES=(arm64 armhf)
    for arch in "${ARCHES[@]}"; do
        if [[ $arch != arm64 && $arch != armhf ]]; then
            echo "verify-arm.sh: --arch: arm64 or armhf" >&2
            exit 2
        fi
    done
    if [[ ! $WORK =~ ^/[A-Za-z0-9._/-]+$ || $WORK == / ]]; then
        echo "verify-arm.sh: --work must be an absolute path of letters, digits, . _ - /" >&2
        exit 2
    fi
    if ((EUID != 0)); then
        echo "verify-arm.sh: run as root (debootstrap and chroot need it)" >&2
        exit 1
    fi
}

RESULTS=()
log() { printf '\n### %s\n' "$*"; }
result() {  # result ARCH STEP STATUS DETAIL
    RESULTS+=("$(printf '%-6s %-34s %-8s %s' "$1" "$2" "$3" "$4")")
    printf '>>> %s %s: %s %s\n' "$1" "$2" "$3" "$4"
}

# --- host ------------------------------------------------------------------------------------

host_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [[ -x /usr/bin/qemu-aarch64-static && -x /usr/bin/qemu-arm-static ]] ||
        missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if ((${#missing[@]})); then
        log "host: apt-get install ${missing[*]}"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    local interpreter
    for interpreter in qemu-aarch64 qemu-arm; do
        [[ -e /proc/sys/fs/binfmt_misc/$interpreter ]] || update-binfmts --enable "$interpreter"
        grep -qx enabled "/proc/sys/fs/binfmt_misc/$interpreter" || {
            echo "verify-arm.sh: binfmt $interpreter is not enabled" >&2
            exit 1
        }
    done
}

# --- roots -----------------------------------------------------------------------------------

mounted_under() { awk -v r="$1" '$2 == r || index($2, r "/") == 1 {print $2}' /proc/mounts; }

unmount_root() {
    local root=$1 point
    # Deepest first.
    while read -r point; do
        if [[ -n $point ]]; then
            umount -l "$point" 2>/dev/null || true
        fi
    done < <(mounted_under "$root" | sort -r)
}

remove_root() {
    local root=$1
    unmount_root "$root"
    if [[ -n $(mounted_under "$root") ]]; then
        echo "verify-arm.sh: $root still has mounts; not deleting it" >&2
        return 1
    fi
    rm -rf --one-file-system -- "$root"
}

make_root() {
    local arch=$1 root=$2
    if [[ -e $root/.verify-arm-root-done ]] && ((!FRESH)); then
        echo "reusing $root (finished $(cat "$root/.verify-arm-root-done"))"
        return 0
    fi
    [[ -e $root ]] && remove_root "$root"
    mkdir -p "$root"
    debootstrap --arch="$arch" --variant=minbase --include="$INCLUDE" "$SUITE" "$root" "$MIRROR"
    date -u +%FT%TZ >"$root/.verify-arm-root-done"
}

mount_root() {
    local root=$1
    unmount_root "$root"
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    mount -t tmpfs tmpfs "$root/run"
    mkdir -p "$root/run/lock"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # This machine's own extra CA certificates (a network that inspects TLS), so pip in the
    # root trusts what pip here trusts.
    local cert changed=0
    for cert in /usr/local/share/ca-certificates/*.crt; do
        [[ -e $cert ]] || continue
        if ! cmp -s "$cert" "$root$cert"; then
            mkdir -p "$root/usr/local/share/ca-certificates"
            cp "$cert" "$root$cert"
            changed=1
        fi
    done
    if ((changed)); then  # slow under emulation: only when something changed
        in_root "$root" update-ca-certificates >/dev/null
    fi
}

# The checkout as it is (tracked and new files, not .venv or .git) in /opt/src/heat-companion.
copy_source() {
    local root=$1 dest=$1/opt/src/heat-companion
    rm -rf -- "$dest"
    mkdir -p "$dest"
    git -C "$REPO" ls-files -z --cached --others --exclude-standard |
        tar -C "$REPO" --null -T - -cf - | tar -C "$dest" -xf -
}

# Run a command inside the root with a clean environment.
in_root() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb "$@"
}

# Run a command as the service user, headless, with the mock pin factory.
as_app() {
    local root=$1
    shift
    # In the service's working directory, as systemd would run it (lgpio needs it writable).
    in_root "$root" runuser -u heat-companion -- env -C /var/lib/heat-companion \
        HOME=/var/lib/heat-companion SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 \
        KIVY_HOME=/var/lib/heat-companion/verify-kivy GPIOZERO_PIN_FACTORY=mock \
        HEAT_COMPANION_DATA=/var/lib/heat-companion/verify-data "$@"
}

timed() {  # timed VAR command...: run, store the seconds in VAR, return the status
    local -n elapsed=$1
    shift
    local start=$SECONDS status=0
    "$@" || status=$?
    # shellcheck disable=SC2034  # a nameref: sets the caller's variable
    elapsed=$((SECONDS - start))
    return "$status"
}

# armhf: Kivy from PyPI's sdist, built against Debian's SDL2 (what piwheels does on a Pi).
build_kivy() {
    local root=$1 wheels=$2
    in_root "$root" apt-get install -y -q --no-install-recommends build-essential python3-dev \
        python3-venv pkg-config libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev \
        libgl-dev libgles-dev libegl-dev libmtdev-dev
    in_root "$root" python3 -m venv /opt/kivy-build
    in_root "$root" /opt/kivy-build/bin/pip install -q --upgrade pip
    in_root "$root" env KIVY_SDL2_PATH= MAKEFLAGS=-j2 /opt/kivy-build/bin/pip wheel --no-deps \
        --no-binary kivy -w "${wheels#"$root"}" "kivy==$KIVY_VERSION"
}

verify_arch() {
    local arch=$1 dir=$WORK/$1 root=$WORK/$1/root secs=0
    local install_args=(--no-enable)
    mkdir -p "$dir/wheels" "$dir/shots"

    log "$arch: root ($SUITE, $MIRROR)"
    if ! timed secs make_root "$arch" "$root"; then
        result "$arch" "debootstrap" FAIL "see the log"
        return
    fi
    result "$arch" "debootstrap root" PASS "${secs}s"
    mount_root "$root"
    copy_source "$root"
    in_root "$root" uname -m
    in_root "$root" python3 --version 2>/dev/null || true

    if [[ $arch == armhf ]]; then
        install_args+=(--no-piwheels)
        local built=("$dir"/wheels/[Kk]ivy-*.whl)
        if [[ ! -e ${built[0]} ]] && ((BUILD_KIVY)); then
            log "$arch: build Kivy $KIVY_VERSION from source under emulation"
            in_root "$root" apt-get update -q
            mkdir -p "$root/opt/wheels"
            if timed secs build_kivy "$root" "$root/opt/wheels"; then
                cp "$root"/opt/wheels/*.whl "$dir/wheels/"
                result "$arch" "build Kivy wheel (emulated)" PASS "${secs}s"
            else
                result "$arch" "build Kivy wheel (emulated)" FAIL "${secs}s"
            fi
        fi
        built=("$dir"/wheels/[Kk]ivy-*.whl)
        if [[ -e ${built[0]} ]]; then
            mkdir -p "$root/opt/wheels"
            cp "${built[@]}" "$root/opt/wheels/"
            install_args+=(--wheels /opt/wheels)
        fi
    fi

    log "$arch: deploy/install.sh ${install_args[*]}"
    if timed secs in_root "$root" bash /opt/src/heat-companion/deploy/install.sh \
        "${install_args[@]}"; then
        result "$arch" "install.sh (service not started)" PASS "${secs}s"
    else
        if [[ $arch == armhf ]]; then
            result "$arch" "install.sh (service not started)" BLOCKED \
                "${secs}s: no Kivy wheel for armhf here (none on PyPI; piwheels unreachable)"
            log "$arch: the app without Kivy, to run what needs no window"
            in_root "$root" /opt/heat-companion/venv/bin/pip install -q --no-cache-dir --no-deps \
                /opt/src/heat-companion gpiozero colorzero pyserial lgpio || true
        else
            result "$arch" "install.sh (service not started)" FAIL "${secs}s"
        fi
    fi
    local app=/opt/heat-companion/venv/bin/heat-companion
    local py=/opt/heat-companion/venv/bin/python
    if [[ ! -x $root$app ]]; then
        result "$arch" "app installed" FAIL "no $app"
        return
    fi
    # A clean data folder and screenshot folder each run, so nothing left from an earlier run
    # can pass for this one's.
    rm -rf -- "$root/var/lib/heat-companion/verify-data" "$root/tmp/verify-shots"
    find "$dir/shots" -name '*.png' -delete
    in_root "$root" install -d -o heat-companion -g heat-companion \
        /var/lib/heat-companion/verify-data /var/lib/heat-companion/verify-kivy /tmp/verify-shots

    log "$arch: pin factories"
    if as_app "$root" "$py" -c '
import lgpio
from gpiozero import Button, Device
from gpiozero.pins.lgpio import LGPIOFactory
from gpiozero.pins.mock import MockFactory
Device.pin_factory = MockFactory()
button = Button(17)
button.pin.drive_low()
assert button.is_pressed
print("mock factory: GPIO17 pressed; lgpio factory importable:", LGPIOFactory.__name__,
      "from", lgpio.__file__)'; then
        result "$arch" "mock + lgpio pin factories" PASS ""
    else
        result "$arch" "mock + lgpio pin factories" FAIL ""
    fi

    log "$arch: replay $SAMPLE"
    # The same file replayed on this machine (stdlib only) must give the same final state.
    (cd "$REPO" && python3 -m companion replay "$SAMPLE") >"$dir/replay-x86_64.json"
    if as_app "$root" "$app" replay "/opt/src/heat-companion/$SAMPLE" >"$dir/replay.json"; then
        if cmp -s "$dir/replay.json" "$dir/replay-x86_64.json"; then
            result "$arch" "replay" PASS "same final state as on x86_64 ($(wc -c <"$dir/replay.json") bytes)"
        else
            result "$arch" "replay" FAIL "differs from x86_64 (see $dir/replay*.json)"
        fi
    else
        result "$arch" "replay" FAIL ""
    fi

    log "$arch: demo --headless"
    if [[ -e $root/opt/heat-companion/venv/lib/python3.11/site-packages/kivy/__init__.py ]] ||
        compgen -G "$root/opt/heat-companion/venv/lib/python3*/site-packages/kivy/__init__.py" \
            >/dev/null; then
        if timed secs as_app "$root" "$app" --data /var/lib/heat-companion/verify-data demo \
            --headless --out /tmp/verify-shots; then
            cp "$root"/tmp/verify-shots/*.png "$dir/shots/" 2>/dev/null || true
            result "$arch" "demo --headless" PASS \
                "${secs}s, $(find "$dir/shots" -name '*.png' | wc -l) screens in $dir/shots"
        else
            result "$arch" "demo --headless" FAIL "${secs}s"
        fi
    else
        result "$arch" "demo --headless" BLOCKED "no Kivy in the venv (see install.sh above)"
    fi

    log "$arch: races"
    if as_app "$root" "$app" --data /var/lib/heat-companion/verify-data races >"$dir/races.txt"; then
        cat "$dir/races.txt"
        result "$arch" "races" PASS "$(grep -c . "$dir/races.txt") line(s)"
    else
        result "$arch" "races" FAIL ""
    fi

    unmount_root "$root"
    if ((REMOVE_ROOTS)); then
        remove_root "$root"
    fi
}

cleanup() {
    local arch
    for arch in "${ARCHES[@]}"; do
        if [[ -d $WORK/$arch/root ]]; then
            unmount_root "$WORK/$arch/root"
        fi
    done
}

# All in a function, so bash has read the whole file before it runs anything (editing the
# script during a run cannot change what runs).
main() {
    parse_args "$@"
    trap cleanup EXIT
    mkdir -p "$WORK"
    host_tools
    local arch
    for arch in "${ARCHES[@]}"; do
        verify_arch "$arch"
    done
    printf '\n=== verify-arm summary (%s, Debian %s roots under qemu-user-static) ===\n' \
        "$(date -u +%FT%TZ)" "$SUITE"
    printf '%s\n' "${RESULTS[@]}"
    if printf '%s\n' "${RESULTS[@]}" | grep -q ' FAIL '; then
        return 1
    fi
}

main "$@"; exit $?
