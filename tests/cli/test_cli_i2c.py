# SPDX-License-Identifier: GPL-2.0-only
"""udrv i2c list|detect|get|set on a fake tree with a fake i2c-dev
(tests/cli/fake_i2c_dev.c, preloaded: bus 1 with one device, its registers
the node's bytes; every transaction logged): what i2c-tools users type,
with its safety (detect reads, a kernel driver's address is left alone),
and bad input refused with exit 2 before anything reaches the bus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO, Result, Runner, required

FAKE = REPO / "build" / "dev" / "tests" / "cli" / "libfake_i2c_dev.so"


@pytest.fixture
def bus(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """Bus 1 ("SMBus I801 adapter at f040"), its device at 0x50 (registers
    i ^ 0xa5), an lm75 bound at 0x48."""
    fake = Path(os.environ.get("UDRV_FAKE_I2C", FAKE))
    monkeypatch.setenv("LD_PRELOAD", str(required(fake, "UDRV_FAKE_I2C")))
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


def log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/i2c-1.log")
    return path.read_text().splitlines() if path.exists() else []


def refused(r: Result, says: str, tree: FakeTree) -> None:
    assert r.returncode == 2, r
    assert says in r.stderr, r
    assert log(tree) == []  # nothing reached the bus


def test_list(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "list")
    assert r.returncode == 0, r
    assert r.stdout.split() == ["i2c-1", "SMBus", "I801", "adapter", "at", "f040", "I2C,",
                                "SMBus"]
    [b] = udrv("i2c", "list", "--json").json()
    assert (b["bus"], b["name"], b["i2c"]) == ("i2c-1", "SMBus I801 adapter at f040", True)


def test_detect_reads_and_leaves_a_drivers_address_alone(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "detect", "1")
    assert r.returncode == 0, r
    rows = {line[:3]: line[3:].split() for line in r.stdout.splitlines()[1:]}
    assert rows["40:"][8] == "UU" and rows["50:"][0] == "50" and rows["50:"][1] == "--"
    assert rows["00:"][:3] == [] or len(rows["00:"]) == 13  # 0x03-0x0f probed
    ops = log(bus)
    assert ops and all(op.startswith("read-byte ") for op in ops), ops
    assert "read-byte 0x48" not in ops  # a kernel driver's: not probed
    assert len(ops) == 0x77 - 0x03 + 1 - 1
    doc = udrv("i2c", "detect", "--json", "1", "0x48", "0x50").json()
    assert (doc["found"], doc["in_use"]) == ([0x50], [0x48])


def test_detect_quick_writes_only_when_asked(udrv: Runner, bus: FakeTree) -> None:
    assert udrv("i2c", "detect", "--quick", "i2c-1", "0x50", "0x51").returncode == 0
    assert log(bus) == ["quick-write 0x50", "quick-write 0x51"]


def test_get_and_set(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "get", "1", "0x50", "0x10")
    assert (r.returncode, r.stdout) == (0, f"0x{0x10 ^ 0xA5:02x}\n"), r
    assert udrv("i2c", "set", "/dev/i2c-1", "0x50", "0x10", "0x5a").returncode == 0
    assert udrv("i2c", "get", "SMBus I801 adapter at f040", "0x50", "0x10").stdout == "0x5a\n"
    assert udrv("i2c", "set", "1", "0x50", "0x20", "0xbeef", "--word").returncode == 0
    doc = udrv("i2c", "get", "1", "0x50", "0x20", "-w", "--json").json()
    assert doc == {"bus": "1", "address": 0x50, "register": 0x20, "value": 0xBEEF}
    assert udrv("i2c", "get", "1", "0x50").stdout == f"0x{0xA5:02x}\n"  # receive byte


def test_a_drivers_address_needs_force(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "get", "1", "0x48", "0")
    assert r.returncode == 1, r
    assert "used by the kernel's driver lm75 (client 1-0048)" in r.stderr, r
    assert "--force" in r.stderr and log(bus) == []
    r = udrv("i2c", "get", "--force", "1", "0x48", "0")
    assert r.returncode == 1 and "no device answered at 0x48" in r.stderr, r  # reached it


def test_no_device_is_a_failure(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "get", "1", "0x51", "0")
    assert r.returncode == 1 and "no device answered at 0x51 (no ACK)" in r.stderr, r


@pytest.mark.parametrize(("args", "says"), [
    (("get", "1", "0x80", "0"), "bad address '0x80'"),
    (("get", "1", "0x50", "256"), "bad register '256'"),
    (("get", "1", "0x50", "0x1g"), "bad register '0x1g'"),
    (("get", "1", "", "0"), "bad address ''"),
    (("get", "1", "0x50", "18446744073709551616"), "bad register"),
    (("get", "1", "0x50"), "--word reads a register"),
    (("set", "1", "0x50", "0", "0x100"), "bad value '0x100'"),
    (("set", "1", "0x50", "0", "0x10000", "--word"), "bad value '0x10000'"),
    (("set", "1", "0x50", "0", "--", "-1"), "bad value '-1'"),
    (("set", "1", "0x50", "0", "-1"), "invalid option"),
    (("set", "1", "0x50", "0"), "give BUS ADDRESS REGISTER VALUE"),
    (("get", "1", "0x78", "0"), "0x78 is a reserved address"),
    (("get", "01", "0x50", "0"), "no I2C bus '01'"),
    (("detect", "1", "0x50", "0x40"), "bad last address '0x40'"),
    (("detect", "1", "0x02", "0x40"), "bad first address '0x02'"),
    (("detect", "1", "0x03"), "give BUS, or BUS FIRST LAST"),
    (("list", "--word"), "option -w does not apply"),
    (("get", "i2c-99999999999", "0x50", "0"), "out of range"),
])
def test_bad_input_is_exit_2_and_sends_nothing(udrv: Runner, bus: FakeTree,
                                               args: tuple[str, ...], says: str) -> None:
    if args[-1] == "0x50" and args[0] == "get":
        args = (*args, "--word")
    r = udrv("i2c", *args)
    if "no I2C bus '01'" in says:  # not a bus name: the bus is not there
        assert r.returncode == 1 and says in r.stderr, r
        return
    refused(r, says, bus)
