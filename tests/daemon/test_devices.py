# SPDX-License-Identifier: GPL-2.0-only
"""io.udrv1.Devices on the host (conftest.py's private bus and fake tree):
udrvd hands one UIO device's fd to the user its policy names, and that user,
who cannot open the node itself, maps the device through it
(udrv_uio_open_fd); another user, or a device the rule does not name, is
refused with the rule named. VFIO: the refusals, and udrvd's own open
failing with libudrv's message (the fake tree has no VFIO; the hand-over
itself runs in the lab on the q35 boards, tests/lab/test_udrvd_devices.py).

Each refusal has its grant beside it: the same call from the user the rule
names, or after the rule is added, succeeds, so a refusal that came from
anything but the check fails a test."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import Udrvd, serving
from tests.support.fakes import FakeTree, iommu_group, uio_dev_file, uio_device, uio_map, uio_node

ALICE, BOB, DOOR = 1, 2, 2001
POLICY = """# io.udrv1.Devices on the host
allow uid:1 open uio fpga
allow gid:2001 open uio ticker
allow uid:1 open vfio 0000:01:00.0
"""
DEVICES = "/io/udrv1"
WORD = 0x04030201  # the first word of uio0's map 0 (below)


@pytest.fixture
def devices(tree: FakeTree) -> FakeTree:
    """uio0 'fpga' (map 0 of a page, its first bytes 01 02 03 04), uio1
    'ticker', uio2 'spare', platform devices 4000N000.NAME, nodes 243:N; the
    nodes owned by root, mode 0644: no user here could open them for
    writing itself."""
    for num, name in enumerate(["fpga", "ticker", "spare"]):
        uio_ready(tree, num, name, f"platform/4000{num}000.{name}")
    return tree


def uio_ready(tree: FakeTree, num: int, name: str, parent: str | None,
              rdev: tuple[int, int] | None = None) -> None:  # fmt: skip
    """uio<num> called <name> under <parent>, with a map and its node."""
    uio_device(tree, num, name)
    uio_node(tree, num, parent, rdev)
    uio_map(tree, num, 0, "regs", 0x40000000 + num * 0x1000, 0x100)
    uio_dev_file(tree, num, pages=1)
    with tree.path(f"dev/uio{num}").open("r+b") as f:
        f.write(bytes([1, 2, 3, 4]))
    os.chmod(tree.path(f"dev/uio{num}"), 0o644)


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, devices: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, POLICY) as d:
        yield d


def take(d: Udrvd, client: Path, *args: str, uid: int = 0,
         groups: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """tests/daemon/client.c with @args, as @uid, on the fake tree."""
    return d.run_as(["env", f"UDRV_SYSROOT={d.tree.root}", str(client), *args], uid, groups)


def test_the_granted_user_maps_the_device_through_the_fd(udrvd: Udrvd, client: Path) -> None:
    res = take(udrvd, client, "uio", "fpga", uid=ALICE)
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"uio uio0 fpga 0x{WORD:08x}\n"
    # by its node too: the rule is checked against the device's name
    res = take(udrvd, client, "uio", "uio0", uid=ALICE)
    assert res.stdout == f"uio uio0 fpga 0x{WORD:08x}\n", res.stderr
    # and the user could not have opened the node itself
    own = udrvd.run_as(["sh", "-c", f"exec 3<>{udrvd.tree.path('dev/uio0')}"], ALICE)
    assert own.returncode != 0 and "Permission denied" in own.stderr, own


def test_another_user_is_refused_naming_the_rules(udrvd: Udrvd, client: Path) -> None:
    res = take(udrvd, client, "uio", "fpga", uid=BOB)
    assert res.returncode == 1
    assert ("org.freedesktop.DBus.Error.AccessDenied: the policy refuses uid 2 (gid 2) "
            "'open' on uio device uio0 (fpga at 40000000.fpga); no rule in ") in res.stderr, \
        res.stderr
    # the same user, with the group the ticker's rule names, gets the ticker
    res = take(udrvd, client, "uio", "ticker", uid=BOB, groups=(DOOR,))
    assert res.stdout == f"uio uio1 ticker 0x{WORD:08x}\n", res.stderr


def test_a_device_the_rule_does_not_name_is_refused(udrvd: Udrvd, client: Path) -> None:
    for spec in ("spare", "uio2", "/dev/uio2"):
        res = take(udrvd, client, "uio", spec, uid=ALICE)
        assert res.returncode == 1, res
        assert "refuses uid 1 (gid 1) 'open' on uio device uio2 (spare at 40002000.spare); " \
               "the caller's rules for such devices: " in res.stderr, res.stderr  # fmt: skip
        assert "(allow uid:1 open uio fpga)" in res.stderr, res.stderr


def test_bad_device_names(udrvd: Udrvd) -> None:
    cases = {
        "": "InvalidArgs: no UIO device given",
        "uio99999999999": "InvalidArgs: UIO device number in 'uio99999999999' is out of range",
        "uio7": "FileNotFound: no UIO device 'uio7' (available: uio0 (fpga)",
        "x" * 80: "InvalidArgs: no UIO device is called",
    }
    for spec, want in cases.items():
        res = udrvd.call(DEVICES, "io.udrv1.Devices.OpenUio", f"'{spec}'")
        assert res.returncode != 0 and want in res.stderr, (spec, res.stderr)


def test_a_granted_name_without_a_device_says_so(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                   devices: FakeTree, tmp_path: Path) -> None:
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path,
                 "allow uid:0 open uio gone\n") as d:  # fmt: skip
        res = d.call(DEVICES, "io.udrv1.Devices.OpenUio", "'gone'")
    assert res.returncode != 0
    assert "FileNotFound: no UIO device 'gone' (available: uio0 (fpga) uio1 (ticker) " \
           "uio2 (spare))" in res.stderr, res.stderr  # fmt: skip


def test_vfio_refusals(udrvd: Udrvd, client: Path) -> None:
    res = take(udrvd, client, "vfio", "0000:01:00.0", uid=BOB)
    assert "the policy refuses uid 2 (gid 2) 'open' on vfio device " \
           "0000:01:00.0" in res.stderr, res.stderr  # fmt: skip
    # a rule names the address in the kernel's spelling: 01:00.0 is the same device
    res = take(udrvd, client, "vfio", "01:00.0", uid=BOB)
    assert "'open' on vfio device 0000:01:00.0" in res.stderr, res.stderr
    res = take(udrvd, client, "vfio", "1234:11e8", uid=ALICE)
    assert "InvalidArgs: '1234:11e8' is not a PCI address: udrvd opens VFIO devices by " \
           "address" in res.stderr, res.stderr  # fmt: skip
    # granted: udrvd's own open fails here (no such device), with libudrv's message
    res = take(udrvd, client, "vfio", "0000:01:00.0", uid=ALICE)
    assert res.returncode == 1
    assert "OpenVfio: " in res.stderr and "0000:01:00.0" in res.stderr, res.stderr
    assert "AccessDenied" not in res.stderr, res.stderr


def test_a_stale_node_is_checked_as_the_device_it_is(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                       devices: FakeTree, tmp_path: Path,
                                                       client: Path) -> None:  # fmt: skip
    """/dev/uio0 is uio2's node (243:2) while sysfs calls uio0 'fpga': the
    name read before the open would grant it; the dev_t of the node udrvd
    opened names spare, which the rule does not."""
    devices.file("dev/uio0.rdev", "243:2\n")
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, POLICY) as d:
        for spec in ("fpga", "uio0"):
            res = take(d, client, "uio", spec, uid=ALICE)
            assert res.returncode == 1, res
            assert "AccessDenied: the policy refuses uid 1 (gid 1) 'open' on uio device uio2 " \
                   "(spare at 40002000.spare)" in res.stderr, res.stderr  # fmt: skip
    # spare granted too: the node is still not uio0's, and udrvd says so
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path,
                 POLICY + "allow uid:1 open uio spare\n") as d:  # fmt: skip
        res = take(d, client, "uio", "uio0", uid=ALICE)
        assert res.returncode == 1, res
        assert "FileNotFound: /dev/uio0 is now the node of uio2 (spare), not of uio0: ask " \
               "again" in res.stderr, res.stderr  # fmt: skip
        devices.file("dev/uio0.rdev", "243:0\n")  # the node fixed: granted
        res = take(d, client, "uio", "uio0", uid=ALICE)
        assert res.stdout == f"uio uio0 fpga 0x{WORD:08x}\n", res.stderr


def test_a_node_that_is_no_uio_device_is_refused(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                  devices: FakeTree,
                                                  tmp_path: Path) -> None:  # fmt: skip
    """A node whose dev_t sysfs does not show as a UIO device (or a plain
    file) is not handed out, whatever the name in /sys/class/uio says."""
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, "allow uid:0 open uio fpga\n") as d:
        devices.file("dev/uio0.rdev", "243:9\n")
        res = d.call(DEVICES, "io.udrv1.Devices.OpenUio", "'uio0'")
        assert res.returncode != 0
        assert "FileNotFound: /dev/uio0 is the node of 243:9, which " in res.stderr, res.stderr
        assert "does not show as a UIO device" in res.stderr, res.stderr
        # a character device called uio9 of another subsystem
        devices.dir("sys/devices/virtual/misc/uio9")
        devices.symlink("../../../../class/misc", "sys/devices/virtual/misc/uio9/subsystem")
        devices.symlink("../../devices/virtual/misc/uio9", "sys/dev/char/243:9")
        res = d.call(DEVICES, "io.udrv1.Devices.OpenUio", "'uio0'")
        assert "FileNotFound: /dev/uio0 is the node of 243:9, which " in res.stderr, res.stderr
        devices.path("dev/uio0.rdev").unlink()
        res = d.call(DEVICES, "io.udrv1.Devices.OpenUio", "'uio0'")
        assert res.returncode != 0
        assert "FileNotFound: /dev/uio0 is not a character device" in res.stderr, res.stderr


GENERIC = "uio_pci_generic"


def test_a_name_two_devices_share_grants_neither(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                  devices: FakeTree, tmp_path: Path,
                                                  client: Path) -> None:  # fmt: skip
    """uio_pci_generic names every device alike: a rule by that name grants
    the device while it is the only one, and none once a second is bound
    (no rule of the admin's gives the newcomer); device:ADDRESS names one."""
    uio_ready(devices, 3, GENERIC, "pci0000:00/0000:00:04.0")
    policy = f"allow uid:1 open uio {GENERIC}\nallow uid:2 open uio device:00:05.0\n"
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, policy) as d:
        res = take(d, client, "uio", "uio3", uid=ALICE)
        assert res.stdout == f"uio uio3 {GENERIC} 0x{WORD:08x}\n", res.stderr
        uio_ready(devices, 4, GENERIC, "pci0000:00/0000:00:05.0")  # bound later
        for spec in ("uio3", "uio4"):
            res = take(d, client, "uio", spec, uid=ALICE)
            assert res.returncode == 1, res
            assert f"(allow uid:1 open uio {GENERIC}) names a driver that 2 devices have " \
                   "now, which gives none of them: name the device (allow ... open uio " \
                   "device:0000:00:0" in res.stderr, res.stderr  # fmt: skip
        res = take(d, client, "uio", GENERIC, uid=ALICE)
        assert f"InvalidArgs: 2 UIO devices are called '{GENERIC}' (uio3 at 0000:00:04.0, " \
               "uio4 at 0000:00:05.0): ask for one by its node, uioN" in res.stderr, res.stderr
        # the device rule: that device, not its twin
        res = take(d, client, "uio", "uio4", uid=BOB)
        assert res.stdout == f"uio uio4 {GENERIC} 0x{WORD:08x}\n", res.stderr
        res = take(d, client, "uio", "uio3", uid=BOB)
        assert res.returncode == 1, res
        assert f"'open' on uio device uio3 ({GENERIC} at 0000:00:04.0); the caller's rules " \
               "for such devices: " in res.stderr, res.stderr  # fmt: skip


