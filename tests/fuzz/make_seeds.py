#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of the libFuzzer harnesses: tests/fuzz/corpus/<harness>/.

Run it after changing a seed here (the files are committed; libFuzzer reads
them as they are). A seed is the parts of one input (tests/fuzz/fuzz.h):
joined with the separator 0x1e; ABSENT (0x1f) leaves that file out.

What the seeds hold, and where it comes from:
  - kernel text as Debian 12's 6.1 kernels print it: uname strings of the
    lab's std and rt kernels (tests/rig/report/fixtures), /proc/PID/stat of an
    irq thread, /proc/self/status, GPIO sysfs attributes (base, ngpio,
    label; 6.1 allocates dynamic bases downwards from 512), UIO map
    attributes in drivers/uio/uio.c's formats (addr and size "%pa": 0x and
    16 hex digits; offset "0x%llx"), device-tree compatibles of the
    Raspberry Pi 3/4 and the BeagleBone Black;
  - the layouts of docs/api.md, the man page and the unit tests;
  - edge cases: empty, signs, spaces, leading zeros, hex case, the largest
    values that fit and the smallest that do not, missing files.
Inputs that make a harness fail are not seeds: they are reproducers in
tests/fuzz/regress/<harness>/ (README.md). udrvd's seeds are in
udrvd_seeds.py, the rig's (udrv-bench's readers) in rig_seeds.py, the
encoding of parts and D-Bus values in seed_format.py.
"""

from __future__ import annotations

import hashlib
import struct
import sys
from pathlib import Path

from rig_seeds import CYCLICTEST, FIELDS, PEER, RATE, RTLA, RTLA_HEAD, TRACE
from seed_format import ABSENT, join, lstr, u32
from udrvd_seeds import UDRVD

HERE = Path(__file__).resolve().parent


PARSE = [
    "0", "17", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "2147483647", "2147483648", "0x3f200000", "0X3F200000",
    "0xffffffffffffffff", "0x10000000000000000", "010", "00", "-1", "+5", "-0", " 1", "1 ",
    "", "0x", "x1", "1.5ms", "250us", "10", "2m", "0.5", "1.000000001s", "1.0000000001",
    "3ns", "1.", ".5", "0.000000001", "307445734561825860m", "gpiochip4", "/dev/gpiochip4",
    "gpiochip04", "gpiochip", "/dev/uio0", "uio12", "/dev/gpiochip2147483648", "1e3", "nan",
    "inf", "0x1p3",
]

PI3_COMPAT = b"raspberrypi,3-model-b\0brcm,bcm2837\0"
PI4_COMPAT = b"raspberrypi,4-model-b\0brcm,bcm2711\0"
BBB_COMPAT = b"ti,am335x-bone-black\0ti,am335x-bone\0ti,am33xx\0"
RP1_COMPAT = b"raspberrypi,5-model-b\0brcm,bcm2712\0"

LAYOUT = [
    # parts: spec, number of lines, line offset, parent device
    join("base=0x41200000,data=0x0,dir=0x4,dir-input=1"),
    join("base=0x41200000,data=0,dir=4,dir-input=1", "32", "5", "41200000.gpio"),
    join("base=0x41200000,data-in=0,set=4,clear=8,stride=0x10", "64", "40"),
    join("base=0x1f000d0000,data-in=0x4,set=0x2004,clear=0x3004", "54", "2",
         "1f000d0000.gpio"),
    join("base=0x1000,data=0x0,width=12"),
    join("base=0,width=8,data=1,set=2,clear=3", "16", "9"),
    join("base=0x41200000,width=16,data-in=0x2,data-out=0x4,dir=none,stride=8", "48", "47"),
    join("map=/dev/uio0,map-offset=0x1000,base=0x41200000,data=0,size=0x10000"),
    join("base=0x41200000,data=-1,data-out=0"),
    join("base=0x41200000"),
    join("data=0"),
    join("base=0x41200000,set=4,data=0"),
    join("base=0x41200000,data=0,size=2"),
    join("base=0x41200000,data=0,stride=0x100", "64", "63"),
    join("base=0x41200000,data=0,", "1", "0"),
    join(""),
]

CHIP0 = ("pinctrl-bcm2835\n54\nID_SDA\nID_SCL\nSDA1\nSCL1\nGPIO_GCLK\tw1-gpio\nGPIO5\n"
         "GPIO6\nSPI_CE1_N\tspi0 CS1\t1\n")

CLI = [
    # parts: chip spec (-c), line arguments
    join("0", "17"),
    join("gpiochip0", "GPIO17", "4"),
    join("pinctrl-bcm2835", "GPIO5", "SPI_CE1_N"),
    join("/dev/gpiochip1", "BT_ON", "3"),
    join(ABSENT, "GPIO6"),
    join(ABSENT, "WL_ON", "CAM_GPIO1"),
    join("0", "0=1", "1=off", "2=active", "3=low"),
    join("0", "1=on", "1=0"),
    join("2", "3", "7"),
    join("gpio-sysfs", "0=high"),
    join("raspberrypi-exp-gpio", "PWR_LED_R"),
    join("1", "8"),
    join("0", "4294967295"),
    join("no-such-chip", "17"),
    join("", ""),
    join("0", "=1", "17="),
    join("0", "10", "100", "4294967295"),
]

INTERACTIVE = [
    # parts: the commands of udrv gpio set --interactive, then the lines as the
    # command line gave them (none: GPIO17, 4, GPIO27)
    join("get\nset GPIO17=1\ntoggle\nsleep 1ms\nget GPIO27 4\nhelp\nexit\n"),
    join("set GPIO17=on 4=inactive GPIO27=high\ntoggle 4\nquit"),
    join("  get\t GPIO17  \r\n\n\tset\tGPIO27=low\r\n"),
    join("set GPIO99=1\nget gpio17\ntoggle GPIO17 GPIO17\nset GPIO17\nset =1\nset\n"),
    join("sleep\nsleep 1ms 2ms\nsleep 5x\nsleep 10081m\nsleep 10080m\nsleep 1.5ms\n"),
    join("frobnicate\ntgogle GPIO17\nGET\nexit now\nhelp me\n"),
    join("get\x00 GPIO17\nget\n"),
    join("get" + " GPIO27" * 600 + "\nget\n"),
    join("get" + " " * 4086 + " GPIO17\nget"),
    join("get" + " " * 4086 + " GPIO17"),  # the last line, at the limit
    join("get" + " " * 4087 + " GPIO17"),  # one byte too long
    join("set LED=1 BUTTON=0\ntoggle BUTTON\nget LED LED\n", "LED", "BUTTON"),
    join("get 17\nset 17=1\n", "17", "17"),
    join("get\n", ""),
]

CHIP = [
    # parts: base, ngpio, label, /dev/gpiochip0, direction, active_low,
    # value, edge of the exported lines
    join("458\n", "54\n", "pinctrl-bcm2835\n", ABSENT, "in\n", "0\n", "1\n", "none\n"),
    join("450\n", "8\n", "raspberrypi-exp-gpio\n", ABSENT, "out\n", "0\n", "0\n"),
    join("510\n", "2\n", "gpio-wire\n", "gpio-wire\n2\nwire-out\nwire-in\n", "out\n", "0\n",
         "0\n", "none\n"),
    join("512\n", "32\n", "gpio-0-31\n", ABSENT, "in\n", "1\n", "1\n", "both\n"),
    join("0\n", "1\n", "a\n", ABSENT, "in\n", "0\n", "0\n"),
    join("512\n", "0\n", "empty\n", ABSENT),
    join("512", "54", "pinctrl-bcm2835", ABSENT, "in", "0", "1"),
    join("512\n", "54\n", "pinctrl-bcm2835\n", ABSENT, "in\n", "0\n", "x\n"),
    join(ABSENT, "54\n", "pinctrl-bcm2835\n", ABSENT),
    join("", "", "", ABSENT),
]

IOMEM_PI3 = (b"00000000-3b3fffff : System RAM\n"
             b"3f200000-3f2000b3 : gpio@7e200000\n"
             b"3f201000-3f2011ff : serial@7e201000\n")
UIO_COVER = ("0x000000003f000000\n", "0x0000000000400000\n", "0x0\n")

SOC = [
    # parts: compatible, parent device, /dev/gpiochip0, line, uio0 map0
    # addr, size, offset, /proc/iomem, gpiomem present
    join(PI3_COMPAT, "3f200000.gpio", CHIP0, "17", ABSENT, ABSENT, ABSENT, IOMEM_PI3, ""),
    join(PI3_COMPAT, "3f200000.gpio", CHIP0, "40", *UIO_COVER, IOMEM_PI3),
    join(PI3_COMPAT, "3f200000.gpio", CHIP0, "53", ABSENT, ABSENT, ABSENT, IOMEM_PI3),
    join(PI4_COMPAT, "fe200000.gpio", "pinctrl-bcm2711\n58\n", "57", ABSENT, ABSENT,
         ABSENT, ABSENT, ""),
    join(PI3_COMPAT, "soc:firmware:expgpio", "raspberrypi-exp-gpio\n8\n", "2"),
    join(PI3_COMPAT, "gpio-platform", CHIP0, "4"),
    join(BBB_COMPAT, "44e07000.gpio", "gpio-0-31\n32\n", "5"),
    join(BBB_COMPAT, "4804c000.gpio", "gpio-32-63\n32\n", "31"),
    join(BBB_COMPAT, "481ac000.gpio", "gpio-64-95\n32\n", "0"),
    join(RP1_COMPAT, "1f000d0000.gpio", "pinctrl-rp1\n54\n", "2"),
    join(ABSENT, "gpio-wire.0", "gpio-wire\n2\n", "0"),
    join(b"brcm,bcm2837", "3f200000.gpio", CHIP0, "0"),
    join(b"", "", CHIP0, "0"),
]

TICKER_MAP = ("ticker\n", "0xffff888003a1c000\n", "0x0000000000001000\n", "0x0\n")
EDU_MAP = ("\n", "0x00000000fea00000\n", "0x0000000000100000\n", "0x0\n")

UIO = [
    # parts: spec, name, version, event, map0 name/addr/size/offset,
    # map1 name/addr/size/offset, port0 name/start/size/porttype
    join("uio0", "uio-ticker\n", "1\n", "0\n", *TICKER_MAP),
    join("uio-ticker", "uio-ticker\n", "1\n", "1234\n", *TICKER_MAP),
    join("uio_pci_generic", "uio_pci_generic\n", "0.01.0\n", "12\n", *EDU_MAP),
    join("/dev/uio0", "uio_pci_generic\n", "0.01.0\n", "0\n", *EDU_MAP,
         "\n", "0x00000000fe000000\n", "0x0000000000004000\n", "0x0\n"),
    join("uio0", "uio_pdrv_genirq\n", "0.1\n", "0\n", "gpio\n", "0x0000000041200000\n",
         "0x0000000000010000\n", "0x0\n"),
    join("uio0", "ports\n", "0.1\n", "0\n", ABSENT, ABSENT, ABSENT, ABSENT,
         ABSENT, ABSENT, ABSENT, ABSENT,
         "ioport\n", "0x3f8\n", "0x8\n", "port_x86\n"),
    join("uio1", "uio-ticker\n", "1\n"),
    join("uio0", "x\n", "1\n", "0\n", "m\n", "0x1000\n", "0x1000\n", "0x800\n"),
    join("uio0", "x\n", "1\n", "0\n", "m\n", "4096\n", "0\n", "0\n"),
    join("", "", "", ""),
]


def stat_line(pid: int, comm: str, rt_priority: int, policy: int) -> str:
    """/proc/PID/stat of a kernel thread: 52 fields, rt_priority 40th, policy 41st."""
    fields = [str(pid), f"({comm})", "S", "2", "0", "0", "0", "-1", "2129984"]
    fields += ["0"] * 8  # minflt .. cstime (10-17)
    fields += [str(-1 - rt_priority) if policy else "20", "0", "1", "0", "19", "0", "0",
               "18446744073709551615"]  # priority .. rsslim (18-25)
    fields += ["0"] * 7 + ["2147483647", "0", "0", "0", "0", "0", "0"]  # 26-39
    fields += [str(rt_priority), str(policy)] + ["0"] * 11  # 40-52
    assert len(fields) == 52
    return " ".join(fields) + "\n"


STATUS = ("Name:\tudrv\nUmask:\t0022\nState:\tR (running)\nTgid:\t312\nPid:\t312\n"
          "PPid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nCapInh:\t0000000000000000\n"
          "CapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n"
          "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n")
STATUS_USER = STATUS.replace("000001ffffffffff", "0000000000000000")
STD_VERSION = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-11-16)\n"
RT_VERSION = "#1 SMP PREEMPT_RT Debian 6.1.192-2 (2026-11-16)\n"
CMDLINE = "console=ttyS0,115200 panic=-1 nokaslr\n"
IRQ = (stat_line(100, "irq/9-acpi", 50, 1), stat_line(101, "irq/11-uio", 50, 1))

RT = [
    # parts: osrelease, version, realtime, cmdline, debug preempt,
    # boot/config-RELEASE, rt runtime, rt period, governor, clocksource,
    # isolated, nohz_full, status, proc/100 comm + stat, proc/101 comm + stat
    join("6.1.0-56-amd64\n", STD_VERSION, ABSENT, CMDLINE, "none (voluntary) full\n",
         ABSENT, "950000\n", "1000000\n", ABSENT, "tsc\n", "\n", "(null)\n", STATUS,
         "irq/9-acpi\n", IRQ[0]),
    join("6.1.0-56-rt-amd64\n", RT_VERSION, "1\n", CMDLINE, ABSENT, ABSENT, "950000\n",
         "1000000\n", ABSENT, "tsc\n", "\n", "(null)\n", STATUS, "irq/9-acpi\n", IRQ[0],
         "irq/11-uio\n", IRQ[1]),
    join("6.1.0-56-amd64\n", STD_VERSION, ABSENT, CMDLINE + "preempt=full\n", ABSENT,
         ABSENT, "-1\n", "1000000\n", "performance\n", "tsc\n", "3\n", "3\n", STATUS_USER),
    join("6.1.0-56-arm64\n", "#1 SMP Debian 6.1.192-2 (2026-11-16)\n", ABSENT,
         "console=ttyAMA0 rdinit=/init iomem=relaxed\n", ABSENT,
         "CONFIG_PREEMPT_VOLUNTARY=y\n", "950000\n", "1000000\n", "ondemand\n",
         "arch_sys_counter\n", "\n", "\n", STATUS),
    join("6.1.0-56-amd64\n", "#1 SMP PREEMPT Debian\n", "0\n", "", ABSENT, ABSENT,
         "950000", "1000000", "schedutil", "jiffies", "1-3", "1-3", STATUS,
         "irq/5-x\n", "5 (irq/5-x) S"),
    join("", "", "", "", "", "", "", "", "", "", "", "", ""),
    # + sys/kernel/irq/24 hwirq and actions, a thread name prefix, an action:
    # the GPIO line's irq thread (full kthread name: Linux 6.0+)
    join("6.1.0-56-rt-amd64\n", RT_VERSION, "1\n", CMDLINE, ABSENT, ABSENT, "950000\n",
         "1000000\n", ABSENT, "tsc\n", "1\n", "1\n", STATUS, "irq/24-udrv-bench-irq\n",
         stat_line(100, "irq/24-udrv-bench-irq", 50, 1), "uio-ticker\n",
         stat_line(101, "uio-ticker", 90, 1), "3\n", "ahci,udrv-bench-irq\n", "irq/24-",
         "udrv-bench-irq"),
]

# Reproducers of what the harnesses found (regress/README.md says which
# code is at fault and whether it is fixed); make check replays each.
REGRESS: dict[str, dict[str, bytes]] = {
    "state": {
        # a '%' followed by no hex digit: the escape's value was shifted
        # from -1 (UBSan) before the digits were checked
        "percent-without-hex": b"udrvd-state 1\nrequest 1 gpiochip0 %\xff\xff c\n",
    },
    "peer": {
        "why-past-the-line": b"received x\n",
        "zero-padded-numbers": b"reed " + b" ".join([b"00000000001067528929303"] * 4) + b"\n",
    },
    "layout": {
        "octal-base": join("base=010,data=0"),
        "space-minus-size": join("base=0,data=0,size= -1"),
        "overflowing-base": join("base=99999999999999999999,data=0"),
        "long-item-cut": join("base=0x" + "0" * 300 + "1,data=0"),
        "register-past-int32": join("base=0,data=0x7ffffff0,stride=0x100", "64", "40"),
        "stride-wraps-register": join("base=0x41200000,data=0,stride=4294967295", "64", "63"),
    },
    "cli": {
        "chip-number-wraps": join("4294967296", "0"),
        "chip-number-leading-zero": join("gpiochip00", "0"),
        "duration-hex": join("0x10"),
        "duration-exponent": join("1e3"),
        "duration-rounding": join("0.00013s"),
        "duration-float-cast": join("1e300"),
        "u64-leading-tab": join("\t7"),
        "int-leading-space": join(" 7"),
    },
    "chip": {
        "base-wraps": join("4294967808\n", "54\n", "pinctrl-bcm2835\n", ABSENT, "in\n", "0\n",
                           "1\n"),
        "ngpio-negative": join("512\n", "-1\n", "gpio-sysfs\n", ABSENT, "in\n", "0\n", "1\n"),
        "label-too-long": join("512\n", "8\n", "a-label-of-forty-characters-0123456789ab\n",
                               ABSENT),
        "base-plus-offset": join("2147483647\n", "2\n", "gpio-top\n", ABSENT, "in\n", "0\n",
                                 "1\n", "none\n"),
    },
    "soc": {
        "iomem-line-without-name": join(PI3_COMPAT, "3f200000.gpio", CHIP0, "17", ABSENT,
                                        ABSENT, ABSENT, "3f200000-3f2000b3\n"),
        "unit-address-overflow": join(PI3_COMPAT, "3f20000003f000000000.gpio", CHIP0, "17",
                                      ABSENT, ABSENT, ABSENT, ABSENT, ""),
        "unit-address-sign": join(PI3_COMPAT, "-1.gpio", CHIP0, "17", ABSENT, ABSENT, ABSENT,
                                  ABSENT, ""),
        "uio-cover-wraps": join(PI3_COMPAT, "ffffffffffffffc0.gpio", CHIP0, "1",
                                "0xffffffffffff0000\n", "0x0000000000001000\n", "0x0\n"),
    },
    "uio": {
        "map-size-wraps-mapping": join("uio0", "x\n", "1\n", "0\n", "m\n",
                                       "0x0000000000001000\n", "0xffffffffffffffff\n", "0xfff\n"),
        "name-too-long": join("uio0", "n" * 70 + "\n", "1\n", "0\n"),
        "spec-leading-zero": join("uio00", "uio-ticker\n", "1\n", "0\n"),
        "spec-wraps": join("4294967296", "uio-ticker\n", "1\n", "0\n"),
        "numeric-name": join("uio0", "444444444444\n", "1\n", "0\n"),
    },
    "rtla": {
        "one-sample-min-max": (RTLA_HEAD + "Index   IRQ-000   Thr-000\n650           1         0 \n"
                               "over:         0         1 \ncount:        1         1 \n"
                               "min:        650    199999 \navg:        650    200000 \n"
                               "max:        650    200000 \n").encode(),
        "blank-line-after-summary": (RTLA_HEAD + "Index   IRQ-000   Thr-000\n"
                                     "650           1         0 \n4100          0         1 \n"
                                     "over:         0         0 \ncount:        1         1 \n"
                                     "min:        650      4100 \navg:        650      4100 \n"
                                     "max:        650      4100 \n\n").encode(),
    },
    "trace": {
        # "-073" was read as pid 73: the kernel prints "%d", no leading zero
        "pid-leading-zero": join("1 2 0 1", "  udrv-spike-hog-073     [000] d..h...     "
                                 "2.556004: local_timer_exit: vector=236"),
        # the bench woken at 1.0, run at 1.0001, woken again at 1.0 (time went
        # back): the same 100 us counted twice, runnable 200 us of a 100 us window
        "runnable-twice": join("1000000000 1000100000 0 10", "\n".join([
            "  load-7 [000] d.h1.  1.000000: sched_waking: comm=bench pid=10 prio=19 "
            "target_cpu=000",
            "  load-7 [000] d..2.  1.000100: sched_switch: prev_comm=load prev_pid=7 "
            "prev_prio=120 prev_state=R ==> next_comm=bench next_pid=10 next_prio=19",
            "  bench-10 [000] d..2.  1.000000: sched_switch: prev_comm=bench prev_pid=10 "
            "prev_prio=19 prev_state=S ==> next_comm=load next_pid=7 next_prio=120",
            "  load-7 [000] d.h1.  1.000000: sched_waking: comm=bench pid=10 prio=19 "
            "target_cpu=000",
            "  load-7 [000] d..2.  1.000100: sched_switch: prev_comm=load prev_pid=7 "
            "prev_prio=120 prev_state=R ==> next_comm=bench next_pid=10 next_prio=19"])),
    },
    "vfio": {
        # B's vendor "0x1234\0\0": C reads an attribute up to its NUL, so the
        # library counted B as 1234:11e8 where the harness did not
        "id-attribute-with-nul": join("1234:11e8", "0000:00:01.0", "0x1234\n", "0x11e8\n",
                                      "0x00Bf00\n", "../../_groups/1", ABSENT, "0015:00:02.0",
                                      b"0x1234\0\0", "0x11e8\n", ""),
    },
    "rt": {
        "throttling-overflow": join("6.1.0-56-amd64\n", STD_VERSION, ABSENT, "", ABSENT, ABSENT,
                                    "1\n", "-9223372036854775808\n"),
    },
}

def iova_info(ranges: list[tuple[int, int]], cap_id: int = 1, next_off: int = 0) -> bytes:
    """VFIO_IOMMU_GET_INFO's answer as 6.1 writes it: the 24-byte info, then
    the IOVA-range capability (linux/vfio.h)."""
    cap = struct.pack("<HHIII", cap_id, 1, next_off, len(ranges), 0)
    cap += b"".join(struct.pack("<QQ", a, b) for a, b in ranges)
    return struct.pack("<IIQII", 24 + len(cap), 3, 0x40201000, 24, 0) + cap


X86_IOVA = iova_info([(0, 0xfedfffff), (0xfef00000, 0xffffffffffff)])


def iova_info_6_1(ranges: list[tuple[int, int]]) -> bytes:
    """As 6.1 packs it: migration (32 bytes), DMA available (12), then the
    IOVA ranges at offset 68, 4 bytes off an 8-byte boundary."""
    mig = struct.pack("<HHIIIQQ", 2, 1, 56, 0, 0, 0x1000, 0x10000000)
    avail = struct.pack("<HHII", 3, 1, 68, 65535)
    iova = struct.pack("<HHIII", 1, 1, 0, len(ranges), 0)
    iova += b"".join(struct.pack("<QQ", a, b) for a, b in ranges)
    body = mig + avail + iova
    return struct.pack("<IIQII", 24 + len(body), 3, 0x40201000, 24, 0) + body
EDU = ("0x1234\n", "0x11e8\n", "0x00ff00\n")
GROUP1 = "../../../kernel/iommu_groups/1"
VFIO_PCI = "../../../bus/pci/drivers/vfio-pci"
VFIO = [
    # parts: spec, device A, vendor, device, class, iommu_group link, driver
    # link, device B, vendor, device, vfio-pci loaded, VFIO_IOMMU_GET_INFO
    join("1234:11e8", "0000:00:01.0", *EDU, GROUP1, VFIO_PCI, ABSENT, ABSENT, ABSENT, "",
         X86_IOVA),
    join("00:01.0", "0000:00:01.0", *EDU, GROUP1, "../../../bus/pci/drivers/uio_pci_generic",
         ABSENT, ABSENT, ABSENT, ""),
    join("0000:00:01.0", "0000:00:01.0", *EDU, ABSENT, "../../../bus/pci/drivers/uio_pci_generic"),
    join("1234:11e8", "0000:00:01.0", *EDU, GROUP1, ABSENT, "0000:00:02.0", "0x1234\n",
         "0x11e8\n", ""),
    join("8086:2922", "0000:00:1f.2", "0x8086\n", "0x2922\n", "0x010601\n",
         "../../../kernel/iommu_groups/2", "../../../bus/pci/drivers/ahci", "0000:00:1f.3",
         "0x8086\n", "0x2930\n"),
    join("10000:00:02.0", "10000:00:02.0", *EDU, "../../../kernel/iommu_groups/7", VFIO_PCI),
    join("00:01.0", "0000:00:01.0", *EDU, "../../../kernel/iommu_groups/01", VFIO_PCI),
    join("1234:11E8", "0000:00:01.0", "4660\n", "0x11e8\n", "0x00ff00\n", GROUP1, VFIO_PCI,
         "00:01.0", "0x1234\n", "0x11e8\n", "", iova_info([(0x1000, 0xfff)])),
    join("", "0000:00:01.0", ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT,
         ABSENT, iova_info([(0, 1)], cap_id=2, next_off=24)),
    join("00:01.0", "0000:00:01.0", *EDU, GROUP1, VFIO_PCI, ABSENT, ABSENT, ABSENT, "",
         iova_info_6_1([(0, 0xfedfffff), (0xfef00000, 0xffffffffffff)])),
]
# daemon/model/policy.c: udrvd.conf(5)'s forms; names of 1-8 lower-case letters
# resolve in the harness (to their length mod 4)
POLICY = [s.encode() for s in (
    "# udrvd.conf\nallow user:alice read,drive gpio pinctrl-bcm2835 GPIO17\n"
    "allow group:door watch gpio gpiochip0 20-23  # sensors\n"
    "allow uid:3 all gpio /dev/gpiochip1 *\nallow gid:2 configure gpio * 5\n"
    "allow user:bob open uio uio-ticker\nallow user:bob open vfio 00:04.0\n"
    "restore gpio pinctrl-bcm2835 GPIO17\n",
    "allow uid:0 read gpio a n0\nallow gid:1 drive gpio b 0-65534\nrestore gpio * *",
    "allow\tuser:abc\tread,watch\tgpio\tgpiochip1\t2\n\n\n",
    "allow uid:4294967294 read gpio * 1\n",
    "allow uid:4294967295 read gpio * 1\n",
    "allow uid:1 read gpio * 65535\n",
    "allow uid:1 read gpio gpiochip04 1\n",
    "allow uid:1 read gpio * 1\r\n",
    "allow uid:1 read gpio * 1\x00\n",
    "",
    "#",
    "allow uid:2 admin gpio gpiochip0 0-4\nallow gid:3 all,admin gpio b *\n"
    "allow uid:1 read gpio * n0\nallow uid:1 admin gpio a *\n",
    "allow uid:1 admin uio a\n",
    "allow uid:1 read,admin,admin gpio * *\n",
    # SPI devices, I2C addresses and whole buses (udrvd.conf(5))
    "allow uid:1 open spi 0.1\nallow gid:1 open spi a\n"
    "allow user:bob open spi device:0000:00:1e.2/3\nallow uid:2 open spi spidev1.0\n",
    "allow uid:1 transfer i2c i2c-1 0x03-0x77\nallow gid:2 transfer i2c name:a_b 0x50\n"
    "allow uid:3 transfer i2c device:00:1f.4 ten:0x050-0x3ff\n"
    "allow uid:0 transfer i2c i2c-7 0x00-0x7f\nallow uid:7 open i2c-bus device:fe804000.i2c\n",
    "allow uid:1 open i2c-bus name:a_b\nallow uid:1 transfer i2c i2c-2 0x7f\n",
    "allow uid:1 transfer i2c i2c-01 0x50\n",
    "allow uid:1 transfer i2c i2c-1 0x80\n",
    "allow uid:1 open spi device:fe204000.spi/01\n",
    "allow uid:1 open i2c i2c-1 0x50\n",
)]

# daemon/model/state.c: udrvd's state file as it writes it, and cut short
STATE_GOOD = ("udrvd-state 1\nrequest 1001 gpiochip0 pinctrl-bcm2835 door%20lock\n"
              "line 17 output 1 0 as-is push-pull none 0 monotonic\n"
              "line 27 input 0 1 pull-up open-drain both 5000 realtime\nend\n"
              "request 0 gpiochip3 gpio-wire udrvd\n"
              "line 0 output 0 0 disabled open-source rising 0 hte\nend\n")
STATE = [s.encode() for s in (
    STATE_GOOD, STATE_GOOD[:-1], STATE_GOOD[:60], "udrvd-state 1\n", "",
    "udrvd-state 1\nrequest 4294967294 gpiochip0 %C3%A9 %25\n"
    "line 65534 input 0 0 as-is push-pull none 4294967295 monotonic\nend\n",
)]

# daemon/bus/linecfg.c: RequestLines' signature, then its values in the
# harness's encoding (count bytes, length-prefixed strings, big-endian numbers)
RL = "(a(aua{sv})ai)a{sv}"
LINECFG = [
    # one output line 17 at 1, consumer "door"
    join(RL, b"\x01\x01" + u32(17) + b"\x01" + lstr("direction") + b"\x00" + lstr("output")
         + b"\x01" + u32(1) + b"\x01" + lstr("consumer") + b"\x00" + lstr("door")),
    # two lines, edge and bias, no values, no request settings
    join(RL, b"\x01\x02" + u32(3) + u32(4) + b"\x02" + lstr("edge") + b"\x00" + lstr("both")
         + lstr("bias") + b"\x00" + lstr("pull-up") + b"\x00\x00"),
    # the wrong types where strings belong
    join(RL, b"\x01\x01" + u32(1) + b"\x01" + lstr("direction") + b"\x01\x01\x00\x00"),
    join("(a(aua{sv})ai)", b"\x00\x00"),
    join("s", lstr("direction")),
]

# daemon/bus/creds.c: GetConnectionCredentials replies (variants by
# fuzz_sdbus.c's index: 0 s, 3 u, 10 au)
CREDS = [
    # dbus-daemon 1.14's: the uid, the groups, the pid
    join("a{sv}", b"\x03" + lstr("UnixUserID") + b"\x03" + u32(1000) + lstr("UnixGroupIDs")
         + b"\x0a\x03" + u32(4) + u32(24) + u32(1000) + lstr("ProcessID") + b"\x03" + u32(42)),
    # an older bus: no groups (the user database's for uid 0)
    join("a{sv}", b"\x01" + lstr("UnixUserID") + b"\x03" + u32(0)),
    # the wrong type, and no group may be 4294967295
    join("a{sv}", b"\x01" + lstr("UnixUserID") + b"\x00" + lstr("1000")),
    join("a{sv}", b"\x02" + lstr("UnixUserID") + b"\x03" + u32(1) + lstr("UnixGroupIDs")
         + b"\x0a\x01" + u32(0xFFFFFFFF)),
    join("s", lstr("UnixUserID")),
]

# client/udrvd_client.c: udrvd's GetManagedObjects answers (variants by
# fuzz_sdbus.c's index: 0 s, 1 b, 3 u, 9 o)
GMO = "a{oa{sa{sv}}}"
CHIP_OBJ = (lstr("/io/gpiod1/chips/gpiochip0") + b"\x01" + lstr("io.gpiod1.Chip") + b"\x02"
            + lstr("Name") + b"\x00" + lstr("gpiochip0") + lstr("Label") + b"\x00"
            + lstr("pinctrl-bcm2835"))
LINE_OBJ = (lstr("/io/gpiod1/chips/gpiochip0/line17") + b"\x02" + lstr("io.gpiod1.Line")
            + b"\x04" + lstr("Offset") + b"\x03" + u32(17) + lstr("Name") + b"\x00"
            + lstr("GPIO17") + lstr("ActiveLow") + b"\x01\x01" + lstr("RequestPath")
            + b"\x09" + lstr("/io/gpiod1/requests/request0")
            + lstr("org.freedesktop.DBus.Peer") + b"\x00")
OBJECTS = [
    join(GMO, b"\x01" + CHIP_OBJ),
    join(GMO, b"\x02" + LINE_OBJ + LINE_OBJ),
    # a name that is too long for its field, the wrong type for Offset
    join(GMO, b"\x01" + lstr("/x") + b"\x01" + lstr("io.gpiod1.Line") + b"\x02"
         + lstr("Name") + b"\x00" + lstr("N" * 200) + lstr("Offset") + b"\x00" + lstr("1")),
    join("a{sv}", b"\x00"),
]

BUSES = [
    # parts: an SPI spec, spi0.1's modalias, an I2C spec, i2c-0's name
    join("0.1", "spi:mcp3008\n", "0", "SMBus I801 adapter at f040\n"),
    join("spidev0.1", ABSENT, "i2c-0", ABSENT),
    join("/dev/spidev0.1", "spi:mcp3008\n", "/dev/i2c-0", "i2c-stub\n"),
    join("mcp3008", "spi:mcp3008\n", "SMBus I801 adapter at f040",
         "SMBus I801 adapter at f040\n"),
    join("01.1", "spi:01.1\n", "01", "01\n"),
    join("2147483648.0", "spi:x", "i2c-2147483648", "i2c-2147483648\n"),
    join("0.1.2", "mcp3008", "", ""),
    join("/dev/0.1", "spi:\n", "1", "x" * 80),
]

# part 0: its first byte odd forces; then udrv i2c transfer's arguments
I2C_MSGS = [
    join("0", "w1@0x50", "0x10", "r8"),
    join("1", "w3@0x00", "0x00", "0x10", "0xaa", "r1@0x7f", "w0"),
    join("0", "r8192@0x77", "w2@3", "1", "255"),
    join("0", "w2@0x50", "0x10", "r2"),
    join("0", "r2"),
    join("0", "r8193@0x50"),
    join("0", "r1@0x78", "x1@0x50", "w1@0x50", "0x100"),
    join("0", "r18446744073709551617@0x50", "w-1@0x50"),
    join("0", *(["r1@0x50"] * 43)),
    join("0", "r1@0x78"),
    join("1", "r1@0x78"),
    join("0", "r1@0x03", "r1@0x77", "w0@0x02"),
    join("0", "w300@0x50", *(["0x5a"] * 300)),
]

# parts: a chip spec, pwmchip0's parent device, its npwm; then udrv pwm set's
# --period, --frequency, --duty, --duty-cycle (a Raspberry Pi's fe20c000.pwm,
# an Intel LPSS PWM, a servo at 50 Hz, 1.5 ms; the extremes)
PWM = [
    join("0", "fe20c000.pwm", "2\n", "20000000", "50", "1500000", "7.5"),
    join("pwmchip0", "fe20c000.pwm", "2\n", "20ms", "0.5", "1.5ms", "7.5%"),
    join("/sys/class/pwm/pwmchip0", "0000:00:1a.0", "1\n", "1.5ms", "1000000000", "0", "100"),
    join("fe20c000.pwm", "fe20c000.pwm", "2\n", "18446744073709551615", "0.000000001",
         "18446744073709551615ns", "33.333333333"),
    join("/dev/pwmchip0", ABSENT, "0\n", "18446744073709551616", "0", "0x10", "100.5"),
    join("pwmchip00", "x", "4294967296\n", "1.5", "1000000001", "-1", "-1"),
    join("pwmchip2147483648", "pwmchip0", "2x\n", "", "", "", ""),
    join("/sys/class/pwm/0", "..", "\n", "nan", "inf", "1e3", "50%%"),
    join("0000:00:1a.0", "0000:00:1a.0", "0x2\n", " 20ms", "50Hz", "1.5 ms", "%"),
]

HARNESSES: dict[str, list[bytes]] = {
    "parse": [p.encode() for p in PARSE],
    "layout": LAYOUT,
    "cli": CLI,
    "interactive": INTERACTIVE,
    "chip": CHIP,
    "soc": SOC,
    "uio": UIO,
    "rt": RT,
    "fields": FIELDS,
    "trace": TRACE,
    "rtla": RTLA,
    "peer": PEER,
    "cyclictest": CYCLICTEST,
    "rate": RATE,
    "vfio": VFIO,
    "policy": POLICY,
    "state": STATE,
    "creds": CREDS,
    "linecfg": LINECFG,
    "objects": OBJECTS,
    "udrvd": UDRVD,
    "buses": BUSES,
    "i2c_msgs": I2C_MSGS,
    "pwm": PWM,
}


def main() -> int:
    for name, seeds in HARNESSES.items():
        out = HERE / "corpus" / name
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            old.unlink()
        for data in seeds:
            (out / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
        print(f"{out.relative_to(HERE.parent.parent)}: {len(seeds)} seeds")
    for name, cases in REGRESS.items():
        out = HERE / "regress" / name
        out.mkdir(parents=True, exist_ok=True)
        # a fuzzer's own input, kept as it came (regress/README.md), stays
        for case, data in cases.items():
            (out / case).write_bytes(data)
        print(f"{out.relative_to(HERE.parent.parent)}: {len(cases)} reproducers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
