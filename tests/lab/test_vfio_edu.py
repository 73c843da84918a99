# SPDX-License-Identifier: GPL-2.0-only
"""QEMU's edu device through VFIO on the q35 board (Intel IOMMU, vfio-pci):
examples/edu-vfio on both kernels, `udrv pci`, and each way opening a VFIO
device goes wrong, produced for real and its message checked; where a fix
exists, the fix is applied and seen to work (so a message that named the
wrong cause would fail).

The board's edus: 0000:00:01.0 alone in its IOMMU group (the one driven
here), 0000:01:01.0 and 0000:01:02.0 behind a PCI bridge, sharing its group.
The guest binds them all to uio_pci_generic at boot; every test puts back
what it changed (the `vfio_edu` fixture binds 00:01.0 to vfio-pci and back),
so the UIO tests and the benches on the same board see it as booted.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator

import pytest
from background import Background, guest_ok
from guest import Udrv, sh
from test_faults import SAN_REPORT, sanitized, waiting_in

from rig.lab import Board

EDU = "0000:00:01.0"
BRIDGED = ("0000:01:01.0", "0000:01:02.0")
BRIDGE = "0000:00:02.0"
VFIO_PCI_KO = "/lib/modules/$(uname -r)/kernel/drivers/vfio/pci/vfio-pci.ko"

# the tests that boot a board of their own boot this one (conftest.board_of)
LAB_BOARD = "std-q35"


def driver(board: Board, bdf: str) -> str:
    r = sh(board, f"basename $(readlink /sys/bus/pci/devices/{bdf}/driver) 2>/dev/null")
    return r.stdout.strip()


def bind(board: Board, bdf: str, drv: str) -> None:
    r = sh(board, f"udrv pci bind {bdf} {shlex.quote(drv)}")
    assert r.status == 0, r
    assert driver(board, bdf) == drv


def group_devices(board: Board, bdf: str) -> list[str]:
    r = sh(board, f"ls /sys/bus/pci/devices/{bdf}/iommu_group/devices")
    assert r.status == 0, r
    return r.stdout.split()


@pytest.fixture
def vfio_edu(q35_board: Board) -> Iterator[Board]:
    """edu 00:01.0 on vfio-pci for one test, then back on uio_pci_generic."""
    bind(q35_board, EDU, "vfio-pci")
    try:
        yield q35_board
    finally:
        bind(q35_board, EDU, "uio_pci_generic")


@pytest.fixture
def std_q35_edu(board_std_q35: Board) -> Iterator[Board]:
    """The same on std-q35 only: the error tests (one kernel is enough)."""
    yield board_std_q35
    for bdf in (EDU, *BRIDGED):
        if driver(board_std_q35, bdf) != "uio_pci_generic":
            bind(board_std_q35, bdf, "uio_pci_generic")


# ---- the board ----


def test_board_iommu_groups(q35_board: Board) -> None:
    """edu alone in its group; the bridged edus share the bridge's; interrupt
    remapping on; everything on uio_pci_generic as booted."""
    assert group_devices(q35_board, EDU) == [EDU]
    assert group_devices(q35_board, BRIDGED[0]) == sorted([BRIDGE, *BRIDGED])
    dmesg = sh(q35_board, "dmesg").stdout
    assert "DMAR-IR: Enabled IRQ remapping" in dmesg
    for bdf in (EDU, *BRIDGED):
        assert driver(q35_board, bdf) == "uio_pci_generic", bdf


@pytest.mark.lg_feature(["qemu"])
def test_board_modules_loaded(q35_board: Board) -> None:
    """vfio-pci and its modules loaded at boot (the QEMU board's boot record)."""
    assert q35_board.module_failures == {}


# ---- the example driver ----


def test_edu_vfio_example(vfio_edu: Board) -> None:
    r = sh(vfio_edu, "udrv-edu-vfio --json -n 50")
    assert r.status == 0, r
    out = json.loads(r.stdout)
    assert out["ok"] is True
    assert out["device"] == EDU
    assert out["ident"] == 0x010000ED and out["liveness"] == 0xEDCBA987
    assert out["factorial"][5] == 120 and out["factorial"][10] == 3628800
    assert out["factorial_irq"] == 3628800
    for irq in ("msi", "intx"):
        assert out[irq]["raised"] == out[irq]["round_trips"] == 50, out[irq]
        assert out[irq]["missed"] == 0
        assert out[irq]["raise_to_wake_ns"]["count"] == 50
    for way in ("ram_to_edu", "edu_to_ram"):
        assert out[way]["bytes"] == 4095
        assert out[way]["iova"] + 4096 <= 1 << 28  # within edu's DMA mask
    assert out["edu_to_ram"]["first_difference"] == -1


def test_edu_vfio_example_text(vfio_edu: Board) -> None:
    r = sh(vfio_edu, "udrv-edu-vfio -n 3 --dma-bytes 100")
    assert r.status == 0, r
    for text in ("ident      0x010000ed", "10! = 3628800 with the factorial-done interrupt",
                 "msi        3 of 3 round trips, 0 missed",
                 "intx       3 of 3 round trips, 0 missed",
                 "ram_to_edu 100 bytes from IOVA", "edu_to_ram 100 bytes to IOVA",
                 "verified byte for byte"):
        assert text in r.stdout, r


# ---- udrv pci ----


def test_pci_list_and_info(vfio_edu: Board) -> None:
    assert sh(vfio_edu, "udrv pci list --json").json() == [EDU]
    info = sh(vfio_edu, f"udrv pci info --json {EDU}").json()[0]
    group = int(sh(vfio_edu, f"basename $(readlink /sys/bus/pci/devices/{EDU}/iommu_group)")
                .stdout)
    assert (info["vendor"], info["device_id"], info["iommu_group"]) == (0x1234, 0x11E8, group)
    assert info["irqs"] == {"intx": 1, "msi": 1, "msix": 0}
    bar0 = info["regions"][0]
    assert (bar0["name"], bar0["size"], bar0["mmap"]) == ("bar0", 1 << 20, True)
    assert [r["size"] for r in info["regions"][1:6]] == [0] * 5  # BARs 1-5 unimplemented
    assert info["regions"][7]["name"] == "config" and info["regions"][7]["size"] >= 256
    text = sh(vfio_edu, f"udrv pci info {EDU}").stdout
    assert f"{EDU} 1234:11e8" in text and f"iommu group {group}" in text


def test_pci_peek_poke(vfio_edu: Board) -> None:
    r = sh(vfio_edu, f"udrv pci peek --json {EDU} 0x0")
    assert r.json() == [{"offset": 0, "value": 0x010000ED}]
    assert sh(vfio_edu, f"udrv pci poke {EDU} 0x4 0x12345678").status == 0
    assert sh(vfio_edu, f"udrv pci peek --json {EDU} 0x4").json()[0]["value"] == 0xEDCBA987
    # 64-bit: edu's DMA registers (0x80 on) take 8-byte accesses
    assert sh(vfio_edu, f"udrv pci poke -w 64 {EDU} 0x90 0x123456789").status == 0
    assert sh(vfio_edu, f"udrv pci peek -w 64 --json {EDU} 0x90").json() == [
        {"offset": 0x90, "value": 0x123456789}]
    assert sh(vfio_edu, f"udrv pci poke -w 64 {EDU} 0x90 0").status == 0


@pytest.mark.parametrize("irq", ["msi", "intx"])
def test_pci_wait(vfio_edu: Board, irq: str) -> None:
    r = sh(vfio_edu, f"udrv pci wait --json --irq {irq} -n 5 -t 1s "
                     f"--raise 0x60:1 --ack 0x64:1 {EDU}")
    assert r.status == 0, r
    lines = r.json_lines()
    assert [(e["irq"], e["count"], e["missed"]) for e in lines[:-1]] == [(irq, 1, 0)] * 5
    assert lines[-1] == {"irq": irq, "interrupts": 5, "missed": 0}


def test_pci_wait_intx_needs_the_unmask(vfio_edu: Board) -> None:
    """Break it: INTx without --ack is never acknowledged nor unmasked, so the
    second raise cannot interrupt: the wait says so instead of hanging."""
    r = sh(vfio_edu, f"udrv pci wait --irq intx -n 2 -t 300ms --raise 0x60:1 {EDU}")
    sh(vfio_edu, f"udrv pci poke {EDU} 0x64 0xffffffff")  # drop the line again
    assert r.status == 1, r
    assert len(r.stdout.splitlines()) == 1, r
    assert f"{EDU}: no intx interrupt within 300 ms" in r.stderr
    assert "1 interrupt, 0 missed" in r.stderr


# ---- each error, produced ----


def test_error_no_iommu(board_std: Board) -> None:
    """The pc board has no IOMMU: no iommu_group for edu."""
    r = sh(board_std, "udrv pci info 1234:11e8")
    assert r.status == 1, r
    assert "has no IOMMU group" in r.stderr and "intel_iommu=on" in r.stderr, r
    r = sh(board_std, "udrv pci list")
    assert r.status == 0 and "without an IOMMU" in r.stderr, r


def fix_commands(message: str) -> str:
    """The shell commands a 'bound to another driver' message gives."""
    m = re.search(r"not vfio-pci: (echo .*?) \(udrv_pci_bind\(\) does these steps\)", message)
    assert m, message
    return m.group(1)


def test_error_bound_to_another_driver(std_q35_edu: Board) -> None:
    """The message's commands, run as given, bind edu to vfio-pci."""
    b = std_q35_edu
    r = sh(b, f"udrv pci info {EDU}")
    assert r.status == 1, r
    assert f"{EDU} is bound to uio_pci_generic, not vfio-pci" in r.stderr, r
    assert f"udrv: to bind it: udrv pci bind {EDU} vfio-pci" in r.stderr, r
    fix = sh(b, fix_commands(r.stderr))
    assert fix.status == 0, fix
    assert driver(b, EDU) == "vfio-pci"
    assert sh(b, f"udrv pci info {EDU}").status == 0


def test_error_vfio_pci_not_loaded(std_q35_edu: Board) -> None:
    b = std_q35_edu
    assert sh(b, "rmmod vfio-pci").status == 0
    try:
        r = sh(b, f"udrv pci info {EDU}")
        assert r.status == 1, r
        assert "vfio-pci is not loaded" in r.stderr and "modprobe vfio-pci" in r.stderr, r
        assert "vfio-pci is not loaded" in sh(b, "udrv pci list").stderr
    finally:
        assert sh(b, f"insmod {VFIO_PCI_KO}").status == 0
    bind(b, EDU, "vfio-pci")  # and the fix works
    assert sh(b, f"udrv pci info {EDU}").status == 0


def test_error_group_not_viable(std_q35_edu: Board) -> None:
    """One bridged edu on vfio-pci, its group mate on uio_pci_generic; the
    two fixes the message gives make the group viable: the mate unbound, or
    on vfio-pci too (the bridge needs no driver)."""
    b = std_q35_edu
    bind(b, BRIDGED[0], "vfio-pci")
    r = sh(b, f"udrv pci info {BRIDGED[0]}")
    assert r.status == 1, r
    assert "is not viable" in r.stderr, r
    assert f"{BRIDGED[1]} (uio_pci_generic)" in r.stderr, r
    assert "udrv_pci_bind() with the driver" in r.stderr, r
    assert "udrv pci bind BDF ''" in r.stderr, r  # the tool's hint
    bind(b, BRIDGED[1], "")
    assert sh(b, f"udrv pci info {BRIDGED[0]}").status == 0
    bind(b, BRIDGED[1], "vfio-pci")
    assert sh(b, f"udrv pci info {BRIDGED[0]}").status == 0


def nobody(board: Board, command: str) -> Udrv:
    """@command as uid/gid 65534 (busybox su; the guest's passwd has root only)."""
    sh(board, "grep -q ^nobody: /etc/passwd || "
              "echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd")
    return sh(board, f"su -s /bin/sh nobody -c '{command}'")


def test_error_permission(std_q35_edu: Board) -> None:
    """/dev/vfio/N is root's (0600): a user gets the owner, group, mode and
    the fix (a group through a udev rule: tests/lab/test_access.py applies
    udrv's); after a chown the same user opens it."""
    b = std_q35_edu
    bind(b, EDU, "vfio-pci")
    group = sh(b, f"basename $(readlink /sys/bus/pci/devices/{EDU}/iommu_group)").stdout.strip()
    node = f"/dev/vfio/{group}"
    r = nobody(b, f"udrv pci info {EDU}")
    assert r.status == 1, r
    assert f"cannot open {node}" in r.stderr and "Permission denied" in r.stderr, r
    assert f"{node} is owner root, group root, mode 0600, for root alone: run as root, or " \
        "give a group access with a udev rule" in r.stderr, r
    assert "raise RLIMIT_MEMLOCK (ulimit -l) for DMA" in r.stderr, r
    assert sh(b, f"chown 65534 {node}").status == 0
    try:
        r = nobody(b, f"udrv pci info {EDU}")
        assert r.status == 0, r
    finally:
        sh(b, f"chown 0 {node}")


@pytest.mark.lg_feature(["qemu"])
def test_error_no_interrupt_remapping(board_std_q35: Board) -> None:
    """A q35 board of its own, booted with intremap=off: type1 refuses the
    group; with allow_unsafe_interrupts=1 it accepts it."""
    with Board("std-q35", append="intremap=off", quiet=True) as b:
        assert "DMAR-IR: Enabled IRQ remapping" not in sh(b, "dmesg").stdout
        bind(b, EDU, "vfio-pci")
        r = sh(b, f"udrv pci info {EDU}")
        assert r.status == 1, r
        assert "no interrupt remapping" in r.stderr and "allow_unsafe_interrupts" in r.stderr, r
        assert "intremap=on" in r.stderr, r
        unsafe = "/sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts"
        assert sh(b, f"echo 1 > {unsafe}").status == 0
        assert sh(b, f"udrv pci info {EDU}").status == 0


def test_error_bar_out_of_range(vfio_edu: Board) -> None:
    b = vfio_edu
    r = sh(b, f"udrv pci peek {EDU} 0x100000")  # BAR 0 is 1 MiB
    assert r.status == 2, r
    assert "is beyond 0000:00:01.0 BAR0 (0x100000 bytes)" in r.stderr, r
    assert sh(b, f"udrv pci peek {EDU} 0xffffc").status == 0  # its last register
    r = sh(b, f"udrv pci peek {EDU} 0xffffc 2")  # the second one is past the end
    assert r.status == 2 and "2 x 32-bit access at 0xffffc is beyond" in r.stderr, r
    r = sh(b, f"udrv pci peek --bar 1 {EDU} 0")
    assert r.status == 1, r
    assert "does not implement BAR 1" in r.stderr, r
    r = sh(b, f"udrv pci wait --raise 0x100000:1 {EDU}")
    assert r.status == 2 and "beyond" in r.stderr, r


def test_error_dma_beyond_mask(vfio_edu: Board) -> None:
    """edu's DMA mask is 28 bits: the last page below 256 MiB maps, the first
    page at 256 MiB is refused (the IOMMU itself would have taken it)."""
    r = sh(vfio_edu, "udrv-edu-vfio --dma-iova 0x10000000")
    assert r.status == 1, r
    assert "IOVA 0x10000000" in r.stderr and "beyond the DMA mask" in r.stderr, r
    assert "28 bits" in r.stderr, r
    r = sh(vfio_edu, "udrv-edu-vfio --dma-iova 0xffff000")
    assert r.status == 0, r


def test_error_vendor_device_not_unique(std_q35_edu: Board) -> None:
    """Three edus on the board: 1234:11e8 names no single one."""
    r = sh(std_q35_edu, "udrv pci info 1234:11e8")
    assert r.status == 1, r
    for bdf in (EDU, *BRIDGED):
        assert bdf in r.stderr, r


def test_pci_wait_sigint_releases_the_device(vfio_edu: Board) -> None:
    """SIGINT ends a wait with its summary and exit 0; the device is free
    again at once (VFIO lets one process have a group)."""
    r = sh(vfio_edu, f"udrv pci wait --json -n 1000 -t 20s {EDU} > /root/w.out 2>&1 & p=$!; "
                     f"sleep 0.5; kill -INT $p; wait $p; echo rc=$?; cat /root/w.out; "
                     f"udrv pci info {EDU} > /dev/null && echo reopened")
    assert r.status == 0, r
    lines = r.stdout.splitlines()
    assert lines[0] == "rc=0", r
    assert json.loads(lines[1]) == {"irq": "msi", "interrupts": 0, "missed": 0}, r
    assert lines[-1] == "reopened", r


def test_pci_wait_ends_when_vfio_pci_lets_edu_go(vfio_edu: Board) -> None:
    """The sanitized CLI waiting on MSI; edu unbound from vfio-pci, which asks
    the user for the device (VFIO's request interrupt) and blocks until it is
    closed: udrv ends within a second of guest time, exit 1, saying so, with
    no sanitizer report; the unbind then completes."""
    b = vfio_edu
    job = Background(b, "vfio-gone", f"{sanitized(b)} pci wait --irq msi {EDU}")
    try:
        waiting_in(b, job, "/dev/vfio/")
        t0 = float(guest_ok(b, f"cut -d' ' -f1 /proc/uptime; "
                               f"echo {EDU} > /sys/bus/pci/drivers/vfio-pci/unbind").split()[0])
        end = job.ended()
    finally:
        job.kill()
    said = end.stdout + end.stderr
    assert not SAN_REPORT.search(said), said
    assert end.status == 1, said
    assert f"the kernel asks for {EDU} back" in end.stderr, said
    assert end.at - t0 <= 1.0, f"ended {end.at - t0:.2f} s after the unbind (guest time)"
    assert driver(b, EDU) == ""

