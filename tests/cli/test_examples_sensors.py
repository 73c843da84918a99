# SPDX-License-Identifier: GPL-2.0-only
"""The C sensor examples (examples/sensors/) on the fake i2c-dev: udrv-lm75
turns the LM75's temperature register into degrees (its 9 bits, most
significant byte first on the wire, two's complement), once per period, and
is refused an LM75 the kernel's driver holds; bad arguments exit 2. (The
MCP3008 example's answers on the fake spidev's ADC: tests/python/
test_py_examples.py, line for line against examples/python/mcp3008.py; on
the real spidev driver: the lab's spi-fixture.)"""

from __future__ import annotations

import pytest

from tests.support.bus_fakes import i2c_bus
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO, Runner, required

LM75 = REPO / "build" / "dev" / "examples" / "udrv-lm75"
MCP3008 = REPO / "build" / "dev" / "examples" / "udrv-mcp3008"


@pytest.fixture
def lm75(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> Runner:
    i2c_bus(tree, monkeypatch)
    return Runner(required(LM75, "UDRV_LM75"), tree.root)


@pytest.mark.parametrize(("msb", "lsb", "says"), [
    (0x19, 0x80, "25.5 °C"),
    (0x00, 0x00, "0.0 °C"),
    (0xFF, 0x80, "-0.5 °C"),
    (0xE7, 0x00, "-25.0 °C"),
    (0x7D, 0x00, "125.0 °C"),
    (0xC9, 0x00, "-55.0 °C"),
    (0x19, 0xFF, "25.5 °C"),  # the 7 bits below the 9 are not the temperature's
])
def test_lm75_reads_degrees(lm75: Runner, tree: FakeTree, msb: int, lsb: int,
                            says: str) -> None:
    node = tree.path("dev/i2c-1")
    node.write_bytes(bytes([msb, lsb]) + node.read_bytes()[2:])
    r = lm75("1", "0x50", "0", "1")
    assert (r.returncode, r.stdout) == (0, says + "\n"), r


def test_lm75_reads_once_a_period(lm75: Runner, tree: FakeTree) -> None:
    r = lm75("SMBus I801 adapter at f040", "0x50", "0", "3")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 3, r
    assert tree.path("dev/i2c-1.log").read_text().splitlines() == ["read-word-data 0x50"] * 3


def test_lm75_held_by_the_kernel(lm75: Runner) -> None:
    r = lm75("1", "0x48", "0", "1")
    assert r.returncode == 1 and "kernel's driver lm75" in r.stderr, r


@pytest.mark.parametrize("args", [(), ("1", "0x78"), ("1", "0x50", "-1"), ("1", "0x50", "1", "x"),
                                  ("1", "0x50", "3600001"), ("1", "2", "3", "4", "5")])
def test_lm75_bad_arguments(lm75: Runner, tree: FakeTree, args: tuple[str, ...]) -> None:
    r = lm75(*args)
    assert r.returncode == 2 and r.stderr, r
    assert not tree.path("dev/i2c-1.log").exists()


@pytest.mark.parametrize("args", [(), ("0.0", "8"), ("0.0", "3", "2"), ("0.0", "1", "2", "3")])
def test_mcp3008_bad_arguments(tree: FakeTree, args: tuple[str, ...]) -> None:
    r = Runner(required(MCP3008, "UDRV_MCP3008"), tree.root)(*args)
    assert r.returncode == 2 and r.stderr, r
