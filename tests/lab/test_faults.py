# SPDX-License-Identifier: GPL-2.0-only
"""A device removed under a waiting udrv, on the real kernels (std and rt).

Each case starts the sanitized CLI (the ASan+UBSan build, shipped in the
guest under /opt/udrv-asan) waiting on a device in the background, sees it
block, removes the device, and checks that udrv:

- ends within a second of guest time (the kernel's own clock in the guest,
  not the host's, which runs about twice as slow under TCG);
- exits 1 with the one 'the device is gone' message naming the device;
- prints no sanitizer report (ASan, LeakSanitizer, UBSan halt on error).

Then the driver is bound again and the device works, so that the other lab
tests find the machine as it was.

Removal is an unbind: `rmmod` is refused while a line is requested or a
/dev/uioN is open (the GPIO and UIO cores hold a reference on the driver's
module), which each case checks first. Unbinding is what a hot-unplug, a
PCI remove or a driver reload does to a waiting program.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from background import Background, Ended, guest_ok, guest_uptime
from guest import CHIP, ok, sh

pytestmark = pytest.mark.lg_feature(["gpio-wire", "uio-ticker", "edu"])

UDRV = "/opt/udrv-asan/tools/udrv"
UDRV_BENCH = "/opt/udrv-asan/rig/bench/udrv-bench"
# abort_on_error=0: a report ends the program with exit 99 (ASan's exitcode),
# which the status check sees; LeakSanitizer's report counts too.
SAN_ENV = ("ASAN_OPTIONS=detect_leaks=1:exitcode=99 "
           "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98")
SAN_REPORT = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehavior")
GONE_WITHIN_S = 1.0
GPIO_DRIVER = "/sys/bus/platform/drivers/gpio-wire"
TICKER_DRIVER = "/sys/bus/platform/drivers/uio-ticker"
PCI_UIO_DRIVER = "/sys/bus/pci/drivers/uio_pci_generic"


@dataclass
class Removal:
    """How to take a device away from its driver and give it back."""

    driver: str  # the driver's sysfs directory
    device: str  # its bus id: gpio-wire, uio-ticker, 0000:00:04.0
    module: str  # the module that rmmod would have to unload

    def unbind(self, board: Any) -> tuple[float, float]:
        """Unbinds; the guest's uptime just before and when the unbind
        returned (the kernel has removed the device)."""
        out = guest_ok(board, f"cut -d' ' -f1 /proc/uptime; "
                              f"echo {self.device} >{self.driver}/unbind; "
                              f"cut -d' ' -f1 /proc/uptime")
        t0, t1 = out.split()
        return float(t0), float(t1)

    def bind(self, board: Any) -> None:
        guest_ok(board, f"test -e {self.driver}/{self.device} || "
                        f"echo {self.device} >{self.driver}/bind")


def sanitized(board: Any, program: str = UDRV) -> str:
    r = sh(board, f"test -x {program}")
    assert r.status == 0, (f"{program} is not in the guest: the lab ships build/asan's CLI "
                           "and udrv-bench when they were built (make lab-check builds them)")
    return f"{SAN_ENV} {program}"


def waiting_in(board: Any, job: Background, fd_link: str) -> None:
    """Until the job holds @fd_link open (a line request, /dev/uioN) and has
    had a moment to block on it."""
    job.wait_for(f"ls -l /proc/{job.pid}/fd 2>/dev/null | grep -q '{fd_link}'",
                 what=f"{fd_link} open")
    guest_ok(board, "sleep 0.3")
    assert job.alive(), f"{job.command!r} ended before the device went away:\n{job.output()}"


def assert_gone(end: Ended, unbind: tuple[float, float], names: list[str]) -> None:
    """Within GONE_WITHIN_S of the unbind's start, and never before it."""
    said = end.stdout + end.stderr
    assert not SAN_REPORT.search(said), f"sanitizer report:\n{said}"
    assert end.status == 1, f"exit {end.status}, want 1:\n{said}"
    assert "the device is gone" in end.stderr, said
    for name in names:
        assert name in end.stderr, f"the message does not name {name!r}:\n{end.stderr}"
    t0, t1 = unbind
    assert end.at >= t0, f"ended at {end.at} s, before the unbind at {t0} s"
    late = end.at - t0
    assert late <= GONE_WITHIN_S, (f"ended {late:.2f} s after the unbind started "
                                   f"(which returned after {t1 - t0:.2f} s; guest time)")


def refuses_rmmod(board: Any, module: str) -> None:
    """busybox rmmod says EAGAIN (O_NONBLOCK and a module reference held),
    kmod's 'in use': either way the module stays."""
    r = sh(board, f"rmmod {module}; grep -c '^{module} ' /proc/modules")
    assert r.stdout.split()[-1] == "1", f"rmmod {module} unloaded it under a user of the device"
    assert re.search("in use|temporarily unavailable", r.stderr), r.stderr


