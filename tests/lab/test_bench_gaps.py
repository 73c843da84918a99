# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench gaps: RT throttling's gaps in a busy SCHED_FIFO loop (VanguardiaSur,
Fast GPIO toggle on BeagleBone Black; docs/references.md).

On the one-vCPU boards (icount: guest time = instructions) the loop toggles
gpio-wire line 0 for a few seconds of guest time:

- at the kernel's default (sched_rt_runtime_us 950000 of 1000000) it stops
  for about 50 ms (period - runtime) once a second, idle: no other runnable
  task is needed; with --rt-runtime 900000 the gaps follow the setting
  (100 ms), so the test would see gaps that do not come from throttling;
- with --rt-runtime -1 it never stops for even 1 ms;
- sched_rt_runtime_us is back to its old value after a run, after a failure
  (a stuck gpio-wire driver: the count at the source fails the bench), and
  after SIGTERM mid-run; after SIGKILL it is not (nothing can put it back),
  which shows that the check reads the real value.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from background import Background, guest_ok
from guest import CHIP, bench_ok, udrv_bench

from rig.bench.base import GAPS_VARIANT
from rig.bench.gaps import spec as gaps_spec
from rig.lab.suite import qemu as suite
from rig.results.check import check_bench
from tests.support.results_docs import suite_table

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

RUNTIME = "/proc/sys/kernel/sched_rt_runtime_us"
DEFAULT_RUNTIME = 950000  # Debian's, and the lab boards'
PERIOD_US = 1000000
SECONDS = suite.GAPS_SECONDS["quick"]  # guest seconds per run: three periods
# the gap ends at the period's end; the kernel notices the budget spent at a
# scheduler tick (HZ 250: 4 ms), so the gap is period - runtime - up to 4 ms,
# or + up to 4 ms when the tick before was late (measured: 46.3..52.0 ms)
SLACK_NS = 4_500_000
STUCK = "/sys/module/gpio_wire/parameters/stuck_every"

_docs: dict[tuple[str, str], dict[str, Any]] = {}
_suite: dict[str, list[suite.SuiteRun]] = {}
OFF = "--rt-runtime -1"


def suite_runs(board: Any) -> list[suite.SuiteRun]:
    """What `make lab` runs (rig/lab/suite/qemu.py's run_gaps, --quick: SECONDS), idle:
    the plain run (the kernel's throttling) and the rt-runtime -1 variant."""
    if board.target not in _suite:
        plain = suite.SuiteRun(board.target, "none")
        _suite[board.target] = [plain, *suite.run_gaps(board, [plain], "quick")]
    return _suite[board.target]


def gaps(board: Any, args: str = "") -> dict[str, Any]:
    """The document of `udrv-bench gaps ARGS`, once per kernel and ARGS; the
    default and -1 come from the suite's runs."""
    key = (board.target, args)
    if key in _docs:
        return _docs[key]
    if args in ("", OFF):
        run = suite_runs(board)[0 if not args else 1]
        assert run.failures == [], run.failures
        doc = run.documents[0]
    else:
        doc = bench_ok(board, f"gaps -c {CHIP} --json -q -D {SECONDS}s {args}", 300).json()
    check_bench(doc)
    _docs[key] = doc
    return doc


def runtime(board: Any) -> int:
    return int(guest_ok(board, f"cat {RUNTIME}"))


@pytest.fixture
def default_runtime(board: Any) -> Iterator[None]:
    """The kernel's default setting before and after the test, whatever it did."""
    assert runtime(board) == DEFAULT_RUNTIME
    yield
    guest_ok(board, f"echo {DEFAULT_RUNTIME} > {RUNTIME}; echo 0 > {STUCK}")


def test_throttling_leaves_period_minus_runtime_every_period(
        board: Any, default_runtime: None) -> None:
    check_throttled(board, None)


def test_gaps_follow_the_setting(board_std: Any) -> None:
    """At 900000 the gaps are 100 ms (std only: the same code on rt)."""
    try:
        check_throttled(board_std, 900000)
    finally:
        guest_ok(board_std, f"echo {DEFAULT_RUNTIME} > {RUNTIME}")


