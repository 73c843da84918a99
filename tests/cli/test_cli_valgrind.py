# SPDX-License-Identifier: GPL-2.0-only
"""udrv under valgrind: no read of uninitialised memory, no invalid access,
on fake trees and with a UDRV_SYSROOT too long for any path (which used to
hand an uninitialised buffer to open()). Skipped where valgrind is missing
or the binary is built with sanitizers (they do not mix)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, gpio_bus, gpio_chip, uio_dev_file, uio_device, uio_map
from tests.support.udrv_runner import Runner

VALGRIND = shutil.which("valgrind")
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
]


def sanitized(binary: Path) -> bool:
    return b"__asan_init" in binary.read_bytes()


def memcheck(runner: Runner, root: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = runner._env(root)
    return subprocess.run([str(VALGRIND), "-q", "--error-exitcode=99", str(runner.binary), *args],
                          env=env, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)


def populate(t: FakeTree) -> None:
    gpio_bus(t)
    gpio_chip(t, 0, "wire", 512, 8, "fake-wire")
    uio_device(t, 0, "uio_pci_generic")
    uio_map(t, 0, 0, "BAR0", 0xfea00000, 0x1000, 0)
    uio_dev_file(t, 0)


@pytest.fixture
def checked(udrv: Runner) -> Runner:
    if VALGRIND is None:
        pytest.skip("valgrind is not installed (scripts/install-deps installs it)")
    if sanitized(udrv.binary):
        pytest.skip("built with sanitizers: valgrind does not run ASan binaries")
    return udrv


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


@pytest.mark.parametrize("name", ["current_tracer", "trace_clock", "tracing_on"])
def test_empty_tracefs_file(checked: Runner, tree: FakeTree, name: str) -> None:
    """An empty tracefs file: --trace-on-spike reads nothing, says so, and
    never looks at the line buffer it did not fill."""
    from test_cli_spike import TIMER, TRACING, fake_tracefs

    fake_tracefs(tree)
    tree.file(f"{TRACING}/{name}", "")
    r = memcheck(checked, tree.root, [*TIMER, "--trace-on-spike", "100"])
    assert r.returncode == 1, r
    assert "==" not in r.stderr, r.stderr
    assert f"{tree.root}/{TRACING}/{name}" in r.stderr, r.stderr
