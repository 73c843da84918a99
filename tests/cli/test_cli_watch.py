# SPDX-License-Identifier: GPL-2.0-only
"""udrv gpio watch: line-info changes, as libgpiod's gpionotify prints them.
The chip's character device is tests/daemon/fake_cdev.c (preloaded); the
kernel's changes come from its gpiochip0.info FIFO, written here before udrv
reads them (struct gpio_v2_line_info_changed records), so that nothing
waits on a clock."""

from __future__ import annotations

import os
import select
import signal
from collections.abc import Iterator

import pytest

from tests.cli.test_cli_names import fake_cdev as fake_cdev
from tests.cli.test_cli_names import pi as pi
from tests.support.fakes import (
    LINE_RECONFIGURED,
    LINE_RELEASED,
    LINE_REQUESTED,
    FakeTree,
    gpio_bus,
    gpio_chip,
    line_info_changed,
)
from tests.support.udrv_runner import TIMEOUT_S, Runner
from tests.support.valgrind import memcheck, valgrind_runner

OUTPUT, ACTIVE_LOW = 1 << 3, 1 << 1  # GPIO_V2_LINE_FLAG_*


@pytest.fixture
def fifo(pi: FakeTree) -> Iterator[int]:
    """gpiochip0's changes FIFO, opened (read-write: writes never block)."""
    path = pi.path("dev/gpiochip0.info")
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR)
    yield fd
    os.close(fd)


def changes(fd: int) -> None:
    """GPIO17 (offset 4) requested as an input, made an active-low output,
    released; then GPIO27 (offset 5) requested."""
    os.write(fd, line_info_changed(4, LINE_REQUESTED, "blink", 12_000_000_345, name="GPIO17")
             + line_info_changed(4, LINE_RECONFIGURED, "blink", 12_500_000_000,
                                 flags=1 | OUTPUT | ACTIVE_LOW)
             + line_info_changed(4, LINE_RELEASED, "", 13_000_000_000, flags=0)
             + line_info_changed(5, LINE_REQUESTED, "other", 14_000_000_000))  # fmt: skip


def test_changes_are_printed_one_a_line(udrv: Runner, fifo: int) -> None:
    changes(fifo)
    r = udrv("gpio", "watch", "-n", "4", "GPIO17", "GPIO27")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == [
        "12.000000345 requested GPIO17 offset=4 consumer=blink input",
        "12.500000000 reconfigured GPIO17 offset=4 consumer=blink output active-low",
        "13.000000000 released GPIO17 offset=4 consumer=- input",
        "14.000000000 requested GPIO27 offset=5 consumer=other input",
    ]


def test_json_lines(udrv: Runner, fifo: int) -> None:
    changes(fifo)
    r = udrv("gpio", "watch", "--json", "-n", "2", "-c", "0", "4")
    assert r.returncode == 0, r
    first, second = r.json_lines()
    assert first["event"] == "requested" and first["line"] == "4"
    assert first["chip"] == "gpiochip0"
    assert first["name"] == "GPIO17"  # the kernel's copy of the line's info
    assert first["timestamp_ns"] == 12_000_000_345
    assert first["consumer"] == "blink" and first["used"] is True
    assert second["event"] == "reconfigured"
    assert second["direction"] == "output" and second["active_low"] is True


def test_lines_of_two_chips(udrv: Runner, fifo: int, pi: FakeTree) -> None:
    """As gpionotify, each name on whichever chip has it (BT_ON: gpiochip1)."""
    path = pi.path("dev/gpiochip1.info")
    os.mkfifo(path)
    fd1 = os.open(path, os.O_RDWR)
    try:
        os.write(fifo, line_info_changed(4, LINE_REQUESTED, "blink", 1_000))
        os.write(fd1, line_info_changed(0, LINE_REQUESTED, "bt", 2_000))
        r = udrv("gpio", "watch", "--json", "-n", "2", "GPIO17", "BT_ON")
    finally:
        os.close(fd1)
    assert r.returncode == 0, r
    got = sorted((e["chip"], e["line"], e["offset"], e["consumer"]) for e in r.json_lines())
    assert got == [("gpiochip0", "GPIO17", 4, "blink"), ("gpiochip1", "BT_ON", 0, "bt")]


