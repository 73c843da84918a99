# SPDX-License-Identifier: GPL-2.0-only
"""Is a results document one udrv wrote? The schema file first, then what a
schema cannot say: histogram buckets that add up to the sample count, loss
accounting where sent = received + lost, a reference that names a row of the
run, the spike analysis adding up; and each bench's own section, by its spec
(rig/bench/<bench>/spec.py: check): the gaps timeline, the rate sweep's knee,
the reply breakdown's stages. A section is in its bench's documents alone.

check_bench(doc) / check_lab(doc) raise Invalid naming the first thing wrong
and where it is (rows[1].stats: ...); check(doc) takes either by its schema.
"""

from __future__ import annotations

from typing import Any

from rig.bench.base import BenchSpec
from rig.bench.specs import SPECS

from .pybench import check_pybench
from .schema import FILES, Invalid, need, validate

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
    sections = _sections(doc)
    for spec in SPECS:  # a bench's own section in its documents alone
        if spec.section and spec.section in doc:
            need(doc["bench"] == spec.name, f"{_at(where, spec.section)}: a {spec.section} "
                  f"in a {doc['bench']} document")
    for spec, section in sections:  # the bench's own section: its spec's checks
        if spec.check:
            spec.check(section, doc, _at(where, str(spec.section)), rebuilt)
    if "spike" in doc:
        check_spike(doc["spike"], _at(where, "spike"))
    check_wake_threads(doc, where, sections)


def _sections(doc: dict[str, Any]) -> list[tuple[BenchSpec, Any]]:
    """The bench's own section(s) the document has, each read into its model."""
    return [(s, s.parse(doc[s.section])) for s in SPECS
            if s.section and s.parse and doc["bench"] == s.name and s.section in doc]


def check_wake_threads(doc: dict[str, Any], where: str,
                       sections: list[tuple[BenchSpec, Any]] | None = None) -> None:
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
            need((t["policy"], t["priority"], t["raised"]) in settings,
                  f"{_at(where, f'wake_threads[{i}]')}: {t['name']} ({t['implementation']}) "
                  f"runs at {t['policy']} {t['priority']}"
                  f"{' raised' if t['raised'] else ''}, the bench's own threads at "
                  + ", ".join(f"{p} {q}{' raised' if r else ''}" for p, q, r in sorted(
                      settings, key=str))
                  + ": its rows are not measured at the setting they are compared with")
    peers = {t["implementation"] for t in threads if "implementation" in t}
    measured = [(f"rows[{k}]", r["implementation"]) for k, r in enumerate(doc["rows"])]
    for spec, section in sections if sections is not None else _sections(doc):
        if spec.receivers:
            measured += [(f"{spec.section}.{at}", impl) for at, impl in spec.receivers(section)]
    for at, impl in measured:
        if impl in PEERS and impl not in peers:
            raise Invalid(f"{_at(where, at)}: {impl}'s rows, but no thread of its own "
                          "request in wake_threads, where the bench's own are raised: "
                          "they ran at the kernel's default, not at the setting of the "
                          "rows they are compared with")



def check_row(doc: dict[str, Any], row: dict[str, Any], where: str,
              rebuilt: bool = False) -> None:
    check_stats(row["stats"], f"{where}.stats", rebuilt)
    loss = row["loss"]
    if loss is not None:
        need(loss["sent"] == loss["received"] + loss["lost"],
              f"{where}.loss: sent {loss['sent']} != received {loss['received']} + "
              f"lost {loss['lost']}")
    ref = row["reference"]
    if ref is not None and not (rebuilt and ref["mechanism"] == UNKNOWN):
        need(any(r["mechanism"] == ref["mechanism"] and r["implementation"]
                  == ref["implementation"] for r in doc["rows"]),
              f"{where}.reference: {ref['mechanism']}/{ref['implementation']} is not a row "
              "of this run")


def check_stats(stats: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """Buckets in order, each holding samples, adding up (with the overflow) to
    the count (@rebuilt, from LAVA's test cases: no buckets)."""
    count, total, last_hi = stats["count"], 0, -(2**63) - 1
    for i, (lo, hi, n) in enumerate(stats["buckets"]):
        need(last_hi < lo <= hi, f"{where}.buckets[{i}]: [{lo}, {hi}] out of order")
        need(n > 0, f"{where}.buckets[{i}]: an empty bucket listed")
        last_hi, total = hi, total + n
    if not stats["buckets"] and rebuilt:
        return
    need(total + stats["overflow"] == count,
          f"{where}: buckets hold {total} + overflow {stats['overflow']}, count says {count}")
    if count:
        need(stats["min"] <= stats["p50"] <= stats["p99"] <= stats["max"],
              f"{where}: min {stats['min']} <= p50 {stats['p50']} <= p99 {stats['p99']} <= "
              f"max {stats['max']} does not hold")
        need(stats["min"] <= stats["avg"] <= stats["max"],
              f"{where}: avg {stats['avg']} outside [min, max]")


def check_spike(spike: dict[str, Any], where: str) -> None:
    """The `spike` object of --trace-on-spike."""
    if not spike["found"]:
        need(spike["samples_over"] == 0 and set(spike) == {
            "threshold_ns", "samples_over", "found"}, f"{where}: not found, yet {spike}")
        return
    sample, window = spike["sample"], spike["window"]
    need(sample["latency_ns"] == sample["end_ns"] - sample["start_ns"]
          > spike["threshold_ns"], f"{where}.sample: latency_ns {sample}")
    # the sample's, begun earlier where its start is stamped late (pwm's edges)
    need(window["end_ns"] == sample["end_ns"] and window["start_ns"] <= sample["start_ns"],
          f"{where}.window: not the sample's")
    length = window["end_ns"] - window["start_ns"]
    need(window["covered_ns"] <= length and window["runnable_ns"] <= length,
          f"{where}.window: longer than the sample {window}")
    need(window["rt_waiting_idle_ns"] + window["rt_waiting_other_ns"] <= window["covered_ns"],
          f"{where}.window: RT waiting longer than covered {window}")
    top = spike["top"]
    need(all(0 < e["ns"] <= length for e in top), f"{where}.top: {top}")
    need([e["ns"] for e in top] == sorted((e["ns"] for e in top), reverse=True),
          f"{where}.top: not largest first")
    need(sum(e["ns"] for e in top) <= window["covered_ns"], f"{where}.top: more than covered")
    cause = spike["cause"]
    need(cause is None or (cause["role"] == "other" and cause in top), f"{where}.cause")
    others = [e for e in top if e["role"] == "other"]
    need((cause is None) == (not others) or bool(spike["error"]), f"{where}.cause vs top")
    need(spike["error"] is not None or isinstance(spike["verdict"], str), f"{where}.verdict")
