# SPDX-License-Identifier: GPL-2.0-only
"""Inputs that must never pick the wrong hardware: each of these used to be
accepted and act on a chip, line or device nobody named (or to hang). Each
must now be a usage error (exit 2) with a message, and touch nothing."""

from __future__ import annotations

import pytest

from tests.support.fakes import (
    FakeTree,
    gpio_bus,
    gpio_chip,
    gpio_line,
    uio_dev_file,
    uio_device,
    uio_map,
)
from tests.support.udrv_runner import Runner


@pytest.fixture
def two_chips(tree: FakeTree) -> FakeTree:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", 512, 8, "fake-wire")
    gpio_chip(tree, 1, "other", 520, 4, "other")
    tree.file("sys/class/gpio/export", "")
    tree.file("sys/class/gpio/unexport", "")
    return tree


def check_usage(r: object, message: str) -> None:
    assert r.returncode == 2, r  # type: ignore[attr-defined]
    assert message in r.stderr, r  # type: ignore[attr-defined]


def nothing_exported(t: FakeTree) -> bool:
    return t.read("sys/class/gpio/export") == ""


@pytest.mark.parametrize("args", [
    ["gpio", "set", "=1"],  # "$RELAY=1" with RELAY unset
    ["gpio", "set", "-c", "0", "=1"],
    ["gpio", "get", ""],
    ["gpio", "get", "-c", "0", ""],
    ["gpio", "mon", "-c", "0", ""],
    ["gpio", "toggle", "-c", "0", "-n", "2", ""],
], ids=lambda a: " ".join(x or repr(x) for x in a))
def test_empty_line_name(udrv: Runner, two_chips: FakeTree, args: list[str]) -> None:
    r = udrv(*args)
    check_usage(r, "empty line name")
    assert nothing_exported(two_chips)


@pytest.mark.parametrize(("spec", "shown"), [
    ("4294967296", "gpiochip0"),
    ("gpiochip4294967297", "gpiochip1"),
    ("2147483648", ""),
    ("99999999999999999999", ""),
])
def test_chip_number_out_of_range(udrv: Runner, two_chips: FakeTree, spec: str,
                                  shown: str) -> None:
    """atoi() made these gpiochip0 / gpiochip1."""
    r = udrv("gpio", "info", "-c", spec)
    check_usage(r, "out of range")
    if shown:
        assert shown not in r.stdout, r
    r = udrv("gpio", "set", "-b", "sysfs", "-c", spec, "0=1")
    check_usage(r, "out of range")
    assert nothing_exported(two_chips)


def test_empty_chip(udrv: Runner, two_chips: FakeTree) -> None:
    check_usage(udrv("gpio", "info", "-c", ""), "empty --chip")
    check_usage(udrv("gpio", "get", "-c", "", "0"), "empty --chip")


def test_same_line_twice(udrv: Runner, two_chips: FakeTree) -> None:
    gpio_line(two_chips, 515)
    check_usage(udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3", "3"), "given twice")
    check_usage(udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3", "03"), "given twice")


@pytest.mark.parametrize("spec", ["uio4294967296", "4294967296", "/dev/uio4294967296"])
def test_uio_number_out_of_range(udrv: Runner, tree: FakeTree, spec: str) -> None:
    """atoi() made these uio0."""
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_file(tree, 0)
    r = udrv("uio", "info", spec)
    check_usage(r, "out of range")
    assert "uio_pci_generic" not in r.stdout, r
    check_usage(udrv("uio", "peek", spec, "0"), "out of range")


@pytest.mark.parametrize("value", [
    "nan", "inf", "-inf", "infinity", "1e300", "1e3", "-1", "0x10", "", " 1s", "1.0000000001s",
    "10000000000s",  # 317 years: used to overflow (inf became 0 ms: no wait at all)
])
def test_timeouts(udrv: Runner, tree: FakeTree, value: str) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    check_usage(udrv("uio", "wait", "--timeout", value, "uio0"), "bad --timeout")
    check_usage(udrv("gpio", "mon", "-c", "0", "--timeout", value, "3"), "bad --timeout")


@pytest.mark.parametrize("value", ["1e10s", "10000000000s", "nan", "inf", "8d", "10081m"])
def test_toggle_period(udrv: Runner, two_chips: FakeTree, value: str) -> None:
    """-p 1e10s overflowed into a sleep of about 49 years."""
    check_usage(udrv("gpio", "toggle", "-c", "0", "-p", value, "3"), "bad --period")


@pytest.mark.parametrize("value", ["nan", "inf", "1e300", "8d", "604801s"])
def test_hold(udrv: Runner, two_chips: FakeTree, value: str) -> None:
    check_usage(udrv("gpio", "set", "-c", "0", "--hold", value, "3=1"), "bad --hold")
    assert nothing_exported(two_chips)


@pytest.mark.parametrize("args", [
    ["uio", "peek", "uio0", "-1"],
    ["uio", "peek", "uio0", "18446744073709551616"],
    ["uio", "peek", "uio0", " 4"],
    ["uio", "poke", "uio0", "0", "1x"],
    ["gpio", "mon", "-c", "0", "--num-events", "-1", "3"],
    ["gpio", "toggle", "-c", "0", "--count", "-5", "3"],
])
def test_numbers(udrv: Runner, tree: FakeTree, args: list[str]) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    r = udrv(*args)
    assert r.returncode == 2, r


def test_uio_map_size_that_wraps(udrv: Runner, tree: FakeTree) -> None:
    """A sysfs size of 2^64-1: the region claimed SIZE_MAX bytes over one
    mapped page and 'peek 0x100000' died with SIGSEGV. Now a runtime error."""
    uio_device(tree, 0, "uio_pci_generic")
    uio_map(tree, 0, 0, "BAR0", 0xFEA00000, 2**64 - 1, 0x10)
    uio_dev_file(tree, 0)
    r = udrv("uio", "peek", "uio0", "0x100000")
    assert r.returncode == 1, r
    assert "map 0 of uio0" in r.stderr, r


def test_uio_map_size_not_a_number(udrv: Runner, tree: FakeTree) -> None:
    uio_device(tree, 0, "uio_pci_generic")
    uio_map(tree, 0, 0, "BAR0", 0xFEA00000, 0x1000)
    tree.file("sys/class/uio/uio0/maps/map0/size", "-1\n")
    uio_dev_file(tree, 0)
    r = udrv("uio", "peek", "uio0", "0")
    assert r.returncode == 1, r
    assert "maps/map0/size of uio0: not a number" in r.stderr, r
