# SPDX-License-Identifier: GPL-2.0-only
"""PropertiesChanged on a Line object when another process changes the line:
udrvd watches every line's info in the kernel (GPIO_V2_GET_LINEINFO_WATCH_IOCTL)
and signals each change it reads. The changes come from the fake chip's FIFO
(fake_cdev.c: gpiochipN.info, struct gpio_v2_line_info_changed records); a
chip without it is a kernel that cannot watch: udrvd says so and serves."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import Udrvd, serving
from tests.daemon.test_edge_events import Watcher
from tests.support.fakes import LINE_RELEASED, LINE_REQUESTED, FakeTree, line_info_changed

ALICE = 1
POLICY = "allow uid:1 read gpio fake-a DOOR\n"
CHIP0 = "/io/gpiod1/chips/gpiochip0"
KERNEL_SIDE = ("Used,Consumer,Direction,EdgeDetection,Bias,Drive,ActiveLow,Debounced,"
               "DebouncePeriodUs,EventClock")  # fmt: skip
REQUESTED, RELEASED = LINE_REQUESTED, LINE_RELEASED
change = line_info_changed


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    os.mkfifo(tree.path("dev/gpiochip0.info"))
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


def changes(d: Udrvd, *records: bytes) -> None:
    fd = os.open(d.tree.path("dev/gpiochip0.info"), os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, b"".join(records))
    finally:
        os.close(fd)


def test_another_process_s_change_is_signalled(udrvd: Udrvd, client: Path) -> None:
    door = Watcher(udrvd, client, ALICE, f"{CHIP0}/line1", "changed ")
    led = Watcher(udrvd, client, ALICE, f"{CHIP0}/line4", "changed ")
    changes(udrvd, change(1, REQUESTED))
    got = door.wait_for(1)
    assert len(got) == 1 and KERNEL_SIDE in got[0], got
    assert led.sync() == []  # the change was DOOR's, not LED's
    changes(udrvd, change(4, RELEASED), change(1, RELEASED))
    assert len(led.wait_for(1)) == 1
    assert len(door.wait_for(1)) == 1
    door.close()
    led.close()
    assert not [ln for ln in udrvd.log if "gpiochip0: changes others" in ln], udrvd.log


def test_a_kernel_that_cannot_watch_leaves_udrvd_serving(udrvd_bin: Path, fake_cdev: Path,
                                                          bus: str, tree: FakeTree,
                                                          tmp_path: Path) -> None:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        said = [ln for ln in d.log if "changes others make to its lines" in ln]
        assert said and "gpiochip0" in said[0] and "Inappropriate ioctl" in said[0], d.log
        res = d.call(CHIP0, "org.freedesktop.DBus.Properties.Get", "io.gpiod1.Chip", "Label")
        assert res.returncode == 0 and "fake-a" in res.stdout, res.stderr
