#!/usr/bin/env bash
# Install bgpi as a service that starts at boot, or take it off again (systemd/README.md).
#
#   sudo systemd/install.sh              install, or update to this copy (safe to repeat)
#   sudo systemd/install.sh --uninstall  remove the service, the code and the user; keep
#                                        the settings (/etc/bgpi) and the games (/var/lib/bgpi)
#   --root DIR   work on the file system under DIR instead of / and start nothing (a
#                throwaway root for testing; DIR/etc must hold passwd, group, shadow, gshadow)
#
# Run it from a copy of the repository, as root.  pip reads its usual PIP_* variables
# (e.g. PIP_INDEX_URL); Raspberry Pi OS points pip at piwheels for armv7l wheels.
set -euo pipefail

PREFIX=/opt/bgpi              # the virtual environment lives in $PREFIX/venv
SETTINGS=/etc/bgpi/bgpi.toml
UNIT=/etc/systemd/system/bgpi.service
PAGE_DROP_IN=/etc/systemd/system/bgpi.service.d/page.conf   # the page's network, if enabled
REMOTE_DROP_IN=/etc/systemd/system/bgpi.service.d/remote.conf   # the broker's network, for a remote game
UDEV_RULE=/etc/udev/rules.d/60-bgpi.rules     # the GPIO chips and SPI buses to their groups
MODULES=/etc/modules-load.d/bgpi.conf         # the USB serial drivers, loaded at boot
USER_NAME=bgpi
GROUPS_NEEDED=(gpio spi dialout)   # /dev/gpiochip*, /dev/spidev*, /dev/ttyACM*
SOURCE=$(cd "$(dirname "$0")/.." && pwd)

say() { printf 'bgpi install: %s\n' "$*"; }
fail() { printf 'bgpi install: %s\n' "$*" >&2; exit 2; }

