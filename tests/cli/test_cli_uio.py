# SPDX-License-Identifier: GPL-2.0-only
"""udrv uio on fake devices.

uio0 "fpga" has two maps: map0 "regs" (0x100 bytes at offset 0 of page 0 of
/dev/uio0) and map1 "sram" (0x20 bytes, 0x10 into page 1).  /dev/uio0 is a
regular file for peek/poke (mmap works on it) and a FIFO for wait (counts
written into it are what read() returns after an interrupt).
"""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from tests.support.fakes import (
    FPGA_PATTERN,
    PAGE_SIZE,
    FakeTree,
    pci_device,
    uio_counts,
    uio_dev_file,
    uio_device,
    uio_fpga,
    uio_fpga_fifo,
    uio_fpga_mapped,
    uio_port,
)
from tests.support.udrv_runner import Runner

PATTERN = FPGA_PATTERN


@pytest.fixture
def mapped(tree: FakeTree) -> FakeTree:
    return uio_fpga_mapped(tree)


@pytest.fixture
def fifo(tree: FakeTree) -> FakeTree:
    return uio_fpga_fifo(tree)


# ---- info ----


def test_info_human(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "info")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == [
        "uio0 [fpga] version 0.1",
        "  map0  regs             addr 0x40000000 size 0x100 offset 0x0",
        "  map1  sram             addr 0x40001010 size 0x20 offset 0x10",
    ]


def test_info_json(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "info", "--json")
    assert r.returncode == 0, r
    assert r.json() == [{
        "device": "uio0", "name": "fpga", "version": "0.1",
        "maps": [
            {"index": 0, "name": "regs", "addr": 0x40000000, "size": 0x100, "offset": 0},
            {"index": 1, "name": "sram", "addr": 0x40001010, "size": 0x20, "offset": 0x10},
        ],
        "ports": [],
    }]


@pytest.mark.parametrize("spec", ["fpga", "uio0", "0", "/dev/uio0"])
def test_info_by_spec(udrv: Runner, mapped: FakeTree, spec: str) -> None:
    uio_device(mapped, 1, "other")
    uio_dev_file(mapped, 1)
    r = udrv("uio", "info", "--json", spec)
    assert r.returncode == 0, r
    assert [d["device"] for d in r.json()] == ["uio0"]


def test_info_ports(udrv: Runner, tree: FakeTree) -> None:
    uio_device(tree, 0, "isa-card")
    uio_port(tree, 0, 0, "ioport", 0x3F8, 8)
    uio_dev_file(tree, 0, pages=1)
    r = udrv("uio", "info")
    assert r.returncode == 0, r
    assert "port0 ioport           start 0x3f8 size 0x8 port_x86" in r.stdout
    port = udrv("uio", "info", "--json").json()[0]["ports"][0]
    assert port == {"index": 0, "name": "ioport", "start": 0x3F8, "size": 8,
                    "porttype": "port_x86"}


def test_info_pci_without_maps(udrv: Runner, tree: FakeTree) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_file(tree, 0, pages=1)
    r = udrv("uio", "info")
    assert r.returncode == 0, r
    assert "no maps or ports" in r.stdout
    assert "--bar N" in r.stdout


def test_info_unknown_device(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "info", "nope")
    assert r.returncode == 1, r
    assert "no UIO device 'nope'" in r.stderr
    assert "available: uio0 (fpga)" in r.stderr


