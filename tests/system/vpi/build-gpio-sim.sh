#!/bin/sh
# Inside the build chroot: gpio-sim for kernel $1, from Debian's linux-source.
#
# Debian's kernels leave CONFIG_GPIO_SIM unset, and the interrupt simulator it needs
# (kernel/irq/irq_sim.c) is not built in either: both go into one module.  The driver's
# file is renamed, since a module made of several files cannot share a name with one of
# them.  irq_to_desc() is not exported to modules; generic_handle_irq() does the same
# for the simulator's one-line interrupt handler.
set -eu
kver=$1
mkdir -p /gpio-sim
cd /gpio-sim
tar -xJf /usr/src/linux-source-6.1.tar.xz --strip-components=1 --wildcards \
    '*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c'
mv drivers/gpio/gpio-sim.c gpio-sim-main.c
mv drivers/gpio/gpiolib.h gpiolib.h
sed 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' kernel/irq/irq_sim.c >irq_sim.c
grep -q 'generic_handle_irq(irqnum)' irq_sim.c
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >Makefile
make -s -C "/usr/src/linux-headers-$kver" M=/gpio-sim modules
