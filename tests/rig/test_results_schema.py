# SPDX-License-Identifier: GPL-2.0-only
"""The result-document checks and the suite's tables, on synthetic documents
(no lab needed): what is wrong must be caught, what is right must pass."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rig.lab import suite
from tests.support.results_schema import check_document, check_lab_document


def stats(values: list[int]) -> dict[str, Any]:
    values = sorted(values)
    return {"count": len(values), "min": values[0], "avg": sum(values) / len(values),
            "max": values[-1], "stddev": 0.0, "p50": values[len(values) // 2],
            "p90": values[-1], "p99": values[-1], "p99_9": values[-1], "p99_99": values[-1],
            "overflow": 0, "buckets": [[v, v, values.count(v)] for v in sorted(set(values))]}


def row(mech: str, impl: str, values: list[int], ref: str | None = None) -> dict[str, Any]:
    return {"mechanism": mech, "implementation": impl, "wait": None, "sample": "toggle",
            "unit": "ns", "stats": stats(values),
            "loss": {"sent": len(values), "received": len(values) - 1, "lost": 1},
            "rate_per_s": 1e9 / (sum(values) / len(values)),
            "reference": None if ref is None else
            {"mechanism": mech, "implementation": ref, "ratio_avg": 1.01, "ratio_p50": 1.0},
            "note": None}


def document() -> dict[str, Any]:
    return {"schema": "udrv-bench/1", "tool": {"name": "udrv", "version": "0.1.0"},
            "bench": "toggle", "board": "test", "load": "none",
            "kernel": {"release": "6.1", "version": "#1", "preempt_model": "PREEMPT_RT",
                       "realtime": True},
            "rt": {"policy": "SCHED_FIFO", "priority": 80, "memory_locked": True,
                   "cpu": None, "dma_latency_us": 0},
            "rows": [row("cdev", "raw", [100, 100, 101]),
                     row("cdev", "udrv", [101, 101, 102], ref="raw")]}


def test_a_good_document_passes() -> None:
    check_document(document())


@pytest.mark.parametrize("damage", ["buckets", "loss", "reference", "schema", "rt"])
def test_damage_is_caught(damage: str) -> None:
    doc = copy.deepcopy(document())
    if damage == "buckets":
        doc["rows"][0]["stats"]["buckets"][0][2] += 1
    elif damage == "loss":
        doc["rows"][1]["loss"]["lost"] = 0
    elif damage == "reference":
        doc["rows"][1]["reference"]["implementation"] = "libgpiod"
    elif damage == "schema":
        doc["schema"] = "udrv-bench/0"
    else:
        del doc["rt"]["priority"]
    with pytest.raises(AssertionError):
        check_document(doc)


def test_lab_document_and_tables() -> None:
    runs = [suite.SuiteRun("std", "none", [document()]),
            suite.SuiteRun("rt", "none", [document()])]
    lab = suite.lab_document(runs)
    check_lab_document(lab)
    toggle = suite.toggle_table(runs)
    assert toggle[0].startswith("Toggle rate")
    assert any("cdev" in line and "x1.010 vs raw" in line for line in toggle)
    latency = suite.latency_table(runs)
    assert latency[0].startswith("Latency")


def test_toggle_table_compares_with_the_peer_and_points_to_the_pin() -> None:
    """udrv / libgpiod-2.3 from the two rows of one run, per kernel; without
    the peer's row no such line (never a ratio made up); with an mmio
    udrv-pin row, the line that points to udrv_mmio_pin_write()."""
    def run(kernel: str, udrv: int, peer: int | None) -> suite.SuiteRun:
        doc = document()
        doc["rows"][1]["stats"] = stats([udrv])
        if peer is not None:
            doc["rows"].append(row("cdev", "libgpiod-2.3", [peer]))
        return suite.SuiteRun(kernel, "none", [doc])

    lines = suite.toggle_table([run("std", 97, 100), run("rt", 102, 100)])
    assert "cdev udrv vs libgpiod-2.3 (same line, same run): x0.970 std, x1.020 rt" in lines
    assert not any("udrv_mmio_pin_write" in line for line in lines)
    lines = suite.toggle_table([run("std", 97, None)])
    assert not any("vs libgpiod-2.3" in line for line in lines)
    pinned = run("std", 97, 100)
    pinned.documents[0]["rows"] += [row("mmio", "raw", [3]), row("mmio", "udrv-pin", [3])]
    assert any("udrv_mmio_pin_write()" in line for line in suite.toggle_table([pinned]))
