# SPDX-License-Identifier: GPL-2.0-only
"""udrv info: everything at once, and why a section is empty."""

from __future__ import annotations

from typing import Any

from tests.support import fakes
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner


def test_empty_tree_json(udrv: Runner, tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    r = udrv("info", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    assert doc["udrv_version"] == udrv("--version").stdout.split()[1]
    assert doc["gpio"]["num_chips"] == 0
    assert doc["gpio"]["chips"] == []
    assert "CONFIG_GPIOLIB" in doc["gpio"]["reason"]
    assert doc["uio"]["num_devices"] == 0
    assert doc["uio"]["devices"] == []
    assert "CONFIG_UIO" in doc["uio"]["reason"]
    assert "preempt_model" in doc["rt"]
    assert isinstance(doc["rt"]["findings"], list)


def test_empty_tree_human_says_why(udrv: Runner, tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    r = udrv("info")
    assert r.returncode == 0, r
    assert "GPIO chips:\n  no GPIO chips: this kernel has no GPIO support" in r.stdout
    assert "UIO devices:\n  no UIO devices: UIO is not available" in r.stdout
    assert "modprobe uio" in r.stdout
    assert "Real-time readiness:" in r.stdout


def test_sysfs_not_mounted(udrv: Runner, tree: FakeTree) -> None:
    tree.dir("dev")
    doc = udrv("info", "--json").json()
    assert "sysfs is not mounted" in doc["gpio"]["reason"]


def test_support_but_no_devices(udrv: Runner, tree: FakeTree) -> None:
    fakes.gpio_bus(tree)
    tree.dir("sys/class/uio")
    doc = udrv("info", "--json").json()
    assert "no GPIO controller registered a chip" in doc["gpio"]["reason"]
    assert "no driver registered a device" in doc["uio"]["reason"]


def check_section(section: dict[str, Any], count: str, items: str) -> None:
    assert section[count] == len(section[items])
    if section[count] == 0:
        assert section["reason"], section
    else:
        assert "reason" not in section


def test_host_json_is_valid(udrv: Runner) -> None:
    """The real machine: with no GPIO or UIO (as in CI) each section says why."""
    r = udrv.host("info", "--json")
    doc = r.json()
    # exit 1 exactly when a chip or device that is listed could not be shown
    assert r.returncode == (1 if "udrv: " in r.stderr else 0), r
    if doc["gpio"]["num_chips"] == 0 and doc["uio"]["num_devices"] == 0:
        assert r.returncode == 0, r
    check_section(doc["gpio"], "num_chips", "chips")
    check_section(doc["uio"], "num_devices", "devices")
    assert doc["rt"]["release"]


def test_host_human_says_why(udrv: Runner) -> None:
    r = udrv.host("info")
    doc = udrv.host("info", "--json").json()
    if doc["gpio"]["num_chips"] == 0:
        assert doc["gpio"]["reason"] in r.stdout
    if doc["uio"]["num_devices"] == 0:
        assert doc["uio"]["reason"] in r.stdout


def test_chips_and_devices(udrv: Runner, tree: FakeTree) -> None:
    fakes.gpio_bus(tree)
    fakes.gpio_chip(tree, 0, "wire", 512, 8, "fake-wire")
    fakes.uio_device(tree, 0, "fpga")
    fakes.uio_map(tree, 0, 0, "regs", 0x40000000, 0x100)
    fakes.uio_dev_file(tree, 0)
    r = udrv("info", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    assert doc["gpio"]["num_chips"] == 1
    assert [c["name"] for c in doc["gpio"]["chips"]] == ["gpiochip0"]
    assert doc["uio"]["num_devices"] == 1
    assert doc["uio"]["devices"][0]["maps"][0]["name"] == "regs"


def test_verbose_shows_ok_findings(udrv: Runner, tree: FakeTree) -> None:
    fakes.rt_system(tree)
    quiet = udrv("info")
    loud = udrv("info", "--verbose")
    assert "ok   preempt" not in quiet.stdout
    assert "ok   preempt     PREEMPT_RT kernel: fully preemptible" in loud.stdout
    assert "info throttling" in quiet.stdout
