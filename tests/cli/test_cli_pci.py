# SPDX-License-Identifier: GPL-2.0-only
"""udrv pci on fake PCI trees: usage errors (exit 2) and what can fail before
VFIO's ioctls (exit 1: no such device, no IOMMU, bound to another driver,
vfio-pci not loaded). The ioctl paths need a real /dev/vfio: the lab covers
them (tests/lab/test_vfio_edu.py).

The fake layout, as Linux 6.1 has it::

    sys/bus/pci/devices/0000:00:01.0/{vendor,device}
    sys/bus/pci/devices/0000:00:01.0/iommu_group -> ../../../kernel/iommu_groups/1
    sys/bus/pci/devices/0000:00:01.0/driver -> ../../../bus/pci/drivers/DRIVER
    sys/bus/pci/drivers/DRIVER/0000:00:01.0 -> ../../../../devices/.../0000:00:01.0
    sys/kernel/iommu_groups/1/devices/0000:00:01.0
"""

from __future__ import annotations

import pytest

from tests.support.fakes import FakeTree, sysfs_mounted
from tests.support.udrv_runner import Runner

EDU = "0000:00:01.0"


def pci_dev(t: FakeTree, bdf: str = EDU, *, group: int | None = 1, driver: str | None = None,
            ids: tuple[str, str] = ("0x1234", "0x11e8")) -> None:
    """A PCI device; group None: no IOMMU; driver None: unbound."""
    sysfs_mounted(t)
    d = f"sys/bus/pci/devices/{bdf}"
    t.file(f"{d}/vendor", ids[0] + "\n")
    t.file(f"{d}/device", ids[1] + "\n")
    if group is not None:
        t.dir(f"sys/kernel/iommu_groups/{group}/devices")
        t.symlink(f"../../../../bus/pci/devices/{bdf}",
                  f"sys/kernel/iommu_groups/{group}/devices/{bdf}")
        t.symlink(f"../../../kernel/iommu_groups/{group}", f"{d}/iommu_group")
    if driver is not None:
        t.dir(f"sys/bus/pci/drivers/{driver}")
        t.symlink(f"../../../bus/pci/drivers/{driver}", f"{d}/driver")
        t.symlink(f"../../../../bus/pci/devices/{bdf}", f"sys/bus/pci/drivers/{driver}/{bdf}")


def vfio_loaded(t: FakeTree) -> None:
    t.dir("sys/bus/pci/drivers/vfio-pci")


# ---- usage (exit 2) ----


def test_no_command_prints_help_exit_2(udrv: Runner, tree: FakeTree) -> None:
    r = udrv("pci")
    assert r.returncode == 2, r
    assert "Usage: udrv pci COMMAND" in r.stdout
    for cmd in ("list", "info", "peek", "poke", "wait", "bind"):
        assert f"  {cmd} " in r.stdout, cmd


@pytest.mark.parametrize("cmd", ["list", "info", "peek", "poke", "wait", "bind"])
def test_help_teaches(udrv: Runner, tree: FakeTree, cmd: str) -> None:
    r = udrv("pci", cmd, "--help")
    assert r.returncode == 0, r
    assert f"udrv pci {cmd}" in r.stdout
    assert r.stderr == ""


