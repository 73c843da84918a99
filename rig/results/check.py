# SPDX-License-Identifier: GPL-2.0-only
"""Is a results document one udrv wrote? The schema file first, then what a
schema cannot say: histogram buckets that add up to the sample count, loss
accounting where sent = received + lost, a reference that names a row of the
run, the gaps timeline, the rate sweep's knee and the spike analysis adding up.

check_bench(doc) / check_lab(doc) raise Invalid naming the first thing wrong
and where it is (rows[1].stats: ...); check(doc) takes either by its schema.
"""

from __future__ import annotations

from typing import Any

from .pybench import check_pybench
from .schema import FILES, Invalid, validate

NAMES = {name.partition("/")[0]: int(name.partition("/")[2]) for name in FILES}
SUPPORTED = ", ".join(FILES)
# a string a rebuilt document does not know (LAVA test cases carry numbers only)
UNKNOWN = "?"
# the peers whose rows a bench measures beside its own (rig/bench/peers/)
PEERS = ("libgpiod-2.3",)


class Version(Invalid):
    """A udrv results document of another version than this reader's."""


def schema_name(doc: Any, where: str = "") -> str:
    """The document's schema ("udrv-bench/1"), or Invalid/Version saying why not."""
    at = f"{where}.schema" if where else "schema"
    if not isinstance(doc, dict):
        raise Invalid(f"{where or 'the JSON'} is a {_kind(doc)}, not a udrv results document "
                      f"({SUPPORTED})")
    schema = doc.get("schema")
    if not isinstance(schema, str):
        raise Invalid(f"no \"schema\" field{' in ' + where if where else ''}: not a udrv "
                      f"results document ({SUPPORTED})")
    name, _, version = schema.rpartition("/")
    if name not in NAMES:
        raise Invalid(f"{at if where else 'schema'} {schema!r} is not a udrv results document "
                      f"({SUPPORTED})")
    if version != str(NAMES[name]):
        raise Version(f"{at}: {schema!r}, expected '{name}/{NAMES[name]}'" if where
                      else f"schema {schema!r}")
    return schema


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", int: "number",
            float: "number"}.get(type(value), "null")


def check(doc: Any) -> str:
    """Check a udrv-bench/1 or udrv-lab/1 document; its schema."""
    name = schema_name(doc)
    if name == "udrv-lab/1":
        check_lab(doc)
    else:
        check_bench(doc)
    return name


def check_lab(doc: dict[str, Any]) -> None:
    """A udrv-lab/1 document: each run's documents, each filed under its load;
    each python entry's udrv-pybench-1 result."""
    for i, run in enumerate(doc.get("runs", []) if isinstance(doc, dict) else []):
        for j, d in enumerate(run.get("documents", []) if isinstance(run, dict) else []):
            schema_name(d, f"runs[{i}].documents[{j}]")  # another version: say so first
    validate(doc, "udrv-lab/1")
    for i, py in enumerate(doc.get("python", [])):
        if "result" in py:
            check_pybench(py["result"], f"python[{i}].result")
    for i, run in enumerate(doc["runs"]):
        for j, d in enumerate(run["documents"]):
            where = f"runs[{i}].documents[{j}]"
            _semantics(d, where)
            if d["load"] != run["load"]:
                raise Invalid(f"{where}.load: {d['load']!r}, but the run's load is "
                              f"{run['load']!r}")