VFIO_POLICY = "allow uid:1 open vfio 0000:01:00.0\nallow uid:2 open vfio 0000:01:00.0\n" \
              "allow uid:2 open vfio 01:00.1\n"  # fmt: skip


def test_a_vfio_grant_needs_every_device_of_the_group(udrvd_bin: Path, fake_cdev: Path,
                                                      bus: str, devices: FakeTree,
                                                      tmp_path: Path,
                                                      client: Path) -> None:  # fmt: skip
    """IOMMU group 7 holds 0000:01:00.0 and 0000:01:00.1 (two functions of a
    card) and the root port above them, 0000:00:1c.0 (no ACS): its group fd
    would give both functions, so a rule for one is not enough; the bridge,
    which VFIO never hands out, needs none."""
    iommu_group(devices, 7, ["0000:00:1c.0", "0000:01:00.0", "0000:01:00.1"],
                {"0000:00:1c.0": 0x060400, "0000:01:00.0": 0x020000})  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, VFIO_POLICY) as d:
        res = take(d, client, "vfio", "0000:01:00.0", uid=ALICE)
        assert res.returncode == 1, res
        assert "AccessDenied: the policy refuses uid 1 'open' on vfio device 0000:01:00.0: its " \
               "IOMMU group 7 holds 0000:01:00.1 too, which the caller has no rule for, and a " \
               "VFIO group gives every device in it (and DMA between them); grant each " \
               "(allow ... open vfio 0000:01:00.1)" in res.stderr, res.stderr  # fmt: skip
        # both granted: the group passes, and udrvd's own open fails here
        # (the fake tree has no vfio-pci) with libudrv's message
        res = take(d, client, "vfio", "0000:01:00.0", uid=BOB)
        assert res.returncode == 1, res
        assert "OpenVfio: " in res.stderr and "vfio-pci" in res.stderr, res.stderr
        assert "AccessDenied" not in res.stderr, res.stderr
    # a group udrvd cannot list is not handed out
    iommu_group(devices, 8, ["0000:02:00.0"])
    shutil.rmtree(devices.path("sys/kernel/iommu_groups/8/devices"))
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path,
                 "allow uid:1 open vfio 0000:02:00.0\n") as d:  # fmt: skip
        res = take(d, client, "vfio", "0000:02:00.0", uid=ALICE)
        assert "AccessDenied: cannot list the IOMMU group of 0000:02:00.0" in res.stderr, \
            res.stderr
    # a group member that is no PCI device: no rule can name it
    devices.dir("sys/devices/platform/smmu-client")
    devices.symlink("../../../../devices/platform/smmu-client",
                    "sys/kernel/iommu_groups/7/devices/smmu-client")
    with serving(udrvd_bin, fake_cdev, bus, devices, tmp_path, VFIO_POLICY) as d:
        res = take(d, client, "vfio", "0000:01:00.0", uid=BOB)
        assert "holds smmu-client (not a PCI device: no rule can name it) too" in res.stderr, \
            res.stderr
