# SPDX-License-Identifier: GPL-2.0-only
"""The load a bench runs (rig/bench/core/load.c) holds nothing of the bench's: it is
forked without exec, and a line request it inherited would outlive the
bench by the moment its SIGKILL takes (the next bench found its line busy)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _group(leader: int) -> list[int]:
    """The processes of a load: its leader and everything under it."""
    out, todo = [], [leader]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += _children(pid)
    return out


def _holds(pid: int, inode: int) -> bool:
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.stat(f"/proc/{pid}/fd/{fd}").st_ino == inode:
                return True
        except OSError:
            continue
    return False


def test_the_load_closes_what_the_bench_had_open(bench_bin: Path) -> None:
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        pytest.fail("this kernel has no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)")
    r, w = os.pipe()
    inode = os.fstat(w).st_ino
    proc = subprocess.Popen([str(bench_bin), "load", "memory", "--duration", "5s"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 4
        load: list[int] = []
        while time.monotonic() < deadline and len(load) < 2:
            time.sleep(0.1)
            load = [p for c in _children(proc.pid) for p in _group(c)]
        assert len(load) >= 2, f"the load's leader and worker did not appear: {load}"
        assert _holds(proc.pid, inode), "the check cannot see the fd in udrv-bench itself"
        held = [p for p in load if _holds(p, inode)]
        assert not held, f"load processes {held} hold the bench's file descriptor"
    finally:
        proc.terminate()
        proc.wait(10)
        os.close(r)
        os.close(w)
