# SPDX-License-Identifier: GPL-2.0-only
"""Made-up results documents for the tests (udrv-bench/1, udrv-lab/1: the
schema files in rig/results/), and the suite's tables of them.

stats(values) is a histogram of @values whose buckets add up; row() and
bench_doc() fill every field the schema asks for, so that a test changes only
what it is about; damage(path, value) breaks one field of a document.
suite_table() prints a rig.results.text table of SuiteRuns the way the suite
does (lab document -> rig.results model -> table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rig.results import model
from rig.results.text import TextTable, render


def stats(values: list[int]) -> dict[str, Any]:
    values = sorted(values)
    n = len(values)

    def pct(p: float) -> int:
        return values[min(n - 1, int(p * n))]

    return {"count": n, "min": values[0], "avg": sum(values) / n, "max": values[-1],
            "stddev": 0.0, "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99),
            "p99_9": pct(0.999), "p99_99": pct(0.9999), "overflow": 0,
            "buckets": [[v, v, values.count(v)] for v in sorted(set(values))]}


def spread(p50: int, p99: int, mx: int) -> dict[str, Any]:
    """A histogram of 1000 samples with that p50, p99 and max."""
    return stats([p50] * 600 + [p99] * 395 + [mx] * 5)


def row(mech: str, impl: str, sample: str, st: dict[str, Any], wait: str | None = None,
        *, reference: dict[str, Any] | None = None, loss: bool = False,
        rate_per_s: float | None = None, note: str | None = None) -> dict[str, Any]:
    n = st["count"]
    return {"mechanism": mech, "implementation": impl, "wait": wait, "sample": sample,
            "unit": "ns", "stats": st,
            "loss": {"sent": n, "received": n, "lost": 0} if loss else None,
            "rate_per_s": rate_per_s, "reference": reference, "note": note}


def ref(mech: str, impl: str, ratio_avg: float | None, ratio_p50: float | None = None
        ) -> dict[str, Any]:
    return {"mechanism": mech, "implementation": impl, "ratio_avg": ratio_avg,
            "ratio_p50": ratio_avg if ratio_p50 is None else ratio_p50}


def bench_doc(bench: str, rows: list[dict[str, Any]], load: str = "none",
              realtime: bool = False, **extra: Any) -> dict[str, Any]:
    return {"schema": "udrv-bench/1", "tool": {"name": "udrv", "version": "1.0.0"},
            "bench": bench, "board": "Standard PC (i440FX + PIIX, 1996)",
            "kernel": {"release": "6.1.0-test", "version": "#1 SMP",
                       "preempt_model": "PREEMPT_RT" if realtime else "PREEMPT_DYNAMIC",
                       "realtime": realtime},
            "load": load,
            "rt": {"policy": "SCHED_FIFO", "priority": 80, "memory_locked": True, "cpu": None,
                   "dma_latency_us": 0},
            "rows": rows, **extra}


def suite_table(make: Callable[..., TextTable], runs: list[Any], *args: Any) -> list[str]:
    """rig.results.text's table @make of the suite's runs (rig.lab.suite.qemu.SuiteRun),
    as `make lab` prints it."""
    from rig.lab.suite import qemu as suite

    return render(make(model(suite.lab_document(runs), "suite").runs, *args))


def damage(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    """A function that sets the field at @path of a document to @value (KeyError:
    deletes it): the tests' broken documents, each refused for its reason."""
    def apply(doc: dict[str, Any]) -> None:
        node = doc
        for k in path[:-1]:
            node = node[k]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value
    return apply
