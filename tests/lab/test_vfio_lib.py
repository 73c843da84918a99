# SPDX-License-Identifier: GPL-2.0-only
"""libudrv's VFIO object itself on QEMU's edu, on the q35 boards (Intel IOMMU
with interrupt remapping): tests/lab/progs/vfio_check.c drives the library
(udrv_pci_bind, open by address, BARs, MSI and INTx round trips with INTx's
masking seen, DMA both ways through buffers the allocator placed below edu's
28-bit mask, the DMA and BAR errors, a second open of the group) and prints
each check as JSON. It binds edu 00:01.0 to vfio-pci and back to the driver
it had (uio_pci_generic at boot), so the tests after it see the board as
booted.
"""

from __future__ import annotations

import json

import pytest
from guest import sh

from rig.lab import Board

pytestmark = pytest.mark.lg_feature(["iommu", "edu"])

EDU = "0000:00:01.0"
CHECK = "/usr/libexec/udrv/udrv-vfio-check"


def test_vfio_library_on_edu(q35_board: Board) -> None:
    r = sh(q35_board, f"{CHECK} 100 {EDU}")
    out = json.loads(r.stdout)
    # every check is a boolean; can_reset is what edu has (no reset)
    failed = [k for k, v in out.items() if v is False and k != "can_reset"]
    assert out["can_reset"] is False and out["reset_enotsup"] is True
    assert r.status == 0 and out["failures"] == 0 and not failed, (failed, r.stderr)
    assert out["driver_before"] == "uio_pci_generic" and out["restored"] is True
    assert out["bdf"] == EDU and (out["vendor"], out["device"]) == (0x1234, 0x11E8)
    assert out["ident"] == 0x010000ED and out["liveness"] == 0xEDCBA987
    assert (out["intx"], out["msi"], out["msix"]) == (1, 1, 0)
    # every raise woke exactly one wait, with nothing missed
    assert out["msi_trips"] == out["intx_trips"] == 100 and out["missed"] == 0
    # the allocator: the lowest free pages, never IOVA 0, below the mask
    assert (out["dma_iova_to"], out["dma_iova_from"]) == (0x1000, 0x2000)
    assert "28 bits: 0xfffffff" in out["dma_beyond_mask_message"]
    assert "does not implement BAR 1 (size 0)" in out["bar1_message"]
    assert "the group is open already" in out["second_open_message"]


def driver(board: Board, bdf: str) -> str:
    r = sh(board, f"basename $(readlink /sys/bus/pci/devices/{bdf}/driver) 2>/dev/null")
    return r.stdout.strip()


def test_vfio_check_fails_when_a_check_fails(q35_board: Board) -> None:
    """The program is no test that cannot fail: on the bridged edu 01:01.0,
    whose group mate 01:02.0 stays on uio_pci_generic, the open fails (the
    group is not viable, and the message blames the mate, not the bridge
    without a driver), it says so and exits 1, and still puts the device
    back."""
    r = sh(q35_board, f"{CHECK} 1 0000:01:01.0")
    assert r.status == 1, r
    out = json.loads(r.stdout)
    assert out["bind"] is True and out["open"] is False and out["failures"] >= 1
    assert "is not viable" in out["open_message"]
    assert "0000:01:02.0 (uio_pci_generic)" in out["open_message"]
    assert "0000:00:02.0" not in out["open_message"]
    assert out["restored"] is True and driver(q35_board, "0000:01:01.0") == "uio_pci_generic"
