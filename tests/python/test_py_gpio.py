# SPDX-License-Identifier: GPL-2.0-only
"""udrv.Chip and udrv.Request on the fake chip gpiochip0 "fake-wire" (sysfs
only: there is no GPIO character device on the host, so requests use
Backend.SYSFS; the character device and mmio are tested in the lab)."""

from __future__ import annotations

import asyncio
import gc
import selectors
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
import udrv
from conftest import BASE, CtrlC, GilProbe

from tests.support.fakes import FakeTree, GpioExports, gpio_attr, gpio_chip, gpio_line

LINE = 3
GPIO = BASE + LINE
OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
SYSFS = udrv.Backend.SYSFS


# ---- chips ----


@pytest.mark.parametrize("spec", ["gpiochip0", "0", 0, "fake-wire"])
def test_chip_opens_by_name_number_and_label(exports: GpioExports, spec: str | int) -> None:
    with udrv.Chip(spec) as chip:
        assert chip.name == "gpiochip0"
        assert chip.label == "fake-wire"
        assert chip.num_lines == 8
        assert chip.has_cdev is False
        assert chip.sysfs_base == BASE
        assert chip.info == udrv.ChipInfo("gpiochip0", "fake-wire", chip.path, 8, False, BASE)
    assert chip.closed


def test_chip_list(exports: GpioExports) -> None:
    assert udrv.chip_list() == ["gpiochip0"]


