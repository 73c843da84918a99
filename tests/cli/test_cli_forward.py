# SPDX-License-Identifier: GPL-2.0-only
"""'udrv bench' and 'udrv load' run udrv-bench (tools/cmd_bench.c): found
beside udrv, in its build tree (tools/../rig/bench/), or on PATH; when it is
nowhere, exit 1 with a message that says where it was looked for."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.udrv_runner import Runner


def test_bench_help_is_udrv_benchs(udrv: Runner, bench_bin: Path) -> None:
    r = udrv("bench", "--help")
    assert r.returncode == 0, r
    assert r.stdout.startswith("Usage: udrv-bench "), r


@pytest.mark.parametrize(("args", "message"), [
    (["bench", "irq", "--irq-prio", "0"], "bad --irq-prio '0'"),
    (["load", "nothing"], "give one PROFILE"),
])
def test_arguments_reach_udrv_bench(udrv: Runner, bench_bin: Path, args: list[str],
                                    message: str) -> None:
    r = udrv(*args)
    assert r.returncode == 2, r
    assert message in r.stderr and "Try 'udrv-bench " in r.stderr, r


def _alone(udrv_bin: Path, tmp_path: Path, *args: str,
           path: str) -> subprocess.CompletedProcess[str]:
    """udrv ARGS from a copy in a directory of its own (no udrv-bench beside it
    or in a build tree above it), with PATH set to `path`."""
    lone = tmp_path / "bin" / "udrv"
    lone.parent.mkdir()
    shutil.copy2(udrv_bin, lone)
    # a dev build's udrv finds libudrv.so through its build tree's rpath
    env = {**os.environ, "PATH": path, "LD_LIBRARY_PATH": str(udrv_bin.parent.parent / "lib")}
    return subprocess.run([str(lone), *args], env=env, capture_output=True, text=True,
                          timeout=30, check=False)


def test_found_on_path(udrv_bin: Path, tmp_path: Path) -> None:
    fake = tmp_path / "path" / "udrv-bench"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\necho "fake $0 $*"\n')
    fake.chmod(0o755)
    r = _alone(udrv_bin, tmp_path, "load", "all", "-D", "1s", path=str(fake.parent))
    assert r.returncode == 0, r
    assert r.stdout.startswith("fake ") and r.stdout.endswith("/udrv-bench load all -D 1s\n"), r


def test_not_found_exits_1_and_says_where(udrv_bin: Path, tmp_path: Path) -> None:
    r = _alone(udrv_bin, tmp_path, "load", "all", path="/nonexistent")
    assert r.returncode == 1, r
    assert "udrv-bench, which was not found next to udrv, in its build tree" in r.stderr, r
    assert "'udrv-bench load ...'" in r.stderr, r
    # the fix for a .deb user and for a source install, both
    assert "apt install udrv-bench" in r.stderr and "make install" in r.stderr, r
