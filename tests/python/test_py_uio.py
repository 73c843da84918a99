# SPDX-License-Identifier: GPL-2.0-only
"""udrv.Uio and udrv.Region on fake UIO devices: uio0 "fpga" with map0 "regs"
(0x100 bytes, page 0 of /dev/uio0) and map1 "sram" (0x20 bytes, 0x10 into
page 1). /dev/uio0 is a regular file to map, or a FIFO whose 4-byte counts
are what read() returns after an interrupt."""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from pathlib import Path

import pytest
import udrv
from conftest import CtrlC, GilProbe

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

PATTERN = FPGA_PATTERN


@pytest.fixture
def mapped(tree: FakeTree) -> FakeTree:
    return uio_fpga_mapped(tree, version="1.2")


@pytest.fixture
def fifo(tree: FakeTree) -> FakeTree:
    return uio_fpga_fifo(tree, version="1.2")


# ---- the device ----


@pytest.mark.parametrize("spec", ["fpga", "uio0", "/dev/uio0"])
def test_open_by_name_devname_and_path(mapped: FakeTree, spec: str) -> None:
    with udrv.Uio(spec) as uio:
        assert uio.devname == "uio0" and uio.name == "fpga" and uio.version == "1.2"
        assert uio.fileno() >= 0
        assert uio.maps == [udrv.UioMapInfo(0, "regs", 0x40000000, 0x100, 0),
                            udrv.UioMapInfo(1, "sram", 0x40001010, 0x20, 0x10)]
        assert uio.ports == []
    assert uio.closed
    assert udrv.uio_list() == ["uio0"]


def test_ports(mapped: FakeTree) -> None:
    uio_port(mapped, 0, 0, "io", 0x3F8, 8)
    with udrv.Uio("fpga") as uio:
        assert uio.ports == [udrv.UioPortInfo(0, "io", 0x3F8, 8, "port_x86")]


def test_unknown_device_is_not_found(mapped: FakeTree) -> None:
    with pytest.raises(udrv.NotFoundError) as e:
        udrv.Uio("uio7")
    assert "no UIO device 'uio7'" in str(e.value)


