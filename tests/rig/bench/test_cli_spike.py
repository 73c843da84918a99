# SPDX-License-Identifier: GPL-2.0-only
"""--trace-on-spike on the host, with a fake tracefs under UDRV_SYSROOT.

The timer bench runs for real (SCHED_OTHER, a few samples); tracefs is a tree
of regular files, so what udrv writes there can be read back: every setting
it changed is put back as it was, after a run, after a failure half-way
through arming, and the messages name the file and the fix. The analysis
itself is tested on real traces in tests/lib/test_trace.c and in the lab
(tests/lab/test_spike.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rig.results.check import check_bench
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner

TRACING = "sys/kernel/tracing"
EVENTS = ("sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new",
          "sched/sched_waking", "sched/sched_pi_setprio", "irq/irq_handler_entry",
          "irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit",
          "timer/hrtimer_expire_entry", "timer/hrtimer_expire_exit")
TIMER = ("timer", "-n", "3", "-i", "200", "--cyclictest", "none", "-P", "0",
         "--no-mlock", "--no-dma-latency", "--quiet")


def fake_tracefs(tree: FakeTree, base: str = TRACING) -> dict[str, str]:
    """A tracefs as a kernel leaves it (function tracer on, clock local);
    the files and what they hold."""
    files = {"tracing_on": "1\n", "current_tracer": "function\n",
             "trace_clock": "[local] global counter uptime perf mono mono_raw boot\n",
             "buffer_size_kb": "7 (expanded: 512)\n", "trace": "# tracer: nop\n"}
    files.update({f"events/{e}/enable": "0\n" for e in EVENTS})
    for rel, text in files.items():
        tree.file(f"{base}/{rel}", text)
    return files


def assert_untouched(tree: FakeTree, files: dict[str, str], base: str = TRACING) -> None:
    """Every file holds its old setting again (a rewritten trace_clock
    names the selected clock only)."""
    for rel, text in files.items():
        if rel == "trace":
            continue
        got = tree.read(f"{base}/{rel}").strip()
        want = text.strip()
        if rel == "trace_clock":
            want = "local"
        elif rel == "buffer_size_kb" and got != want:
            want = "512"  # the expanded size, written back
        assert got == want, f"{rel}: {got!r}, was {want!r}"


@pytest.mark.parametrize(("args", "message"), [
    (("timer", "--trace-on-spike", "0"),
     "bad --trace-on-spike '0': a latency in us, 1..10000000"),
    (("timer", "--trace-on-spike", "10000001"), "bad --trace-on-spike '10000001'"),
    (("irq", "--trace-on-spike", "-5"), "bad --trace-on-spike '-5'"),
    (("uio", "--trace-on-spike", "1e3"), "bad --trace-on-spike '1e3'"),
    (("uio", "--trace-on-spike", ""), "bad --trace-on-spike ''"),
    (("timer", "--spike-out", ""), "bad --spike-out ''"),
    (("toggle", "--trace-on-spike", "100"), "this bench hands no latency samples"),
    (("kernel", "--trace-on-spike", "100"), "use it with irq, uio, pci, timer, reply or pwm"),
])
def test_usage_errors(bench: Runner, args: tuple[str, ...], message: str) -> None:
    r = bench(*args)
    assert r.returncode == 2, r
    assert message in r.stderr, r


def test_no_tracefs_says_where_and_how(bench: Runner, tree: FakeTree) -> None:
    tree.dir("sys/kernel")
    r = bench(*TIMER, "--trace-on-spike", "100")
    assert r.returncode == 1, r
    assert (f"no tracefs at {tree.root}/sys/kernel/tracing or "
            f"{tree.root}/sys/kernel/debug/tracing") in r.stderr, r
    assert "mount -t tracefs nodev /sys/kernel/tracing" in r.stderr, r


def test_unwritable_event_fails_and_puts_back_what_was_set(bench: Runner, tree: FakeTree) -> None:
    files = fake_tracefs(tree)
    # a directory where the file should be: unwritable even for root
    bad = f"{TRACING}/events/irq/softirq_exit/enable"
    tree.path(bad).unlink()
    tree.dir(bad)
    del files["events/irq/softirq_exit/enable"]
    r = bench(*TIMER, "--trace-on-spike", "100")
    assert r.returncode == 1, r
    assert f"--trace-on-spike: cannot read {tree.root}/{bad}" in r.stderr, r
    assert_untouched(tree, files)


def test_a_spike_is_recorded_and_tracefs_put_back(bench: Runner, tree: FakeTree,
                                                  tmp_path: Path) -> None:
    files = fake_tracefs(tree, "sys/kernel/debug/tracing")
    out = tmp_path / "t.json"
    r = bench(*TIMER, "--trace-on-spike", "1", "-o", str(out))
    assert r.returncode == 0, r
    doc = json.loads(out.read_text())
    check_bench(doc)  # the spike object with the rest
    spike = doc["spike"]
    assert spike["found"] and spike["threshold_ns"] == 1000, spike
    assert spike["samples_over"] >= 1 and spike["sample"]["index"] == 1, spike
    assert spike["sample"]["latency_ns"] == spike["sample"]["end_ns"] - spike["sample"]["start_ns"]
    assert spike["trace"]["tracefs"] == f"{tree.root}/sys/kernel/debug/tracing"
    assert spike["trace"]["file"] == str(tmp_path / "t.spike.txt")
    assert spike["trace"]["buffer_size_kb"] == 1024  # raised from 512 for the run
    # the fake trace holds no event: no cause is made up
    assert spike["cause"] is None and spike["top"] == [], spike
    assert spike["verdict"].startswith("no verdict: the trace has no event on CPU"), spike
    saved = (tmp_path / "t.spike.txt").read_text()
    assert saved.startswith("# udrv-bench: spike of "), saved
    assert "udrv-bench: spike: trace: " in r.stderr, r
    assert_untouched(tree, files, "sys/kernel/debug/tracing")


def test_spike_out_names_the_file(bench: Runner, tree: FakeTree, tmp_path: Path) -> None:
    files = fake_tracefs(tree)
    want = tmp_path / "mine.txt"
    r = bench(*TIMER, "--json", "--trace-on-spike", "1", "--spike-out", str(want))
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["spike"]["trace"]["file"] == str(want)
    assert want.read_text().startswith("# udrv-bench: spike of ")
    assert_untouched(tree, files)


def test_unwritable_spike_out_is_an_analysis_error(bench: Runner, tree: FakeTree,
                                                   tmp_path: Path) -> None:
    files = fake_tracefs(tree)
    r = bench(*TIMER, "--json", "--trace-on-spike", "1", "--spike-out",
             str(tmp_path / "no" / "such" / "dir.txt"))
    assert r.returncode == 0, r
    spike = json.loads(r.stdout)["spike"]
    assert spike["error"].startswith(f"cannot write the trace to {tmp_path}/no/such/dir.txt"), spike
    assert spike["verdict"] is None and spike["cause"] is None
    assert "udrv-bench: spike: no analysis: cannot write the trace" in r.stderr, r
    assert_untouched(tree, files)


def test_untouched_sees_a_change(tree: FakeTree) -> None:
    files = fake_tracefs(tree)
    tree.file(f"{TRACING}/current_tracer", "nop\n")
    with pytest.raises(AssertionError, match="current_tracer"):
        assert_untouched(tree, files)
