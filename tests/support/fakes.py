# SPDX-License-Identifier: GPL-2.0-only
"""Fake /sys, /dev and /proc trees for running the udrv binary on the host.

The library looks everything up under $UDRV_SYSROOT, so a tree built in a
temporary directory stands in for a machine.  The layouts mirror the C unit
tests (tests/lib/fake_gpio.c, tests/lib/test_uio.c, tests/lib/test_rt.c):

GPIO, as Linux 6.1 lays it out::

    sys/bus/gpio/devices/gpiochipN -> ../../../devices/platform/<parent>/gpiochipN
    sys/class/gpio/gpiochipBASE    -> ../../devices/platform/<parent>/gpio/gpiochipBASE
        base, label, ngpio, device -> ../../../<parent>
    sys/class/gpio/gpioG/{direction,value,edge,active_low}   (exported lines)

UIO::

    sys/class/uio/uioN/{name,version,event}
    sys/class/uio/uioN/maps/mapK/{name,addr,size,offset}
    sys/class/uio/uioN/portio/portK/{name,start,size,porttype}
    dev/uioN   a regular file (for mmap) or a FIFO (for interrupt counts)

gpio_line() makes a line already exported, as another program (or an earlier
boot script) would have left it: udrv refuses such a line. GpioExports serves
sys/class/gpio/export and unexport like the kernel does, so that udrv can
export lines itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class FakeTree:
    """A fake root: create and read entries by path relative to it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def dir(self, rel: str) -> Path:
        p = self.path(rel)
        p.mkdir(parents=True, exist_ok=True)
        return p

    def file(self, rel: str, content: str | bytes = "") -> Path:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
        return p

    def symlink(self, target: str, rel: str) -> Path:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.symlink_to(target)
        return p

    def fifo(self, rel: str) -> Path:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(p)
        return p

    def read(self, rel: str) -> str:
        return self.path(rel).read_text()

    def read_bytes(self, rel: str) -> bytes:
        return self.path(rel).read_bytes()


# ---- common ----


def sysfs_mounted(t: FakeTree) -> None:
    """sysfs is mounted (sys/kernel exists) and /dev exists, nothing else."""
    t.dir("sys/kernel")
    t.dir("dev")


# ---- GPIO ----


def gpio_bus(t: FakeTree) -> None:
    """GPIO support in the kernel (gpiolib and sysfs GPIO), no chips yet."""
    sysfs_mounted(t)
    t.dir("sys/bus/gpio/devices")
    t.dir("sys/class/gpio")


def gpio_chip(t: FakeTree, num: int, parent: str, base: int, ngpio: int, label: str) -> None:
    """A chip gpiochip<num> under platform device <parent>, sysfs base <base>.

    Only the sysfs side exists (no dev/gpiochipN): the chip opens, but only
    the sysfs backend can request its lines.
    """
    plat = f"sys/devices/platform/{parent}"
    t.dir(f"{plat}/gpiochip{num}")
    t.symlink(f"../../../devices/platform/{parent}/gpiochip{num}",
              f"sys/bus/gpio/devices/gpiochip{num}")
    cls = f"{plat}/gpio/gpiochip{base}"
    t.file(f"{cls}/base", f"{base}\n")
    t.file(f"{cls}/ngpio", f"{ngpio}\n")
    t.file(f"{cls}/label", f"{label}\n")
    t.symlink(f"../../../{parent}", f"{cls}/device")
    t.symlink(f"../../devices/platform/{parent}/gpio/gpiochip{base}",
              f"sys/class/gpio/gpiochip{base}")


def chip_file(t: FakeTree, num: int, label: str, names: list[str]) -> None:
    """gpiochip<num> with a character device that tests/daemon/fake_cdev.c
    answers (preloaded): dev/gpiochip<num> holds its label and line names."""
    gpio_chip(t, num, f"fake-gpio.{num}", 512 - 32 * (num + 1), len(names), label)
    t.file(f"dev/gpiochip{num}", f"{label}\n{len(names)}\n" + "".join(n + "\n" for n in names))


# GPIO_V2_LINE_CHANGED_* (linux/gpio.h)
LINE_REQUESTED, LINE_RELEASED, LINE_RECONFIGURED = 1, 2, 3


