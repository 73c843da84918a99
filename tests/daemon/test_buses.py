# SPDX-License-Identifier: GPL-2.0-only
"""udrvd's SPI devices and I2C buses on the host (conftest.py's private bus
and fake tree, tests/cli's fake spidev and i2c-dev preloaded into udrvd):

- io.udrv1.Devices.OpenSpi hands one spidev device's fd to the user a rule
  `open spi` names, who transfers through it (udrv_spi_open_fd), though the
  node is root's alone;
- io.udrv1.Devices.OpenI2cBus hands a whole I2C bus's fd (`open i2c-bus`);
- io.udrv1.I2c's Transfer and SMBus calls are made by udrvd, each message's
  address checked against `transfer i2c` rules in force at the call.

Nodes are checked as their dev_t names them (fake_cdev.c reports
dev/NODE.rdev). Each refusal has its grant beside it: the same call from the
user a rule names, or with the rule there, succeeds."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import Udrvd, serving
from tests.support.fakes import FakeTree

ALICE, BOB, DOOR = 1, 2, 2001
DEVICES = "/io/udrv1"
CLI = Path(__file__).resolve().parents[2] / "build" / "dev" / "tests" / "cli"
FAKE_SPIDEV = CLI / "libfake_spidev.so"
FAKE_I2C = CLI / "libfake_i2c_dev.so"
SPI_POLICY = """allow uid:1 open spi mcp3008
allow uid:1 open spi device:0000:00:1e.2/0
allow gid:2001 open spi 0.0
"""


def link(tree: FakeTree, target: str, rel: str) -> None:
    """@rel a link to @target (both under the tree's root), relative as sysfs's."""
    start = os.path.dirname(tree.path(rel))
    tree.symlink(os.path.relpath(tree.path(target), start), rel)


def node(tree: FakeTree, name: str, rdev: str) -> None:
    """dev/<name>: root's alone (0600), its device number in <name>.rdev."""
    tree.file(f"dev/{name}", "")
    os.chmod(tree.path(f"dev/{name}"), 0o600)
    tree.file(f"dev/{name}.rdev", f"{rdev}\n")


def spi_device(tree: FakeTree, bus: int, cs: int, name: str, controller: str) -> None:
    """spi<bus>.<cs> called <name> (its modalias) on the controller hanging off
    sys/devices/<controller>, bound to spidev, as Linux 6.1's sysfs has it."""
    dev = f"sys/devices/{controller}/spi_master/spi{bus}/spi{bus}.{cs}"
    tree.file(f"{dev}/modalias", f"spi:{name}\n")
    cls = f"{dev}/spidev/spidev{bus}.{cs}"
    tree.dir(cls)
    tree.dir("sys/class/spidev")
    link(tree, "sys/class/spidev", f"{cls}/subsystem")
    link(tree, dev, f"{cls}/device")
    link(tree, cls, f"sys/class/spidev/spidev{bus}.{cs}")
    link(tree, dev, f"sys/bus/spi/devices/spi{bus}.{cs}")
    rdev = f"153:{bus * 8 + cs}"
    link(tree, cls, f"sys/dev/char/{rdev}")
    node(tree, f"spidev{bus}.{cs}", rdev)


@pytest.fixture
def buses(tree: FakeTree) -> FakeTree:
    """spi0.0 'dac' and spi0.1 'mcp3008' on the Raspberry Pi's fe204000.spi,
    spi1.0 'flash' and spi1.1 'eeprom' on a PCI controller 0000:00:1e.2."""
    spi_device(tree, 0, 0, "dac", "platform/soc/fe204000.spi")
    spi_device(tree, 0, 1, "mcp3008", "platform/soc/fe204000.spi")
    spi_device(tree, 1, 0, "flash", "pci0000:00/0000:00:1e.2")
    spi_device(tree, 1, 1, "eeprom", "pci0000:00/0000:00:1e.2")
    return tree


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, buses: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, buses, tmp_path, SPI_POLICY,
                 (FAKE_SPIDEV, FAKE_I2C)) as d:  # fmt: skip
        yield d


