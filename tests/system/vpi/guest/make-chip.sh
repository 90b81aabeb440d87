#!/bin/sh
# At boot, before bgpi.service: a GPIO chip shaped as a Raspberry Pi 4's (58 lines named
# GPIO0..GPIO57) from gpio-sim, and a /proc/cpuinfo with a Pi 4's revision for gpiozero.
set -eu
modprobe gpio-sim
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
chip=/sys/kernel/config/gpio-sim/pi
mkdir "$chip" "$chip/bank0"
echo 58 >"$chip/bank0/num_lines"
echo pinctrl-bcm2711 >"$chip/bank0/label"
line=0
while [ "$line" -lt 58 ]; do
    mkdir "$chip/bank0/line$line"
    echo "GPIO$line" >"$chip/bank0/line$line/name"
    line=$((line + 1))
done
echo 1 >"$chip/live"
mkdir -p /run/vpi
{ cat /proc/cpuinfo; printf 'Revision\t: c03114\n'; } >/run/vpi/cpuinfo
echo "vpi: $(cat "$chip/bank0/chip_name") is the simulated Pi's GPIO chip"
