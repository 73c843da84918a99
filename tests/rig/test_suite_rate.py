# SPDX-License-Identifier: GPL-2.0-only
"""The lab suite's part of udrv-bench rate: its command lines and the
capacity table it prints (rig/lab/suite/qemu.py), on a made-up document."""

from __future__ import annotations

import pytest

from rig.bench.base import GAPS_VARIANT
from rig.lab.suite import qemu as suite


def test_rate_commands() -> None:
    assert suite.rate_command("all", "full") == "udrv-bench rate --json --quiet --load all"
    quick = suite.rate_command("none", "quick")
    assert "--rates 2k,20k,200k" in quick and "--step-duration 20ms" in quick


def test_rate_runs_in_plain_and_irq_prio_runs() -> None:
    ran: list[tuple[str, str]] = []

    def fake(board: object, run: suite.SuiteRun, bench: str, cmd: str,
             timeout: float = 0) -> None:
        ran.append((run.variant, cmd))

    mp = pytest.MonkeyPatch()
    mp.setattr(suite, "_run_one", fake)
    try:
        runs = [suite.SuiteRun("rt", "none"), suite.SuiteRun("rt", "all"),
                suite.SuiteRun("rt", "none", variant="irq-prio 90"),
                suite.SuiteRun("rt", "none", variant="SCHED_OTHER"),
                suite.SuiteRun("rt", "none", variant=GAPS_VARIANT)]
        suite.run_rate(None, runs, "quick")  # type: ignore[arg-type]
    finally:
        mp.undo()
    assert [v for v, _ in ran] == ["", "", "irq-prio 90"]
    assert ran[2][1].endswith("--irq-prio 90") and "--load none" in ran[2][1]
