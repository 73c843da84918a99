# SPDX-License-Identifier: GPL-2.0-only
"""Daemons a test starts must not outlive it, whether or not it passed (an
assertion that fails between two restarts leaves the second running): the
starter registers each with started(), the folder's autouse fixture calls
reap() after each test. The list lives here, not in a conftest.py: pytest
loads a conftest.py as a module of its own name, so the tests that import
its helpers by package hold a second copy of its globals."""

from __future__ import annotations

import subprocess

_RUNNING: list[subprocess.Popen[str]] = []


def started(proc: subprocess.Popen[str]) -> subprocess.Popen[str]:
    _RUNNING.append(proc)
    return proc


def reap(timeout: float) -> None:
    """SIGKILL every started process still running and wait for it."""
    while _RUNNING:
        proc = _RUNNING.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout)
