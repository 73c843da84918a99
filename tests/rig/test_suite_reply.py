# SPDX-License-Identifier: GPL-2.0-only
"""The suite's part of udrv-bench reply, without booting: its command line (the
responder table: tests/rig/test_results_tables.py)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from rig.lab.suite import qemu as suite  # noqa: E402


def test_reply_runs_in_the_suite() -> None:
    assert "reply" in suite.BENCHES
    assert suite.bench_command("reply", "all", suite.SAMPLES["full"]["reply"]) == \
        "udrv-bench reply --json --quiet --load all --samples 2000"
    assert suite.SAMPLES["quick"]["reply"] == 200
    assert suite.bench_command("reply", "none", 2000, 600).endswith("--duration 100s")
