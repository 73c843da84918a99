# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv Python binding tests: a fake root per test (the
fakes of tests/cli), UDRV_SYSROOT pointing at it.

The udrv package must be installed in the Python running the tests
(scripts/check.py: a venv under build/ with the wheel of python/; by hand:
pip install ./python)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, GpioExports, gpio_bus, gpio_chip

try:
    import udrv  # noqa: F401
except ImportError as e:  # fail, do not skip: the tests exist to run
    raise pytest.UsageError(f"the udrv package is not installed in {sys.executable} ({e}): "
                            "pip install ./python (scripts/check.py does it in build/)") from e

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