def check_throttled(board: Any, setting: int | None) -> None:
    """About one gap of period - runtime a period, each a period after the last."""
    doc = gaps(board, f"--rt-runtime {setting}" if setting else "")
    g = doc["gaps"]
    want = setting or DEFAULT_RUNTIME
    assert g["sched_rt_runtime_us"] == want and g["sched_rt_period_us"] == PERIOD_US
    assert g["sched_rt_runtime_us_before"] == (DEFAULT_RUNTIME if setting else None)
    expected = (PERIOD_US - want) * 1000
    assert g["expected_gap_ns"] == expected
    assert abs(g["longest_ns"] - expected) <= SLACK_NS, g
    # about one a second: the first period can end before the budget is spent
    assert SECONDS - 1 <= g["count"] <= SECONDS + 1, g
    assert len(g["timeline"]) == g["count"] and g["timeline_dropped"] == 0
    full = g["timeline"][1:]  # the first may be cut by the start of the run
    assert all(abs(x["gap_ns"] - expected) <= SLACK_NS for x in full), g["timeline"]
    # each gap ends where a period ends: one period apart
    ends = [x["start_ns"] + x["gap_ns"] for x in g["timeline"]]
    spacing = [b - a for a, b in itertools.pairwise(ends)]
    assert all(abs(d - PERIOD_US * 1000) <= SLACK_NS for d in spacing), ends
    assert g["stalled_ns"] == sum(x["gap_ns"] for x in g["timeline"])
    row = doc["rows"][0]
    assert (row["mechanism"], row["sample"]) == ("cdev", "toggle_gap")
    assert row["stats"]["max"] == g["longest_ns"]
    # counted at the source: every toggle changed the wire
    assert row["loss"] == {"sent": g["toggles"], "received": g["toggles"], "lost": 0}
    assert row["stats"]["count"] == g["toggles"]
    assert runtime(board) == DEFAULT_RUNTIME


def test_no_throttling_no_gap(board: Any, default_runtime: None) -> None:
    doc = gaps(board, OFF)
    g = doc["gaps"]
    assert g["sched_rt_runtime_us"] == -1 and g["sched_rt_runtime_us_before"] == DEFAULT_RUNTIME
    assert g["expected_gap_ns"] is None
    assert g["count"] == 0 and g["timeline"] == [] and g["stalled_ns"] == 0
    # far below 1 ms: the longest interval is an interrupt or a tick
    assert doc["rows"][0]["stats"]["max"] < 200_000, doc["rows"][0]["stats"]
    assert abs(g["duration_ns"] - SECONDS * 10**9) < 1_000_000, g["duration_ns"]
    assert runtime(board) == DEFAULT_RUNTIME  # put back after the run


def test_suite_table(board: Any, default_runtime: None) -> None:
    """The suite's "Scheduler gaps" lines, from the same runs."""
    runs = suite_runs(board)
    assert runs[1].variant == GAPS_VARIANT
    lines = suite_table(gaps_spec.text_table, runs)
    assert len(lines) == 4, lines
    default, off = (line.split() for line in lines[2:])
    assert default[:3] == [board.target, "idle", str(DEFAULT_RUNTIME)]
    assert abs(float(default[3]) - 50.0) <= SLACK_NS / 1e6 and float(default[4]) > 0.5
    assert " ".join(default[6:]) == "50.0 ms every 1 s"
    assert off[:3] == [board.target, "idle", "-1"] and float(off[3]) < 0.2
    assert off[4:6] == ["0.00", "0.00"] and " ".join(off[6:]) == "none (not throttled)"


def test_stuck_driver_fails_the_count_and_restores(board_std: Any) -> None:
    """gpio-wire ignores every 1000th level change (stuck_every): the loop's
    toggles and the wire's count differ, the bench fails, and the setting it
    changed is back."""
    assert runtime(board_std) == DEFAULT_RUNTIME
    guest_ok(board_std, f"echo 1000 > {STUCK}")
    try:
        r = udrv_bench(board_std, f"gaps -c {CHIP} -q -n 20000 --rt-runtime 900000", 120)
    finally:
        guest_ok(board_std, f"echo 0 > {STUCK}")
    assert r.status == 1, r.stdout + r.stderr
    assert "gpio-wire counted" in r.stderr and "level changes on the wire" in r.stderr, r.stderr
    assert runtime(board_std) == DEFAULT_RUNTIME