@pytest.fixture
def gpio_wire(board: Any) -> Iterator[Removal]:
    """gpio-wire to unbind. The board is booted again afterwards: Debian 12's
    6.1 gpiolib cannot take a chip back whose lines were requested when it
    went (measured: 'REMOVING GPIOCHIP WITH GPIOS STILL REQUESTED', the
    request's interrupt leaks in /proc/irq, the module's refcount stays up
    for good, and binding gpio-wire again oopses in gpio_name_to_desc() on
    the stale chip). Closing the board makes the next test boot a fresh one."""
    yield Removal(GPIO_DRIVER, "gpio-wire", "gpio_wire")
    board.close()


@pytest.fixture
def ticker(board: Any) -> Iterator[tuple[Removal, str]]:
    """uio-ticker stopped (period 0: a wait blocks until the device goes), its
    /dev/uioN; the period is put back after the rebind."""
    removal = Removal(TICKER_DRIVER, "uio-ticker", "uio_ticker")
    dev = ok(board, "uio info --json uio-ticker").json()[0]["device"]
    period = f"/sys/class/uio/{dev}/device/period_us"
    before = guest_ok(board, f"cat {period}").strip()
    guest_ok(board, f"echo 0 >{period}")
    yield removal, dev
    removal.bind(board)
    dev = ok(board, "uio info --json uio-ticker").json()[0]["device"]
    guest_ok(board, f"echo {before} >/sys/class/uio/{dev}/device/period_us")


@pytest.fixture
def edu(board: Any) -> Iterator[tuple[Removal, str]]:
    """QEMU's edu on uio_pci_generic, its /dev/uioN."""
    dev = ok(board, "uio info --json uio_pci_generic").json()[0]["device"]
    addr = guest_ok(board, f"basename $(readlink /sys/class/uio/{dev}/device)").strip()
    removal = Removal(PCI_UIO_DRIVER, addr, "uio_pci_generic")
    yield removal, dev
    removal.bind(board)
    ok(board, "uio info uio_pci_generic")


def test_gpio_users_end_when_the_chip_goes(board: Any, gpio_wire: Removal) -> None:
    """udrv gpio mon blocked on line 1, and udrv-bench irq with its edges in
    flight on lines 2 -> 3: one unbind ends both. The bench runs SCHED_OTHER
    (-P 0): at SCHED_FIFO 80 on the guest's one CPU it leaves the shell that
    unbinds only what RT throttling gives (measured: on std the unbind then
    takes a second, 'sched: RT throttling activated'; on rt the agent did not
    get to run the next command within 60 s)."""
    udrv_san = sanitized(board)
    mon = Background(board, "mon-gone", f"{udrv_san} gpio mon -c {CHIP} 1")
    bench = Background(board, "irq-gone",
                       f"{sanitized(board, UDRV_BENCH)} irq -D 60s -P 0 --no-mlock")
    try:
        waiting_in(board, mon, "gpio-line")
        waiting_in(board, bench, "gpio-line")
        refuses_rmmod(board, gpio_wire.module)
        t = gpio_wire.unbind(board)
        ends = [mon.ended(), bench.ended()]
    finally:
        mon.kill()
        bench.kill()
    assert_gone(ends[1], t, [f"({CHIP})"])
    assert_gone(ends[0], t, ["/dev/gpiochip", f"({CHIP})"])


def test_uio_wait_ends_when_the_ticker_goes(board: Any, ticker: tuple[Removal, str]) -> None:
    removal, dev = ticker
    job = Background(board, "ticker-gone", f"{sanitized(board)} uio wait {dev}")
    try:
        waiting_in(board, job, f"/dev/{dev}")
        refuses_rmmod(board, removal.module)
        t = removal.unbind(board)
        end = job.ended()
    finally:
        job.kill()
    assert_gone(end, t, [f"/dev/{dev}", "(uio-ticker)"])


def test_uio_wait_ends_when_edu_is_unbound(board: Any, edu: tuple[Removal, str]) -> None:
    removal, dev = edu
    job = Background(board, "edu-gone", f"{sanitized(board)} uio wait -u {dev}")
    try:
        waiting_in(board, job, f"/dev/{dev}")
        refuses_rmmod(board, removal.module)
        t = removal.unbind(board)
        end = job.ended()
    finally:
        job.kill()
    assert_gone(end, t, [f"/dev/{dev}", "(uio_pci_generic)"])


def test_a_signal_still_ends_the_sanitized_wait_cleanly(board: Any) -> None:
    """The counterpart: no device gone, SIGINT: exit 0 and the summary, so that
    the cases above see the removal, not an ending any wait would have."""
    dev = ok(board, "uio info --json uio_pci_generic").json()[0]["device"]
    job = Background(board, "edu-int", f"{sanitized(board)} uio wait -u {dev}")
    try:
        waiting_in(board, job, f"/dev/{dev}")
        t = guest_uptime(board)
        job.signal("INT")
        end = job.ended()
    finally:
        job.kill()
    said = end.stdout + end.stderr
    assert not SAN_REPORT.search(said), said
    assert end.status == 0, said
    assert "gone" not in said
    assert end.at - t <= GONE_WITHIN_S
