# SPDX-License-Identifier: GPL-2.0-only
"""examples/python run on the fake trees (the Python running the tests, with
udrv installed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import BASE

from tests.support.fakes import FakeTree, GpioExports, uio_counts, uio_dev_fifo, uio_device

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples" / "python"


def run(tree: FakeTree, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "UDRV_SYSROOT": str(tree.root)})


def test_blink(tree: FakeTree, exports: GpioExports) -> None:
    r = run(tree, str(EXAMPLES / "blink.py"), "gpiochip0", "3", "--backend", "sysfs",
            "--count", "2", "--period", "0.02")
    assert r.returncode == 0, r
    assert exports.final(BASE + 3, "value").startswith("0")
    assert exports.exported == [BASE + 3]


def test_blink_error_names_the_chip(tree: FakeTree, exports: GpioExports) -> None:
    r = run(tree, str(EXAMPLES / "blink.py"), "gpiochip4", "3", "--backend", "sysfs")
    assert r.returncode == 1, r
    assert "gpiochip4" in r.stdout


def test_uio_wait(tree: FakeTree) -> None:
    uio_device(tree, 0, "ticker", event=4)
    uio_dev_fifo(tree, 0)
    with uio_counts(tree, 0, [5, 8]):
        r = run(tree, str(EXAMPLES / "uio_wait.py"), "ticker", "--count", "2")
    assert r.returncode == 0, r
    assert "count 5 (+1, 0 missed)" in r.stdout
    assert "count 8 (+3, 2 missed)" in r.stdout
    assert "2 missed in all" in r.stdout


def test_button_asyncio_ends_after_its_time(tree: FakeTree, exports: GpioExports) -> None:
    """A FIFO as the value file: pollable, never an edge (edges: the lab)."""
    exports.fifo_values.add(BASE + 3)
    r = run(tree, str(EXAMPLES / "button_asyncio.py"), "gpiochip0", "3", "--seconds", "1.3",
            "--backend", "sysfs", "--bias", "as_is")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == ["...", "0 events lost"]
    # the default backend needs the character device the host has not
    r = run(tree, str(EXAMPLES / "button_asyncio.py"), "gpiochip0", "3", "--seconds", "0.1")
    assert r.returncode == 1, r
    assert "character device" in r.stdout