root=/
action=install
while (($#)); do
    case $1 in
        --root) (($# >= 2)) || fail "--root needs a directory"; root=$2; shift 2 ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) fail "unknown option $1 (try --help)" ;;
    esac
done
((EUID == 0)) || fail "run it as root (sudo $0)"
[[ -d $root ]] || fail "--root $root is not a directory"
root=$(cd "$root" && pwd)
live=false
[[ $root == / ]] && live=true
at() { printf '%s%s' "${root%/}" "$1"; }     # a path inside the root
shadow_opts=()
$live || shadow_opts=(--prefix "$root")      # useradd and friends edit $root/etc only
systemctl_opts=()
$live || systemctl_opts=(--root="$root")

has_group() { grep -q "^$1:" "$(at /etc/group)"; }
has_user() { grep -q "^$1:" "$(at /etc/passwd)"; }

install_service() {
    if $live && ! python3 -c 'import ensurepip' 2>/dev/null; then
        say "installing python3-venv"
        apt-get install -y python3-venv
    fi
    $live && install_build_tools

    for group in "${GROUPS_NEEDED[@]}"; do
        has_group "$group" || { say "creating group $group"; groupadd "${shadow_opts[@]}" --system "$group"; }
    done
    local groups
    groups=$(IFS=,; echo "${GROUPS_NEEDED[*]}")
    if has_user "$USER_NAME"; then
        usermod "${shadow_opts[@]}" --append --groups "$groups" "$USER_NAME"
    else
        say "creating user $USER_NAME"
        useradd "${shadow_opts[@]}" --system --user-group --no-create-home \
            --home-dir /var/lib/bgpi --shell /usr/sbin/nologin --groups "$groups" "$USER_NAME"
    fi

    local venv
    venv=$(at "$PREFIX/venv")
    [[ -x $venv/bin/python ]] || { say "creating $PREFIX/venv"; python3 -m venv "$venv"; }
    say "installing bgpi from $SOURCE with its Raspberry Pi packages"
    # The tested releases: with their hashes where systemd/requirements-pi.txt covers this
    # machine's files (x86_64 with Python 3.11, aarch64 with 3.11 or 3.13), else the same
    # versions from systemd/constraints.txt (armv7l's wheels come from piwheels).
    if "$venv/bin/python" -c 'import platform, sys; sys.exit((platform.machine(), sys.version_info[:2]) not in
            {("x86_64", (3, 11)), ("aarch64", (3, 11)), ("aarch64", (3, 13))})'; then
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
            -r "$SOURCE/systemd/requirements-pi.txt"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade --no-deps "$SOURCE"
    else
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
            -c "$SOURCE/systemd/constraints.txt" "$SOURCE[pi]"
    fi
    # The service cannot write under /opt: compile now, not at every start.
    "$venv/bin/python" -m compileall -q "$venv/lib" >/dev/null

    if [[ -e $(at "$SETTINGS") ]]; then
        say "keeping the settings in $SETTINGS"
    else
        say "writing the default settings to $SETTINGS"
        install -D -m 0644 "$SOURCE/systemd/bgpi.toml" "$(at "$SETTINGS")"
    fi
    install_device_access
    install -D -m 0644 "$SOURCE/systemd/bgpi.service" "$(at "$UNIT")"
    if page_enabled; then
        say "the page is enabled in $SETTINGS: the service may use the network ($PAGE_DROP_IN)"
        install -D -m 0644 "$SOURCE/systemd/page.conf" "$(at "$PAGE_DROP_IN")"
    else
        rm -f "$(at "$PAGE_DROP_IN")"
    fi
    if remote_game; then
        say "a remote game is set in $SETTINGS: the service may reach its broker ($REMOTE_DROP_IN)"
        install -D -m 0644 "$SOURCE/systemd/remote.conf" "$(at "$REMOTE_DROP_IN")"
    else
        rm -f "$(at "$REMOTE_DROP_IN")"
    fi
    if $live; then
        systemctl daemon-reload
        systemctl enable bgpi.service
        start_service
    else
        systemctl "${systemctl_opts[@]}" enable bgpi.service 2>/dev/null
        say "installed under $root (nothing started)"
    fi
}

# (Re)start the service; if it does not come up, show why and stop with one line that says so.
start_service() {
    if systemctl restart bgpi.service; then
        say "started; see: systemctl status bgpi, journalctl -u bgpi -f"
        return
    fi
    systemctl --no-pager --lines=0 status bgpi.service || true
    journalctl --no-pager --unit=bgpi.service --lines=15 --output=cat || true
    local why
    why=$(journalctl --no-pager --unit=bgpi.service --lines=200 --output=cat 2>/dev/null |
          grep '^bgpi run: ' | tail -n 1 || true)
    say "installed, but the service did not start: the lines above say why (the board's own"
    say "word is its last 'bgpi run:' line). Fix that, then: sudo systemctl restart bgpi"
    printf 'bgpi install: the service did not start%s\n' "${why:+: ${why#bgpi run: }}" >&2
    exit 1
}

# On 32-bit ARM, gpiod and sysv_ipc (a Blinka dependency) have no wheels on PyPI: pip
# builds them, which needs a C compiler and Python's headers.
install_build_tools() {
    case $(uname -m) in armv6l|armv7l) ;; *) return 0 ;; esac
    local include
    include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    command -v "${CC:-cc}" >/dev/null && [[ -e $include/Python.h ]] && return 0   # pip builds with $CC
    command -v apt-get >/dev/null ||
        fail "32-bit ARM builds gpiod and sysv_ipc from source: install gcc and the Python headers first"
    say "installing gcc and python3-dev (32-bit ARM builds gpiod and sysv_ipc from source)"
    apt-get install -y gcc python3-dev
}

