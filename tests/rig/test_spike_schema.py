# SPDX-License-Identifier: GPL-2.0-only
"""The `spike` object's checks (rig.results: its schema and what adds up) on the
lab's own output, in a document: a real one passes, each kind of damage is caught."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rig.results.check import check_bench
from rig.results.schema import Invalid
from tests.support.results_docs import bench_doc, row, stats


def check_spike(spike: dict[str, Any]) -> None:
    check_bench(bench_doc("timer", [row("clock_nanosleep", "udrv", "wakeup",
                                        stats([1000, 2005664]))], spike=spike))

HOG = {"kind": "task", "name": "udrv-spike-hog", "pid": 132, "irq": None, "priority": "FIFO 90",
       "ns": 1990385, "count": 0, "role": "other", "run_ns": 2009000}
# udrv-bench timer --trace-on-spike 500 beside the hog, std (docs/rig/results.md)
SPIKE: dict[str, Any] = {
    "threshold_ns": 500000, "samples_over": 3, "found": True,
    "sample": {"mechanism": "clock_nanosleep", "implementation": "udrv", "wait": None,
               "sample": "wakeup", "index": 27, "latency_ns": 2005664,
               "start_ns": 2435259615, "end_ns": 2437265279, "cpu": 0},
    "window": {"start_ns": 2435259615, "end_ns": 2437265279, "covered_ns": 2005664,
               "events": 19, "runnable_ns": 2002000, "rt_waiting_idle_ns": 0,
               "rt_waiting_other_ns": 0},
    "rt_kept_waiting": False,
    "rt_throttled": False,
    "top": [HOG,
            {"kind": "hardirq", "name": "local_timer", "pid": None, "irq": None,
             "priority": None, "ns": 7000, "count": 3, "role": "wake-up path", "run_ns": None},
            {"kind": "task", "name": "udrv", "pid": 133, "irq": None, "priority": "FIFO 80",
             "ns": 1279, "count": 1, "role": "bench", "run_ns": 4000}],
    "cause": HOG,
    "verdict": "task udrv-spike-hog (pid 132, FIFO 90) ran 1.99 ms of the 2.01 ms window",
    "trace": {"file": "/out/timer.spike.txt", "lines": 62, "from_ns": 2433253951,
              "to_ns": 2437365279, "tracefs": "/sys/kernel/debug/tracing", "clock": "mono",
              "buffer_size_kb": 1408},
    "error": None,
}


def test_a_real_spike_passes() -> None:
    check_spike(SPIKE)
    check_spike({"threshold_ns": 500000, "samples_over": 0, "found": False})


def test_a_window_begun_before_its_sample_passes() -> None:
    """bench pwm analyses from 5 us before the pulse's due edge."""
    spike = copy.deepcopy(SPIKE)
    spike["window"]["start_ns"] -= 5000
    check_spike(spike)


@pytest.mark.parametrize("damage", ["covered", "latency", "order", "cause-role", "not-found",
                                    "no-cause", "clock", "window-late", "window-end"])
def test_damage_is_caught(damage: str) -> None:
    spike = copy.deepcopy(SPIKE)
    if damage == "covered":
        spike["window"]["covered_ns"] += 1
    elif damage == "latency":
        spike["sample"]["latency_ns"] -= 1
    elif damage == "order":
        spike["top"].reverse()
    elif damage == "cause-role":
        spike["cause"] = spike["top"][2]
    elif damage == "not-found":
        spike["found"] = False
    elif damage == "no-cause":
        spike["cause"] = None
    elif damage == "window-late":
        spike["window"]["start_ns"] += 1
    elif damage == "window-end":
        spike["window"]["end_ns"] += 1
    else:
        spike["trace"]["clock"] = "local"
    with pytest.raises(Invalid):
        check_spike(spike)
