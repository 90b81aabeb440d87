#!/usr/bin/env bash
# bgpi's Raspberry Pi packages installed on ARM from PyPI alone, in a Debian bookworm
# chroot of ARCH (arm64: a 64-bit Pi OS; armhf: a 32-bit one) run by qemu-user.
#
#   arm.sh ARCH CACHE     (as root; vpi.sh runs it with BGPI_VPI_ARM=1)
#
# The chroot's root file system is cached in CACHE.  Prints one verdict line, "ok NAME" or
# "not ok NAME: why", as guest/checks.py does; what pip said is kept in CACHE/arm-ARCH.log.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
arch=${1:?usage: arm.sh ARCH CACHE}
cache=${2:?usage: arm.sh ARCH CACHE}
name="pi_packages_install_from_pypi_on_$arch"
log=$cache/arm-$arch.log
packages=python3,python3-venv,ca-certificates
verdict() { echo "$1 $name${2:+: $2}"; exit 0; }
: >"$log"

# qemu-user runs the chroot's programs: binfmt_misc hands it every ARM binary.
if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>>"$log" ||
        verdict "not ok" "binfmt_misc cannot be mounted here"
fi
update-binfmts --enable >>"$log" 2>&1 || true

tarball=$cache/arm-$arch-$(printf '%s\n' "$arch" "$packages" | sha256sum | cut -c1-16).tar
if [[ ! -e $tarball ]]; then
    mmdebstrap --quiet --variant=apt --format=tar --architectures="$arch" --include="$packages" \
        bookworm "$tarball.part" >>"$log" 2>&1 || verdict "not ok" "mmdebstrap failed (see $log)"
    mv "$tarball.part" "$tarball"
fi
root=$cache/arm-$arch
rm -rf "$root"
mkdir -p "$root/root/bgpi"
tar -C "$root" -xf "$tarball"
git -c safe.directory="$REPO" -C "$REPO" ls-files -z --cached --others --exclude-standard |
    (cd "$REPO" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -C "$root/root/bgpi" -xf -
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The host's certificates: its HTTPS may pass a proxy that signs with a CA of its own.
cp /etc/ssl/certs/ca-certificates.crt "$root/root/host-ca.crt"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"; rm -rf "$root"' EXIT

# As on the Pi: the installer's build-tool step (gcc and the Python headers where a
# package has no wheel), then pip with nothing but PyPI, then the Pi import chain with
# Blinka told which board it is on.
if chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive \
    PIP_CERT=/root/host-ca.crt bash -euc '
    apt-get update -qq
    source /root/bgpi/systemd/install.sh --root /tmp
    install_build_tools
    python3 -m venv /opt/venv
    /opt/venv/bin/pip install --quiet --disable-pip-version-check "/root/bgpi[pi]"
    cd /tmp   # lgpio makes its notification pipe in the working directory
    BLINKA_FORCEBOARD=RASPBERRY_PI_4B BLINKA_FORCECHIP=BCM2XXX /opt/venv/bin/python -c "
import platform, board, neopixel_spi, lgpio, gpiod, gpiozero.pins.lgpio
import bgpi.hardware.board, bgpi.hardware.lines, bgpi.hardware.leds
print(\"imported on\", platform.machine())"' >>"$log" 2>&1; then
    verdict ok
fi
verdict "not ok" "$(grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-200) (see $log)"
