#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The lab's setup of spi-fixture (rig/lab/image/modules.py runs it in the guest
# once the modules are loaded): its two devices, spiB.0 (mcp3008) and spiB.1
# (spi-loopback), bound to spidev through driver_override, so that they become
# /dev/spidevB.0 and /dev/spidevB.1. spidev has no id for them, as for any
# device without a driver of its own: driver_override is the way.
set -e
found=0
for d in /sys/devices/platform/spi-fixture/spi_master/spi*/spi*.*; do
	[ -e "$d/modalias" ] || continue
	dev=${d##*/}
	echo spidev >"$d/driver_override"
	[ -e "$d/driver" ] || echo "$dev" >/sys/bus/spi/drivers_probe
	drv=$(readlink "$d/driver")
	if [ "${drv##*/}" != spidev ]; then
		echo "$dev ($(cat "$d/modalias")) is not bound to spidev (driver: ${drv:-none})"
		exit 1
	fi
	echo "$dev ($(cat "$d/modalias")) -> spidev"
	found=$((found + 1))
done
if [ "$found" != 2 ]; then
	echo "spi-fixture has $found devices, not 2"
	exit 1
fi
