# SPDX-License-Identifier: GPL-2.0-only
"""Chip.watch_line_info() and the InfoEvents after it (libudrv's
udrv_chip_watch_line_info()), in a Python with tests/daemon's fake character
device preloaded: its gpiochip0.info FIFO carries the kernel's
struct gpio_v2_line_info_changed records, written here before the script
reads them, so that no test waits on a clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from tests.python.test_py_respond import GUARD_S, fake_env
from tests.support.fakes import (
    LINE_RECONFIGURED,
    LINE_RELEASED,
    LINE_REQUESTED,
    FakeTree,
    chip_file,
    gpio_bus,
    gpio_chip,
    line_info_changed,
)

OUTPUT = 1 << 3  # GPIO_V2_LINE_FLAG_OUTPUT


@pytest.fixture
def chip(tree: FakeTree) -> FakeTree:
    gpio_bus(tree)
    chip_file(tree, 0, "fake-a", ["LOCK", "DOOR", "", "", "LED", "", "", ""])
    return tree


@pytest.fixture
def fifo(chip: FakeTree) -> Iterator[int]:
    path = chip.path("dev/gpiochip0.info")
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR)  # keeps what is written until it is read
    yield fd
    os.close(fd)


def run(tree: FakeTree, code: str) -> object:
    """@code's main() in a Python with the fake character device: what it
    returned, or the exception it raised (type, errno, message)."""
    script = "import json, udrv\n" + textwrap.dedent(code) + textwrap.dedent("""
        try:
            out = {"result": main()}
        except Exception as e:
            out = {"error": type(e).__name__, "errno": getattr(e, "errno", None), "msg": str(e)}
        print(json.dumps(out))
        """)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=GUARD_S, env=fake_env(tree), check=False)  # fmt: skip
    assert res.returncode == 0 and res.stdout.strip(), res.stdout + res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


EVENTS = """
def main():
    with udrv.Chip("gpiochip0") as chip:
        now = chip.watch_line_info("DOOR")
        chip.watch_line_info(4)
        got = [(e.change.name, e.timestamp_ns, e.info.offset, e.info.consumer, e.info.used,
                e.info.direction.name) for e in chip.info_events(timeout=0)]
        assert isinstance(got and chip.fileno(), int)
        return [now.name, now.used, got, chip.wait_info_event(0)]
"""


def test_changes_come_as_info_events(chip: FakeTree, fifo: int) -> None:
    os.write(fifo, line_info_changed(1, LINE_REQUESTED, "door", 5_000)
             + line_info_changed(1, LINE_RECONFIGURED, "door", 6_000, flags=1 | OUTPUT)
             + line_info_changed(4, LINE_RELEASED, "", 7_000, flags=0))  # fmt: skip
    assert run(chip, EVENTS) == {"result": [
        "DOOR", False,
        [["REQUESTED", 5_000, 1, "door", True, "INPUT"],
         ["RECONFIGURED", 6_000, 1, "door", True, "OUTPUT"],
         ["RELEASED", 7_000, 4, "", False, "INPUT"]],
        False,
    ]}  # fmt: skip


TWICE = """
def main():
    with udrv.Chip("gpiochip0") as chip:
        chip.watch_line_info("DOOR")
        chip.unwatch_line_info("DOOR")
        return chip.wait_info_event(timeout=0.01)
"""


def test_unwatch_and_an_empty_wait(chip: FakeTree, fifo: int) -> None:
    assert run(chip, TWICE) == {"result": False}


NOT_WATCHED = """
def main():
    with udrv.Chip("gpiochip0") as chip:
        chip.watch_line_info(9)
"""


def test_an_offset_out_of_range(chip: FakeTree, fifo: int) -> None:
    out = run(chip, NOT_WATCHED)
    assert isinstance(out, dict) and out["error"] == "InvalidError", out
    assert "offset 9 out of range: gpiochip0 has 8 lines" in out["msg"]


def test_a_kernel_without_the_watch(chip: FakeTree) -> None:
    out = run(chip, NOT_WATCHED.replace("9", "1"))  # no FIFO: the fake's ENOTTY
    assert isinstance(out, dict) and out["errno"] == 25, out  # ENOTTY
    assert "the kernel cannot watch line info" in out["msg"]


def test_a_chip_without_a_character_device(tree: FakeTree) -> None:
    gpio_bus(tree)
    gpio_chip(tree, 0, "wire", 512, 8, "fake-wire")
    out = run(tree, NOT_WATCHED.replace("9", "1"))
    assert isinstance(out, dict) and out["errno"] == 95, out  # EOPNOTSUPP
    assert "gpiochip0 has no GPIO character device" in out["msg"]
