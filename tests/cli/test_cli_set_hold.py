# SPDX-License-Identifier: GPL-2.0-only
"""`udrv gpio set` holding its lines as libgpiod 2's gpioset does (issue 41
item 5): `--hold forever` until SIGTERM, `--daemonize` (gpioset -z) in the
background, udrv exiting 0 only once the value is on the line, or with the
error that kept it off.

The chip is the character device tests/daemon/fake_cdev.c answers
(preloaded): its state file names each line's holder (a pid), direction and
level, which is what the tests read. No sleeps: a test waits for udrv's own
output, or for the holder's exit, with a guard."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, gpio_bus, gpio_chip
from tests.support.udrv_runner import REPO, TIMEOUT_S, required

LINE = 3


@pytest.fixture(scope="module")
def fake_cdev() -> Path:
    env = os.environ.get("UDRVD_FAKE_CDEV")
    path = Path(env) if env else REPO / "build" / "dev" / "tests" / "daemon" / "libfake_cdev.so"
    return required(path, "UDRVD_FAKE_CDEV")


@pytest.fixture
def chip(tree: FakeTree) -> FakeTree:
    """gpiochip0 'fake-a', 8 lines, with a character device fake_cdev answers."""
    gpio_bus(tree)
    gpio_chip(tree, 0, "fake-gpio.0", 480, 8, "fake-a")
    tree.file("dev/gpiochip0", "fake-a\n8\n" + "\n" * 8)
    return tree


@dataclass
class Line:
    holder: int
    out: bool
    level: int


def line(t: FakeTree, offset: int = LINE) -> Line:
    holder, d, level, *_ = t.read("dev/gpiochip0.state").splitlines()[offset].split()
    return Line(int(holder), d == "out", int(level))


def alive(pid: int) -> bool:
    """@pid runs (a zombie no longer holds anything: its fds are closed)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def env(t: FakeTree, fake_cdev: Path) -> dict[str, str]:
    return {**os.environ, "UDRV_SYSROOT": str(t.root), "LD_PRELOAD": str(fake_cdev),
            "LC_ALL": "C"}  # fmt: skip


def run(udrv_bin: Path, t: FakeTree, fake_cdev: Path,
        *args: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run([str(udrv_bin), "gpio", "set", *args], env=env(t, fake_cdev),
                          capture_output=True, text=True, timeout=TIMEOUT_S,
                          stdin=subprocess.DEVNULL, check=False)  # fmt: skip


def gone(pid: int) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while alive(pid):
        assert time.monotonic() < deadline, f"pid {pid} still runs"
        time.sleep(0.01)


def test_daemonize_holds_after_udrv_exits(udrv_bin: Path, chip: FakeTree, fake_cdev: Path) -> None:
    res = run(udrv_bin, chip, fake_cdev, "-c", "0", "--daemonize", "--json", f"{LINE}=1")
    # udrv has exited 0: the value is on the line, held by the background holder
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert json.loads(res.stdout)["lines"] == [{"line": str(LINE), "offset": LINE, "value": 1}]
    held = line(chip)
    assert (held.out, held.level) == (True, 1)
    assert alive(held.holder), held
    assert os.getsid(held.holder) == held.holder  # a session of its own
    os.kill(held.holder, signal.SIGTERM)
    gone(held.holder)
    assert line(chip).holder == 0  # released when told to stop


def test_daemonize_errors_are_udrvs_exit_status(udrv_bin: Path, chip: FakeTree,
                                                fake_cdev: Path) -> None:  # fmt: skip
    res = run(udrv_bin, chip, fake_cdev, "-c", "0", "--daemonize", "8=1")
    assert res.returncode == 1 and "8" in res.stderr, res.stderr
    res = run(udrv_bin, chip, fake_cdev, "-c", "9", "-z", f"{LINE}=1")
    assert res.returncode == 1 and "'9'" in res.stderr, res.stderr
    res = run(udrv_bin, chip, fake_cdev, "--daemonize", "--hold", "daemon", "LOCK=1")
    assert res.returncode == 2 and "--daemonize goes with --hold forever" in res.stderr
    # a line held by another holder is busy: the error comes back, nothing stays behind
    first = run(udrv_bin, chip, fake_cdev, "-c", "0", "-z", f"{LINE}=1")
    assert first.returncode == 0, first.stderr
    holder = line(chip).holder
    res = run(udrv_bin, chip, fake_cdev, "-c", "0", "-z", f"{LINE}=0")
    assert res.returncode == 1 and res.stderr, res.stderr
    assert line(chip) == Line(holder, True, 1)
    os.kill(holder, signal.SIGTERM)
    gone(holder)


def read_json(proc: subprocess.Popen[bytes]) -> object:
    """The JSON document udrv printed, read as it comes (raw reads, a guard,
    no sleep)."""
    assert proc.stdout is not None
    fd, text = proc.stdout.fileno(), b""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        got = os.read(fd, 4096) if ready else b""
        assert got, f"udrv printed {text!r} and no more"
        text += got


def test_hold_forever_until_sigterm(udrv_bin: Path, chip: FakeTree, fake_cdev: Path) -> None:
    """gpioset's habit in the foreground: the values printed once set (not
    when udrv exits), the line held until SIGTERM, then released, exit 0."""
    proc = subprocess.Popen([str(udrv_bin), "gpio", "set", "-c", "0", "--json", "--hold",
                             "forever", f"{LINE}=1"], env=env(chip, fake_cdev),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert read_json(proc) == {"chip": "gpiochip0", "backend": "cdev",
                                   "lines": [{"line": str(LINE), "offset": LINE, "value": 1}]}
        assert line(chip) == Line(proc.pid, True, 1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(TIMEOUT_S) == 0
    finally:
        proc.kill()
    assert line(chip).holder == 0
