# SPDX-License-Identifier: GPL-2.0-only
"""udrv gpio on a fake chip that has legacy sysfs GPIO but no character device.

Chip gpiochip0 ("fake-wire", 8 lines) has sysfs base 512, as on Linux 6.x, so
offset N is GPIO 512 + N.  Its export and unexport files are served like the
kernel's (fakes.GpioExports): an exported line appears as an input reading 1.
A line exported by someone else (fakes.gpio_line) is refused.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, GpioExports, gpio_attr, gpio_bus, gpio_chip, gpio_line
from tests.support.udrv_runner import Runner

BASE = 512
LINE = 3
GPIO = BASE + LINE


@pytest.fixture
def exports(tree: FakeTree) -> Iterator[GpioExports]:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", BASE, 8, "fake-wire")
    served = GpioExports(tree)
    yield served
    served.stop()


@pytest.fixture
def chip(tree: FakeTree, exports: GpioExports) -> FakeTree:
    return tree


# ---- info ----


def test_info_human(udrv: Runner, chip: FakeTree) -> None:
    gpio_line(chip, GPIO, "in", value=1)
    r = udrv("gpio", "info")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[0] == "gpiochip0 [fake-wire] 8 lines (sysfs only), sysfs base 512"
    assert len(lines) == 1 + 8
    assert lines[1 + LINE].split() == [str(LINE), "-", "input", "sysfs"]
    assert lines[1].split() == ["0", "-", "input", "-"]


def test_info_json(udrv: Runner, chip: FakeTree) -> None:
    gpio_line(chip, GPIO, "in", value=1)
    r = udrv("gpio", "info", "--json")
    assert r.returncode == 0, r
    [c] = r.json()
    assert c["name"] == "gpiochip0"
    assert c["label"] == "fake-wire"
    assert c["num_lines"] == 8
    assert c["cdev"] is False
    assert c["sysfs_base"] == BASE
    assert [ln["offset"] for ln in c["lines"]] == list(range(8))
    exported = c["lines"][LINE]
    assert exported["used"] is True
    assert exported["consumer"] == "sysfs"
    assert exported["direction"] == "input"
    assert c["lines"][0]["used"] is False
    assert c["lines"][0]["consumer"] == ""


def test_info_exported_output_active_low(udrv: Runner, chip: FakeTree) -> None:
    gpio_line(chip, BASE + 5, "out", active_low=True)
    line = udrv("gpio", "info", "--json").json()[0]["lines"][5]
    assert line["direction"] == "output"
    assert line["active_low"] is True


@pytest.mark.parametrize("spec", ["gpiochip0", "0", "fake-wire"])
def test_info_one_chip(udrv: Runner, chip: FakeTree, spec: str) -> None:
    gpio_chip(chip, 1, "other", BASE + 8, 4, "other-chip")
    r = udrv("gpio", "info", "-c", spec, "--json")
    assert r.returncode == 0, r
    assert [c["name"] for c in r.json()] == ["gpiochip0"]


def test_info_two_chips_sorted(udrv: Runner, chip: FakeTree) -> None:
    gpio_chip(chip, 1, "other", BASE + 8, 4, "other-chip")
    doc = udrv("gpio", "info", "--json").json()
    assert [(c["name"], c["sysfs_base"], c["num_lines"]) for c in doc] == [
        ("gpiochip0", BASE, 8), ("gpiochip1", BASE + 8, 4)]


def test_info_no_chips(udrv: Runner, tree: FakeTree) -> None:
    gpio_bus(tree)
    r = udrv("gpio", "info")
    assert r.returncode == 0, r
    assert "no GPIO chips" in r.stdout


# ---- get / set through sysfs ----


@pytest.mark.parametrize("base", [0, 512], ids=["linux5-base0", "linux6-base512"])
def test_get_uses_base_plus_offset(udrv: Runner, tree: FakeTree, base: int) -> None:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", base, 8, "fake-wire")
    served = GpioExports(tree)
    try:
        r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", str(LINE))
        assert r.returncode == 0, r
        assert r.stdout == f"{LINE}=1\n"
        assert served.exported == [base + LINE]
        assert served.wait_unexported(base + LINE)
    finally:
        served.stop()


def test_get_reads_value_file(udrv: Runner, exports: GpioExports) -> None:
    assert udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3").stdout == "3=1\n"
    assert exports.wait_unexported(GPIO)
    exports.values[GPIO] = 0
    assert udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3").stdout == "3=0\n"


def test_get_json(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "--backend", "sysfs", "--chip", "fake-wire", "--json", "3")
    assert r.returncode == 0, r
    assert r.json() == {"chip": "gpiochip0", "backend": "sysfs",
                        "lines": [{"line": "3", "offset": 3, "value": 1}]}


def test_get_requests_an_input(udrv: Runner, exports: GpioExports) -> None:
    exports.directions[GPIO] = "out"
    assert udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3").returncode == 0
    assert exports.final(GPIO, "direction").startswith("in")
    assert exports.final(GPIO, "active_low").startswith("0")


@pytest.mark.parametrize(("value", "direction"), [("1", "high"), ("on", "high"),
                                                   ("active", "high"), ("0", "low"),
                                                   ("off", "low"), ("inactive", "low")])
def test_set_drives_through_direction(udrv: Runner, exports: GpioExports, value: str,
                                      direction: str) -> None:
    """sysfs sets an output and its level in one write: direction high/low."""
    r = udrv("gpio", "set", "-b", "sysfs", "-c", "0", f"3={value}")
    assert r.returncode == 0, r
    assert r.stdout == ""
    assert exports.final(GPIO, "direction").startswith(direction)


def test_set_active_low_inverts_the_level(udrv: Runner, exports: GpioExports) -> None:
    r = udrv("gpio", "set", "-b", "sysfs", "-c", "0", "--active-low", "3=1")
    assert r.returncode == 0, r
    assert exports.final(GPIO, "direction").startswith("low")
    assert exports.final(GPIO, "active_low").startswith("1")


def test_set_json(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "set", "-b", "sysfs", "-c", "0", "--json", "3=1")
    assert r.returncode == 0, r
    assert r.json() == {"chip": "gpiochip0", "backend": "sysfs",
                        "lines": [{"line": "3", "offset": 3, "value": 1}]}


def test_set_refuses_a_line_it_did_not_export(udrv: Runner, chip: FakeTree,
                                              exports: GpioExports) -> None:
    """Someone else's export is not taken over (udrv used to rewrite its
    direction and active_low)."""
    gpio_line(chip, GPIO, "in", value=1)
    r = udrv("gpio", "set", "-b", "sysfs", "-c", "0", "--active-low", "3=1")
    assert r.returncode == 1, r
    assert "already exported in sysfs" in r.stderr, r
    assert f"echo {GPIO} > /sys/class/gpio/unexport" in r.stderr, r
    assert gpio_attr(chip, GPIO, "direction").startswith("in")
    assert gpio_attr(chip, GPIO, "active_low").startswith("0")
    assert exports.exported == [] and exports.unexported == []


def test_toggle_writes_the_value_file(udrv: Runner, exports: GpioExports) -> None:
    r = udrv("gpio", "toggle", "-b", "sysfs", "-c", "0", "--count", "3", "--json", "3")
    assert r.returncode == 0, r
    doc = r.json()
    assert doc["toggles"] == 3
    assert doc["backend"] == "sysfs"
    assert exports.final(GPIO, "value").startswith("1")  # 1, 0, 1
    exports.unexported.clear()
    r = udrv("gpio", "toggle", "-b", "sysfs", "-c", "0", "-n", "2", "3")
    assert r.returncode == 0, r
    assert "2 toggles" in r.stdout
    assert exports.final(GPIO, "value").startswith("0")  # 1, 0


# ---- errors ----


def test_offset_out_of_range(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", "9")
    assert r.returncode == 1, r
    assert "offset 9 out of range" in r.stderr
    assert "has 8 lines (0..7)" in r.stderr


def test_huge_offset_does_not_wrap(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", str(2**32 + LINE))
    assert r.returncode == 2, r
    assert "out of range" in r.stderr


def test_offset_without_chip(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "3")
    assert r.returncode == 2, r
    assert "-c CHIP" in r.stderr


def test_unknown_chip_lists_available(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "nochip", "3")
    assert r.returncode == 1, r
    assert "no GPIO chip 'nochip'" in r.stderr
    assert "available: gpiochip0" in r.stderr


def test_unknown_chip_number(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "info", "-c", "7")
    assert r.returncode == 1, r
    assert "no GPIO chip '7'" in r.stderr


def test_bad_backend(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "gpiod", "-c", "0", "3")
    assert r.returncode == 2, r
    assert "unknown backend 'gpiod': cdev, sysfs or mmio" in r.stderr


@pytest.mark.parametrize("backend", [["--backend", "cdev"], []], ids=["explicit", "default"])
def test_cdev_on_sysfs_only_chip(udrv: Runner, chip: FakeTree, backend: list[str]) -> None:
    r = udrv("gpio", "get", *backend, "-c", "0", "3")
    assert r.returncode == 1, r
    assert "has no character device" in r.stderr
    assert "through the sysfs backend (UDRV_BACKEND_SYSFS)" in r.stderr  # the library's words
    assert "udrv: without the GPIO character device: --backend sysfs" in r.stderr  # the CLI's


def test_mmio_without_a_known_soc(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "mmio", "-c", "0", "3")
    assert r.returncode == 1, r
    assert "mmio backend" in r.stderr


@pytest.mark.parametrize("bias", ["pull-up", "pull-down", "disabled"])
def test_sysfs_cannot_set_bias(udrv: Runner, chip: FakeTree, bias: str) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "--bias", bias, "-c", "0", "3")
    assert r.returncode == 1, r
    assert "sysfs GPIO cannot set bias" in r.stderr
    assert "use the cdev backend" in r.stderr


def test_sysfs_cannot_set_drive(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "set", "-b", "sysfs", "--drive", "open-drain", "-c", "0", "3=1")
    assert r.returncode == 1, r
    assert "sysfs GPIO cannot set drive" in r.stderr


def test_drive_on_an_input(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "--drive", "open-drain", "-c", "0", "3")
    assert r.returncode == 1, r
    assert "applies to outputs only" in r.stderr


def test_same_offset_twice(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", "3", "3")
    assert r.returncode == 2, r  # a bad command line, not a busy line
    assert "line 3 of gpiochip0 is given twice ('3' and '3')" in r.stderr


def test_line_names_need_a_cdev(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", "LED")
    assert r.returncode == 1, r
    assert "sysfs GPIO has no line names; give an offset" in r.stderr


def test_line_name_not_on_any_chip(udrv: Runner, chip: FakeTree) -> None:
    r = udrv("gpio", "get", "-b", "sysfs", "LED")
    assert r.returncode == 1, r
    assert ("no line named 'LED' on gpiochip0 [fake-wire] (no character device: "
            "sysfs GPIO has no line names; give an offset with -c)") in r.stderr


def test_line_name_without_any_chip(udrv: Runner, tree: FakeTree) -> None:
    gpio_bus(tree)
    r = udrv("gpio", "get", "LED")
    assert r.returncode == 1, r
    assert "no GPIO chips" in r.stderr


def test_unexported_line_without_sysfs_export(udrv: Runner, tree: FakeTree) -> None:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", BASE, 8, "fake-wire")
    r = udrv("gpio", "get", "-b", "sysfs", "-c", "0", "4")
    assert r.returncode == 1, r
    assert "CONFIG_GPIO_SYSFS" in r.stderr


def test_mon_sysfs_fails_cleanly_on_unpollable_file(udrv: Runner, chip: FakeTree) -> None:
    """Regular files cannot be polled for POLLPRI: the error names the file."""
    r = udrv("gpio", "mon", "-b", "sysfs", "-c", "0", "-n", "1", "-t", "50ms", "3")
    assert r.returncode == 1, r
    assert f"gpio{GPIO}/value for edges" in r.stderr


def wait_for_open(pid: int, path: Path, timeout_s: float = 5.0) -> bool:
    """Whether process @pid has @path open, polling /proc/PID/fd."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except FileNotFoundError:
            return False
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                    return True
            except OSError:
                continue
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_mon_stops_on_a_signal(udrv: Runner, exports: GpioExports, sig: signal.Signals) -> None:
    """Ends with the summary and exit 0, not killed by the signal. A FIFO as the
    value file can be polled and never reports an edge."""
    exports.fifo_values.add(GPIO)
    value = exports.t.path(f"sys/class/gpio/gpio{GPIO}/value")
    proc = udrv.start("gpio", "mon", "-b", "sysfs", "-c", "0", "3")
    try:
        assert wait_for_open(proc.pid, value), "udrv did not open the value file"
        time.sleep(0.2)  # past the sigaction() calls that follow the request
        proc.send_signal(sig)
        try:
            _, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            pytest.fail(f"udrv gpio mon still running 5 s after {sig.name}")
        assert proc.returncode == 0, err
        assert b"0 events, 0 lost" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