def test_no_chips_list_is_empty_with_a_reason(tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    assert udrv.chip_list() == []
    assert "GPIO" in udrv.gpio_absent_reason()


def test_wrong_spec_is_not_found_with_the_library_message(exports: GpioExports) -> None:
    with pytest.raises(udrv.NotFoundError) as e:
        udrv.Chip("gpiochip9")
    assert isinstance(e.value, FileNotFoundError) and isinstance(e.value, udrv.Error)
    assert e.value.errno in (2, 19)
    assert "gpiochip9" in str(e.value.strerror)
    assert "gpiochip0" in str(e.value.strerror)  # the message lists what there is


def test_chip_spec_type_is_checked(exports: GpioExports) -> None:
    with pytest.raises(TypeError):
        udrv.Chip(1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", [-1, -(2**70)])
def test_negative_chip_number_is_refused(exports: GpioExports, tree: FakeTree, spec: int) -> None:
    """A chip labelled "-1" exists: an int is a number, never a label."""
    gpio_chip(tree, 1, "minus", 600, 4, "-1")
    with pytest.raises(ValueError, match="chip number is 0 or more"):
        udrv.Chip(spec)
    with udrv.Chip("-1") as chip:  # the label, given as a string
        assert chip.name == "gpiochip1"


def test_line_info_of_an_exported_line(exports: GpioExports, tree: FakeTree) -> None:
    gpio_line(tree, BASE + 5, "out", active_low=True)
    with udrv.Chip(0) as chip:
        info = chip.line_info(5)
        assert info.offset == 5 and info.used and info.consumer == "sysfs"
        assert info.direction is udrv.Direction.OUTPUT and info.active_low
        free = chip.line_info(0)
        assert not free.used and free.consumer == ""
        with pytest.raises(udrv.InvalidError) as e:
            chip.line_info(8)
        assert "8" in str(e.value)


def test_line_offset_not_found(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, pytest.raises(udrv.NotFoundError):
        chip.line_offset("LED")


def test_closed_chip_raises_value_error(exports: GpioExports) -> None:
    chip = udrv.Chip(0)
    chip.close()
    chip.close()  # idempotent
    for use in (lambda: chip.name, lambda: chip.line_info(0),
                lambda: chip.request({LINE: None}, backend=SYSFS)):
        with pytest.raises(ValueError, match="is released"):
            use()


# ---- requests ----


def test_request_reads_and_unexports(exports: GpioExports) -> None:
    exports.values[GPIO] = 1
    with udrv.Chip(0) as chip, chip.request({LINE: None}, backend=SYSFS,
                                            consumer="test") as req:
        assert exports.exported == [GPIO]
        assert req.offsets == (LINE,)
        assert req.backend is udrv.Backend.SYSFS
        assert req.chip_name == "gpiochip0"
        assert req.get_value(LINE) == 1
        assert req.get_values() == [1]
    assert exports.wait_unexported(GPIO)
    assert req.released


def test_set_value_writes_the_value_file(exports: GpioExports, tree: FakeTree) -> None:
    with udrv.Chip(0) as chip, chip.request({LINE: OUT}, backend=SYSFS) as req:
        # an output is made with its initial value at once: "low" / "high"
        assert gpio_attr(tree, GPIO, "direction").startswith(("out", "low"))
        req.set_value(LINE, 1)
        assert gpio_attr(tree, GPIO, "value").startswith("1")
        req.set_value(LINE, False)
        assert gpio_attr(tree, GPIO, "value").startswith("0")
        req.set_value(LINE, True)
        assert gpio_attr(tree, GPIO, "value").startswith("1")


def test_active_low_values_are_logical(exports: GpioExports, tree: FakeTree) -> None:
    s = udrv.LineSettings(direction=udrv.Direction.OUTPUT, active_low=True)
    with udrv.Chip(0) as chip, chip.request({LINE: s}, backend=SYSFS) as req:
        req.set_value(LINE, 1)
        assert gpio_attr(tree, GPIO, "active_low").startswith("1")
        assert req.get_value(LINE) == 1


@pytest.mark.parametrize("value", [2, -1, 10**30])
def test_set_value_other_than_0_1_is_a_value_error(exports: GpioExports, value: int) -> None:
    with udrv.Chip(0) as chip, chip.request({LINE: OUT}, backend=SYSFS) as req:
        with pytest.raises(ValueError, match="0 or 1"):
            req.set_value(LINE, value)
        with pytest.raises(TypeError):
            req.set_value(LINE, "1")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            req.set_value(LINE)  # type: ignore[call-arg]


def test_line_not_in_request(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, chip.request({LINE: OUT}, backend=SYSFS) as req:
        for line in (4, 1000, -1, "LED"):
            with pytest.raises(ValueError, match="not in this request"):
                req.set_value(line, 1)
        with pytest.raises(TypeError):
            req.get_value(1.0)  # type: ignore[arg-type]


def test_many_lines_get_and_set_at_once(exports: GpioExports, tree: FakeTree) -> None:
    exports.values.update({BASE + 1: 0, BASE + 2: 1})
    cfg: dict[int | str | tuple[int | str, ...], udrv.LineSettings | None] = {
        (1, 2): None, (5, 6): OUT}
    with udrv.Chip(0) as chip, chip.request(cfg, backend=SYSFS) as req:
        assert req.offsets == (1, 2, 5, 6)
        assert req.get_values([2, 1]) == [1, 0]
        req.set_values({5: 1, 6: 0})
        assert gpio_attr(tree, BASE + 5, "value").startswith("1")
        assert gpio_attr(tree, BASE + 6, "value").startswith("0")
        assert req.get_values([]) == []
        with pytest.raises(ValueError):
            req.set_values({5: 3})

        class Odd(dict[int, int]):  # a mapping whose items are not pairs
            def items(self) -> Any:
                return [[5, 1]]

        with pytest.raises(TypeError):
            req.set_values(Odd())


def test_busy_line_names_the_holder(exports: GpioExports, tree: FakeTree) -> None:
    gpio_line(tree, GPIO, "in", value=1)
    with udrv.Chip(0) as chip, pytest.raises(udrv.BusyError) as e:
        chip.request({LINE: None}, backend=SYSFS)
    assert e.value.errno == 16
    assert "already exported in sysfs" in str(e.value)
    assert exports.exported == []


def test_bad_offset_is_invalid_with_the_library_message(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, pytest.raises(udrv.InvalidError) as e:
        chip.request({8: None}, backend=SYSFS)
    assert isinstance(e.value, ValueError) and e.value.errno == 22
    assert "offset 8" in str(e.value) and "fake-wire" in str(e.value)


def test_a_line_twice_is_invalid(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, pytest.raises(udrv.InvalidError) as e:
        chip.request({LINE: None, (2, LINE): OUT}, backend=SYSFS)
    assert str(LINE) in str(e.value)
    assert exports.exported == []


@pytest.mark.parametrize("kw", [{"edge": 7}, {"direction": -1}, {"bias": 9}, {"value": 2},
                                {"debounce_us": -1}])
def test_bad_settings_are_value_errors(kw: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        udrv.LineSettings(**kw)  # type: ignore[arg-type]


def test_settings_take_ints_as_enums() -> None:
    s = udrv.LineSettings(direction=1, edge=3)  # type: ignore[arg-type]
    assert s.direction is udrv.Direction.OUTPUT and s.edge is udrv.Edge.BOTH


def test_bad_config_shapes(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        with pytest.raises(TypeError):
            chip.request([LINE], backend=SYSFS)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            chip.request({LINE: "out"}, backend=SYSFS)  # type: ignore[dict-item]
        with pytest.raises(ValueError):
            chip.request({}, backend=SYSFS)
        with pytest.raises(ValueError):
            chip.request({LINE: None}, backend=7)  # type: ignore[arg-type]


def test_cdev_request_without_a_character_device(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, pytest.raises(udrv.Error) as e:
        chip.request({LINE: None})
    assert "character device" in str(e.value)


def test_released_request_raises_value_error(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        req = chip.request({LINE: OUT}, backend=SYSFS)
        req.release()
        req.release()  # idempotent
        for use in (lambda: req.set_value(LINE, 1), lambda: req.get_value(LINE),
                    req.get_values, lambda: req.set_values({LINE: 1}), req.fileno,
                    lambda: req.wait_edge_events(0), req.read_edge_events,
                    lambda: req.reconfigure({LINE: None}), lambda: req.lost_events):
            with pytest.raises(ValueError, match="is released"):
                use()
        assert repr(req).endswith(" (released)>"), repr(req)  # not a C name


def test_request_keeps_its_chip_alive(exports: GpioExports) -> None:
    chip = udrv.Chip(0)
    ref = weakref.ref(chip) if hasattr(chip, "__weakref__") else None
    req = chip.request({LINE: OUT}, backend=SYSFS)
    chip_id = id(chip)
    del chip
    gc.collect()
    assert id(req.chip) == chip_id and req.chip.name == "gpiochip0"
    assert ref is None or ref() is not None
    req.set_value(LINE, 1)
    req.release()


def test_dropping_a_request_releases_it(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        chip.request({LINE: OUT}, backend=SYSFS)  # not kept
        gc.collect()
        assert exports.wait_unexported(GPIO)


def test_reconfigure_keeps_unnamed_lines(exports: GpioExports, tree: FakeTree) -> None:
    with udrv.Chip(0) as chip, chip.request({(2, LINE): None}, backend=SYSFS) as req:
        req.reconfigure({LINE: udrv.LineSettings(direction=udrv.Direction.OUTPUT, value=1)})
        assert gpio_attr(tree, GPIO, "direction").startswith(("out", "high"))
        assert gpio_attr(tree, BASE + 2, "direction").startswith("in")
        assert req.settings[1].direction is udrv.Direction.OUTPUT
        assert req.settings[0] == udrv.LineSettings()
        with pytest.raises(ValueError, match="not in this request"):
            req.reconfigure({5: None})


# ---- events (a FIFO as the value file: pollable, never an edge) ----


@pytest.fixture
def edge_req(exports: GpioExports) -> udrv.Request:
    exports.fifo_values.add(GPIO)
    chip = udrv.Chip(0)
    return chip.request({LINE: udrv.LineSettings(edge=udrv.Edge.BOTH)}, backend=SYSFS)


def test_wait_times_out(edge_req: udrv.Request) -> None:
    t0 = time.monotonic()
    assert edge_req.wait_edge_events(0.3) is False
    assert 0.25 < time.monotonic() - t0 < 2
    assert edge_req.wait_edge_events(0) is False
    assert list(edge_req.edge_events(timeout=0.05)) == []
    assert edge_req.lost_events == 0
    with pytest.raises(ValueError):
        edge_req.wait_edge_events(-1)
    edge_req.release()


def test_wait_releases_the_gil(edge_req: udrv.Request, gil_probe: GilProbe) -> None:
    """Another thread counts while the main thread waits 0.5 s."""
    t0, stamps = gil_probe(lambda: edge_req.wait_edge_events(0.5))
    edge_req.release()
    # with the GIL held in the wait, no stamp falls inside it
    assert any(t0 + 0.1 < s < t0 + 0.4 for s in stamps), (t0, stamps)


def test_ctrl_c_in_a_wait_raises_keyboard_interrupt(edge_req: udrv.Request,
                                                    ctrl_c: CtrlC) -> None:
    ctrl_c(edge_req.release)
    with pytest.raises(KeyboardInterrupt):
        edge_req.wait_edge_events(None)
    edge_req.release()


def test_ctrl_c_in_a_read_raises_keyboard_interrupt(edge_req: udrv.Request,
                                                    ctrl_c: CtrlC) -> None:
    ctrl_c(edge_req.release)
    with pytest.raises(KeyboardInterrupt):
        edge_req.read_edge_events()
    edge_req.release()


def test_release_from_another_thread_ends_a_wait(edge_req: udrv.Request,
                                                 exports: GpioExports) -> None:
    timer = threading.Timer(0.2, edge_req.release)
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="is released"):
        edge_req.wait_edge_events(None)
    assert time.monotonic() - t0 < 2
    timer.join()
    assert exports.wait_unexported(GPIO)


def test_two_waiters_on_one_request(edge_req: udrv.Request) -> None:
    t = threading.Thread(target=edge_req.wait_edge_events, args=(0.5,))
    t.start()
    time.sleep(0.1)
    with pytest.raises(RuntimeError, match="another thread"):
        edge_req.wait_edge_events(0)
    t.join()
    edge_req.release()


def test_fileno_in_a_selector(edge_req: udrv.Request) -> None:
    with selectors.DefaultSelector() as sel:
        sel.register(edge_req, selectors.EVENT_READ)
        assert sel.select(0.1) == []
    edge_req.release()


def test_async_for_does_not_block_the_loop(edge_req: udrv.Request) -> None:
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    async def events() -> list[udrv.EdgeEvent]:
        return [ev async for ev in edge_req]

    async def main() -> None:
        ticker = asyncio.ensure_future(tick())
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(events(), 0.3)
        ticker.cancel()

    asyncio.run(main())
    edge_req.release()
    assert ticks >= 10, ticks


# ---- mmio: the claim needs the character device ----


def test_mmio_layout_and_claim(exports: GpioExports, tmp_path: Path) -> None:
    regs = tmp_path / "regs"
    regs.write_bytes(bytes(4096))
    layout = udrv.GpioLayout.parse(f"base=0x1000,data=0x0,dir=0x4,dir-input=1,map={regs}")
    assert layout.base == 0x1000 and layout.dir == 4 and layout.dir_input_high
    assert layout.map_path == str(regs)
    with udrv.Chip(0) as chip:
        with pytest.raises(udrv.Error) as e:
            chip.request({LINE: OUT}, backend=udrv.Backend.MMIO, layout=layout)
        assert "character device" in str(e.value)
        with pytest.raises(TypeError):
            chip.request({LINE: OUT}, backend=udrv.Backend.MMIO,
                         layout="base=0")  # type: ignore[arg-type]


@pytest.mark.parametrize(("spec", "msg"), [("colour=red", "colour"), ("base=zz", "zz"),
                                           ("data=0x0,data=0x4", "data")])
def test_bad_layout_is_invalid(spec: str, msg: str) -> None:
    with pytest.raises(udrv.InvalidError) as e:
        udrv.GpioLayout.parse(spec)
    assert msg in str(e.value)
