# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench timer's rtla rows on the host: a fake tracefs under UDRV_SYSROOT
and a fake rtla (a shell script that records its arguments and prints an
output captured in the lab, tests/rig/unit/rtla/), so every path of
rig/bench/timer/timer_rtla.c runs without the lab: the arguments rtla gets, the rows
from its output, the reasons for no rows, and what udrv puts back when rtla
ends without doing it (killed). The real rtla runs in tests/lab/test_bench_timer.py.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Result, Runner

TRACING = "sys/kernel/tracing"
CAPTURED = Path(__file__).resolve().parents[1] / "unit" / "rtla"
# 1000 wake-ups at 1 ms: 1 s, what idle.txt holds (1000 samples per context)
TIMER = ("timer", "-n", "1000", "-i", "1000", "--cyclictest", "none", "-P", "0",
         "--no-mlock", "--no-dma-latency", "--quiet", "--json")


def fake_tracefs(tree: FakeTree, tracers: str = "timerlat osnoise nop") -> None:
    tree.file(f"{TRACING}/available_tracers", tracers + "\n")
    tree.file(f"{TRACING}/osnoise/timerlat_period_us", "777\n")
    tree.file(f"{TRACING}/osnoise/cpus", "0\n")
    tree.dir(f"{TRACING}/instances")


def fake_rtla(tmp_path: Path, output: str = "idle.txt", status: int = 0,
              leave_changes: bool = False) -> Path:
    """A script standing in for rtla: records its arguments, prints a captured
    output, and with @leave_changes does what a killed rtla leaves behind (its
    instance, timerlat's period changed)."""
    t = f'"$UDRV_SYSROOT/{TRACING}"'
    lines = ["#!/bin/sh", f"printf '%s\\n' \"$@\" > {shlex.quote(str(tmp_path / 'args'))}",
             f"cat {shlex.quote(str(CAPTURED / output))}"]
    if leave_changes:
        lines += [f"mkdir {t}/instances/timerlat_hist",
                  f"echo 1000 > {t}/osnoise/timerlat_period_us"]
    if status:
        lines.append(f"echo 'Could not apply config' >&2; exit {status}")
    script = tmp_path / "rtla"
    script.write_text("\n".join(lines) + "\n")
    script.chmod(0o755)
    return script


def rows(r: Result) -> dict[str, dict[str, Any]]:
    assert r.returncode == 0, str(r)
    return {row["sample"]: row for row in r.json()["rows"]}


def udrv_note(r: Result) -> str:
    return rows(r)["wakeup"]["note"] or ""


def test_rows_from_rtla_and_its_arguments(bench: Runner, tree: FakeTree, tmp_path: Path) -> None:
    fake_tracefs(tree)
    got = rows(bench(*TIMER, "--rtla", str(fake_rtla(tmp_path))))
    assert (tmp_path / "args").read_text().split() == [
        "timerlat", "hist", "-n", "--period=1000", "--duration=1", "--priority=o:0",
        "--bucket-size=1", "--entries=100000"]
    for sample, (lo, avg, hi) in (("irq_latency", (636, 730, 787)),
                                  ("thread_latency", (4095, 4403, 5149))):
        row = got[sample]
        assert (row["mechanism"], row["implementation"]) == ("hrtimer", "rtla-timerlat")
        s = row["stats"]
        assert (s["count"], s["min"], int(s["avg"]), s["max"]) == (1000, lo, avg, hi)
        assert "1 s at 1000 us: 1000 samples asked, 1000 counted" in row["note"]
    assert "no rtla rows" not in udrv_note(bench(*TIMER, "--rtla", str(fake_rtla(tmp_path))))


def test_cpu_and_dma_latency_reach_rtla(bench: Runner, tree: FakeTree, tmp_path: Path) -> None:
    """--cpu N is rtla's --cpus=N, the held cpu_dma_latency its --dma-latency=0
    (SCHED_FIFO's -P f:PRIO needs root: the lab test runs it at FIFO 80)."""
    fake_tracefs(tree)
    timer = [a for a in TIMER if a != "--no-dma-latency"]
    r = bench(*timer, "--cpu", "0", "--rtla", str(fake_rtla(tmp_path)))
    assert r.returncode == 0, str(r)
    args = (tmp_path / "args").read_text().split()
    assert {"--priority=o:0", "--cpus=0", "--dma-latency=0"} <= set(args), args


@pytest.mark.parametrize(("setup", "extra", "why"), [
    ("no-timerlat", (), "no rtla rows: no timerlat tracer in this kernel"),
    ("no-tracefs", (), "no rtla rows: tracefs is not mounted"),
    ("tracefs", ("--rtla", "none"), "no rtla rows: --rtla none"),
    ("tracefs", ("--rtla", "/nonexistent/rtla"),
     "no rtla rows: /nonexistent/rtla: No such file or directory"),
    ("tracefs", ("-i", "50"), "no rtla rows: timerlat's period is 100 us..1 s, not 50 us"),
])
def test_no_rows_and_why(bench: Runner, tree: FakeTree, tmp_path: Path, setup: str,
                         extra: tuple[str, ...], why: str) -> None:
    if setup == "no-timerlat":
        fake_tracefs(tree, "hwlat function nop")
    elif setup == "tracefs":
        fake_tracefs(tree)
    else:
        tree.dir("sys/kernel")
    args = (*TIMER, "--rtla", str(fake_rtla(tmp_path)), *extra)
    if "-i" in extra:
        args = (*args, "-n", "20")
    r = bench(*args)
    assert list(rows(r)) == ["wakeup"]
    assert why in udrv_note(r)
    assert not (tmp_path / "args").exists() or (setup == "tracefs" and "none" not in extra)


def test_output_that_does_not_add_up(bench: Runner, tree: FakeTree, tmp_path: Path) -> None:
    """rtla's own summary against its buckets: a truncated output, and one
    with more samples than the run asks for, give no rows, and say why."""
    fake_tracefs(tree)
    r = bench(*TIMER, "--rtla", str(fake_rtla(tmp_path, "truncated.txt")))
    assert list(rows(r)) == ["wakeup"]
    why = "no rtla rows: its output does not add up: line 26: cut short (no newline)"
    assert why in udrv_note(r)
    r = bench(*TIMER[:2], "100", *TIMER[3:], "-i", "10000", "--rtla",
             str(fake_rtla(tmp_path)))
    assert "more than 216 samples in column 1" in udrv_note(r)


def test_failing_rtla_and_what_it_left(bench: Runner, tree: FakeTree, tmp_path: Path) -> None:
    """An rtla that fails after changing tracefs (as a killed one does): no
    rows, its stderr in the note, its instance removed and timerlat's period
    put back by udrv, which says so."""
    fake_tracefs(tree)
    r = bench(*TIMER, "--rtla", str(fake_rtla(tmp_path, status=1, leave_changes=True)))
    assert list(rows(r)) == ["wakeup"]
    assert "no rtla rows: it failed (exit 1): Could not apply config" in udrv_note(r)
    assert not (tree.root / TRACING / "instances" / "timerlat_hist").exists()
    assert tree.read(f"{TRACING}/osnoise/timerlat_period_us") == "777\n"
    assert "rtla left" in r.stderr and "removed" in r.stderr and "put back" in r.stderr
    # a well-behaved rtla leaves nothing to put back, and udrv says nothing
    r = bench(*TIMER, "--rtla", str(fake_rtla(tmp_path)))
    assert "rtla left" not in r.stderr
