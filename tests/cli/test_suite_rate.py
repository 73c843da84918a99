# SPDX-License-Identifier: GPL-2.0-only
"""The lab suite's part of udrv bench rate: its command lines and the
capacity table it prints (lab/suite.py), on a made-up document."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from lab import suite


def test_rate_commands() -> None:
    assert suite.rate_command("all", "full") == "udrv bench rate --json --quiet --load all"
    quick = suite.rate_command("none", "quick")
    assert "--rates 2k,20k,200k" in quick and "--step-duration 20ms" in quick


def capacity(mech: str, impl: str, knee: float | None, measured: bool = True) -> dict:
    return {"mechanism": mech, "implementation": impl, "measured": measured,
            "knee_per_s": knee, "cpu_pct_at_knee": None if knee is None else 12.5,
            "throughput_per_s": 90000.0 if measured else None,
            "ns_per_event": 5600.0 if measured else None,
            "ratio_vs_raw": 1.0 if impl == "raw" else (1.09 if measured else None),
            "note": None}


def test_rate_table() -> None:
    doc = {"bench": "rate", "rate": {"capacity": [
        capacity("cdev", "raw", 49945.2), capacity("cdev", "udrv", None),
        capacity("cdev", "libgpiod-2.3", None, measured=False)]}}
    run = suite.SuiteRun("std", "all", documents=[doc])
    lines = suite.rate_table([run])
    assert "knee" in lines[0]
    assert lines[2].split() == ["std", "all", "cdev", "raw", "49945", "12.5", "90000",
                                "5600", "x1.00"]
    assert lines[3].split()[4:6] == ["-", "-"]
    assert lines[4].split()[-1] == "absent"
    # variant runs (the priority axis) are not in it
    assert suite.rate_table([suite.SuiteRun("rt", "none", documents=[doc],
                                            variant="irq-prio 90")]) == lines[:2]
