# SPDX-License-Identifier: GPL-2.0-only
"""Check udrv result documents against docs/rig/results.md (udrv-bench/1, udrv-lab/1).

check_document(doc) raises AssertionError naming the first thing that is wrong:
a missing or mistyped field, histogram buckets that do not add up to the
sample count, loss accounting where sent != received + lost, a reference that
points at no row.
"""

from __future__ import annotations

from typing import Any

BENCHES = {"toggle", "irq", "uio", "timer", "kernel", "reply", "gaps", "rate", "pci"}
STAT_KEYS = ("count", "min", "avg", "max", "stddev", "p50", "p90", "p99",
             "p99_9", "p99_99", "overflow", "buckets")
RT_KEYS = ("policy", "priority", "memory_locked", "cpu", "dma_latency_us")


def _where(doc: dict[str, Any], row: dict[str, Any] | None = None) -> str:
    if row is None:
        return f"bench {doc.get('bench')!r}"
    return (f"bench {doc.get('bench')!r} row {row.get('mechanism')}/"
            f"{row.get('implementation')}/{row.get('wait')}/{row.get('sample')}")


def check_stats(stats: dict[str, Any], where: str) -> None:
    for key in STAT_KEYS:
        assert key in stats, f"{where}: stats lack {key!r}"
    count = stats["count"]
    assert isinstance(count, int) and count >= 0, f"{where}: bad count {count!r}"
    total = 0
    last_hi = -1
    for bucket in stats["buckets"]:
        lo, hi, n = bucket
        assert lo <= hi and lo > last_hi, f"{where}: bucket {bucket} out of order"
        assert n > 0, f"{where}: empty bucket {bucket} listed"
        last_hi = hi
        total += n
    assert total + stats["overflow"] == count, (
        f"{where}: buckets hold {total} + overflow {stats['overflow']}, count says {count}")
    if count:
        assert stats["min"] <= stats["p50"] <= stats["p99"] <= stats["max"], (
            f"{where}: min/p50/p99/max out of order: {stats}")
        assert stats["min"] <= stats["avg"] <= stats["max"], f"{where}: avg outside [min, max]"


def check_loss(loss: dict[str, Any] | None, where: str) -> None:
    if loss is None:
        return
    sent, received, lost = loss["sent"], loss["received"], loss["lost"]
    assert sent == received + lost, (
        f"{where}: sent {sent} != received {received} + lost {lost}")


def check_row(doc: dict[str, Any], row: dict[str, Any]) -> None:
    where = _where(doc, row)
    for key in ("mechanism", "implementation", "sample"):
        assert isinstance(row.get(key), str) and row[key], f"{where}: no {key}"
    assert row.get("wait") is None or isinstance(row["wait"], str), f"{where}: bad wait"
    assert row.get("unit") == "ns", f"{where}: unit must be ns"
    check_stats(row["stats"], where)
    check_loss(row.get("loss"), where)
    rate = row.get("rate_per_s")
    assert rate is None or rate > 0, f"{where}: bad rate {rate!r}"
    ref = row.get("reference")
    if ref is not None:
        matches = [r for r in doc["rows"] if r["mechanism"] == ref["mechanism"]
                   and r["implementation"] == ref["implementation"]]
        assert matches, f"{where}: reference {ref} is not a row of this run"
        assert ref["ratio_avg"] is None or ref["ratio_avg"] > 0, f"{where}: bad ratio"


def check_gaps(gaps: dict[str, Any], where: str) -> None:
    """The `gaps` object of `udrv bench gaps` (docs/rig/results.md)."""
    for key in ("sched_rt_runtime_us", "sched_rt_period_us", "threshold_ns", "duration_ns",
                "toggles", "longest_ns", "longest_start_ns", "count", "per_s", "stalled_ns",
                "stalled_pct", "timeline", "timeline_dropped"):
        assert key in gaps, f"{where}: gaps lack {key!r}"
    assert gaps["expected_gap_ns"] is None or gaps["expected_gap_ns"] > 0, f"{where}: expected"
    timeline = gaps["timeline"]
    assert len(timeline) + gaps["timeline_dropped"] == gaps["count"], (
        f"{where}: {len(timeline)} gaps listed + {gaps['timeline_dropped']} dropped, "
        f"count says {gaps['count']}")
    starts = [g["start_ns"] for g in timeline]
    assert starts == sorted(starts), f"{where}: timeline out of order"
    assert all(g["gap_ns"] >= gaps["threshold_ns"] for g in timeline), f"{where}: gap < threshold"
    if gaps["count"]:
        assert gaps["longest_ns"] >= gaps["threshold_ns"], f"{where}: longest below threshold"
    assert gaps["stalled_ns"] <= gaps["duration_ns"], f"{where}: stalled longer than the run"


