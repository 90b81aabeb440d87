#!/usr/bin/env bash
# A virtual Raspberry Pi: build a Debian guest with a simulated GPIO chip, boot it under
# QEMU, install bgpi in it with systemd/install.sh and run the checks of guest/checks.py
# under the real systemd (README.md beside this file says what that proves).
#
#   sudo tests/system/vpi/vpi.sh PYTHON    PYTHON: a Python 3.11 with pip (the wheelhouse's)
#
# BGPI_VPI_ARM=1 adds arm.sh's checks: the Pi packages from PyPI in arm64 and armhf chroots.
# Ends with the line "N passed, N failed"; exits 1 on any failure.  Each stage's output
# is kept in $BGPI_VPI_CACHE (default $XDG_CACHE_HOME/bgpi-vpi, else /var/cache/bgpi-vpi),
# under a name that is a hash of its inputs, so a second run rebuilds only what changed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
PYTHON=${1:?usage: vpi.sh PYTHON}
CACHE=${BGPI_VPI_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/bgpi-vpi}}
CACHE=${CACHE:-/var/cache/bgpi-vpi}
SUITE=bookworm
GUEST_TIMEOUT_S=${BGPI_VPI_TIMEOUT_S:-1200}   # the whole boot and every check, under emulation
# The guest: systemd as PID 1, udev for the device rule, dbus for systemctl and
# systemd-run, gpiod's tools to hold a line, python3-venv for install.sh, strace to count
# the board's kernel calls.
GUEST_PACKAGES=systemd,systemd-sysv,udev,kmod,dbus,linux-image-amd64,python3,python3-venv,gpiod,procps,passwd,strace
BUILD_PACKAGES=gcc,make,libc6-dev,xz-utils,linux-source-6.1

started=$SECONDS
stage_started=$SECONDS
say() { printf 'vpi: %s\n' "$*"; }
fail() { printf 'vpi: %s\n0 passed, 1 failed\n' "$*"; exit 1; }
stage() {   # the time the last stage took, then the next one's name
    say "$1 ($((SECONDS - stage_started)) s)"
    stage_started=$SECONDS
}
key() { sha256sum | cut -c1-16; }
# A stage that fails is one failure: the closing line is still there.
trap 'printf "vpi: failed at line %s of %s\n0 passed, 1 failed\n" "$LINENO" "$0"' ERR
((EUID == 0)) || fail "run it as root: mmdebstrap, chroot and mkfs need it"
for tool in mmdebstrap qemu-system-x86_64 mkfs.ext4; do
    command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install mmdebstrap qemu-system-x86 e2fsprogs)"
done
mkdir -p "$CACHE"
# Only one run at a time uses the cache.
exec 9>"$CACHE/lock"
flock 9

# Stage 1: the guest's root file system, as a tarball.  Its key holds the kernel the
# archive offers now (from the host's apt lists), so a new kernel makes a new guest.
kernel_now=$(apt-cache show --no-all-versions linux-image-amd64 2>/dev/null | grep '^Depends' || true)
base_key=$(printf '%s\n' "$SUITE" "$GUEST_PACKAGES" "$kernel_now" | key)
base=$CACHE/base-$base_key.tar
if [[ ! -e $base ]]; then
    say "building the guest's root file system (mmdebstrap)"
    mmdebstrap --quiet --variant=required --format=tar --include="$GUEST_PACKAGES" "$SUITE" "$base.part"
    mv "$base.part" "$base"
    find "$CACHE" -maxdepth 1 -name 'base-*.tar' ! -name "${base##*/}" -delete
fi
kver=$(tar -tf "$base" | sed -n 's|^\./boot/vmlinuz-||p' | head -n 1)
[[ -n $kver ]] || fail "no kernel in $base"
stage "root file system ready, kernel $kver"

# Stage 2: the gpio-sim module, built out of tree against the guest's kernel.
module_key=$(cat "$HERE/build-gpio-sim.sh" - <<<"$kver $BUILD_PACKAGES" | key)
module=$CACHE/gpio-sim-$module_key.ko
if [[ ! -e $module ]]; then
    say "building gpio-sim for $kver (mmdebstrap, then make)"
    build=$(mktemp -d "$CACHE/build.XXXXXX")
    trap 'rm -rf "$build"' EXIT
    mmdebstrap --quiet --variant=apt --include="$BUILD_PACKAGES,linux-headers-$kver" "$SUITE" "$build/root"
    install -m 0755 "$HERE/build-gpio-sim.sh" "$build/root/build-gpio-sim.sh"
    chroot "$build/root" /build-gpio-sim.sh "$kver"
    cp "$build/root/gpio-sim/gpio-sim.ko" "$module.part"
    mv "$module.part" "$module"
    rm -rf "$build"
    trap - EXIT
    find "$CACHE" -maxdepth 1 -name 'gpio-sim-*.ko' ! -name "${module##*/}" -delete
fi
stage "gpio-sim module ready"

