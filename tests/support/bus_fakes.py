# SPDX-License-Identifier: GPL-2.0-only
"""Fake I2C and SPI devices in a fake tree, served by the preloaded fakes of
tests/cli (fake_i2c_dev.c, fake_spidev.c: i2c-dev's and spidev's ioctls on
the tree's regular files): for the tests of udrv i2c/spi (tests/cli) and of
udrv-bench i2c/spi (tests/rig/bench)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .fakes import FakeTree
from .udrv_runner import REPO, required

FAKE_I2C = REPO / "build" / "dev" / "tests" / "cli" / "libfake_i2c_dev.so"
FAKE_SPIDEV = REPO / "build" / "dev" / "tests" / "cli" / "libfake_spidev.so"


def preload(monkeypatch: pytest.MonkeyPatch, fake: Path) -> None:
    """@fake in LD_PRELOAD after what it holds already: the sanitizers'
    runtimes, which must come first, where tests/python runs on the ASan
    build of the extension (scripts/check.py's python:asan)."""
    old = os.environ.get("LD_PRELOAD", "")
    monkeypatch.setenv("LD_PRELOAD", " ".join(p for p in (old, str(fake)) if p))


def i2c_bus(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """Bus 1 ("SMBus I801 adapter at f040"), its device at 0x50 (registers
    i ^ 0xa5), an lm75 bound at 0x48; the fake preloaded."""
    fake = Path(os.environ.get("UDRV_FAKE_I2C", FAKE_I2C))
    preload(monkeypatch, required(fake, "UDRV_FAKE_I2C"))
    node = tree.path("dev/i2c-1")
    node.parent.mkdir(parents=True, exist_ok=True)
    node.write_bytes(bytes(i ^ 0xA5 for i in range(256)))
    tree.path("dev/i2c-1.addr").write_text("50\n")
    adapter = tree.path("sys/bus/i2c/devices/i2c-1")
    adapter.mkdir(parents=True)
    (adapter / "name").write_text("SMBus I801 adapter at f040\n")
    client = tree.path("sys/bus/i2c/devices/1-0048")
    client.mkdir()
    (client / "driver").symlink_to("../../../bus/i2c/drivers/lm75")
    return tree


def spidev(tree: FakeTree, monkeypatch: pytest.MonkeyPatch,
           devices: tuple[tuple[int, int, str], ...] = ((0, 1, "mcp3008"), (1, 0, "spidev")),
           ) -> FakeTree:
    """spidev devices (bus, chip select, the name their modalias says), each a
    loopback; the fake preloaded."""
    fake = Path(os.environ.get("UDRV_FAKE_SPIDEV", FAKE_SPIDEV))
    preload(monkeypatch, required(fake, "UDRV_FAKE_SPIDEV"))
    for bus, cs, name in devices:
        tree.path(f"dev/spidev{bus}.{cs}").parent.mkdir(parents=True, exist_ok=True)
        tree.path(f"dev/spidev{bus}.{cs}").write_text("")
        d = tree.path(f"sys/bus/spi/devices/spi{bus}.{cs}")
        d.mkdir(parents=True)
        (d / "modalias").write_text(f"spi:{name}\n")
        tree.path(f"sys/class/spidev/spidev{bus}.{cs}").mkdir(parents=True)
    return tree