def check_rate(rate: dict[str, Any], where: str) -> None:
    """The `rate` object of `udrv bench rate` (docs/rig/results.md)."""
    assert rate["rates"] == sorted(set(rate["rates"])) and rate["step_duration_ns"] > 0, where
    for s in rate["steps"]:
        w = f"{where} step {s['mechanism']}/{s['implementation']} {s['target_per_s']}/s"
        assert s["target_per_s"] in rate["rates"] or s["refined"], w
        assert s["received"] <= s["source_count"], f"{w}: more received than the source made"
        assert s["lost"] == s["source_count"] - s["received"], f"{w}: lost {s}"
        assert s["kernel_dropped"] <= s["lost"] + s["received"], f"{w}: dropped {s}"
        assert s["reads"] <= s["received"] and s["samples"] <= s["received"], f"{w}: {s}"
        assert 0 < s["duration_ns"] <= s["elapsed_ns"] and s["cpu_pct"] >= 0, f"{w}: {s}"
        if s["samples"]:
            assert s["p50_ns"] <= s["p99_ns"] <= s["max_ns"], f"{w}: {s}"
        # context switches: counted for the in-process receivers, not the peer's
        peer = s["implementation"] == "libgpiod-2.3"
        assert (s["preempted"] is None) == (s["slept"] is None) == peer, f"{w}: {s}"
    for c in rate["capacity"]:
        mine = [s for s in rate["steps"] if (s["mechanism"], s["implementation"])
                == (c["mechanism"], c["implementation"])]
        w = f"{where} capacity {c['mechanism']}/{c['implementation']}"
        assert c["measured"] == bool(mine), w
        zero = [s["offered_per_s"] for s in mine if s["lost"] == 0 and s["source_count"]
                and s["received_per_s"] >= 0.95 * s["offered_per_s"]]
        assert c["knee_per_s"] == (max(zero) if zero else None), f"{w}: knee {c}"
        if mine:
            assert c["throughput_per_s"] == max(s["received_per_s"] for s in mine), w
        if c["implementation"] == "raw" and c["ns_per_event"]:
            assert c["ratio_vs_raw"] == 1.0, w
        if c["ratio_at_per_s"] is not None:  # a rate both took, neither preempted
            at = [s for s in rate["steps"] if s["target_per_s"] == c["ratio_at_per_s"]
                  and s["mechanism"] == c["mechanism"]
                  and s["implementation"] in ("raw", c["implementation"])]
            assert at and all(s["preempted"] is None or s["preempted"] * 100 <= s["received"]
                              for s in at), f"{w}: ratio at {c['ratio_at_per_s']}: {at}"


SPIKE_ROLES = {"bench", "wake-up path", "idle", "other"}
SPIKE_KINDS = {"task", "idle", "hardirq", "softirq", "hrtimer"}


def check_spike(spike: dict[str, Any], where: str) -> None:
    """The `spike` object of --trace-on-spike (docs/rig/results.md)."""
    assert spike["threshold_ns"] > 0 and spike["samples_over"] >= 0, f"{where}: spike {spike}"
    assert isinstance(spike["found"], bool), f"{where}: spike found"
    if not spike["found"]:
        assert spike["samples_over"] == 0 and set(spike) == {
            "threshold_ns", "samples_over", "found"}, f"{where}: spike not found: {spike}"
        return
    sample, window = spike["sample"], spike["window"]
    assert sample["latency_ns"] == sample["end_ns"] - sample["start_ns"] > spike["threshold_ns"], (
        f"{where}: spike sample {sample}")
    assert (window["start_ns"], window["end_ns"]) == (sample["start_ns"], sample["end_ns"])
    length = window["end_ns"] - window["start_ns"]
    assert 0 <= window["covered_ns"] <= length, f"{where}: spike covers {window}"
    assert window["runnable_ns"] <= length, f"{where}: spike runnable {window}"
    assert (window["rt_waiting_idle_ns"] + window["rt_waiting_other_ns"]
            <= window["covered_ns"]), f"{where}: spike {window}"
    top = spike["top"]
    assert all(e["kind"] in SPIKE_KINDS and e["role"] in SPIKE_ROLES and 0 < e["ns"] <= length
               for e in top), f"{where}: spike top {top}"
    assert [e["ns"] for e in top] == sorted((e["ns"] for e in top), reverse=True), where
    assert sum(e["ns"] for e in top) <= window["covered_ns"], f"{where}: spike top > covered"
    cause = spike["cause"]
    assert cause is None or (cause["role"] == "other" and cause in top), f"{where}: cause {cause}"
    others = [e for e in top if e["role"] == "other"]
    assert (cause is None) == (not others) or spike["error"], f"{where}: cause vs top"
    assert spike["error"] is not None or isinstance(spike["verdict"], str), where
    assert spike["trace"]["clock"] == "mono", where


