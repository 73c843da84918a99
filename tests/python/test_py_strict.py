# SPDX-License-Identifier: GPL-2.0-only
"""The package refuses what the CLI refuses, before anything reaches C:
integers out of an argument's range (OverflowError beyond what the C type
holds, ValueError beyond the argument's range; the message names the
argument), timeouts that are not finite (None is "forever"), mappings of a
regular file past its end (ValueError, not SIGBUS), and messages that are
text, not printf codes (PyErr_Format of Python 3.11 has no %zx)."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import udrv
from conftest import BASE

from tests.support.fakes import FakeTree, GpioExports, uio_fpga_fifo, uio_fpga_mapped

LINE = 3
SYSFS = udrv.Backend.SYSFS


@pytest.fixture
def regs(tmp_path: Path) -> Path:
    f = tmp_path / "regs"
    f.write_bytes(bytes(range(256)) * 32)  # 8 KiB
    return f


# ---- integers: never wrapped ----


@pytest.mark.parametrize("offset", [2**64 + 4096, 2**65, -(2**64)])
def test_map_file_offset_beyond_64_bits(regs: Path, offset: int) -> None:
    """2**64 + 4096 mapped offset 0x1000 and 2**65 offset 0 (the K format)."""
    with pytest.raises(OverflowError, match=r"offset must be 0\.\.18446744073709551615"):
        udrv.Region.map_file(regs, offset, 16)


@pytest.mark.parametrize(("size", "exc"), [(2**64, OverflowError), (2**63, OverflowError),
                                           (0, ValueError), (-1, ValueError)])
def test_map_file_size_out_of_range(regs: Path, size: int, exc: type[Exception]) -> None:
    with pytest.raises(exc, match=r"size must be 1\.\."):
        udrv.Region.map_file(regs, 0, size)


def test_map_file_types(regs: Path) -> None:
    with pytest.raises(TypeError, match="offset must be an int, not float"):
        udrv.Region.map_file(regs, 0.0, 16)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="size must be an int, not str"):
        udrv.Region.map_file(regs, 0, "16")  # type: ignore[arg-type]


def test_event_buffer_size_beyond_64_bits(exports: GpioExports) -> None:
    """2**64 was 0 (the kernel's default) through the k format."""
    with udrv.Chip(0) as chip:
        with pytest.raises(OverflowError, match="event_buffer_size"):
            chip.request({LINE: None}, backend=SYSFS, event_buffer_size=2**64)
        with pytest.raises(ValueError, match=r"event_buffer_size must be 0\.\.4294967295"):
            chip.request({LINE: None}, backend=SYSFS, event_buffer_size=2**32)


def test_line_offsets_name_the_argument(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        with pytest.raises(OverflowError, match=r"offset must be 0\.\.4294967295, not -1"):
            chip.line_info(-1)
        with pytest.raises(ValueError, match=r"a line offset must be 0\.\.65535, not 65536"):
            chip.request({65536: None}, backend=SYSFS)
        with pytest.raises(OverflowError, match="a line offset must be"):
            chip.request({-(2**70): None}, backend=SYSFS)
        with chip.request({LINE: None}, backend=SYSFS) as req:
            with pytest.raises(ValueError, match="is not in this request"):
                req.get_value(2**70)
            with pytest.raises(OverflowError, match=r"max_events must be 1\.\.65536"):
                req.read_edge_events(2**70)


def test_uio_indexes_name_the_argument(tree: FakeTree) -> None:
    uio_fpga_mapped(tree, version="1.2")
    with udrv.Uio("fpga") as uio:
        with pytest.raises(OverflowError, match="index must be"):
            uio.map(2**64)
        with pytest.raises(ValueError, match=r"index must be 0\.\.4294967295"):
            uio.map(2**32)
        with pytest.raises(OverflowError, match="bar must be"):
            uio.pci_map_bar(-1)


def test_rt_and_histogram_name_the_argument() -> None:
    with pytest.raises(OverflowError, match="hwirq must be"):  # was wrapped: k format
        udrv.rt_find_irq("x", 2**64 + 1)
    with udrv.Rt() as rt:
        with pytest.raises(OverflowError, match="stack_bytes must be"):
            rt.lock_memory(2**64)
        with pytest.raises(OverflowError, match="stack_bytes must be"):
            rt.lock_memory(-1)
        with pytest.raises(OverflowError, match="cpu must be"):
            rt.set_cpu(2**40)
        with pytest.raises(OverflowError, match="us must be"):
            rt.hold_dma_latency(-(2**40))
        with pytest.raises(OverflowError, match="priority must be"):
            rt.set_scheduler(udrv.Policy.FIFO, 2**31)
    with pytest.raises(OverflowError, match="priority must be"):
        udrv.rt_check(2**63)
    with pytest.raises(OverflowError, match="ns must be"):
        udrv.Histogram().record(2**64)


# ---- the names of a request: an index the C side checks (finding 3) ----


@pytest.mark.parametrize("index", [64, 2, -1, 2**70], ids=["64", "2", "-1", "2**70"])
def test_a_name_index_outside_the_request_is_refused(exports: GpioExports, tree: FakeTree,
                                                     index: int) -> None:
    """A names dict whose index is not one of the request's lines: 64 was
    an undefined shift (another line driven), -1 an error return without an
    exception (SystemError)."""
    settings = tuple(udrv.LineSettings(direction=udrv.Direction.OUTPUT)._astuple()
                     for _ in range(2))
    with udrv.Chip(0) as chip:
        req = chip._request(udrv.Request, (LINE, LINE + 1), settings, {"led": index},
                            "udrv", int(SYSFS), None, 0)
        with req:
            files = [f"sys/class/gpio/gpio{BASE + o}/value" for o in (LINE, LINE + 1)]
            before = [tree.read(f) for f in files]
            for call in (lambda: req.set_value("led", 1), lambda: req.get_value("led"),
                         lambda: req.set_values({"led": 1}), lambda: req.get_values(["led"])):
                with pytest.raises((ValueError, OverflowError), match="index of a line name"):
                    call()
            assert [tree.read(f) for f in files] == before  # no line driven


# ---- timeouts: finite or None ----


def ends_at_once(call: Callable[[], object], stop: Callable[[], object]) -> BaseException:
    """Run @call in a thread and return what it raised. A wait that does not
    end by itself (the bug) is ended by @stop after 5 s, and fails the test."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as e:  # handed to the test
            raised.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(5)
    hung = t.is_alive()
    if hung:
        stop()
        t.join()
    assert not hung, "the call waited instead of refusing its timeout"
    assert raised, "the call returned"
    return raised[0]


BAD_TIMEOUTS = [(math.inf, ValueError), (-math.inf, ValueError), (math.nan, ValueError),
                (-1, ValueError), (1e13, OverflowError), (10**400, OverflowError)]
TIMEOUT_IDS = ["inf", "-inf", "nan", "-1", "1e13", "10**400"]


@pytest.mark.parametrize(("timeout", "exc"), BAD_TIMEOUTS, ids=TIMEOUT_IDS)
def test_uio_wait_timeout_is_finite_or_none(tree: FakeTree, timeout: float,
                                            exc: type[Exception]) -> None:
    uio_fpga_fifo(tree, version="1.2")
    with udrv.Uio("fpga") as uio:
        e = ends_at_once(lambda: uio.wait(timeout), uio.close)
        assert isinstance(e, exc), repr(e)
        assert "timeout" in str(e)
        with pytest.raises(TypeError, match="timeout must be a number of seconds or None"):
            uio.wait("1")  # type: ignore[arg-type]


@pytest.mark.parametrize(("timeout", "exc"), BAD_TIMEOUTS, ids=TIMEOUT_IDS)
def test_wait_edge_events_timeout_is_finite_or_none(exports: GpioExports, timeout: float,
                                                    exc: type[Exception]) -> None:
    exports.fifo_values.add(BASE + LINE)
    with udrv.Chip(0) as chip, chip.request({LINE: udrv.LineSettings(edge=udrv.Edge.BOTH)},
                                            backend=SYSFS) as req:
        e = ends_at_once(lambda: req.wait_edge_events(timeout), req.release)
        assert isinstance(e, exc), repr(e)
        assert "timeout" in str(e)


def test_await_irq_timeout_is_finite_or_none(tree: FakeTree) -> None:
    import asyncio

    uio_fpga_fifo(tree, version="1.2")
    with udrv.Uio("fpga") as uio, pytest.raises(ValueError,
                                                match="timeout must be a finite number"):
        asyncio.run(asyncio.wait_for(uio.await_irq(math.inf), 5))


# ---- regular files: mapped within their size ----


def test_map_file_past_the_end_is_a_value_error(regs: Path) -> None:
    """Mapping 64 KiB of an 8 KiB file and reading at 60000 was a SIGBUS that
    killed the interpreter; it runs in a child so that the old crash fails
    this test instead of ending pytest."""
    code = ("import sys, udrv\n"
            "try:\n"
            f"    udrv.Region.map_file({str(regs)!r}, 0, 65536).read8(60000)\n"
            "except ValueError as e:\n"
            "    print(type(e).__name__, e)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, timeout=60)
    assert res.returncode == 0, (res.returncode, res.stderr)
    assert "InvalidError" in res.stdout and "end beyond the file's 8192 bytes" in res.stdout
    for off, size in ((8192 - 16, 17), (8192, 1), (2**40, 1)):
        with pytest.raises(udrv.InvalidError, match="beyond the file's 8192 bytes"):
            udrv.Region.map_file(regs, off, size)
    with udrv.Region.map_file(regs, 8192 - 16, 16) as r:  # up to the end: fine
        assert r.read8(15) == 255


# ---- messages: text, not printf codes ----


def test_region_messages_are_formatted(regs: Path) -> None:
    with udrv.Region.map_file(regs, 0, 64) as r:
        with pytest.raises(ValueError) as e:
            r.read16(0x21)
        assert str(e.value) == "offset 0x21 is not aligned to the 2-byte access"
        with pytest.raises(ValueError) as e:
            r.read32(0x40)
        assert str(e.value) == "a 4-byte access at offset 0x40 is outside the region (64 bytes)"