def check_bench(doc: dict[str, Any]) -> None:
    """A udrv-bench/1 document, as `udrv-bench NAME --json` prints it."""
    if schema_name(doc) != "udrv-bench/1":
        raise Invalid(f"schema {doc['schema']!r}, expected 'udrv-bench/1'")
    validate(doc, "udrv-bench/1")
    _semantics(doc, "")


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _semantics(doc: dict[str, Any], where: str) -> None:
    rebuilt = "rebuilt" in doc  # from LAVA's test cases: no buckets, no timeline, "?"
    for k, row in enumerate(doc["rows"]):
        check_row(doc, row, _at(where, f"rows[{k}]"), rebuilt)
    if doc["bench"] == "gaps":
        check_gaps(doc["gaps"], _at(where, "gaps"), rebuilt)
    if doc["bench"] == "rate":
        check_rate(doc["rate"], _at(where, "rate"), rebuilt)
    if "spike" in doc:
        check_spike(doc["spike"], _at(where, "spike"))
    if "breakdown" in doc:
        check_breakdown(doc, _at(where, "breakdown"))
    check_wake_threads(doc, where)


def check_wake_threads(doc: dict[str, Any], where: str) -> None:
    """A peer's rows (libgpiod-2.3) are compared with the bench's own, so they
    are measured at one setting: where the bench lists the threads its own
    wake-ups go through, each peer with rows lists its request's threads too,
    at a policy and priority of the bench's own and raised as they are.
    Unraised, every irq thread runs at the kernel's default (SCHED_FIFO 50):
    then a peer's threads need not be listed (documents before 12-2026)."""
    threads = doc.get("wake_threads", [])
    own = [t for t in threads if "implementation" not in t]
    if not any(t["raised"] for t in own):
        return
    settings = {(t["policy"], t["priority"], t["raised"]) for t in own}
    for i, t in enumerate(threads):
        if "implementation" in t:
            _need((t["policy"], t["priority"], t["raised"]) in settings,
                  f"{_at(where, f'wake_threads[{i}]')}: {t['name']} ({t['implementation']}) "
                  f"runs at {t['policy']} {t['priority']}"
                  f"{' raised' if t['raised'] else ''}, the bench's own threads at "
                  + ", ".join(f"{p} {q}{' raised' if r else ''}" for p, q, r in sorted(
                      settings, key=str))
                  + ": its rows are not measured at the setting they are compared with")
    peers = {t["implementation"] for t in threads if "implementation" in t}
    steps = doc["rate"]["steps"] if doc["bench"] == "rate" else []
    for k, r in enumerate(doc["rows"] + steps):
        impl = r["implementation"]
        if impl in PEERS and impl not in peers:
            at = f"rows[{k}]" if k < len(doc["rows"]) else \
                f"rate.steps[{k - len(doc['rows'])}]"
            raise Invalid(f"{_at(where, at)}: {impl}'s rows, but no thread of its own "
                          "request in wake_threads, where the bench's own are raised: "
                          "they ran at the kernel's default, not at the setting of the "
                          "rows they are compared with")


# udrv-bench reply --breakdown: how far the traced reply may be from the
# untraced p50 for its stages to explain it (the 5%)
BREAKDOWN_TOLERANCE = 0.05


def breakdown_within(entry: dict[str, Any], tolerance: float = BREAKDOWN_TOLERANCE) -> bool:
    """Does the traced reply's total match the untraced p50 within `tolerance`?"""
    p50 = entry["untraced_p50_ns"]
    return p50 > 0 and abs(entry["total_ns"] - p50) <= tolerance * p50


def check_breakdown_matches(entry: dict[str, Any],
                            tolerance: float = BREAKDOWN_TOLERANCE) -> None:
    """The rule a breakdown must meet to explain the measured latency: its
    stages sum to the traced total, and that is the untraced p50 within
    `tolerance`; Invalid naming the numbers otherwise."""
    total = sum(s["ns"] for s in entry["stages"])
    name = entry["implementation"] + (f"/{entry['wait']}" if entry["wait"] else "")
    _need(total == entry["total_ns"],
          f"breakdown {name}: the stages add up to {total} ns, the reply took "
          f"{entry['total_ns']} ns")
    ratio = entry["total_ns"] / max(1, entry["untraced_p50_ns"])
    what = ("the traced reply, each event's cost taken off," if "costs" in entry
            else "the traced reply")
    _need(breakdown_within(entry, tolerance),
          f"breakdown {name}: {what} took {entry['total_ns']} ns, the untraced "
          f"p50 is {entry['untraced_p50_ns']} ns (x{ratio:.3f}): more than "
          f"{tolerance:.0%} apart")


