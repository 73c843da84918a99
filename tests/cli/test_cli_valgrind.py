# SPDX-License-Identifier: GPL-2.0-only
"""udrv under valgrind: no read of uninitialised memory, no invalid access,
on fake trees and with a UDRV_SYSROOT too long for any path (which used to
hand an uninitialised buffer to open()). Skipped where valgrind is missing
or the binary is built with sanitizers (they do not mix)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, gpio_bus, gpio_chip, uio_dev_file, uio_device, uio_map
from tests.support.pwm_fakes import pwm_tree
from tests.support.udrv_runner import Runner
from tests.support.valgrind import memcheck, valgrind_runner

COMMANDS = [
    ["info"],
    ["info", "--json"],
    ["gpio", "info"],
    ["gpio", "info", "-c", "fake-wire"],
    ["gpio", "get", "-b", "sysfs", "-c", "0", "3"],
    ["gpio", "set", "LED=1"],
    ["uio", "info"],
    ["uio", "info", "uio0"],
    ["uio", "peek", "uio0", "0x10"],
    ["rt", "check", "--json"],
    ["pwm", "list"],
    ["pwm", "get", "--json", "fe20c000.pwm", "1"],
]


def populate(t: FakeTree) -> None:
    gpio_bus(t)
    gpio_chip(t, 0, "wire", 512, 8, "fake-wire")
    uio_device(t, 0, "uio_pci_generic")
    uio_map(t, 0, 0, "BAR0", 0xfea00000, 0x1000, 0)
    uio_dev_file(t, 0)
    pwm_tree(t).channel(1, 20000000, 1500000, "normal", 1)


@pytest.fixture
def checked(udrv: Runner) -> Runner:
    return valgrind_runner(udrv)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_fake_tree(checked: Runner, tree: FakeTree, args: list[str]) -> None:
    populate(tree)
    r = memcheck(checked, tree.root, args)
    assert r.returncode != 99, r.stderr
    assert "==" not in r.stderr, r.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_sysroot_too_long(checked: Runner, tmp_path: Path, args: list[str]) -> None:
    root = tmp_path / ("x" * 200) / ("y" * 200) / ("z" * 200)
    r = memcheck(checked, root, args)
    assert r.returncode != 99, r.stderr
    assert "==" not in r.stderr, r.stderr
