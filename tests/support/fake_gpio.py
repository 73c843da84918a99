# SPDX-License-Identifier: GPL-2.0-only
"""GPIO chips answered by tests/daemon's fake character device (fake_cdev.c,
preloaded into the process under test; UDRV_SYSROOT the fake root): a chip
file, its state file (each line's holder, direction and level), and the FIFO
its edge events come from."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager

from tests.daemon.conftest import binary, chip_file
from tests.support.fakes import FakeTree, gpio_bus

RISING, FALLING = 1, 2  # GPIO_V2_LINE_EVENT_*


def event(offset: int, edge: int, seq: int) -> bytes:
    """struct gpio_v2_line_event: timestamp 1000 * seq ns, id, offset, seqno, line_seqno."""
    return struct.pack("<QIIII6I", 1000 * seq, edge, offset, seq, seq, *[0] * 6)


def fake_chip(tree: FakeTree, label: str, lines: int, names: list[str] | None = None) -> None:
    """gpiochip0 @label of @lines lines (their @names, else unnamed),
    answered by fake_cdev, with its events FIFO."""
    gpio_bus(tree)
    chip_file(tree, 0, label, names or [""] * lines)
    tree.fifo("dev/gpiochip0.events")


@contextmanager
def edges(tree: FakeTree, events: list[tuple[int, int]]) -> Iterator[None]:
    """Queue edge events (offset, RISING or FALLING) in gpiochip0's FIFO:
    a request with edge detection made inside the block reads them (a FIFO
    keeps them only while someone has it open)."""
    fd = os.open(tree.path("dev/gpiochip0.events"), os.O_RDWR | os.O_NONBLOCK)
    try:
        for seq, (offset, edge) in enumerate(events, 1):
            os.write(fd, event(offset, edge, seq))
        yield
    finally:
        os.close(fd)


def fake_env(tree: FakeTree) -> dict[str, str]:
    """The environment of a process on the fake chips (and the fake root)."""
    fake = binary("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so")
    preload = " ".join(p for p in (os.environ.get("LD_PRELOAD", ""), str(fake)) if p)
    return {**os.environ, "UDRV_SYSROOT": str(tree.root), "LD_PRELOAD": preload}


def line_state(tree: FakeTree, offset: int) -> list[str]:
    """gpiochip0's line @offset as fake_cdev's state file has it:
    HOLDER DIR VALUE ACTIVE_LOW CONSUMER EDGE."""
    return tree.read("dev/gpiochip0.state").splitlines()[offset].split()
