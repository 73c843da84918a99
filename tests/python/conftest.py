# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv Python binding tests: a fake root per test (the
fakes of tests/cli), UDRV_SYSROOT pointing at it.

The udrv package must be installed in the Python running the tests
(scripts/check.py: a venv under build/ with the wheel of python/; by hand:
pip install ./python)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))

from fakes import FakeTree, GpioExports, gpio_bus, gpio_chip

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