def check_breakdown(doc: dict[str, Any], where: str) -> None:
    """udrv-bench reply --breakdown: each entry's stages are contiguous (they add
    up to the traced reply's total exactly) and none is negative; its
    untraced p50 is its trigger_to_reply row's; the ratio and the 5% verdict
    are its numbers'."""
    _need(doc["bench"] == "reply", f"{where}: a breakdown in a {doc['bench']} document")
    p50 = {(r["implementation"], r["wait"]): r["stats"]["p50"] for r in doc["rows"]
           if r["sample"] == "trigger_to_reply"}
    seen = set()
    for i, e in enumerate(doc["breakdown"]):
        at = f"{where}[{i}]"
        key = (e["implementation"], e["wait"])
        _need(key not in seen, f"{at}: {key} twice")
        seen.add(key)
        for k, s in enumerate(e["stages"]):
            _need(s["ns"] >= 0, f"{at}.stages[{k}]: {s['name']} is {s['ns']} ns, negative")
        total = sum(s["ns"] for s in e["stages"])
        _need(total == e["total_ns"], f"{at}: the stages add up to {total} ns, "
              f"total_ns is {e['total_ns']}: they must be contiguous")
        _need(key in p50, f"{at}: no trigger_to_reply row of {key[0]}"
              f"{'/' + key[1] if key[1] else ''} for its untraced p50")
        _need(e["untraced_p50_ns"] == p50[key], f"{at}: untraced_p50_ns "
              f"{e['untraced_p50_ns']}, its row's p50 is {p50[key]}")
        ratio = e["total_ns"] / e["untraced_p50_ns"] if e["untraced_p50_ns"] else None
        _need(ratio is None if e["ratio"] is None else
              ratio is not None and abs(e["ratio"] - ratio) <= 1e-3 * ratio,
              f"{at}: ratio {e['ratio']}, but total_ns / untraced_p50_ns is {ratio}")
        _need(e["within_5pct"] == breakdown_within(e),
              f"{at}: within_5pct {e['within_5pct']}, but the total is x{ratio} the "
              "untraced p50")
        if {"costs", "traced_total_ns", "cost_edges"} & e.keys():
            check_breakdown_costs(e, at)


def check_breakdown_costs(e: dict[str, Any], at: str) -> None:
    """The costs taken off a breakdown: all three fields or none; no more taken
    off than the reply took; each event type once, its cost its own run's
    p50 minus the untraced p50 (0 when below) per event inside a reply."""
    missing = {"costs", "traced_total_ns", "cost_edges"} - e.keys()
    _need(not missing, f"{at}: costs taken off without {', '.join(sorted(missing))}")
    _need(e["total_ns"] <= e["traced_total_ns"],
          f"{at}: total_ns {e['total_ns']} with the costs taken off is more than the "
          f"traced reply's {e['traced_total_ns']}")
    events = [c["event"] for c in e["costs"]]
    _need(len(set(events)) == len(events), f"{at}.costs: an event type twice: {events}")
    for k, c in enumerate(e["costs"]):
        extra = max(0, c["traced_p50_ns"] - e["untraced_p50_ns"])
        want = extra / c["per_reply"] if c["per_reply"] > 0 else 0.0
        _need(abs(c["ns"] - want) <= max(1.0, 1e-3 * want),
              f"{at}.costs[{k}]: {c['event']} costs {c['ns']} ns, but its run's p50 "
              f"{c['traced_p50_ns']} ns is {extra} ns over the untraced p50 with "
              f"{c['per_reply']} events a reply: {want:.1f} ns each")


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise Invalid(message)


