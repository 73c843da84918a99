# SPDX-License-Identifier: GPL-2.0-only
"""udrv.I2C and udrv.SPI used by several threads at once, on the fakes of
tests/cli preloaded into a child Python (tests/support/preloaded.py): one
thread at a time has the handle (from the call's start to the end of its
ioctl, run with the GIL released); close() from another thread waits for
the call under way, the calls after it raise ValueError; and threads
hammering a handle while another closes it all end (no deadlock, no
crash)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import udrv

from tests.support.fakes import FakeTree
from tests.support.preloaded import Child, preloaded, preloaded_child

child = preloaded_child(("UDRV_FAKE_SPIDEV", "tests/cli/libfake_spidev.so"),
                        ("UDRV_FAKE_I2C", "tests/cli/libfake_i2c_dev.so"))


@pytest.fixture
def dev(tree: FakeTree) -> FakeTree:
    """spidev0.1 (an mcp3008), and I2C bus 1 with its device at 0x50."""
    tree.file("dev/spidev0.1", "")
    tree.file("sys/bus/spi/devices/spi0.1/modalias", "spi:mcp3008\n")
    tree.dir("sys/class/spidev/spidev0.1")
    tree.file("dev/i2c-1", bytes(i ^ 0xA5 for i in range(256)))
    tree.file("dev/i2c-1.addr", "50\n")
    tree.file("sys/bus/i2c/devices/i2c-1/name", "SMBus I801 adapter at f040\n")
    return tree


class Calls:
    """Calls in threads, each one's result or exception kept by name."""

    def __init__(self) -> None:
        self.results: dict[str, object] = {}
        self.threads: list[threading.Thread] = []

    def start(self, name: str, call: Callable[[], object]) -> None:
        def run() -> None:
            try:
                self.results[name] = call()
            except Exception as e:  # kept for the test
                self.results[name] = e

        t = threading.Thread(target=run, name=name)
        self.threads.append(t)
        t.start()

    def alive(self) -> list[str]:
        return [t.name for t in self.threads if t.is_alive()]

    def join(self) -> None:
        for t in self.threads:
            t.join(20)
        assert not self.alive(), f"still running: {self.alive()}"


def released(x: object, what: str) -> bool:
    return isinstance(x, ValueError) and str(x) == f"{what} is released"


def close_during(fifo: Path, answer: bytes, handle: udrv.I2C | udrv.SPI,
                 call: Callable[[], object], setting: Callable[[], object],
                 what: str) -> object:
    """@call blocks in the fake's ioctl, which reads @fifo: two close()
    and a @setting, from other threads, wait for it; then @answer ends it.
    Returns what @call returned."""
    os.mkfifo(fifo)
    calls = Calls()
    calls.start("call", call)
    fd = os.open(fifo, os.O_WRONLY)  # until the fake opens it: the call is in the ioctl
    try:
        calls.start("close 1", handle.close)
        calls.start("setting", setting)
        calls.start("close 2", handle.close)
        time.sleep(0.2)  # the GIL is free (the ioctl released it): they run, and wait
        assert not handle.closed
        assert sorted(calls.alive()) == ["call", "close 1", "close 2", "setting"]
        os.write(fd, answer)
    finally:
        os.close(fd)
    calls.join()
    assert handle.closed
    r = calls.results
    assert r["close 1"] is None and r["close 2"] is None, r
    assert r["setting"] is None or released(r["setting"], what), r
    assert released(_raised(call), what)
    return r["call"]


def _raised(call: Callable[[], object]) -> object:
    try:
        return call()
    except Exception as e:
        return e


@preloaded
def test_spi_close_waits_for_the_transfer_under_way(child: Child, dev: FakeTree) -> None:
    """The fake's ADC reads its values from a FIFO in the ioctl."""
    spi = udrv.SPI("0.1")
    rx = close_during(dev.path("dev/spidev0.1.adc"), b"10 0 0 0 0 0 0 0 0\n", spi,
                      lambda: spi.transfer([0x01, 0x80, 0x00]),
                      lambda: setattr(spi, "max_speed_hz", 100000), "SPI device")
    assert isinstance(rx, bytes) and len(rx) == 3, rx


@preloaded
def test_i2c_close_waits_for_the_transaction_under_way(child: Child, dev: FakeTree) -> None:
    """The fake reads the device's address from a FIFO in the ioctl."""
    dev.path("dev/i2c-1.addr").unlink()
    i2c = udrv.I2C(1, 0x50)
    value = close_during(dev.path("dev/i2c-1.addr"), b"50\n", i2c,
                         lambda: i2c.read_byte_data(0x10),
                         lambda: setattr(i2c, "retries", 2), "I2C bus")
    assert value == 0x10 ^ 0xA5


@preloaded
def test_threads_hammering_a_handle_then_closing_it(child: Child, dev: FakeTree) -> None:
    """Each call returns its answer or, once another thread closed the
    handle, raises ValueError; every thread ends."""
    spi = udrv.SPI("0.1")
    i2c = udrv.I2C(1, 0x50)
    dev.file("dev/spidev0.1.adc", "10 1 2 3 4 5 6 7 8\n")
    calls = Calls()

    def hammer(call: Callable[[], object], n: int) -> Callable[[], object]:
        def run() -> object:
            out = []
            for _ in range(n):
                try:
                    out.append(call())
                except ValueError as e:
                    out.append(e)
            return out
        return run

    for k in range(3):
        calls.start(f"spi {k}", hammer(lambda: spi.transfer(b"\x01\x80\x00"), 60))
        calls.start(f"i2c {k}", hammer(lambda: i2c.read_byte_data(0x10), 60))
    def later(close: Callable[[], None]) -> Callable[[], object]:
        def run() -> None:
            time.sleep(0.01)
            close()
        return run

    calls.start("close spi", later(spi.close))
    calls.start("close i2c", later(i2c.close))
    calls.join()
    assert spi.closed and i2c.closed
    first = udrv.SPI("0.1").transfer(b"\x01\x80\x00")
    for name, out in calls.results.items():
        assert not isinstance(out, Exception), (name, out)
        if name.startswith("close"):
            continue
        assert isinstance(out, list)
        if name.startswith("spi "):
            assert all(x == first or released(x, "SPI device") for x in out), (name, out)
        elif name.startswith("i2c "):
            assert all(x == 0x10 ^ 0xA5 or released(x, "I2C bus") for x in out), (name, out)