def test_unknown_command(udrv: Runner, tree: FakeTree) -> None:
    r = udrv("pci", "frobnicate")
    assert r.returncode == 2, r
    assert "unknown command 'pci frobnicate'" in r.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["peek", "--bar", "6", EDU, "0"], "bad --bar '6': 0..5"),
    (["peek", "--bar", "-1", EDU, "0"], "bad --bar '-1'"),
    (["peek", "-w", "12", EDU, "0"], "bad --width '12'"),
    (["peek", EDU], "give DEVICE OFFSET [COUNT]"),
    (["peek", EDU, "zz"], "OFFSET and COUNT must be numbers"),
    (["peek", EDU, "0", "1", "2"], "give DEVICE OFFSET [COUNT]"),
    (["poke", EDU, "0x4"], "give DEVICE OFFSET VALUE"),
    (["poke", "-w", "8", EDU, "0x4", "0x100"], "does not fit in 8 bits"),
    (["wait", "--irq", "msx", EDU], "bad --irq 'msx': intx, msi or msix"),
    (["wait", "--raise", "0x60", EDU], "bad --raise '0x60': OFFSET:VALUE"),
    (["wait", "--ack", "0x64:0x100000000", EDU], "bad --ack"),
    (["wait", "--ack", "0x64:", EDU], "bad --ack"),
    (["wait", "-n", "0", EDU], "bad --num '0'"),
    (["wait", "-t", "soon", EDU], "bad --timeout 'soon'"),
    (["wait", "--vectors", "0", EDU], "bad --vectors '0'"),
    (["wait"], "give exactly one DEVICE"),
    (["wait", EDU, EDU], "give exactly one DEVICE"),
    (["bind", EDU], "give DEVICE DRIVER"),
    (["list", "extra"], "unexpected argument 'extra'"),
], ids=lambda v: "-".join(v) if isinstance(v, list) else None)
def test_usage_errors_exit_2(udrv: Runner, tree: FakeTree, args: list[str],
                             message: str) -> None:
    pci_dev(tree, driver="vfio-pci")
    r = udrv("pci", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "--help" in r.stderr, r


@pytest.mark.parametrize("spec", ["zz", "0000:00:01", "1234:11e8:1", "00:20.0", "0000:00:01.8"])
def test_malformed_device_exit_2(udrv: Runner, tree: FakeTree, spec: str) -> None:
    pci_dev(tree, driver="vfio-pci")
    for cmd in (["info"], ["peek"], ["wait"]):
        r = udrv("pci", *cmd, spec, *(["0"] if cmd == ["peek"] else []))
        assert r.returncode == 2, r
        assert spec in r.stderr, r


def test_bind_malformed_device_exit_2(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="uio_pci_generic")
    r = udrv("pci", "bind", "zz", "vfio-pci")
    assert r.returncode == 2, r
    assert "'zz'" in r.stderr, r


# ---- runtime failures before VFIO (exit 1) ----


def test_no_such_device(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="vfio-pci")
    r = udrv("pci", "info", "0000:00:05.0")
    assert r.returncode == 1, r
    assert "0000:00:05.0" in r.stderr, r


def test_no_iommu_names_the_kernel_parameter(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, group=None, driver="vfio-pci")
    r = udrv("pci", "info", EDU)
    assert r.returncode == 1, r
    assert f"{EDU} has no IOMMU group" in r.stderr, r
    assert "intel_iommu=on" in r.stderr and "amd_iommu=on" in r.stderr, r


def test_bound_to_another_driver_gives_the_commands(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="uio_pci_generic")
    vfio_loaded(tree)
    r = udrv("pci", "peek", EDU, "0")
    assert r.returncode == 1, r
    assert f"{EDU} is bound to uio_pci_generic, not vfio-pci" in r.stderr, r
    assert f"echo {EDU} > /sys/bus/pci/devices/{EDU}/driver/unbind" in r.stderr, r
    assert f"echo vfio-pci > /sys/bus/pci/devices/{EDU}/driver_override" in r.stderr, r
    assert f"echo {EDU} > /sys/bus/pci/drivers_probe" in r.stderr, r
    assert f"udrv: to bind it: udrv pci bind {EDU} vfio-pci" in r.stderr, r


def test_vfio_pci_not_loaded(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="uio_pci_generic")
    r = udrv("pci", "wait", EDU)
    assert r.returncode == 1, r
    assert "vfio-pci is not loaded" in r.stderr and "modprobe vfio-pci" in r.stderr, r


def test_vendor_device_spec_resolves(udrv: Runner, tree: FakeTree) -> None:
    """1234:11e8 finds the one edu, then fails on its driver like the address does."""
    pci_dev(tree, driver="uio_pci_generic")
    vfio_loaded(tree)
    r = udrv("pci", "info", "1234:11e8")
    assert r.returncode == 1, r
    assert f"{EDU} is bound to uio_pci_generic" in r.stderr, r


def test_bind_without_the_driver(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="uio_pci_generic")
    r = udrv("pci", "bind", EDU, "vfio-pci")
    assert r.returncode == 1, r
    assert "vfio-pci" in r.stderr and "modprobe vfio-pci" in r.stderr, r


# ---- list ----


def test_list_nothing_says_why(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, group=None, driver="uio_pci_generic")
    r = udrv("pci", "list")
    assert r.returncode == 0, r
    assert r.stdout == ""
    assert "without an IOMMU" in r.stderr and "intel_iommu=on" in r.stderr, r


def test_list_nothing_bound(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="uio_pci_generic")
    vfio_loaded(tree)
    r = udrv("pci", "list")
    assert r.returncode == 0, r
    assert "udrv pci bind BDF vfio-pci" in r.stderr, r


def test_list_human_and_json(udrv: Runner, tree: FakeTree) -> None:
    pci_dev(tree, driver="vfio-pci")
    pci_dev(tree, "0000:01:02.0", group=2, driver="vfio-pci")
    pci_dev(tree, "0000:01:01.0", group=2, driver="uio_pci_generic")
    r = udrv("pci", "list")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == [EDU, "0000:01:02.0"]
    r = udrv("pci", "list", "--json")
    assert r.returncode == 0, r
    assert r.json() == [EDU, "0000:01:02.0"]