def check_row(doc: dict[str, Any], row: dict[str, Any], where: str,
              rebuilt: bool = False) -> None:
    check_stats(row["stats"], f"{where}.stats", rebuilt)
    loss = row["loss"]
    if loss is not None:
        _need(loss["sent"] == loss["received"] + loss["lost"],
              f"{where}.loss: sent {loss['sent']} != received {loss['received']} + "
              f"lost {loss['lost']}")
    ref = row["reference"]
    if ref is not None and not (rebuilt and ref["mechanism"] == UNKNOWN):
        _need(any(r["mechanism"] == ref["mechanism"] and r["implementation"]
                  == ref["implementation"] for r in doc["rows"]),
              f"{where}.reference: {ref['mechanism']}/{ref['implementation']} is not a row "
              "of this run")


def check_stats(stats: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """Buckets in order, each holding samples, adding up (with the overflow) to
    the count (@rebuilt, from LAVA's test cases: no buckets)."""
    count, total, last_hi = stats["count"], 0, -(2**63) - 1
    for i, (lo, hi, n) in enumerate(stats["buckets"]):
        _need(last_hi < lo <= hi, f"{where}.buckets[{i}]: [{lo}, {hi}] out of order")
        _need(n > 0, f"{where}.buckets[{i}]: an empty bucket listed")
        last_hi, total = hi, total + n
    if not stats["buckets"] and rebuilt:
        return
    _need(total + stats["overflow"] == count,
          f"{where}: buckets hold {total} + overflow {stats['overflow']}, count says {count}")
    if count:
        _need(stats["min"] <= stats["p50"] <= stats["p99"] <= stats["max"],
              f"{where}: min {stats['min']} <= p50 {stats['p50']} <= p99 {stats['p99']} <= "
              f"max {stats['max']} does not hold")
        _need(stats["min"] <= stats["avg"] <= stats["max"],
              f"{where}: avg {stats['avg']} outside [min, max]")


def check_gaps(gaps: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """The `gaps` object of `udrv-bench gaps` (@rebuilt: without its timeline)."""
    timeline = gaps["timeline"]
    _need((rebuilt and not timeline) or len(timeline) + gaps["timeline_dropped"] == gaps["count"],
          f"{where}: {len(timeline)} gaps listed + {gaps['timeline_dropped']} dropped, "
          f"count says {gaps['count']}")
    starts = [g["start_ns"] for g in timeline]
    _need(starts == sorted(starts), f"{where}: timeline out of order")
    _need(all(g["gap_ns"] >= gaps["threshold_ns"] for g in timeline),
          f"{where}.timeline: a gap < threshold_ns {gaps['threshold_ns']}")
    if gaps["count"]:
        _need(gaps["longest_ns"] >= gaps["threshold_ns"], f"{where}: longest below threshold")
    _need(gaps["stalled_ns"] <= gaps["duration_ns"], f"{where}: stalled longer than the run")


def check_rate(rate: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """The `rate` object of `udrv-bench rate`: each step's accounting, each
    receiver's knee and throughput from its steps (@rebuilt: receivers "?",
    not matched)."""
    _need(rate["rates"] == sorted(set(rate["rates"])), f"{where}.rates: not ascending")
    for k, s in enumerate(rate["steps"]):
        w = f"{where}.steps[{k}] ({s['mechanism']}/{s['implementation']} {s['target_per_s']}/s)"
        _need(s["target_per_s"] in rate["rates"] or s["refined"], f"{w}: not a rate asked for")
        _need(s["received"] <= s["source_count"], f"{w}: more received than the source made")
        _need(s["lost"] == s["source_count"] - s["received"], f"{w}: lost != made - received")
        _need(s["kernel_dropped"] <= s["lost"] + s["received"], f"{w}: kernel_dropped")
        _need(s["reads"] <= s["received"] and s["samples"] <= s["received"],
              f"{w}: more reads or samples than events received")
        _need(0 < s["duration_ns"] <= s["elapsed_ns"], f"{w}: elapsed_ns < duration_ns")
        if s["samples"]:
            _need(s["p50_ns"] <= s["p99_ns"] <= s["max_ns"], f"{w}: p50/p99/max out of order")
        if ("preempted" in s or "slept" in s) and s["implementation"] != UNKNOWN:  # 12-2026
            peer = s["implementation"] == "libgpiod-2.3"
            _need((s.get("preempted") is None) == (s.get("slept") is None) == peer,
                  f"{w}: preempted/slept are counted for in-process receivers only")
    for k, c in enumerate(rate["capacity"]):
        w = f"{where}.capacity[{k}] ({c['mechanism']}/{c['implementation']})"
        if rebuilt and UNKNOWN in (c["mechanism"], c["implementation"]):
            continue
        mine = [s for s in rate["steps"] if (s["mechanism"], s["implementation"])
                == (c["mechanism"], c["implementation"])]
        _need(c["measured"] == bool(mine), f"{w}: measured is {c['measured']}")
        zero = [s["offered_per_s"] for s in mine if s["lost"] == 0 and s["source_count"]
                and s["received_per_s"] >= 0.95 * s["offered_per_s"]]
        _need(c["knee_per_s"] == (max(zero) if zero else None),
              f"{w}: knee_per_s {c['knee_per_s']} is not its steps' knee")
        if mine:
            _need(c["throughput_per_s"] == max(s["received_per_s"] for s in mine),
                  f"{w}: throughput_per_s is not its steps' highest received_per_s")
        if c["implementation"] == "raw" and c["ns_per_event"]:
            _need(c["ratio_vs_raw"] == 1.0, f"{w}: the raw receiver's ratio_vs_raw is not 1")
        at_rate = c.get("ratio_at_per_s")
        if at_rate is not None:  # a rate both took, neither preempted
            at = [s for s in rate["steps"] if s["target_per_s"] == at_rate
                  and s["mechanism"] == c["mechanism"]
                  and s["implementation"] in ("raw", c["implementation"])]
            _need(bool(at) and all(s.get("preempted") is None
                                   or s["preempted"] * 100 <= s["received"] for s in at),
                  f"{w}: ratio_at_per_s {at_rate}: no such step, or preempted there")


def check_spike(spike: dict[str, Any], where: str) -> None:
    """The `spike` object of --trace-on-spike."""
    if not spike["found"]:
        _need(spike["samples_over"] == 0 and set(spike) == {
            "threshold_ns", "samples_over", "found"}, f"{where}: not found, yet {spike}")
        return
    sample, window = spike["sample"], spike["window"]
    _need(sample["latency_ns"] == sample["end_ns"] - sample["start_ns"]
          > spike["threshold_ns"], f"{where}.sample: latency_ns {sample}")
    _need((window["start_ns"], window["end_ns"]) == (sample["start_ns"], sample["end_ns"]),
          f"{where}.window: not the sample's")
    length = window["end_ns"] - window["start_ns"]
    _need(window["covered_ns"] <= length and window["runnable_ns"] <= length,
          f"{where}.window: longer than the sample {window}")
    _need(window["rt_waiting_idle_ns"] + window["rt_waiting_other_ns"] <= window["covered_ns"],
          f"{where}.window: RT waiting longer than covered {window}")
    top = spike["top"]
    _need(all(0 < e["ns"] <= length for e in top), f"{where}.top: {top}")
    _need([e["ns"] for e in top] == sorted((e["ns"] for e in top), reverse=True),
          f"{where}.top: not largest first")
    _need(sum(e["ns"] for e in top) <= window["covered_ns"], f"{where}.top: more than covered")
    cause = spike["cause"]
    _need(cause is None or (cause["role"] == "other" and cause in top), f"{where}.cause")
    others = [e for e in top if e["role"] == "other"]
    _need((cause is None) == (not others) or bool(spike["error"]), f"{where}.cause vs top")
    _need(spike["error"] is not None or isinstance(spike["verdict"], str), f"{where}.verdict")
