# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pci on a fake tree: the help, usage errors (exit 2), and the
runtime failures that need no device (exit 1) - no edu, a --device that is
not there or not an edu, vfio-pci not loaded - each leaving the binding as
it was. The measurement itself: tests/lab/test_bench_pci.py."""

from __future__ import annotations

import pytest

from tests.support.fakes import FakeTree, rt_system
from tests.support.udrv_runner import Runner

DEVICES = "sys/bus/pci/devices"
EDU = "0000:00:01.0"


def pci_fn(t: FakeTree, bdf: str, vendor: int, device: int, driver: str = "") -> None:
    t.file(f"{DEVICES}/{bdf}/vendor", f"0x{vendor:04x}\n")
    t.file(f"{DEVICES}/{bdf}/device", f"0x{device:04x}\n")
    if driver:
        t.dir(f"sys/bus/pci/drivers/{driver}")
        t.symlink(f"../../drivers/{driver}", f"{DEVICES}/{bdf}/driver")


def test_help_teaches_the_paths(bench: Runner) -> None:
    r = bench("pci", "--help")
    assert r.returncode == 0, r
    for word in ("uio-intx", "vfio-intx", "vfio-msi", "--via", "--device", "--samples",
                 "write_to_wake", "rearm", "VFIO_IRQ_SET_ACTION_UNMASK", "back"):
        assert word in r.stdout, word
    assert "pci " in bench("--help").stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--via", "msi"], "bad --via 'msi'"),
    (["--via", ""], "bad --via ''"),
    (["--via", "vfio-msi,"], "bad --via 'vfio-msi,'"),
    (["--via", "vfio-msi,,uio-intx"], "bad --via"),
    (["--via", "vfio-msi,vfio-msi"], "bad --via 'vfio-msi,vfio-msi': uio-intx, vfio-intx, "
                                     "vfio-msi (comma-separated, each once) or all"),
    (["--samples", "1e3"], "bad --samples"),
    (["extra"], "unexpected argument 'extra'"),
])
def test_bad_command_line_exits_2(bench: Runner, args: list[str], message: str) -> None:
    r = bench("pci", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r


def test_no_edu_exits_1(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    pci_fn(tree, "0000:00:02.0", 0x8086, 0x10d3)
    r = bench("pci", "-n", "3")
    assert r.returncode == 1, r
    assert "no PCI device with ID 1234:11e8" in r.stderr and "q35" in r.stderr, r


def test_device_not_there_or_not_edu_exits_1(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    pci_fn(tree, "0000:00:02.0", 0x8086, 0x10d3)
    r = bench("pci", "--device", "00:03.0")
    assert r.returncode == 1 and "--device 00:03.0: no such PCI device" in r.stderr, r
    r = bench("pci", "--device", "00:02.0")
    assert r.returncode == 1 and "0000:00:02.0: not QEMU's edu" in r.stderr, r
    r = bench("pci", "--device", "../../../..")
    assert r.returncode == 1 and "no such PCI device" in r.stderr, r


def _vfio_msi(bench: Runner) -> str:
    r = bench("pci", "-n", "3", "--via", "vfio-msi", "--device", "00:01.0")
    assert r.returncode == 1, r
    return r.stderr


def test_vfio_pci_not_loaded_exits_1_binding_kept(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    pci_fn(tree, EDU, 0x1234, 0x11e8, "uio_pci_generic")
    tree.dir("sys/kernel/iommu_groups/1/devices")
    tree.symlink("../../../kernel/iommu_groups/1", f"{DEVICES}/{EDU}/iommu_group")
    err = _vfio_msi(bench)
    assert "vfio-pci is not loaded" in err and "modprobe vfio-pci" in err, err
    assert tree.path(f"{DEVICES}/{EDU}/driver").resolve().name == "uio_pci_generic"


def test_no_iommu_exits_1_binding_kept(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    pci_fn(tree, EDU, 0x1234, 0x11e8, "uio_pci_generic")
    tree.dir("sys/bus/pci/drivers/vfio-pci")
    err = _vfio_msi(bench)
    assert "no IOMMU group" in err and "intel_iommu=on" in err, err
    assert tree.path(f"{DEVICES}/{EDU}/driver").resolve().name == "uio_pci_generic"