# Stage 3: a wheelhouse fetched on the host (the guest has no network): the very files
# systemd/requirements-pi.txt locks, hashes checked, which install.sh installs with
# --require-hashes as on a Pi, and what pip needs to build bgpi itself from its source.
wheels_key=$(cat "$REPO/pyproject.toml" "$REPO/systemd/requirements-pi.txt" - <<<"$("$PYTHON" -VV)" | key)
wheels=$CACHE/wheels-$wheels_key
if [[ ! -d $wheels ]]; then
    say "fetching the wheelhouse (systemd/requirements-pi.txt, and bgpi's build requirements)"
    rm -rf "$wheels.part"
    "$PYTHON" -m pip --isolated --quiet download --dest "$wheels.part" --require-hashes \
        -r "$REPO/systemd/requirements-pi.txt"
    "$PYTHON" -m pip --isolated --quiet download --dest "$wheels.part" \
        "$("$PYTHON" -c 'import tomllib, sys; print(*tomllib.load(open(sys.argv[1], "rb"))["build-system"]["requires"])' "$REPO/pyproject.toml")" wheel
    mv "$wheels.part" "$wheels"
    find "$CACHE" -maxdepth 1 -name 'wheels-*' ! -name "${wheels##*/}" -exec rm -rf {} +
fi
stage "wheelhouse ready"

# Stage 4 (every run): the disk, with this checkout as it stands, the module and the
# guest's units.
run=$CACHE/run
rm -rf "$run"
mkdir -p "$run/root"
tar -C "$run/root" -xf "$base"
install -D -m 0644 "$module" "$run/root/lib/modules/$kver/extra/gpio-sim.ko"
chroot "$run/root" depmod "$kver"   # the guest's own kmod
mkdir -p "$run/root/root/bgpi"
git -c safe.directory="$REPO" -C "$REPO" ls-files -z --cached --others --exclude-standard |
    (cd "$REPO" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -C "$run/root/root/bgpi" -xf -
cp -r "$wheels" "$run/root/root/wheelhouse"
guest=$HERE/guest
for file in checks.py mux.py profile.toml; do
    install -D -m 0644 "$guest/$file" "$run/root/usr/local/lib/vpi/$file"
done
install -D -m 0644 "$guest/board.py" "$run/root/usr/local/lib/vpi/standin/board.py"
install -D -m 0755 "$guest/make-chip.sh" "$run/root/usr/local/lib/vpi/make-chip.sh"
install -D -m 0644 "$guest/vpi.conf" "$run/root/etc/systemd/system/bgpi.service.d/vpi.conf"
for unit in vpi-chip.service vpi-checks.service; do
    install -D -m 0644 "$guest/$unit" "$run/root/etc/systemd/system/$unit"
    ln -sf "/etc/systemd/system/$unit" "$run/root/etc/systemd/system/multi-user.target.wants/$unit"
done
echo vpi >"$run/root/etc/hostname"
printf '/dev/vda / ext4 rw 0 1\n' >"$run/root/etc/fstab"
# No login on the console: nobody is there, and getty would only compete for the CPU.
ln -sf /dev/null "$run/root/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$run/root/etc/systemd/system/getty@tty1.service"
cp "$run/root/boot/vmlinuz-$kver" "$run/vmlinuz"
cp "$run/root/boot/initrd.img-$kver" "$run/initrd"
mkfs.ext4 -q -F -L vpi -d "$run/root" "$run/disk.img" 3G
rm -rf "$run/root"
stage "disk ready"

# Stage 5: boot it (software emulation: this machine's /dev/kvm boots no stock kernel);
# the checks write their verdicts to the second serial port and power the guest off.
say "booting the guest; its console: $run/console.log"
done_in_time=true
timeout "$GUEST_TIMEOUT_S" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -M q35 -smp 2 -m 2048 \
    -kernel "$run/vmlinuz" -initrd "$run/initrd" \
    -append "root=/dev/vda rw console=ttyS0 systemd.show_status=false" \
    -drive "file=$run/disk.img,format=raw,if=virtio" -nic none -display none -no-reboot \
    -serial "file:$run/console.log" -serial "file:$run/result.log" || done_in_time=false
stage "guest done"

tr -d '\r' <"$run/result.log" >"$run/result.txt"

# Stage 6 (with BGPI_VPI_ARM=1): the Pi packages installed from PyPI in ARM chroots.
if [[ ${BGPI_VPI_ARM:-0} == 1 ]]; then
    for arch in arm64 armhf; do
        if command -v update-binfmts >/dev/null && command -v qemu-arm-static >/dev/null; then
            "$HERE/arm.sh" "$arch" "$CACHE" >>"$run/result.txt"
        else
            echo "not ok pi_packages_install_from_pypi_on_$arch: no qemu-user-static and binfmt-support" \
                >>"$run/result.txt"
        fi
        stage "$arch chroot done"
    done
fi
grep -v '^#' "$run/result.txt" || true
passed=$(grep -c '^ok ' "$run/result.txt" || true)
failed=$(grep -c '^not ok ' "$run/result.txt" || true)
if ! grep -qx 'done' "$run/result.txt"; then
    $done_in_time && why="the guest stopped before its checks were done" ||
        why="the guest took more than $GUEST_TIMEOUT_S s"
    say "$why: see $run/console.log"
    failed=$((failed + 1))
fi
say "from start to verdict: $((SECONDS - started)) s"
echo "$passed passed, $failed failed"
((failed == 0)) || exit 1
