# SPDX-License-Identifier: GPL-2.0-only
"""SIGINT/SIGTERM while udrv-bench-peer measures (bench toggle's and bench
irq's libgpiod-2.3 rows): the bench stops its child, exits 128 + the signal
saying so, and leaves no peer process and no line requested behind.

The signal comes once the peer runs (seen with pidof); the benches run at
SCHED_OTHER (-P 0) so that the shell that watches gets the CPU, as in
test_bench_signals.py."""

from __future__ import annotations

from typing import Any

import pytest
from guest import CHIP, sh

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

CASES = {
    "toggle": (f"toggle -c {CHIP} -P 0 -q -n 50000 --no-edges", "INT", 130),
    "irq": ("irq -P 0 -q -n 50000", "TERM", 143),
}


@pytest.mark.parametrize("bench", list(CASES))
def test_signal_while_the_peer_runs(board: Any, bench: str) -> None:
    cmd, sig, status = CASES[bench]
    script = (
        f"udrv-bench {cmd} > /tmp/sig.out 2> /tmp/sig.err & pid=$!; i=0; "
        "until pidof udrv-bench-peer > /dev/null; do usleep 5000; i=$((i+1)); "
        "[ $i -lt 6000 ] || { echo 'no peer seen'; break; }; done; "
        f"kill -{sig} $pid; wait $pid; echo \"status $?\"; usleep 200000; "
        "echo \"peers=$(pidof udrv-bench-peer)\"; "
        "echo \"requested=$(grep -c udrv-bench-peer /sys/kernel/debug/gpio)\"; cat /tmp/sig.err")
    r = sh(board, script, timeout=600)
    assert "no peer seen" not in r.stdout, r.stdout
    assert f"status {status}" in r.stdout, r.stdout
    assert "peers=\n" in r.stdout and "requested=0\n" in r.stdout, r.stdout
    assert f"interrupted by SIG{sig}" in r.stdout, r.stdout
    assert "stopped answering" not in r.stdout and "it failed" not in r.stdout, r.stdout