def test_event_filter(udrv: Runner, fifo: int) -> None:
    changes(fifo)
    r = udrv("gpio", "watch", "-e", "released", "-e", "reconfigured", "-n", "2", "GPIO17")
    assert r.returncode == 0, r
    assert [ln.split()[1] for ln in r.stdout.splitlines()] == ["reconfigured", "released"]


def test_too_few_events_before_the_timeout(udrv: Runner, fifo: int) -> None:
    os.write(fifo, line_info_changed(4, LINE_REQUESTED))
    r = udrv("gpio", "watch", "-n", "2", "-t", "50ms", "GPIO17")
    assert r.returncode == 1, r
    assert len(r.stdout.splitlines()) == 1
    assert "no line-info change for 50 ms (1 of 2 events)" in r.stderr


def test_a_timeout_without_a_count_is_the_end(udrv: Runner, fifo: int) -> None:
    r = udrv("gpio", "watch", "-t", "10ms", "GPIO17")
    assert r.returncode == 0, r
    assert r.stdout == ""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_it(udrv: Runner, fifo: int, sig: signal.Signals) -> None:
    proc = udrv.start("gpio", "watch", "GPIO17")
    assert proc.stdout is not None
    try:
        os.write(fifo, line_info_changed(4, LINE_REQUESTED))
        ready, _, _ = select.select([proc.stdout], [], [], TIMEOUT_S)
        assert ready, "udrv gpio watch printed nothing"
        assert b" requested GPIO17 " in proc.stdout.readline()
        proc.send_signal(sig)  # it is in its loop: it printed
        assert proc.wait(TIMEOUT_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_kernel_without_the_watch(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "watch", "GPIO17")  # no FIFO: the fake's ENOTTY
    assert r.returncode == 1, r
    assert "the kernel cannot watch line info" in r.stderr
    assert "Linux 5.10" in r.stderr


def test_a_chip_without_a_character_device(udrv: Runner, tree: FakeTree) -> None:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", 512, 8, "fake-wire")
    r = udrv("gpio", "watch", "-c", "0", "3")
    assert r.returncode == 1, r
    assert "gpiochip0 has no GPIO character device" in r.stderr


@pytest.mark.parametrize(("args", "message"), [
    ([], "which lines? give at least one LINE"),
    (["-e", "changed", "GPIO17"], "bad --event 'changed'"),
    (["-n", "0", "GPIO17"], "bad --num-events '0'"),
    (["-t", "soon", "GPIO17"], "bad --timeout 'soon'"),
    (["--bias", "pull-up", "GPIO17"], "bad option"),
    (["-c", "0", "4", "GPIO17"], "line 4 of gpiochip0 is given twice"),
])  # fmt: skip
def test_usage_errors(udrv: Runner, pi: FakeTree, args: list[str], message: str) -> None:
    r = udrv("gpio", "watch", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r


@pytest.mark.parametrize("args", [
    ["gpio", "watch", "-n", "4", "--json", "GPIO17", "GPIO27"],
    ["gpio", "get", "gpio17"],
    ["gpio", "get", "LED"],
    ["gpio", "info", "-s", "LED"],
    ["gpio", "get", "-c", "pinctrl-bcm2711", "GPIO17"],
], ids=" ".join)  # fmt: skip
def test_under_valgrind(udrv: Runner, fifo: int, pi: FakeTree, args: list[str]) -> None:
    changes(fifo)
    r = memcheck(valgrind_runner(udrv), pi.root, args)
    assert r.returncode in (0, 1), r.stderr  # 99: memcheck found an error
    assert "==" not in r.stderr, r.stderr
    assert args[1] != "watch" or len(r.stdout.splitlines()) == 4, r.stdout
