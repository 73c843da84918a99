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