def _start(board: Any, name: str, out: str, prio: str = "") -> Background:
    job = Background(board, name, f"udrv-bench gaps -c {CHIP} -q -D 60s --rt-runtime 600000 "
                                  f"--out {out} {prio}")
    job.wait_for(f"grep -qx 600000 {RUNTIME}", what="sched_rt_runtime_us set to 600000")
    # the agent runs only in the gaps: sleep 2 starts in one gap (or before
    # the first) and returns in a gap two periods later at the earliest, so
    # one whole gap lies between. With sleep 1 the only gap before the signal
    # could be the first, cut short by the bench starting mid-period (CI:
    # one gap of 303 ms in 1.5 s at 600 ms a period)
    guest_ok(board, "sleep 2")
    assert job.alive(), f"the bench ended before the signal:\n{job.output()}"
    return job


def test_sigterm_restores_the_runtime(board: Any, default_runtime: None) -> None:
    """On rt at SCHED_OTHER: with the bench at SCHED_FIFO 80 the lab's agent
    did not poll once in the whole 60 s run, throttle gaps included (its
    `sleep 0.02` never returned; on PREEMPT_RT a SCHED_OTHER sleeper's timer
    expires in ktimers, a SCHED_FIFO thread, throttled with the bench)."""
    out = "/tmp/gaps-sigterm.json"
    fifo = board.kernel == "std"
    job = _start(board, "gaps-term", out, "" if fifo else "-P 0")
    try:
        job.signal("TERM")
        end = job.ended(timeout_s=60)
    finally:
        job.kill()
    assert end.status == 143, f"exit {end.status}\n{end.stderr}"
    assert "udrv-bench: gaps interrupted by SIGTERM" in end.stderr
    assert runtime(board) == DEFAULT_RUNTIME
    doc = json.loads(guest_ok(board, f"cat {out}"))
    check_bench(doc)
    assert doc["interrupted"] == "SIGTERM"
    assert doc["gaps"]["sched_rt_runtime_us"] == 600000
    if fifo:  # a whole period between the first gap and the signal: a 400 ms gap
        assert doc["gaps"]["longest_ns"] >= 390_000_000, doc["gaps"]


def test_sigkill_leaves_the_runtime_set(board_std: Any) -> None:
    """The break: nothing runs after SIGKILL, and the check above would see it."""
    job = _start(board_std, "gaps-kill", "/tmp/gaps-kill.json")
    try:
        job.signal("KILL")
        end = job.ended(timeout_s=60)
        assert end.status == 137
        assert runtime(board_std) == 600000
    finally:
        job.kill()
        guest_ok(board_std, f"echo {DEFAULT_RUNTIME} > {RUNTIME}")


def test_the_line_is_free_right_after_a_run_under_load(board_std: Any) -> None:
    """The load's processes, forked by the bench, must not inherit the line's
    request: the line stays requested until the last of them has exited (the
    next bench found it busy when they outlived the bench for a moment)."""
    r = board_std.run(f"udrv-bench gaps -c {CHIP} -q -D 1s --load all && "
                      f"udrv-bench gaps -c {CHIP} -q -D 100ms", timeout=300)
    assert r.status == 0, r.stdout + r.stderr


def test_sysfs_backend_counted_at_the_source(board_std: Any) -> None:
    """The same loop through /sys/class/gpio (libudrv's sysfs backend): every
    write reaches the wire, and the line is unexported afterwards."""
    doc = bench_ok(board_std, f"gaps -c {CHIP} -b sysfs --json -q -n 20000", 120).json()
    check_bench(doc)
    row = doc["rows"][0]
    assert (row["mechanism"], row["sample"]) == ("sysfs", "toggle_gap")
    assert row["loss"] == {"sent": 20000, "received": 20000, "lost": 0}
    assert row["stats"]["count"] == 20000 == doc["gaps"]["toggles"]
    exported = guest_ok(board_std, "ls /sys/class/gpio | grep -v -e export -e gpiochip || true")
    assert exported.strip() == "", exported