def test_no_uio(tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    assert udrv.uio_list() == []
    assert udrv.uio_absent_reason()


def test_closed_device_raises_value_error(mapped: FakeTree) -> None:
    uio = udrv.Uio("fpga")
    uio.close()
    uio.close()
    for use in (lambda: uio.name, uio.fileno, lambda: uio.map(0), lambda: uio.wait(0),
                lambda: uio.maps, uio.irq_enable):
        with pytest.raises(ValueError, match="is released"):
            use()


# ---- regions ----


def test_map_reads_and_writes(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio, uio.map(0) as regs:
        assert regs.size == 0x100
        assert regs.read8(0x10) == 1
        assert regs.read16(0x10) == 0x0201
        assert regs.read32(0x10) == 0x04030201
        assert regs.read64(0x10) == 0x0807060504030201
        regs.write32(0x20, 0xDEADBEEF)
        regs.write8(0x24, 0x2A)
        regs.write16(0x26, 0xBEEF)
        regs.write64(0x28, 2**64 - 1)
    data = mapped.read_bytes("dev/uio0")
    assert data[0x20:0x24] == (0xDEADBEEF).to_bytes(4, "little")
    assert data[0x24] == 0x2A and data[0x26:0x28] == b"\xef\xbe"
    assert data[0x28:0x30] == b"\xff" * 8


def test_map_with_a_sub_page_offset(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio, uio.map(1) as sram:
        assert sram.size == 0x20
        sram.write32(0, 0x11223344)
    assert mapped.read_bytes("dev/uio0")[PAGE_SIZE + 0x10:PAGE_SIZE + 0x14] == \
        (0x11223344).to_bytes(4, "little")


def test_memoryview_is_the_mapping(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio:
        regs = uio.map(0)
        with regs.mem as view:
            assert len(view) == 0x100 and not view.readonly
            assert bytes(view[0x10:0x20]) == PATTERN
            view[0:4] = b"abcd"
            assert regs.exports == 1
        assert regs.exports == 0
        regs.unmap()
    assert mapped.read_bytes("dev/uio0")[0:4] == b"abcd"


def test_unmap_while_a_view_is_alive_is_refused(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio:
        regs = uio.map(0)
    view = regs.mem  # the region outlives the device's handle
    with pytest.raises(BufferError, match="still alive"):
        regs.unmap()
    assert view[0x10] == 1  # the mapping is still there
    view.release()
    regs.unmap()
    regs.unmap()  # idempotent
    assert regs.closed
    for use in (lambda: regs.mem, lambda: regs.read8(0), lambda: regs.size):
        with pytest.raises(ValueError, match="is released"):
            use()
    with pytest.raises(BufferError):
        memoryview(regs)


def test_a_view_keeps_the_region_alive(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio:
        view = uio.map(0).mem
    gc.collect()
    assert bytes(view[0x10:0x12]) == b"\x01\x02"
    view.release()


@pytest.mark.parametrize(("call", "msg"), [
    (lambda r: r.read32(0x100), "outside the region"),
    (lambda r: r.read64(0xFC), "outside the region"),
    (lambda r: r.read32(-4), "outside the region"),
    (lambda r: r.read32(2), "not aligned"),
    (lambda r: r.write16(1, 0), "not aligned"),
    (lambda r: r.write8(0, 256), r"value must be 0\.\.255, not 256"),
    (lambda r: r.write32(0, 2**32), r"value must be 0\.\.4294967295, not 4294967296"),
])
def test_bounds_alignment_and_width_are_checked(mapped: FakeTree, call: object,
                                                msg: str) -> None:
    with udrv.Uio("fpga") as uio, uio.map(0) as regs, pytest.raises(ValueError, match=msg):
        call(regs)  # type: ignore[operator]


def test_map_out_of_range(mapped: FakeTree) -> None:
    with udrv.Uio("fpga") as uio, pytest.raises(udrv.Error) as e:
        uio.map(2)
    assert "map 2 out of range: uio0 (fpga) has 2 maps" in str(e.value)


def test_pci_bar(tree: FakeTree) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_file(tree, 0, pages=1)
    bar = bytearray(256)
    bar[0:4] = (0x010000ED).to_bytes(4, "little")
    pci_device(tree, 0, bars={0: bytes(bar)})
    with udrv.Uio("uio_pci_generic") as uio:
        with uio.pci_map_bar(0) as bar0:
            assert bar0.read32(0) == 0x010000ED
            bar0.write32(8, 0x2A)
        with pytest.raises(udrv.Error, match="has no memory BAR 2"):
            uio.pci_map_bar(2)
    assert tree.read_bytes("sys/class/uio/uio0/device/resource0")[8:12] == b"\x2a\0\0\0"


def test_region_map_file(tmp_path: Path) -> None:
    f = tmp_path / "mem"
    f.write_bytes(bytes(8192))
    with udrv.Region.map_file(f, 0x1004, 16) as r:
        r.write32(0, 0x55AA55AA)
        assert r.size == 16
    assert f.read_bytes()[0x1004:0x1008] == b"\xaa\x55\xaa\x55"
    with pytest.raises(udrv.NotFoundError):
        udrv.Region.map_file(tmp_path / "none", 0, 16)
    with pytest.raises(ValueError):
        udrv.Region.map_file(f, 0, 0)


# ---- interrupts ----


def test_wait_counts_and_missed(fifo: FakeTree) -> None:
    """The count was 4 at open: 5 is the next one, 9 means 3 came unseen."""
    with udrv.Uio("fpga") as uio, uio_counts(fifo, 0, [5, 9]):
        irq = uio.wait(5)
        assert irq is not None
        assert (irq.count, irq.delta, irq.missed) == (5, 1, 0)
        irq = uio.wait(5)
        assert irq == udrv.UioIrq((9, 4, 3))
        assert uio.missed == 3
        assert uio.wait(0.05) is None


def test_wait_timeout(fifo: FakeTree) -> None:
    with udrv.Uio("fpga") as uio:
        t0 = time.monotonic()
        assert uio.wait(0.3) is None
        assert 0.25 < time.monotonic() - t0 < 2


def test_wait_releases_the_gil(fifo: FakeTree, gil_probe: GilProbe) -> None:
    with udrv.Uio("fpga") as uio:
        t0, stamps = gil_probe(lambda: uio.wait(0.5))
    # with the GIL held in the wait, no stamp falls inside it
    assert any(t0 + 0.1 < s < t0 + 0.4 for s in stamps), (t0, stamps)


def test_ctrl_c_in_a_wait(fifo: FakeTree, ctrl_c: CtrlC) -> None:
    with udrv.Uio("fpga") as uio:
        ctrl_c(uio.close)
        with pytest.raises(KeyboardInterrupt):
            uio.wait()


def test_close_from_another_thread_ends_a_wait(fifo: FakeTree) -> None:
    uio = udrv.Uio("fpga")
    timer = threading.Timer(0.2, uio.close)
    timer.start()
    with pytest.raises(ValueError, match="is released"):
        uio.wait()
    timer.join()
    assert uio.closed


def test_device_gone(tree: FakeTree) -> None:
    uio_fpga(tree, version="1.2")
    tree.file("dev/uio0", b"")
    with udrv.Uio("fpga") as uio, pytest.raises(udrv.NotFoundError) as e:
        uio.wait(1)
    assert e.value.errno == 19 and "the device is gone" in str(e.value)


def test_await_irq(fifo: FakeTree) -> None:
    async def main(uio: udrv.Uio) -> tuple[udrv.UioIrq | None, udrv.UioIrq | None]:
        return await uio.await_irq(5), await uio.await_irq(0.1)

    with udrv.Uio("fpga") as uio, uio_counts(fifo, 0, [6]):
        got, none = asyncio.run(main(uio))
    assert got is not None and (got.count, got.delta, got.missed) == (6, 2, 1)
    assert none is None


def test_irq_enable_writes_irqcontrol(fifo: FakeTree) -> None:
    with udrv.Uio("fpga") as uio:
        fd = os.open(fifo.path("dev/uio0"), os.O_RDONLY | os.O_NONBLOCK)
        try:
            uio.irq_enable(True)
            uio.irq_enable(on=False)
            assert os.read(fd, 8) == b"\1\0\0\0\0\0\0\0"
        finally:
            os.close(fd)


def test_pci_intx_unmask(fifo: FakeTree) -> None:
    with udrv.Uio("fpga") as uio, pytest.raises(udrv.Error, match="is not a PCI device"):
        uio.pci_intx_unmask()
    config = bytearray(64)
    config[4], config[5] = 0x07, 0x05  # INTx disable set, SERR# enable
    pci_device(fifo, 0, config=bytes(config))
    with udrv.Uio("fpga") as uio:
        uio.pci_intx_unmask()
    cfg = fifo.read_bytes("sys/class/uio/uio0/device/config")
    assert cfg[4] == 0x07 and cfg[5] == 0x01