def line_info_changed(offset: int, kind: int, consumer: str = "other",
                      timestamp_ns: int = 1000, flags: int = 1, name: str = "") -> bytes:
    """struct gpio_v2_line_info_changed: line @offset (called @name), now
    used by @consumer (@flags: GPIO_V2_LINE_FLAG_*, 1 USED), as fake_cdev's
    gpiochipN.info FIFO carries it to a chip descriptor that watches it."""
    info = struct.pack("<32s32sIIQ160s4I", name.encode(), consumer.encode(), offset, 0, flags,
                       b"", 0, 0, 0, 0)
    return info + struct.pack("<QI5I", timestamp_ns, kind, 0, 0, 0, 0, 0)


def gpio_line(t: FakeTree, gpio: int, direction: str = "in", value: int = 0,
              active_low: bool = False) -> None:
    """An already exported line: sys/class/gpio/gpio<gpio>/ with its attributes."""
    line_files(t, f"sys/class/gpio/gpio{gpio}", direction, value, active_low)


def line_files(t: FakeTree, d: str, direction: str, value: int, active_low: bool) -> None:
    """The attributes of an exported line, in directory d."""
    t.file(f"{d}/direction", f"{direction}\n")
    t.file(f"{d}/value", f"{value}\n")
    t.file(f"{d}/edge", "none\n")
    t.file(f"{d}/active_low", "1\n" if active_low else "0\n")


