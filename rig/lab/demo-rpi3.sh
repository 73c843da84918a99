# SPDX-License-Identifier: GPL-2.0-only
# What `python3 -m rig.lab demo --board rpi3` shows: udrv on the rpi3 board (QEMU
# raspi3b, Debian's arm64 kernel), driving GPIO 17 of the SoC's own GPIO chip.
# Runs in the guest (busybox sh). Guest time follows the instruction count.

show() { echo; echo "\$ $*"; "$@" || echo "(exit $?)"; }
CHIP=pinctrl-bcm2835
GPLEV0=0x3F200034 # pin levels 0..31 (devmem reads it through /dev/mem: iomem=relaxed)

echo "kernel: $(uname -r) $(uname -v) on $(tr -d '\0' </proc/device-tree/model)"
show udrv gpio info -c $CHIP
for v in 1 0; do
	show udrv gpio set -c $CHIP 17=$v
	echo "GPLEV0 = $(devmem $GPLEV0 32) (bit 17 is GPIO 17)"
done
show udrv gpio toggle -c $CHIP -n 20000 17
show udrv gpio toggle -b sysfs -c $CHIP -n 20000 17
show udrv rt check