# The devices the board opens, for the service's groups, and the USB serial drivers loaded
# at boot.  Raspberry Pi OS gives /dev/gpiochip* to gpio and /dev/spidev* to spi (its
# 99-com.rules); plain Debian, Ubuntu and others leave them to root, and the board then
# cannot open its pins.  Our rule is written only where no rule names those groups.
install_device_access() {
    local rules=() file
    for file in "$(at /etc/udev/rules.d)"/*.rules "$(at /usr/lib/udev/rules.d)"/*.rules \
                "$(at /lib/udev/rules.d)"/*.rules; do
        [[ -e $file && $file != "$(at "$UDEV_RULE")" ]] && rules+=("$file")
    done
    local wanted=()
    ((${#rules[@]})) && grep -qs 'GROUP="gpio"' "${rules[@]}" ||
        wanted+=('SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"')
    ((${#rules[@]})) && grep -qs 'GROUP="spi"' "${rules[@]}" ||
        wanted+=('SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"')
    if ((${#wanted[@]})); then
        say "giving the GPIO chips and SPI buses to their groups ($UDEV_RULE)"
        install -d "$(at "${UDEV_RULE%/*}")"
        { echo "# bgpi (systemd/install.sh): the board's devices to the groups of its service's user."
          printf '%s\n' "${wanted[@]}"; } >"$(at "$UDEV_RULE")"
        if $live && command -v udevadm >/dev/null; then
            udevadm control --reload
            udevadm trigger --action=add --subsystem-match=gpio --subsystem-match=spidev
            udevadm settle
        fi
    fi
    # The unit's DeviceAllow=char-ttyACM and char-ttyUSB name a driver's major; systemd looks
    # it up once, when the unit starts, and a driver loaded later (a Pico plugged in) stays
    # locked out until a restart.  Loaded at boot, the majors exist before the unit starts.
    install -D -m 0644 /dev/stdin "$(at "$MODULES")" <<'END'
# bgpi (systemd/install.sh): USB serial drivers for a co-processor (a Pico), loaded before
# bgpi.service starts so that its DeviceAllow=char-ttyACM / char-ttyUSB find their majors.
cdc_acm
usbserial
END
    if $live; then
        modprobe --all cdc_acm usbserial 2>/dev/null ||
            say "warning: cdc_acm or usbserial did not load: a Pico on USB may not be reachable"
    fi
}

# Whether the settings file says [page] enabled = true (the venv's Python reads TOML).
page_enabled() {
    "$(at "$PREFIX/venv")/bin/python" -c 'import sys, tomllib
with open(sys.argv[1], "rb") as file:
    sys.exit(0 if tomllib.load(file).get("page", {}).get("enabled") is True else 1)' \
        "$(at "$SETTINGS")" 2>/dev/null   # a broken file: no page (bgpi run says what is wrong)
}

# Whether the settings file names a game under [remote] (docs/remote.md).
remote_game() {
    "$(at "$PREFIX/venv")/bin/python" -c 'import sys, tomllib
with open(sys.argv[1], "rb") as file:
    sys.exit(0 if tomllib.load(file).get("remote", {}).get("game") else 1)' \
        "$(at "$SETTINGS")" 2>/dev/null   # a broken file: no remote game (bgpi run says what is wrong)
}

uninstall_service() {
    if [[ -e $(at "$UNIT") ]]; then
        if $live; then
            systemctl disable --now bgpi.service
        else
            systemctl "${systemctl_opts[@]}" disable bgpi.service 2>/dev/null
        fi
        rm -f "$(at "$UNIT")" "$(at "$PAGE_DROP_IN")" "$(at "$REMOTE_DROP_IN")" "$(at "$UDEV_RULE")" "$(at "$MODULES")"
        rmdir "$(at "${PAGE_DROP_IN%/*}")" 2>/dev/null || true
        ! $live || systemctl daemon-reload
    fi
    rm -rf "$(at "$PREFIX")"
    if has_user "$USER_NAME"; then
        userdel "${shadow_opts[@]}" "$USER_NAME"
    fi
    say "removed; kept $SETTINGS and /var/lib/bgpi (the games): delete them by hand if unwanted"
}

# Sourced (the tests call its functions one by one), it only defines them.
[[ ${BASH_SOURCE[0]} != "$0" ]] || "${action}_service"