class GpioExports:
    """export and unexport as FIFOs, served by threads like the kernel serves
    them: an export makes gpio<G>/ (an input whose value is values.get(G, 1),
    or a FIFO for G in fifo_values), an unexport removes it. exported and
    unexported record what was written."""

    def __init__(self, t: FakeTree) -> None:
        self.t = t
        self.values: dict[int, int] = {}
        self.directions: dict[int, str] = {}  # what an export starts as ("in")
        self.fifo_values: set[int] = set()
        self.exported: list[int] = []
        self.unexported: list[int] = []
        self.last: dict[int, dict[str, str]] = {}  # the attributes at unexport
        self._stop = False
        for name in ("export", "unexport"):
            t.fifo(f"sys/class/gpio/{name}")
            threading.Thread(target=self._serve, args=(name,), daemon=True).start()

    def _serve(self, name: str) -> None:
        path = self.t.path(f"sys/class/gpio/{name}")
        while not self._stop:
            with open(path, "rb") as f:  # blocks until udrv opens it to write
                data = f.read().strip()
            if self._stop or not data.isdigit():
                continue
            gpio = int(data)
            if name == "export":
                self._export(gpio)
                self.exported.append(gpio)
            else:
                line = self.t.path(f"sys/class/gpio/gpio{gpio}")
                if line.is_dir():
                    self.last[gpio] = {p.name: p.read_text() for p in line.iterdir()
                                       if p.is_file()}
                shutil.rmtree(line, ignore_errors=True)
                self.unexported.append(gpio)

    def _export(self, gpio: int) -> None:
        """Built aside and renamed into place: gpio<G>/ appears complete."""
        new = f"sys/class/gpio/.new{gpio}"
        line_files(self.t, new, self.directions.get(gpio, "in"), self.values.get(gpio, 1), False)
        if gpio in self.fifo_values:
            value = self.t.path(f"{new}/value")
            value.unlink()
            os.mkfifo(value)
        os.rename(self.t.path(new), self.t.path(f"sys/class/gpio/gpio{gpio}"))

    def wait_unexported(self, gpio: int, timeout_s: float = 5.0) -> bool:
        """Whether gpio<G>/ is gone (udrv wrote the unexport before it exited;
        the server thread may still be removing it)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if gpio in self.unexported and not self.t.path(f"sys/class/gpio/gpio{gpio}").exists():
                return True
            time.sleep(0.005)
        return False

    def final(self, gpio: int, attr: str) -> str:
        """An attribute as it was when udrv unexported the line."""
        assert self.wait_unexported(gpio), f"GPIO {gpio} was not unexported"
        return self.last[gpio][attr]

    def stop(self) -> None:
        self._stop = True
        for name in ("export", "unexport"):
            with contextlib.suppress(OSError):  # wake a reader blocked in open()
                os.close(os.open(self.t.path(f"sys/class/gpio/{name}"),
                                 os.O_WRONLY | os.O_NONBLOCK))


def gpio_attr(t: FakeTree, gpio: int, attr: str) -> str:
    """An attribute as written (regular files are not truncated by udrv's
    writes, so only the start is meaningful: compare with startswith)."""
    return t.read(f"sys/class/gpio/gpio{gpio}/{attr}")


# ---- a Raspberry Pi 5's RP1 (lib/gpio/soc/soc_rp1.c) ----

RP1_PHYS = 0x1F000D0000  # IO_BANK0, the chip's device 1f000d0000.gpio
RP1_SIZE = 0x30000  # IO_BANK, SYS_RIO and PADS, as /dev/gpiomem0 maps them
RP1_SYS_RIO, RP1_PADS = 0x10000, 0x20000
RP1_SET, RP1_CLR = 0x2000, 0x3000  # RIO_OUT's aliases, from its offset
RP1_BRCMSTB = ["107d508500", "107d508520", "107d517c00", "107d517c20"]


def rp1_bank(line: int) -> tuple[int, int]:
    """(bank, bit) of an RP1 line: banks of 28, 6 and 20 lines."""
    return (0, line) if line < 28 else (1, line - 28) if line < 34 else (2, line - 34)


def rp1_word(t: FakeTree, off: int) -> int:
    """The register at @off of dev/gpiomem0 (a regular file: aliases apart)."""
    value: int = struct.unpack_from("<I", t.read_bytes("dev/gpiomem0"), off)[0]
    return value


def rp1_poke(t: FakeTree, off: int, value: int) -> None:
    with t.path("dev/gpiomem0").open("r+b") as f:
        f.seek(off)
        f.write(struct.pack("<I", value))


def rp1_claimed(t: FakeTree, line: int, output: bool, funcsel: int = 5) -> None:
    """What the kernel leaves in the RP1's registers when it hands @line
    over: GPIOn_CTRL's FUNCSEL (5: SYS_RIO), the pad's input enabled and
    output not disabled, RIO_OE."""
    bank, n = rp1_bank(line)
    rp1_poke(t, bank * 0x4000 + 8 * n + 4, funcsel)
    rp1_poke(t, RP1_PADS + bank * 0x4000 + 4 + 4 * n, 0x40)
    oe = RP1_SYS_RIO + bank * 0x4000 + 4
    rp1_poke(t, oe, (rp1_word(t, oe) & ~(1 << n)) | (int(output) << n))


def rp1_pi5(t: FakeTree, num: int, gpiomem: bool = True) -> None:
    """A Raspberry Pi 5: RP1's chip pinctrl-rp1 as gpiochip@num (0, or 4
    after the BCM2712's four brcmstb chips as older kernels number them)
    under 1f000d0000.gpio with its node's compatible, a character device
    tests/daemon/fake_cdev.c answers (lines GPIO0..53), and dev/gpiomem0."""
    gpio_bus(t)
    t.file("proc/device-tree/compatible", b"raspberrypi,5-model-b\0brcm,bcm2712\0")
    if num == 4:
        for i, addr in enumerate(RP1_BRCMSTB):
            gpio_chip(t, i, f"{addr}.gpio", 512 + 32 * i, 32, f"gpio-brcmstb@{addr}")
    gpio_chip(t, num, "1f000d0000.gpio", 569, 54, "pinctrl-rp1")
    t.file("sys/devices/platform/1f000d0000.gpio/of_node/compatible", b"raspberrypi,rp1-gpio\0")
    t.file(f"dev/gpiochip{num}", "pinctrl-rp1\n54\n" + "".join(f"GPIO{i}\n" for i in range(54)))
    if gpiomem:
        with t.file("dev/gpiomem0").open("r+b") as f:
            f.truncate(RP1_SIZE)


# ---- UIO ----


def uio_device(t: FakeTree, num: int, name: str, event: int = 0, version: str = "0.1") -> None:
    """sys/class/uio/uio<num> with name, version and the interrupt count."""
    t.dir("sys/kernel")
    d = f"sys/class/uio/uio{num}"
    t.file(f"{d}/name", f"{name}\n")
    t.file(f"{d}/version", f"{version}\n")
    t.file(f"{d}/event", f"{event}\n")


def uio_map(t: FakeTree, num: int, index: int, name: str, addr: int, size: int,
            offset: int = 0) -> None:
    d = f"sys/class/uio/uio{num}/maps/map{index}"
    t.file(f"{d}/name", f"{name}\n")
    t.file(f"{d}/addr", f"{addr:#x}\n")
    t.file(f"{d}/size", f"{size:#x}\n")
    t.file(f"{d}/offset", f"{offset:#x}\n")


def uio_port(t: FakeTree, num: int, index: int, name: str, start: int, size: int,
             porttype: str = "port_x86") -> None:
    d = f"sys/class/uio/uio{num}/portio/port{index}"
    t.file(f"{d}/name", f"{name}\n")
    t.file(f"{d}/start", f"{start:#x}\n")
    t.file(f"{d}/size", f"{size:#x}\n")
    t.file(f"{d}/porttype", f"{porttype}\n")


PAGE_SIZE = os.sysconf("SC_PAGESIZE")


def uio_dev_file(t: FakeTree, num: int, pages: int = 2) -> Path:
    """dev/uio<num> as a zero-filled regular file: map K is page K of it."""
    return t.file(f"dev/uio{num}", bytes(pages * PAGE_SIZE))


def uio_dev_fifo(t: FakeTree, num: int) -> Path:
    """dev/uio<num> as a FIFO: 4-byte counts written into it are what a
    read() of the real device returns after an interrupt."""
    return t.fifo(f"dev/uio{num}")


FPGA_PATTERN = bytes(range(1, 17))  # 01 02 .. 10 at offset 0x10 of uio0's map0


def uio_fpga(t: FakeTree, event: int = 0, version: str = "0.1") -> None:
    """uio0 "fpga": map0 "regs" (0x100 bytes at 0x40000000) and map1 "sram"
    (0x20 bytes at 0x40001010, 0x10 into its page)."""
    uio_device(t, 0, "fpga", event=event, version=version)
    uio_map(t, 0, 0, "regs", 0x40000000, 0x100)
    uio_map(t, 0, 1, "sram", 0x40001010, 0x20, 0x10)


def uio_fpga_mapped(t: FakeTree, version: str = "0.1") -> FakeTree:
    """uio_fpga() with dev/uio0 a regular file, FPGA_PATTERN at 0x10 of map0."""
    uio_fpga(t, version=version)
    uio_dev_file(t, 0)
    with t.path("dev/uio0").open("r+b") as f:
        f.seek(0x10)
        f.write(FPGA_PATTERN)
    return t


def uio_fpga_fifo(t: FakeTree, version: str = "0.1") -> FakeTree:
    """uio_fpga() with 4 interrupts so far and dev/uio0 a FIFO (uio_counts())."""
    uio_fpga(t, event=4, version=version)
    uio_dev_fifo(t, 0)
    return t


@contextmanager
def uio_counts(t: FakeTree, num: int, counts: list[int]) -> Iterator[None]:
    """Queue interrupt counts (native s32) in the FIFO dev/uio<num>.

    The FIFO keeps them only while someone holds it open: keep the block
    open until the udrv process has run.
    """
    fd = os.open(t.path(f"dev/uio{num}"), os.O_RDWR | os.O_NONBLOCK)
    try:
        for c in counts:
            os.write(fd, struct.pack("=i", c))
        yield
    finally:
        os.close(fd)


def pci_device(t: FakeTree, num: int, config: bytes | None = None,
               bars: dict[int, bytes] | None = None) -> None:
    """A PCI parent for uio<num>: device/config and device/resourceN files."""
    d = f"sys/class/uio/uio{num}/device"
    t.dir(d)
    if config is not None:
        t.file(f"{d}/config", config)
    for bar, data in (bars or {}).items():
        t.file(f"{d}/resource{bar}", data)


def uio_node(t: FakeTree, num: int, parent: str | None, rdev: tuple[int, int] | None = None,
             node: int | None = None) -> None:
    """uio<num> as the kernel links it: sys/dev/char/MAJ:MIN -> its folder
    (subsystem uio), its parent device (sys/devices/<parent>, a PCI address
    or a platform device's name; None: no parent), and the note
    dev/uio<node>.rdev (node defaults to num) that tests/daemon/fake_cdev.c
    reports as that node's device number. rdev defaults to (243, num)."""
    major, minor = rdev or (243, num)
    d = f"sys/class/uio/uio{num}"
    t.dir(d)
    t.file(f"{d}/dev", f"{major}:{minor}\n")
    t.symlink("../../../class/uio", f"{d}/subsystem")
    t.symlink(f"../../class/uio/uio{num}", f"sys/dev/char/{major}:{minor}")
    if parent is not None:
        t.dir(f"sys/devices/{parent}")
        t.symlink(f"../../../devices/{parent}", f"{d}/device")
    t.file(f"dev/uio{num if node is None else node}.rdev", f"{major}:{minor}\n")


def iommu_group(t: FakeTree, group: int, members: list[str],
                classes: dict[str, int] | None = None) -> None:  # fmt: skip
    """PCI devices (canonical addresses) in IOMMU group <group>, linked both
    ways as the kernel does: sys/bus/pci/devices/BDF/iommu_group and
    sys/kernel/iommu_groups/N/devices/BDF; with the class code classes
    gives a device (0x060400: a PCI bridge)."""
    t.dir(f"sys/kernel/iommu_groups/{group}/devices")
    for bdf in members:
        dev = f"sys/devices/pci0000:00/{bdf}"
        t.dir(dev)
        if classes and bdf in classes:
            t.file(f"{dev}/class", f"{classes[bdf]:#08x}\n")
        t.symlink(f"../../../devices/pci0000:00/{bdf}", f"sys/bus/pci/devices/{bdf}")
        t.symlink(f"../../../kernel/iommu_groups/{group}", f"{dev}/iommu_group")
        t.symlink(f"../../../../devices/pci0000:00/{bdf}",
                  f"sys/kernel/iommu_groups/{group}/devices/{bdf}")


# ---- real-time readiness (the files udrv rt check reads) ----

ALL_CAPS = "000001ffffffffff"


def rt_system(t: FakeTree, version: str = "#1 SMP PREEMPT_RT Debian 6.1.192-2",
              realtime: bool = True, release: str = "6.1.0-test",
              rt_runtime_us: int | None = 950000, rt_period_us: int | None = 1000000,
              governor: str | None = "performance", clocksource: str = "tsc",
              capeff: str = ALL_CAPS) -> None:
    """A tidy system by default: nothing in it deserves a warning.

    capeff defaults to every capability, so the permission and memlock
    findings do not depend on the limits of the process running the tests.
    """
    t.dir("sys/kernel")
    t.file("proc/sys/kernel/osrelease", f"{release}\n")
    t.file("proc/sys/kernel/version", f"{version}\n")
    if realtime:
        t.file("sys/kernel/realtime", "1\n")
    if rt_runtime_us is not None:
        t.file("proc/sys/kernel/sched_rt_runtime_us", f"{rt_runtime_us}\n")
    if rt_period_us is not None:
        t.file("proc/sys/kernel/sched_rt_period_us", f"{rt_period_us}\n")
    if governor is not None:
        t.file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", f"{governor}\n")
    t.file("sys/devices/system/clocksource/clocksource0/current_clocksource",
           f"{clocksource}\n")
    t.file("sys/devices/system/cpu/isolated", "\n")
    t.file("sys/devices/system/cpu/nohz_full", "(null)\n")
    t.file("proc/self/status", f"Name:\tudrv\nCapEff:\t{capeff}\n")


PF_KTHREAD = 0x00200000  # flags (field 9 of /proc/PID/stat) of a kernel thread


def fake_thread(t: FakeTree, pid: int, name: str, prio: int, kernel: bool = True) -> None:
    """/proc/PID/{comm,stat} of a thread at SCHED_FIFO prio: a kernel thread
    (an irq thread, uio-ticker), or with kernel=False a process that took
    such a name."""
    t.file(f"proc/{pid}/comm", name + "\n")
    flags = PF_KTHREAD if kernel else 0
    fields = " ".join(str(flags if n == 9 else prio if n == 40 else 1 if n == 41 else 0)
                      for n in range(4, 53))
    t.file(f"proc/{pid}/stat", f"{pid} ({name}) S {fields}\n")
