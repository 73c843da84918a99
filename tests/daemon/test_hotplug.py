# SPDX-License-Identifier: GPL-2.0-only
"""Chips that come and go while udrvd runs (daemon/model/hotplug.c): udrvd watches
the device directory (inotify on the fake tree's dev/), exports a chip whose
node appears, tries one again that it may not open yet when the node's mode
changes (udev applying a group rule), and drops a chip whose node goes, with
its requests. A node appears here by a rename into dev/, whole, as devtmpfs
makes one (the fake character device reads the chip from the file).

Each step waits for what udrvd says of it on stderr, so that no test races
udrvd's loop."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import Udrvd, serving, start_udrvd
from tests.daemon.test_udrvd import OUTPUT, path_of, request
from tests.support.fakes import FakeTree, gpio_chip

POLICY = "allow uid:0 all gpio fake-c *\nrestore gpio fake-c *\n"
CHIP2 = "/io/gpiod1/chips/gpiochip2"
GET = "org.freedesktop.DBus.Properties.Get"


def plug(tree: FakeTree, mode: int = 0o644) -> None:
    """gpiochip2 'fake-c' (BELL, one unnamed), its node renamed into dev/."""
    if not os.path.lexists(tree.path("sys/bus/gpio/devices/gpiochip2")):
        gpio_chip(tree, 2, "fake-gpio.2", 416, 2, "fake-c")
    fd, tmp = tempfile.mkstemp(dir=tree.path("."))
    os.write(fd, b"fake-c\n2\nBELL\n\n")
    os.close(fd)
    os.chmod(tmp, mode)
    os.rename(tmp, tree.path("dev/gpiochip2"))


def unplug(tree: FakeTree) -> None:
    os.unlink(tree.path("dev/gpiochip2"))


def settle(d: Udrvd) -> list[str]:
    """What udrvd said of the device directory's events so far: a marker
    node (an empty gpiochip3, a chip of no lines to the fake) comes after
    them, and udrvd reads inotify's events in order."""
    fd, tmp = tempfile.mkstemp(dir=d.tree.path("."))
    os.close(fd)
    os.rename(tmp, d.tree.path("dev/gpiochip3"))
    start = d.seen
    d.wait_log("udrvd: gpiochip3 () came")
    return d.log[start:d.seen - 1]


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


def test_a_chip_that_comes_is_exported(udrvd: Udrvd) -> None:
    assert udrvd.call(CHIP2, GET, "io.gpiod1.Chip", "Label").returncode != 0
    plug(udrvd.tree)
    said = udrvd.wait_log("udrvd: gpiochip2 ")
    assert said == "udrvd: gpiochip2 (fake-c) came: exported, 2 lines"
    res = udrvd.call(CHIP2, GET, "io.gpiod1.Chip", "Label")
    assert res.returncode == 0 and "fake-c" in res.stdout, res.stderr
    res = udrvd.call("/io/gpiod1/chips", "org.freedesktop.DBus.ObjectManager.GetManagedObjects")
    assert "/io/gpiod1/chips/gpiochip2'" in res.stdout, res.stdout
    res = udrvd.call(f"{CHIP2}/line0", GET, "io.gpiod1.Line", "Name")
    assert res.returncode == 0 and "BELL" in res.stdout, res.stderr
    # its lines are there to request, as the policy says
    path_of(request(udrvd, [0], OUTPUT, [1], chip=CHIP2))
    line = udrvd.lines(2)[0]
    assert (line.used, line.output, line.level) == (True, True, 1)


def test_a_chip_that_goes_takes_its_requests(udrvd: Udrvd) -> None:
    plug(udrvd.tree)
    udrvd.wait_log("udrvd: gpiochip2 (fake-c) came")
    path = path_of(request(udrvd, [1], OUTPUT, [1], chip=CHIP2))
    udrvd.wait_state(lambda text: "fake-c" in text)  # kept: a restore rule covers it
    unplug(udrvd.tree)
    said = [ln for ln in settle(udrvd) if ln.startswith("udrvd: gpiochip2 ")]
    assert said == ["udrvd: gpiochip2 (fake-c) went away: 1 of udrvd's requests on it dropped"]
    for obj, iface, prop in ((CHIP2, "io.gpiod1.Chip", "Label"),
                             (f"{CHIP2}/line1", "io.gpiod1.Line", "Used"),
                             (path, "io.gpiod1.Request", "ChipPath")):  # fmt: skip
        res = udrvd.call(obj, GET, iface, prop)
        assert res.returncode != 0 and "UnknownObject" in res.stderr, (obj, res.stderr)
    udrvd.wait_state(lambda text: "fake-c" not in text)
    # back again: exported as new, udrvd serving all along
    plug(udrvd.tree)
    assert udrvd.wait_log("udrvd: gpiochip2 ").endswith("came: exported, 2 lines")
    assert udrvd.call(CHIP2, GET, "io.gpiod1.Chip", "Label").returncode == 0


def test_a_chip_it_may_not_open_yet_is_tried_again(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                    tree: FakeTree) -> None:  # fmt: skip
    """udrvd as a user (as its package runs it): a node that appears as
    root's alone is left out, and exported once its mode lets udrvd in."""
    for chip in ("dev/gpiochip0", "dev/gpiochip1"):
        os.chmod(tree.path(chip), 0o600)  # only the new chip is udrvd's
    policy = tree.root.parent / "udrvd.conf"  # where the user can read it
    policy.write_text(POLICY)
    d = start_udrvd(udrvd_bin, fake_cdev, bus, tree, policy, uid=1)
    try:
        plug(tree, 0o600)
        said = d.wait_log("udrvd: gpiochip2 ")
        assert said.startswith("udrvd: gpiochip2 left out: ") and "Permission denied" in said
        os.chmod(tree.path("dev/gpiochip2"), 0o666)
        assert d.wait_log("udrvd: gpiochip2 ").endswith("came: exported, 2 lines")
    finally:
        d.stop()
