# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv Python binding tests: a fake root per test (the
fakes of tests/cli), UDRV_SYSROOT pointing at it; and those of the gpiozero
tests (test_gpiozero*.py), which import gpiozero where they use it, so that
the other tests run without it (debian/rules: no build-dependency).

The udrv package must be installed in the Python running the tests
(scripts/check.py: a venv under build/ with the wheel of python/; by hand:
pip install ./python)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.fakes import FakeTree, GpioExports, gpio_attr, gpio_bus, gpio_chip
from tests.support.preloaded import preloaded_child

try:
    import udrv  # noqa: F401
except ImportError as e:  # fail, do not skip: the tests exist to run
    raise pytest.UsageError(f"the udrv package is not installed in {sys.executable} ({e}): "
                            "pip install ./python (scripts/check.py does it in build/)") from e

if TYPE_CHECKING:
    from udrv.gpiozero import UdrvFactory

BASE = 512  # sysfs base of the fake chip gpiochip0 "fake-wire" (8 lines)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """An empty fake root; libudrv looks everything up under it."""
    t = FakeTree(tmp_path / "root")
    monkeypatch.setenv("UDRV_SYSROOT", str(t.root))
    return t


@pytest.fixture
def exports(tree: FakeTree) -> Iterator[GpioExports]:
    """gpiochip0 "fake-wire" (8 lines, sysfs only, base 512) with its export
    and unexport files served like the kernel's."""
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", BASE, 8, "fake-wire")
    served = GpioExports(tree)
    yield served
    served.stop()


# a blocking call -> (its start, the other thread's stamps): gil_probe
GilProbe = Callable[[Callable[[], object]], tuple[float, list[float]]]


def _stamps_during(call: Callable[[], object]) -> tuple[float, list[float]]:
    """Run @call while another thread takes a time stamp every 10 ms (each
    needing the GIL): the call's start and the stamps. A call that holds the
    GIL while it blocks leaves no stamp inside it."""
    stamps: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            stamps.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    t0 = time.monotonic()
    try:
        call()
    finally:
        stop.set()
        t.join()
    return t0, stamps


@pytest.fixture
def gil_probe() -> GilProbe:
    """_stamps_during(): does a blocking call let other threads run?"""
    return _stamps_during


CtrlC = Callable[[Callable[[], object]], None]


@pytest.fixture
def ctrl_c() -> Iterator[CtrlC]:
    """ctrl_c(stop): a Ctrl-C (SIGINT to this process) 0.2 s from now, with
    Python's own handler installed for the test, so that it raises
    KeyboardInterrupt also where the tests run with SIGINT ignored: a job a
    shell without job control starts in the background inherits SIG_IGN,
    Python then installs no handler, and a wait that should end would go on
    for ever. @stop ends the wait another way (a release, a close) after 20 s
    if the signal did not: the test then fails instead of hanging."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timers: list[threading.Timer] = []

    def arm(stop: Callable[[], object]) -> None:
        timers.append(threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)))
        timers.append(threading.Timer(20.0, stop))
        for t in timers:
            t.start()

    try:
        yield arm
    finally:
        for t in timers:
            t.cancel()
            t.join()
        signal.signal(signal.SIGINT, old)


# ---- gpiozero's (test_gpiozero*.py) ----

OTHER = BASE + 8  # gpiochip1 ("other-chip", 4 lines): the chips fixture's second chip
NO_GPIOZERO = ("tests/python/test_gpiozero*.py need gpiozero (1.6 or 2.x): pip install "
               "gpiozero==2.0.1, or apt install python3-gpiozero (scripts/check.py "
               "installs both into venvs under build/)")
# the child Python of their @preloaded tests (tests/support/preloaded.py):
# tests/daemon's fake character device, tests/cli's fake spidev and fake PWM
# class preloaded
gpiozero_child = preloaded_child(("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so"),
                                 ("UDRV_FAKE_SPIDEV", "tests/cli/libfake_spidev.so"),
                                 ("UDRV_FAKE_PWM", "tests/cli/libfake_pwm_sysfs.so"))


@pytest.fixture
def root(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """The fake root (UDRV_SYSROOT), without the factory's variables of the
    environment running the tests."""
    for var in ("GPIOZERO_PIN_FACTORY", "GPIOZERO_UDRV_CHIP", "GPIOZERO_UDRV_BACKEND"):
        monkeypatch.delenv(var, raising=False)
    return tree


@pytest.fixture
def chips(root: FakeTree, exports: GpioExports) -> GpioExports:
    """gpiochip0 "fake-wire" (8 lines, base 512, export and unexport
    served) and a second chip, gpiochip1 "other-chip"."""
    gpio_chip(root, 1, "other", OTHER, 4, "other-chip")
    return exports


@pytest.fixture
def factory(chips: GpioExports) -> Iterator[UdrvFactory]:
    from gpiozero import Device
    from udrv.gpiozero import UdrvFactory

    f = UdrvFactory()
    Device.pin_factory = f
    yield f
    Device.pin_factory = None
    f.close()


def value(root: FakeTree, gpio: int) -> str:
    return gpio_attr(root, gpio, "value")[:1]


def with_factory() -> UdrvFactory:
    """Device.pin_factory for a @preloaded test, made in the child (pytest
    builds the fixtures in the parent), without the factory's variables of
    the environment."""
    from gpiozero import Device
    from udrv.gpiozero import UdrvFactory

    for var in ("GPIOZERO_PIN_FACTORY", "GPIOZERO_UDRV_CHIP", "GPIOZERO_UDRV_BACKEND"):
        os.environ.pop(var, None)
    f = UdrvFactory()
    Device.pin_factory = f
    return f
