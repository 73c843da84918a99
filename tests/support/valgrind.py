# SPDX-License-Identifier: GPL-2.0-only
"""Running udrv or udrv-bench under valgrind's memcheck (tests/cli, tests/rig/bench)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.udrv_runner import Runner

VALGRIND = shutil.which("valgrind")


def sanitized(binary: Path) -> bool:
    return b"__asan_init" in binary.read_bytes()


def valgrind_runner(runner: Runner) -> Runner:
    """`runner`, or a skip where valgrind is missing or the binary is built with
    sanitizers (they do not mix)."""
    if VALGRIND is None:
        pytest.skip("valgrind is not installed (scripts/install-deps installs it)")
    if sanitized(runner.binary):
        pytest.skip("built with sanitizers: valgrind does not run ASan binaries")
    return runner


def memcheck(runner: Runner, root: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    """The runner's binary with `args` under memcheck (exit 99: an error found)."""
    env = runner._env(root)
    return subprocess.run([str(VALGRIND), "-q", "--error-exitcode=99", str(runner.binary), *args],
                          env=env, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)
