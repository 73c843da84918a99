# SPDX-License-Identifier: GPL-2.0-only
"""The suite's part of udrv-bench reply, without booting: its command line and
the responder table (rows isr / kthread / user x wait, columns kernel x load)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
from rig.lab import suite  # noqa: E402


def _doc(p50_us: float) -> dict[str, Any]:
    rows = []
    for i, (impl, wait) in enumerate(suite.REPLY_ROWS):
        p50 = int((p50_us + i) * 1000)
        rows.append({"mechanism": "gpio", "implementation": impl, "wait": wait,
                     "sample": "trigger_to_reply",
                     "stats": {"p50": p50, "p99": p50 + 500, "max": p50 + 1000}})
    return {"bench": "reply", "rows": rows}


def test_reply_runs_in_the_suite() -> None:
    assert "reply" in suite.BENCHES
    assert suite.bench_command("reply", "all", suite.SAMPLES["full"]["reply"]) == \
        "udrv-bench reply --json --quiet --load all --samples 2000"
    assert suite.SAMPLES["quick"]["reply"] == 200
    assert suite.bench_command("reply", "none", 2000, 600).endswith("--duration 100s")


def test_responder_table() -> None:
    runs = [suite.SuiteRun("std", "none", [_doc(2.0)]), suite.SuiteRun("std", "all", [_doc(3.0)]),
            suite.SuiteRun("rt", "none", [_doc(10.0)])]
    lines = suite.reply_table(runs)
    assert "std idle" in lines[1] and "std all" in lines[1] and "rt idle" in lines[1]
    assert "rt all" not in lines[1]
    body = lines[2:]
    assert [line.split()[:2] for line in body] == [
        ["isr", "-"], ["kthread", "-"], ["user", "read"], ["user", "poll"],
        ["user", "epoll"], ["user", "busy"]]
    assert body[0].split()[2:] == ["2.0/2.5/3.0", "3.0/3.5/4.0", "10.0/10.5/11.0"]
    assert body[5].split()[2:] == ["7.0/7.5/8.0", "8.0/8.5/9.0", "15.0/15.5/16.0"]


def test_latency_table_leaves_reply_to_its_own_table() -> None:
    lines = suite.latency_table([suite.SuiteRun("std", "none", [_doc(2.0)])])
    assert not any("trigger_to_reply" in line for line in lines)


def test_priority_axis_columns() -> None:
    """The rt variants (the priority axis) come after the plain columns."""
    assert "reply" in suite.PRIORITY_BENCHES
    runs = [suite.SuiteRun("rt", "none", [_doc(20.0)]),
            suite.SuiteRun("rt", "none", [_doc(10.0)], variant="irq-prio 90"),
            suite.SuiteRun("rt", "none", [_doc(9.0)], variant="SCHED_OTHER")]
    lines = suite.reply_table(runs)
    assert lines[1].split()[2:] == ["rt", "idle", "rt", "irq-prio", "90", "rt", "SCHED_OTHER"]
    assert lines[4].split()[2:] == ["22.0/22.5/23.0", "12.0/12.5/13.0", "11.0/11.5/12.0"]