def check_pci(pci: dict[str, Any], where: str) -> None:
    """The `pci` object of `udrv bench pci` (docs/rig/results.md)."""
    assert isinstance(pci["device"], str) and pci["device"], f"{where}: pci device"
    assert isinstance(pci["driver_before"], str), f"{where}: driver_before"
    assert pci["driver_after"] is None or isinstance(pci["driver_after"], str), where
    assert set(pci["irq"]) <= {"uio-intx", "vfio-intx", "vfio-msi"}, f"{where}: {pci['irq']}"
    assert all(isinstance(v, int) and v > 0 for v in pci["irq"].values()), where


def check_document(doc: dict[str, Any]) -> None:
    """A udrv-bench/1 document, as `udrv bench NAME --json` prints it."""
    assert doc.get("schema") == "udrv-bench/1", f"schema is {doc.get('schema')!r}"
    where = _where(doc)
    assert doc.get("bench") in BENCHES, f"unknown bench {doc.get('bench')!r}"
    assert doc["tool"]["name"] == "udrv" and doc["tool"]["version"], f"{where}: tool"
    assert isinstance(doc.get("board"), str) and doc["board"], f"{where}: board"
    kernel = doc["kernel"]
    for key in ("release", "version", "preempt_model", "realtime"):
        assert key in kernel, f"{where}: kernel lacks {key!r}"
    assert isinstance(doc.get("load"), str), f"{where}: load"
    for key in RT_KEYS:
        assert key in doc["rt"], f"{where}: rt lacks {key!r}"
    for t in doc.get("wake_threads", []):  # optional: the threads of the wake-ups
        assert isinstance(t["name"], str) and t["name"], f"{where}: wake thread name"
        assert t["policy"] is None or t["policy"].startswith("SCHED_"), f"{where}: {t}"
        assert t["priority"] is None or 0 <= t["priority"] <= 99, f"{where}: {t}"
        assert isinstance(t["raised"], bool), f"{where}: {t}"
    assert isinstance(doc.get("rows"), list) and doc["rows"], f"{where}: no rows"
    for row in doc["rows"]:
        check_row(doc, row)
    if doc["bench"] == "gaps":
        check_gaps(doc["gaps"], where)
    if doc["bench"] == "rate":
        check_rate(doc["rate"], where)
    if doc["bench"] == "pci":
        check_pci(doc["pci"], where)
    if "spike" in doc:  # only with --trace-on-spike
        check_spike(doc["spike"], where)


LAB_BOARDS = ("x86", "x86-smp", "rpi3", "q35")


def check_lab_document(doc: dict[str, Any], boards: tuple[str, ...] = LAB_BOARDS) -> None:
    """A udrv-lab/1 document, as `make lab` writes build/lab/results.json
    (`boards`: a labgrid target's suite names its runs after the target)."""
    assert doc.get("schema") == "udrv-lab/1", f"schema is {doc.get('schema')!r}"
    assert doc["runs"], "no runs"
    for run in doc["runs"]:
        assert run["kernel"] in ("std", "rt") and isinstance(run["load"], str)
        assert run.get("board", "x86") in boards, (
            f"unknown board {run.get('board')!r}")
        for bench_doc in run["documents"]:
            check_document(bench_doc)
            assert bench_doc["load"] == run["load"], "document load differs from its run"