def test_info_no_uio(udrv: Runner, tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    r = udrv("uio", "info")
    assert r.returncode == 0, r
    assert "no UIO devices" in r.stdout
    r = udrv("uio", "info", "--json")
    assert r.returncode == 0, r
    assert r.json() == []


# ---- peek / poke ----


@pytest.mark.parametrize("width", [8, 16, 32, 64])
def test_peek_widths(udrv: Runner, mapped: FakeTree, width: int) -> None:
    n = width // 8
    r = udrv("uio", "peek", "-w", str(width), "fpga", "0x10")
    assert r.returncode == 0, r
    value = int.from_bytes(PATTERN[:n], "little")
    assert r.stdout == f"0x00000010: 0x{value:0{2 * n}x}\n"


def test_peek_count_json(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "peek", "--width", "16", "--json", "uio0", "0x10", "3")
    assert r.returncode == 0, r
    assert r.json() == [
        {"offset": 0x10, "value": 0x0201},
        {"offset": 0x12, "value": 0x0403},
        {"offset": 0x14, "value": 0x0605},
    ]


def test_peek_decimal_offset(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "peek", "-w", "8", "fpga", "16")
    assert r.stdout == "0x00000010: 0x01\n", r


@pytest.mark.parametrize("width", [8, 16, 32, 64])
def test_poke_widths(udrv: Runner, mapped: FakeTree, width: int) -> None:
    n = width // 8
    value = 0xF1E2D3C4B5A69788 & ((1 << width) - 1)
    before = mapped.read_bytes("dev/uio0")
    r = udrv("uio", "poke", "-w", str(width), "fpga", "0x40", hex(value))
    assert r.returncode == 0, r
    assert r.stdout == ""
    after = mapped.read_bytes("dev/uio0")
    assert after[0x40:0x40 + n] == value.to_bytes(n, "little")
    assert after[:0x40] == before[:0x40]
    assert after[0x40 + n:] == before[0x40 + n:]


def test_poke_then_peek(udrv: Runner, mapped: FakeTree) -> None:
    assert udrv("uio", "poke", "fpga", "0x4", "0x12345678").returncode == 0
    assert udrv("uio", "peek", "fpga", "0x4").stdout == "0x00000004: 0x12345678\n"


def test_poke_second_map(udrv: Runner, mapped: FakeTree) -> None:
    """map1 is page 1 of the device file, its registers 0x10 into it."""
    r = udrv("uio", "poke", "--map", "1", "fpga", "0x4", "0xaabbccdd")
    assert r.returncode == 0, r
    at = PAGE_SIZE + 0x10 + 0x4
    assert mapped.read_bytes("dev/uio0")[at:at + 4] == bytes.fromhex("ddccbbaa")


@pytest.mark.parametrize(("args", "message"), [
    (["peek", "fpga", "0x100"], "1 x 32-bit access at 0x100 is beyond regs (0x100 bytes)"),
    (["peek", "fpga", "0xfc", "2"], "2 x 32-bit access at 0xfc is beyond regs"),
    (["peek", "-w", "64", "fpga", "0xfc"], "not aligned to 64 bits"),
    (["poke", "fpga", "0x1000", "1"], "beyond regs"),
    (["peek", "-m", "1", "fpga", "0x20"], "beyond sram (0x20 bytes)"),
], ids=["past-end", "count-past-end", "64-bit-misaligned", "poke-past-end", "map1-past-end"])
def test_out_of_range_exits_2(udrv: Runner, mapped: FakeTree, args: list[str],
                              message: str) -> None:
    before = mapped.read_bytes("dev/uio0")
    r = udrv("uio", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert mapped.read_bytes("dev/uio0") == before


@pytest.mark.parametrize(("width", "offset"), [(16, "0x11"), (32, "0x2"), (64, "0x4")])
def test_misaligned_exits_2(udrv: Runner, mapped: FakeTree, width: int, offset: str) -> None:
    r = udrv("uio", "poke", "-w", str(width), "fpga", offset, "0")
    assert r.returncode == 2, r
    assert f"is not aligned to {width} bits" in r.stderr


def test_poke_value_wider_than_width(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "poke", "-w", "8", "fpga", "0x40", "0x1ff")
    assert r.returncode == 2, r


def test_map_out_of_range(udrv: Runner, mapped: FakeTree) -> None:
    r = udrv("uio", "peek", "--map", "2", "fpga", "0")
    assert r.returncode == 1, r
    assert "map 2 out of range: uio0 (fpga) has 2 maps" in r.stderr


def test_pci_bar(udrv: Runner, tree: FakeTree) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_file(tree, 0, pages=1)
    bar = bytearray(256)
    bar[0:4] = (0x010000ED).to_bytes(4, "little")  # QEMU edu's identification
    pci_device(tree, 0, bars={0: bytes(bar)})
    r = udrv("uio", "peek", "--bar", "0", "uio_pci_generic", "0x0")
    assert r.returncode == 0, r
    assert r.stdout == "0x00000000: 0x010000ed\n"
    r = udrv("uio", "poke", "--bar", "0", "uio_pci_generic", "0x8", "0x2a")
    assert r.returncode == 0, r
    assert tree.read_bytes("sys/class/uio/uio0/device/resource0")[8:12] == b"\x2a\0\0\0"


def test_no_maps_hints_at_bars(udrv: Runner, tree: FakeTree) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_file(tree, 0, pages=1)
    r = udrv("uio", "peek", "uio_pci_generic", "0")
    assert r.returncode == 1, r
    assert "udrv_uio_pci_map_bar" in r.stderr
    r = udrv("uio", "peek", "--bar", "2", "uio_pci_generic", "0")
    assert r.returncode == 1, r
    assert "has no memory BAR 2" in r.stderr


# ---- wait ----


def test_wait_timeout(udrv: Runner, fifo: FakeTree) -> None:
    r = udrv("uio", "wait", "--timeout", "50ms", "fpga")
    assert r.returncode == 1, r
    assert "uio0: no interrupt within 50 ms" in r.stderr
    assert "0 interrupts, 0 missed" in r.stderr


def test_wait_counts_and_missed(udrv: Runner, fifo: FakeTree) -> None:
    """The count was 4 at open: 5 is the next one, 9 means 3 came unseen."""
    with uio_counts(fifo, 0, [5, 9]):
        r = udrv("uio", "wait", "-n", "2", "-t", "5s", "fpga")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(" count=5 delta=1 missed=0")
    assert lines[1].endswith(" count=9 delta=4 missed=3")
    assert "2 interrupts, 3 missed" in r.stderr


def test_wait_json_lines(udrv: Runner, fifo: FakeTree) -> None:
    with uio_counts(fifo, 0, [6, 7]):
        r = udrv("uio", "wait", "--num", "2", "--timeout", "5s", "--json", "uio0")
    assert r.returncode == 0, r
    events = r.json_lines()
    assert [(e["count"], e["delta"], e["missed"]) for e in events[:2]] == [(6, 2, 1), (7, 1, 0)]
    assert all(isinstance(e["time_ns"], int) for e in events[:2])
    assert events[2] == {"interrupts": 2, "missed": 1}
    assert r.stderr == ""


def test_wait_json_timeout_after_some(udrv: Runner, fifo: FakeTree) -> None:
    with uio_counts(fifo, 0, [5]):
        r = udrv("uio", "wait", "-n", "2", "-t", "50ms", "-j", "fpga")
    assert r.returncode == 1, r
    events = r.json_lines()
    assert events[-1] == {"interrupts": 1, "missed": 0}
    assert "no interrupt within 50 ms" in r.stderr


def test_wait_pci_unmask_not_pci(udrv: Runner, fifo: FakeTree) -> None:
    r = udrv("uio", "wait", "--pci-unmask", "-t", "50ms", "fpga")
    assert r.returncode == 1, r
    assert "uio0 (fpga) is not a PCI device" in r.stderr


def test_wait_pci_unmask_clears_intx_disable(udrv: Runner, fifo: FakeTree) -> None:
    config = bytearray(64)
    config[4] = 0x07  # memory, I/O, bus master
    config[5] = 0x05  # SERR# enable + INTx disable
    pci_device(fifo, 0, config=bytes(config))
    with uio_counts(fifo, 0, [5]):
        r = udrv("uio", "wait", "--pci-unmask", "-t", "5s", "fpga")
    assert r.returncode == 0, r
    cfg = fifo.read_bytes("sys/class/uio/uio0/device/config")
    assert cfg[4] == 0x07
    assert cfg[5] == 0x01  # INTx enabled again, SERR# kept


def test_wait_unknown_device(udrv: Runner, fifo: FakeTree) -> None:
    r = udrv("uio", "wait", "-t", "50ms", "uio7")
    assert r.returncode == 1, r
    assert "no UIO device 'uio7'" in r.stderr


def test_wait_device_gone(udrv: Runner, tree: FakeTree) -> None:
    """read() at end of file, as on a removed device."""
    uio_fpga(tree)
    tree.file("dev/uio0", b"")
    r = udrv("uio", "wait", "fpga")
    assert r.returncode == 1, r
    assert "the device is gone" in r.stderr


def catches(pid: int, sig: int, timeout_s: float = 5.0) -> bool:
    """Whether process @pid has a handler for @sig (SigCgt in /proc/PID/status)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("SigCgt:") and int(line.split()[1], 16) >> (sig - 1) & 1:
                    return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_wait_ends_cleanly_on_signal(udrv: Runner, fifo: FakeTree, sig: signal.Signals) -> None:
    """A signal breaks the blocking read (no SA_RESTART): summary, exit 0."""
    proc = udrv.start("uio", "wait", "-n", "3", "fpga")
    try:
        assert catches(proc.pid, sig), f"udrv uio wait does not catch {sig.name}"
        time.sleep(0.2)  # into the blocking read of /dev/uio0
        proc.send_signal(sig)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            pytest.fail(f"udrv uio wait still running 5 s after {sig.name}")
        assert proc.returncode == 0, err
        assert out == b""
        assert b"0 interrupts, 0 missed" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