def take(d: Udrvd, client: Path, *args: str, uid: int = 0,
         groups: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """tests/daemon/client.c with @args, as @uid, on the fake tree, with
    the fake spidev and i2c-dev (not fake_cdev: the client sees the node
    as the regular file it is, and udrv_*_open_fd() compares inodes)."""
    return d.run_as(["env", f"UDRV_SYSROOT={d.tree.root}",
                     f"LD_PRELOAD={FAKE_SPIDEV} {FAKE_I2C}", str(client), *args],
                    uid, groups)  # fmt: skip


def reload(d: Udrvd, tmp_path: Path, policy: str, rules: int) -> None:
    (tmp_path / "udrvd.conf").write_text(policy)
    d.proc.send_signal(signal.SIGHUP)
    assert d.wait_log(f"udrvd: policy reloaded: {rules} rules")


# ---- SPI ----


def test_the_granted_user_transfers_through_the_spi_fd(udrvd: Udrvd, client: Path) -> None:
    for spec in ("mcp3008", "0.1", "spidev0.1", "/dev/spidev0.1"):
        res = take(udrvd, client, "spi", spec, "a1b2c3", uid=ALICE)
        assert res.returncode == 0, (spec, res.stderr)
        assert res.stdout == "spi spidev0.1 0.1 rx a1b2c3\n", res.stdout  # the loopback
    # by the controller's device and chip select
    res = take(udrvd, client, "spi", "1.0", "5a", uid=ALICE)
    assert res.stdout == "spi spidev1.0 1.0 rx 5a\n", res.stderr
    res = take(udrvd, client, "spi", "1.1", "5a", uid=ALICE)  # its other chip select
    assert "AccessDenied: the policy refuses uid 1 (gid 1) 'open' on spi device spidev1.1 " \
           "(eeprom at 0000:00:1e.2)" in res.stderr, res.stderr  # fmt: skip
    # and the user could not have opened the node itself
    own = udrvd.run_as(["sh", "-c", f"exec 3<>{udrvd.tree.path('dev/spidev0.1')}"], ALICE)
    assert own.returncode != 0 and "Permission denied" in own.stderr, own


def test_another_user_is_refused_the_spi_device(udrvd: Udrvd, client: Path) -> None:
    res = take(udrvd, client, "spi", "mcp3008", "00", uid=BOB)
    assert res.returncode == 1, res
    assert ("org.freedesktop.DBus.Error.AccessDenied: the policy refuses uid 2 (gid 2) 'open' "
            "on spi device spidev0.1 (mcp3008 at fe204000.spi); no rule in ") in res.stderr, \
        res.stderr
    # the same user with the group of the rule for 0.0 gets 0.0, not 0.1
    res = take(udrvd, client, "spi", "0.0", "0102", uid=BOB, groups=(DOOR,))
    assert res.stdout == "spi spidev0.0 0.0 rx 0102\n", res.stderr
    res = take(udrvd, client, "spi", "0.1", "00", uid=BOB, groups=(DOOR,))
    assert "'open' on spi device spidev0.1 (mcp3008 at fe204000.spi); the caller's rules " \
           "for such devices: " in res.stderr, res.stderr  # fmt: skip
    assert "(allow gid:2001 open spi 0.0)" in res.stderr, res.stderr
    # alice's rules name neither 0.0 nor 1.0's neighbour
    res = take(udrvd, client, "spi", "dac", "00", uid=ALICE)
    assert "'open' on spi device spidev0.0 (dac at fe204000.spi)" in res.stderr, res.stderr


def test_a_revoked_spi_rule_refuses_the_next_open(udrvd: Udrvd, client: Path,
                                                   tmp_path: Path) -> None:  # fmt: skip
    res = take(udrvd, client, "spi", "mcp3008", "11", uid=ALICE)
    assert res.returncode == 0, res.stderr
    reload(udrvd, tmp_path, SPI_POLICY.replace("allow uid:1 open spi mcp3008\n", ""), 2)
    res = take(udrvd, client, "spi", "mcp3008", "11", uid=ALICE)
    assert res.returncode == 1, res
    assert "AccessDenied: the policy refuses uid 1 (gid 1) 'open' on spi device spidev0.1 " \
           "(mcp3008 at fe204000.spi); the caller's rules for such devices: " in res.stderr, \
        res.stderr  # fmt: skip


def test_a_stale_spi_node_is_checked_as_the_device_it_is(udrvd_bin: Path, fake_cdev: Path,
                                                         bus: str, buses: FakeTree,
                                                         tmp_path: Path,
                                                         client: Path) -> None:  # fmt: skip
    """/dev/spidev0.1 is spidev0.0's node (153:0): the name sysfs gives 0.1
    would grant it; the dev_t of the node udrvd opened names dac."""
    buses.file("dev/spidev0.1.rdev", "153:0\n")
    with serving(udrvd_bin, fake_cdev, bus, buses, tmp_path, SPI_POLICY,
                 (FAKE_SPIDEV, FAKE_I2C)) as d:  # fmt: skip
        res = take(d, client, "spi", "mcp3008", "00", uid=ALICE)
        assert res.returncode == 1, res
        assert "AccessDenied: the policy refuses uid 1 (gid 1) 'open' on spi device " \
               "spidev0.0 (dac at fe204000.spi)" in res.stderr, res.stderr  # fmt: skip
        res = take(d, client, "spi", "0.1", "00", uid=BOB, groups=(DOOR,))  # 0.0 granted
        assert "FileNotFound: spidev0.1 is now the node of spidev0.0, not of the device " \
               "asked for: ask again" in res.stderr, res.stderr  # fmt: skip
        buses.file("dev/spidev0.1.rdev", "153:1\n")  # the node fixed: granted
        res = take(d, client, "spi", "mcp3008", "00", uid=ALICE)
        assert res.stdout == "spi spidev0.1 0.1 rx 00\n", res.stderr


def test_an_spi_name_two_devices_share_grants_neither(udrvd_bin: Path, fake_cdev: Path,
                                                       bus: str, buses: FakeTree,
                                                       tmp_path: Path,
                                                       client: Path) -> None:  # fmt: skip
    spi_device(buses, 2, 0, "mcp3008", "platform/soc/fe204800.spi")
    with serving(udrvd_bin, fake_cdev, bus, buses, tmp_path, SPI_POLICY,
                 (FAKE_SPIDEV, FAKE_I2C)) as d:  # fmt: skip
        res = take(d, client, "spi", "0.1", "00", uid=ALICE)
        assert res.returncode == 1, res
        assert "(allow uid:1 open spi mcp3008) names a device that 2 have now, which gives " \
               "none of them: name it by its controller (device:fe204000.spi/CS)" in res.stderr, \
            res.stderr  # fmt: skip


def test_spi_nodes_that_are_no_spidev_are_refused(udrvd: Udrvd, buses: FakeTree) -> None:
    buses.file("dev/spidev0.1.rdev", "153:99\n")
    res = udrvd.call(DEVICES, "io.udrv1.Devices.OpenSpi", "'0.1'")
    assert "FileNotFound: spidev0.1 is the node of 153:99, which " in res.stderr, res.stderr
    assert "does not show as a spidev node" in res.stderr, res.stderr
    # a character device called spidev0.1 of another class
    buses.dir("sys/devices/virtual/misc/spidev0.1")
    link(buses, "sys/class/misc", "sys/devices/virtual/misc/spidev0.1/subsystem")
    link(buses, "sys/devices/virtual/misc/spidev0.1", "sys/dev/char/153:99")
    res = udrvd.call(DEVICES, "io.udrv1.Devices.OpenSpi", "'0.1'")
    assert "does not show as a spidev node" in res.stderr, res.stderr
    buses.path("dev/spidev0.1.rdev").unlink()
    res = udrvd.call(DEVICES, "io.udrv1.Devices.OpenSpi", "'0.1'")
    assert "FileNotFound: spidev0.1 is not a character device" in res.stderr, res.stderr


def test_bad_spi_devices(udrvd: Udrvd) -> None:
    cases = {
        "": "InvalidArgs: '' is no SPI device",
        "x" * 80: "InvalidArgs: 'xxxx",
        "0.99999999999": "SPI device '0.99999999999': number out of range",
        "7.0": "no SPI device 7.0",
        "adc": "no SPI device 'adc'",
    }
    for spec, want in cases.items():
        res = udrvd.call(DEVICES, "io.udrv1.Devices.OpenSpi", f"'{spec}'")
        assert res.returncode != 0 and want in res.stderr, (spec, res.stderr)


# ---- I2C ----

I2C_POLICY = """allow uid:1 transfer i2c device:0000:00:1f.4 0x50-0x57
allow uid:1 transfer i2c i2c-1 0x48
allow gid:2001 transfer i2c name:SMBus_stub_driver 0x50
allow gid:2001 open i2c-bus i2c-1
"""
I2C = "io.udrv1.I2c"
ADAPTER = "SMBus I801 adapter at f040"


def i2c_adapter(tree: FakeTree, num: int, name: str, controller: str | None) -> None:
    """i2c-<num> called <name> under sys/devices/<controller> (None: at the
    top, as i2c-stub's), its i2c-dev node root's alone; its one device at
    0x50 (tests/cli/fake_i2c_dev.c: the node's bytes are its registers, each
    its own number)."""
    adapter = f"sys/devices/{controller}/i2c-{num}" if controller else f"sys/devices/i2c-{num}"
    tree.file(f"{adapter}/name", f"{name}\n")
    link(tree, adapter, f"sys/bus/i2c/devices/i2c-{num}")
    cls = f"{adapter}/i2c-dev/i2c-{num}"
    tree.dir(cls)
    tree.dir("sys/class/i2c-dev")
    link(tree, "sys/class/i2c-dev", f"{cls}/subsystem")
    link(tree, adapter, f"{cls}/device")
    link(tree, cls, f"sys/dev/char/89:{num}")
    node(tree, f"i2c-{num}", f"89:{num}")
    tree.path(f"dev/i2c-{num}").write_bytes(bytes(range(256)))
    tree.file(f"dev/i2c-{num}.addr", "50\n")


@pytest.fixture
def i2c(tree: FakeTree) -> FakeTree:
    """i2c-1 (SMBus I801 adapter at f040) on PCI 0000:00:1f.4 with the
    kernel's lm75 at 0x48; i2c-7 (SMBus stub driver) with no controller."""
    i2c_adapter(tree, 1, ADAPTER, "pci0000:00/0000:00:1f.4")
    client = "sys/devices/pci0000:00/0000:00:1f.4/i2c-1/1-0048"
    tree.file(f"{client}/name", "lm75\n")
    tree.dir("sys/bus/i2c/drivers/lm75")
    link(tree, "sys/bus/i2c/drivers/lm75", f"{client}/driver")
    link(tree, client, "sys/bus/i2c/devices/1-0048")
    i2c_adapter(tree, 7, "SMBus stub driver", None)
    return tree


@pytest.fixture
def served(udrvd_bin: Path, fake_cdev: Path, bus: str, i2c: FakeTree,
           tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, i2c, tmp_path, I2C_POLICY,
                 (FAKE_SPIDEV, FAKE_I2C)) as d:  # fmt: skip
        yield d


def msg(addr: int, read: int = 0, write: bytes = b"", flags: int = 0) -> str:
    """One message of Transfer in GVariant's text: a read of @read bytes, or
    a write of @write."""
    data = ", ".join(f"0x{b:02x}" for b in write)
    length = read or len(write)
    head = f"(0x{addr:x}, 0x{flags | (1 if read else 0):x}, {length}"
    return f"{head}, [byte {data}])" if data else f"{head}, @ay [])"


def transfer(d: Udrvd, bus_spec: str, msgs: list[str], uid: int = ALICE,
             groups: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return d.call(DEVICES, f"{I2C}.Transfer", f"'{bus_spec}'",
                  "@a(qqqay) [" + ", ".join(msgs) + "]", uid=uid, groups=groups)


def log(d: Udrvd, num: int = 1) -> list[str]:
    """The transactions the fake bus saw."""
    path = d.tree.path(f"dev/i2c-{num}.log")
    return path.read_text().splitlines() if path.exists() else []


def test_granted_addresses_are_served(served: Udrvd) -> None:
    # an EEPROM's pointer written, then 4 bytes read, in one transaction
    for spec in ("1", "i2c-1", ADAPTER):
        res = transfer(served, spec, [msg(0x50, write=b"\x10"), msg(0x50, read=4)])
        assert res.returncode == 0, (spec, res.stderr)
        assert res.stdout.strip() == "([[byte 0x10, 0x11, 0x12, 0x13]],)", res.stdout
    assert log(served)[-2:] == ["rdwr-write 0x50", "rdwr-read 0x50"]
    res = served.call(DEVICES, f"{I2C}.ReadByteData", "'1'", "0x50", "0x20", uid=ALICE)
    assert res.stdout.strip() == "(byte 0x20,)", res.stderr
    res = served.call(DEVICES, f"{I2C}.WriteByteData", "'1'", "0x50", "0x20", "0xaa", uid=ALICE)
    assert res.returncode == 0, res.stderr
    res = served.call(DEVICES, f"{I2C}.ReadWordData", "'1'", "0x50", "0x20", uid=ALICE)
    assert res.stdout.strip() == "(uint16 8618,)", res.stderr
    res = served.call(DEVICES, f"{I2C}.WriteWordData", "'1'", "0x57", "0x0", "0x1", uid=ALICE)
    assert "System.Error.ENXIO: i2c-1 (SMBus I801 adapter at f040): " in res.stderr, \
        res.stderr  # granted; no device answers there
    assert served.tree.read_bytes("dev/i2c-1")[0x20] == 0xAA
    # the stub's adapter by its name, for the group
    res = transfer(served, "7", [msg(0x50, write=b"\x00"), msg(0x50, read=2)], uid=BOB,
                   groups=(DOOR,))  # fmt: skip
    assert res.stdout.strip() == "([[byte 0x00, 0x01]],)", res.stderr
    # and the user could not have opened the node itself
    own = served.run_as(["sh", "-c", f"exec 3<>{served.tree.path('dev/i2c-1')}"], ALICE)
    assert own.returncode != 0 and "Permission denied" in own.stderr, own


def test_every_message_s_address_is_checked(served: Udrvd) -> None:
    before = log(served)
    res = transfer(served, "1", [msg(0x50, write=b"\x10"), msg(0x60, read=1)])
    assert res.returncode != 0, res
    assert "AccessDenied: the policy refuses uid 1 (gid 1) 'transfer' at address 0x60 of " \
           "i2c-1 (SMBus I801 adapter at f040 at 0000:00:1f.4); the caller's rules on this " \
           "bus: " in res.stderr, res.stderr  # fmt: skip
    assert "(allow uid:1 transfer i2c device:0000:00:1f.4 0x50-0x57)" in res.stderr, res.stderr
    assert log(served) == before  # nothing sent, not even the granted message
    res = transfer(served, "1", [msg(0x50, read=1)], uid=BOB)
    assert "the policy refuses uid 2 (gid 2) 'transfer' at address 0x50 of i2c-1 " \
           "(SMBus I801 adapter at f040 at 0000:00:1f.4); no rule in " in res.stderr, \
        res.stderr  # fmt: skip
    res = served.call(DEVICES, f"{I2C}.ReadByteData", "'1'", "0x60", "0x0", uid=ALICE)
    assert "'transfer' at address 0x60 of i2c-1" in res.stderr, res.stderr
    # the group's rule is for the stub's adapter, not i2c-1
    res = transfer(served, "1", [msg(0x50, read=1)], uid=BOB, groups=(DOOR,))
    assert "'transfer' at address 0x50 of i2c-1" in res.stderr, res.stderr
    assert log(served) == before


def test_reserved_and_ten_bit_addresses_need_a_rule_that_names_them(
        udrvd_bin: Path, fake_cdev: Path, bus: str, i2c: FakeTree, tmp_path: Path) -> None:
    with serving(udrvd_bin, fake_cdev, bus, i2c, tmp_path, I2C_POLICY,
                 (FAKE_SPIDEV, FAKE_I2C)) as d:  # fmt: skip
        res = transfer(d, "1", [msg(0x00, write=b"\x06")])
        assert "'transfer' at address 0x00 of i2c-1 (SMBus I801 adapter at f040 at " \
               "0000:00:1f.4) (a reserved address, 0x00-0x02 or 0x78-0x7f: granted only by " \
               "a rule whose range holds it)" in res.stderr, res.stderr  # fmt: skip
        res = transfer(d, "1", [msg(0x50, read=1, flags=0x10)])
        assert "'transfer' at 10-bit address 0x50 of i2c-1" in res.stderr, res.stderr
        assert not log(d)
    with serving(udrvd_bin, fake_cdev, bus, i2c, tmp_path,
                 I2C_POLICY + "allow uid:1 transfer i2c i2c-1 0x00\n"
                 "allow uid:1 transfer i2c i2c-1 ten:0x050\n", (FAKE_SPIDEV, FAKE_I2C)) as d:
        res = transfer(d, "1", [msg(0x00, write=b"\x06")])
        assert "ENXIO: i2c-1 (SMBus I801 adapter at f040): transfer: no device answered at " \
               "0x00" in res.stderr, res.stderr  # fmt: skip
        res = transfer(d, "1", [msg(0x50, read=1, flags=0x10)])  # granted; the adapter lacks it
        assert "cannot do 10-bit addresses" in res.stderr, res.stderr
        assert log(d) == ["rdwr-write 0x00"]


def test_an_address_the_kernel_drives_is_refused(served: Udrvd) -> None:
    for res in (transfer(served, "1", [msg(0x48, read=2)]),
                served.call(DEVICES, f"{I2C}.ReadWordData", "'1'", "0x48", "0x0", uid=ALICE)):
        assert "AccessDenied: i2c-1 (SMBus I801 adapter at f040): address 0x48 is used by the " \
               "kernel's driver lm75 (client 1-0048)" in res.stderr, res.stderr  # fmt: skip
    assert not log(served)


def test_a_revoked_i2c_rule_refuses_the_next_transfer(served: Udrvd, tmp_path: Path) -> None:
    res = transfer(served, "1", [msg(0x50, read=1)])
    assert res.returncode == 0, res.stderr
    reload(served, tmp_path, I2C_POLICY.replace("0x50-0x57", "0x51-0x57"), 4)
    res = transfer(served, "1", [msg(0x50, read=1)])
    assert "AccessDenied: the policy refuses uid 1 (gid 1) 'transfer' at address 0x50 of " \
           "i2c-1" in res.stderr, res.stderr  # fmt: skip
    res = served.call(DEVICES, f"{I2C}.ReadByteData", "'1'", "0x50", "0x0", uid=ALICE)
    assert "'transfer' at address 0x50 of i2c-1" in res.stderr, res.stderr


def test_bad_transfers_are_refused_before_the_bus(served: Udrvd) -> None:
    big = [msg(0x50, read=8192)] * 9
    cases = {
        "more than 42": ([msg(0x50, read=1)] * 43, "more than 42 messages"),
        "none": ([], "0 messages: a transfer has 1 to 42"),
        "flags": ([msg(0x50, read=1, flags=0x4000)], "message 0: flags 0x4001"),
        "7-bit": ([msg(0x80, read=1)],
                  "message 0: 0x80 is not a 7-bit (flag 0x10 for 10-bit) address"),
        "10-bit": ([msg(0x400, read=1, flags=0x10)], "message 0: 0x400 is not a 10-bit address"),
        "long": (["(0x50, 1, 8193, @ay [])"], "message 0: 8193 bytes: at most 8192"),
        "read data": (["(0x50, 1, 1, [byte 0x01])"], "message 0: a read (flag 0x1) with 1 bytes"),
        "write length": (["(0x50, 0, 2, [byte 0x01])"],
                         "message 0: a write of 1 bytes whose length says 2"),
        "total": (big, "73728 bytes in the messages together: at most 65536"),
    }
    for name, (msgs, want) in cases.items():
        res = transfer(served, "1", msgs)
        assert f"InvalidArgs: {want}" in res.stderr, (name, res.stderr)
    res = served.call(DEVICES, f"{I2C}.ReadByteData", "'1'", "0x78", "0x0", uid=ALICE)
    assert "InvalidArgs: 0x78: an SMBus call takes a device's 7-bit address" in res.stderr, \
        res.stderr
    for spec, want in (("", "InvalidArgs: '' is no I2C bus"), ("9", "no I2C bus 9")):
        res = transfer(served, spec, [msg(0x50, read=1)])
        assert want in res.stderr, res.stderr
    assert not log(served)


def test_a_whole_bus_fd_gives_every_address(served: Udrvd, client: Path,
                                            tmp_path: Path) -> None:  # fmt: skip
    res = take(served, client, "i2c-bus", "1", "0x50", "0x10", uid=BOB, groups=(DOOR,))
    assert res.stdout == "i2c-bus i2c-1 0x50 0x10\n", res.stderr
    # every address: the kernel's lm75 too, forced (no device answers at the fake's 0x48)
    res = take(served, client, "i2c-bus", "i2c-1", "0x48", "0", "force", uid=BOB, groups=(DOOR,))
    assert "no device answered at 0x48" in res.stderr, res.stderr
    assert log(served)[-1] == "read-byte-data 0x48"
    res = take(served, client, "i2c-bus", "1", "0x50", "0x10", uid=ALICE)
    assert res.returncode == 1, res
    assert "AccessDenied: the policy refuses uid 1 (gid 1) 'open' on the whole i2c bus i2c-1 " \
           "(SMBus I801 adapter at f040 at 0000:00:1f.4); no rule in " in res.stderr, \
        res.stderr  # fmt: skip
    res = take(served, client, "i2c-bus", "7", "0x50", "0x10", uid=BOB, groups=(DOOR,))
    assert "'open' on the whole i2c bus i2c-7 (SMBus stub driver, no controller device); " \
           "the caller's rules for such devices: " in res.stderr, res.stderr  # fmt: skip
    reload(served, tmp_path, I2C_POLICY.replace("allow gid:2001 open i2c-bus i2c-1\n", ""), 3)
    res = take(served, client, "i2c-bus", "1", "0x50", "0x10", uid=BOB, groups=(DOOR,))
    assert "AccessDenied: the policy refuses uid 2 (gid 2 and its groups) 'open' on the " \
           "whole i2c bus i2c-1" in res.stderr, res.stderr  # fmt: skip


def test_a_stale_i2c_node_is_checked_as_the_bus_it_is(served: Udrvd, i2c: FakeTree) -> None:
    """/dev/i2c-1 is i2c-7's node (89:7): it is not taken for bus 1."""
    i2c.file("dev/i2c-1.rdev", "89:7\n")
    res = transfer(served, "1", [msg(0x50, read=1)])
    assert "FileNotFound: /dev/i2c-1 is now the node of i2c-7: ask again" in res.stderr, \
        res.stderr
    i2c.file("dev/i2c-1.rdev", "89:1\n")
    res = transfer(served, "1", [msg(0x50, read=1)])
    assert res.returncode == 0, res.stderr


def test_busctl_s_transfer_as_docs_udrvd_md_writes_it(served: Udrvd) -> None:
    """docs/udrvd.md's busctl line: a pointer written, four bytes read."""
    res = served.run_as(["busctl", f"--address={served.address}", "call", "io.gpiod1",
                         "/io/udrv1", "io.udrv1.I2c", "Transfer", "sa(qqqay)", "1", "2",
                         "0x50", "0", "1", "1", "0x10", "0x50", "1", "4", "0"], ALICE)  # fmt: skip
    assert res.stdout.strip() == "aay 1 4 16 17 18 19", res.stderr
