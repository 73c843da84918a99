# SPDX-License-Identifier: GPL-2.0-only
# What `make lab` shows on each kernel: udrv at work on the virtual board.
# Runs in the guest (busybox sh). Guest time follows the instruction count
# (-icount shift=0: 1 ns per instruction), so these numbers repeat run to run.

show() { echo; echo "\$ $*"; "$@" || echo "(exit $?)"; }

echo "kernel: $(uname -r) $(uname -v)"
show udrv gpio info -c gpio-wire
show udrv gpio toggle -c gpio-wire -n 20000 wire0-out
show udrv gpio toggle -b sysfs -c gpio-wire -n 20000 wire0-out

echo; echo '$ udrv gpio mon -c gpio-wire -n 4 wire1-in   (while wire1-out toggles every 1 ms)'
udrv gpio mon -c gpio-wire -n 4 -t 5s wire1-in &
sleep 0.1
udrv gpio toggle -c gpio-wire -n 4 -p 1ms wire1-out >/dev/null
wait

show udrv-edu -n 1000
show udrv uio wait -n 3 uio-ticker

echo; echo '$ echo 1024 > /sys/kernel/irqlat/run; cat /sys/kernel/irqlat/stats   (trigger -> hardirq handler, in the kernel)'
echo 1024 >/sys/kernel/irqlat/run && cat /sys/kernel/irqlat/stats

show udrv rt check
