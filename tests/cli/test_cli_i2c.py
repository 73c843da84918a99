# SPDX-License-Identifier: GPL-2.0-only
"""udrv i2c list|detect|get|set on a fake tree with a fake i2c-dev
(tests/cli/fake_i2c_dev.c, preloaded: bus 1 with one device, its registers
the node's bytes; every transaction logged): what i2c-tools users type,
with its safety (detect reads, a kernel driver's address is left alone),
and bad input refused with exit 2 before anything reaches the bus."""

from __future__ import annotations

import pytest

from tests.support.bus_fakes import i2c_bus
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Result, Runner


@pytest.fixture
def bus(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """Bus 1 with its device at 0x50 and an lm75 bound at 0x48 (i2c_bus())."""
    return i2c_bus(tree, monkeypatch)


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


# ---- dump ----

def test_dump_reads_each_register_once(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "dump", "1", "0x50", "0x0e", "0x21")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ["0", "1", "2"] and lines[0].endswith("0123456789abcdef")
    row = {line[:3]: line[3:] for line in lines[1:]}
    assert list(row) == ["00:", "10:", "20:"]
    assert row["00:"].split()[:2] == [f"{0x0E ^ 0xA5:02x}", f"{0x0F ^ 0xA5:02x}"]
    assert row["10:"].split()[:16] == [f"{i ^ 0xA5:02x}" for i in range(0x10, 0x20)]
    assert row["20:"].split()[:2] == [f"{0x20 ^ 0xA5:02x}", f"{0x21 ^ 0xA5:02x}"]
    assert log(bus) == ["read-byte-data 0x50"] * (0x21 - 0x0E + 1)


def test_dump_text_column(udrv: Runner, bus: FakeTree) -> None:
    node = bus.path("dev/i2c-1")
    node.write_bytes(b"udrv-eeprom\x00" + bytes(244))
    r = udrv("i2c", "dump", "1", "0x50", "0", "0x0f")
    assert r.stdout.splitlines()[1].endswith("    udrv-eeprom....."), r


def test_dump_block_and_word(udrv: Runner, bus: FakeTree) -> None:
    doc = udrv("i2c", "dump", "--block", "--json", "1", "0x50").json()
    assert (doc["mode"], doc["first"], doc["last"]) == ("block", 0, 0xFF)
    assert doc["values"] == [i ^ 0xA5 for i in range(256)]
    assert log(bus) == ["read-i2c-block-data 0x50"] * 8  # 32 registers a read
    doc = udrv("i2c", "dump", "-w", "--json", "1", "0x50", "0x10", "0x11").json()
    assert doc["values"] == [(0x11 ^ 0xA5) << 8 | (0x10 ^ 0xA5), (0x12 ^ 0xA5) << 8 | (0x11 ^ 0xA5)]
    r = udrv("i2c", "dump", "--word", "1", "0x50", "0x10", "0x11")
    assert r.stdout.splitlines()[1].split() == ["10:", f"{doc['values'][0]:04x}",
                                                f"{doc['values'][1]:04x}"], r


def test_dump_no_device_is_a_failure(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "dump", "1", "0x51")
    assert r.returncode == 1 and "no device answered at 0x51" in r.stderr, r
    assert log(bus) == ["read-byte-data 0x51"]  # no point in 255 more
    r = udrv("i2c", "dump", "1", "0x48")
    assert r.returncode == 1 and "lm75" in r.stderr and "--force" in r.stderr, r


# ---- transfer ----

def test_transfer_writes_the_pointer_then_reads(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "transfer", "1", "w1@0x50", "0x10", "r8")
    assert r.returncode == 0, r
    assert r.stdout == " ".join(f"0x{i ^ 0xA5:02x}" for i in range(0x10, 0x18)) + "\n"
    assert log(bus) == ["rdwr-write 0x50", "rdwr-read 0x50"]  # one I2C_RDWR


def test_transfer_json_and_writes(udrv: Runner, bus: FakeTree) -> None:
    doc = udrv("i2c", "transfer", "--json", "i2c-1", "w3@0x50", "0x20", "0x41", "66",
               "w1", "0x1f", "r4").json()
    assert doc == {"bus": "i2c-1", "messages": [
        {"address": 0x50, "read": False, "data": [0x20, 0x41, 0x42]},
        {"address": 0x50, "read": False, "data": [0x1F]},
        {"address": 0x50, "read": True, "data": [0x1F ^ 0xA5, 0x41, 0x42, 0x22 ^ 0xA5]}]}
    assert bus.path("dev/i2c-1").read_bytes()[0x20:0x22] == b"AB"  # written through


def test_transfer_no_device_and_drivers_address(udrv: Runner, bus: FakeTree) -> None:
    r = udrv("i2c", "transfer", "1", "r1@0x51")
    assert r.returncode == 1 and "no device answered at 0x51" in r.stderr, r
    r = udrv("i2c", "transfer", "1", "w1@0x48", "0")
    assert r.returncode == 1 and "lm75" in r.stderr and "--force" in r.stderr, r
    assert log(bus) == ["rdwr-read 0x51"]  # the driver's address: not reached
    r = udrv("i2c", "transfer", "--force", "1", "w1@0x48", "0")
    assert r.returncode == 1 and "no device answered at 0x48" in r.stderr, r  # reached


@pytest.mark.parametrize(("args", "says"), [
    (("1",), "give BUS and the messages"),
    (("1", "r2"), "no address: the first message names it"),
    (("1", "x2@0x50"), "'x2@0x50' is not a message"),
    (("1", "r@0x50"), "'r@0x50' is not a message"),
    (("1", "r8193@0x50"), "bad length '8193'"),
    (("1", "r18446744073709551616@0x50"), "bad length"),
    (("1", "r1@0x78"), "bad address '0x78'"),
    (("1", "r1@0x02"), "bad address '0x02'"),
    (("1", "r1@"), "bad address ''"),
    (("1", "w2@0x50", "0x10", "r2"), "2 bytes to write, 1 given before 'r2'"),
    (("1", "w2@0x50", "0x10"), "2 bytes to write, 1 given"),
    (("1", "w1@0x50", "0x100"), "bad byte '0x100'"),
    (("1", "w1@0x50", "0x1g"), "bad byte '0x1g'"),
    (("1", "w1@0x50", "0x10", "0x11"), "'0x11' is not a message"),
    (("1", *["r1@0x50"] * 43), "more than 42 messages"),
    (("1", "r1@0x50", "--word"), "option -w does not apply"),
])
def test_transfer_bad_input_is_exit_2_and_sends_nothing(
        udrv: Runner, bus: FakeTree, args: tuple[str, ...], says: str) -> None:
    refused(udrv("i2c", "transfer", *args), says, bus)


@pytest.mark.parametrize(("args", "says"), [
    (("1",), "give BUS ADDRESS [FIRST LAST]"),
    (("1", "0x50", "0x10"), "give BUS ADDRESS [FIRST LAST]"),
    (("1", "0x50", "0x10", "0x0f"), "bad last register '0x0f'"),
    (("1", "0x50", "0", "0x100"), "bad last register '0x100'"),
    (("1", "0x80"), "bad address '0x80'"),
    (("1", "0x50", "--word", "--block"), "one mode"),
    (("1", "0x50", "--quick"), "option -q does not apply"),
])
def test_dump_bad_input_is_exit_2_and_sends_nothing(
        udrv: Runner, bus: FakeTree, args: tuple[str, ...], says: str) -> None:
    refused(udrv("i2c", "dump", *args), says, bus)
