# SPDX-License-Identifier: GPL-2.0-only
"""The lab suite's part of udrv-bench rate: its command lines and the
capacity table it prints (rig/lab/suite.py), on a made-up document."""

from __future__ import annotations

import pytest

from rig.lab import suite


def test_rate_commands() -> None:
    assert suite.rate_command("all", "full") == "udrv-bench rate --json --quiet --load all"
    quick = suite.rate_command("none", "quick")
    assert "--rates 2k,20k,200k" in quick and "--step-duration 20ms" in quick


def capacity(mech: str, impl: str, knee: float | None, measured: bool = True) -> dict:
    return {"mechanism": mech, "implementation": impl, "measured": measured,
            "knee_per_s": knee, "cpu_pct_at_knee": None if knee is None else 12.5,
            "throughput_per_s": 90000.0 if measured else None,
            "ns_per_event": 5600.0 if measured else None,
            "ratio_vs_raw": 1.0 if impl == "raw" else (1.09 if measured else None),
            "ratio_at_per_s": 20000 if measured else None, "note": None}


def test_rate_table() -> None:
    doc = {"bench": "rate", "rate": {"capacity": [
        capacity("cdev", "raw", 49945.2), capacity("cdev", "udrv", None),
        capacity("cdev", "libgpiod-2.3", None, measured=False)]}}
    run = suite.SuiteRun("std", "all", documents=[doc])
    lines = suite.rate_table([run])
    assert "knee" in lines[0]
    assert lines[3].split() == ["std", "all", "cdev", "raw", "49945", "12.5", "90000",
                                "5600", "x1.00", "20000"]
    assert lines[4].split()[4:6] == ["-", "-"]
    assert lines[5].split()[-1] == "absent"
    # the irq-prio 90 run of the priority axis is, named so; other variants not
    prio = suite.rate_table([suite.SuiteRun("rt", "none", documents=[doc],
                                            variant=suite.RATE_PRIORITY)])
    assert prio[3].split()[:2] == ["rt", "irq-prio-90"]
    assert suite.rate_table([suite.SuiteRun("rt", "none", documents=[doc],
                                            variant="SCHED_OTHER")]) == lines[:3]


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
                suite.SuiteRun("rt", "none", variant=suite.GAPS_VARIANT)]
        suite.run_rate(None, runs, "quick")  # type: ignore[arg-type]
    finally:
        mp.undo()
    assert [v for v, _ in ran] == ["", "", "irq-prio 90"]
    assert ran[2][1].endswith("--irq-prio 90") and "--load none" in ran[2][1]
