# SPDX-License-Identifier: GPL-2.0-only
"""udrv gpio -b mmio on a fake Raspberry Pi 3 tree.

The tree has the device tree's compatible string, the pinctrl-bcm2835 chip
under its platform device 3f200000.gpio (sysfs side only: no character
device, so nothing can be claimed) and /dev/mem as a sparse file. What can
be checked without a kernel: SoC detection, the register map of a line, the
mapping, and the errors. Driving the pins is tested in the rpi3 lab board.
"""

from __future__ import annotations

import json

import pytest

from tests.support.fakes import FakeTree, gpio_bus, gpio_chip
from tests.support.udrv_runner import Runner

BCM_BASE = 0x3F200000


def devmem(tree: FakeTree) -> None:
    path = tree.file("dev/mem")
    with path.open("r+b") as f:
        f.truncate(BCM_BASE + 0x1000)  # sparse: mmap at the physical address works


@pytest.fixture
def rpi3(tree: FakeTree) -> FakeTree:
    gpio_bus(tree)
    gpio_chip(tree, 0, "3f200000.gpio", 512, 54, "pinctrl-bcm2835")
    tree.file("proc/device-tree/compatible", b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    devmem(tree)
    return tree


def test_info_shows_the_registers(udrv: Runner, rpi3: FakeTree) -> None:
    r = udrv("gpio", "info", "-b", "mmio", "-c", "0")
    assert r.returncode == 0, r
    assert "registers: bcm2837 GPIO block at 0x3f200000" in r.stdout
    assert "GPSET0/GPCLR0, level GPLEV0" in r.stdout


def test_info_json_registers(udrv: Runner, rpi3: FakeTree) -> None:
    r = udrv("gpio", "info", "-b", "mmio", "-c", "0", "--json")
    assert r.returncode == 0, r
    mmio = json.loads(r.stdout)[0]["mmio"]
    assert mmio["soc"] == "bcm2837"
    assert mmio["device"] == "3f200000.gpio"
    assert mmio["phys"] == BCM_BASE
    assert mmio["map_path"].endswith("/dev/mem")


def test_claim_needs_the_character_device(udrv: Runner, rpi3: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "mmio", "-c", "0", "17")
    assert r.returncode == 1, r
    assert "has no character device" in r.stderr


def test_unknown_soc_is_refused(udrv: Runner, rpi3: FakeTree) -> None:
    rpi3.file("proc/device-tree/compatible", b"acme,board\0acme,soc9000\0")
    r = udrv("gpio", "info", "-b", "mmio", "-c", "0", "--json")
    assert "unknown SoC" in r.stdout + r.stderr, r


def test_no_device_tree_is_refused(udrv: Runner, rpi3: FakeTree) -> None:
    rpi3.path("proc/device-tree/compatible").unlink()
    r = udrv("gpio", "get", "-b", "mmio", "-c", "0", "17")
    assert r.returncode == 1, r
    assert "--layout" in r.stderr


@pytest.mark.parametrize("spec", ["base=zz", "data=0x0", "colour=red"])
def test_bad_layout_is_a_usage_error(udrv: Runner, rpi3: FakeTree, spec: str) -> None:
    r = udrv("gpio", "get", "-b", "mmio", "--layout", spec, "-c", "0", "17")
    assert r.returncode == 2, r
    assert "--layout" in r.stderr


def test_layout_with_a_bad_width_is_refused(udrv: Runner, rpi3: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "mmio", "--layout", "base=0x1000,data=0x0,width=12",
             "-c", "0", "17")
    assert r.returncode == 1, r
    assert "width must be 8, 16 or 32" in r.stderr
