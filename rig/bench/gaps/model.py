# SPDX-License-Identifier: GPL-2.0-only
"""The "gaps" object of a udrv-bench gaps document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "gaps"


@dataclass(frozen=True)
class Gap:
    start_ns: int
    gap_ns: int


@dataclass(frozen=True)
class Gaps:
    """RT throttling's gaps in a busy SCHED_FIFO loop (docs/rig/results.md)."""

    sched_rt_runtime_us: int
    sched_rt_period_us: int
    sched_rt_runtime_us_before: int | None
    threshold_ns: int
    duration_ns: int
    toggles: int
    toggles_per_s: float | None
    longest_ns: int
    longest_start_ns: int
    count: int
    per_s: float
    stalled_ns: int
    stalled_pct: float
    expected_gap_ns: int | None
    timeline: tuple[Gap, ...]
    timeline_dropped: int

    @property
    def throttling_off(self) -> bool:
        """--rt-runtime -1: RT throttling off."""
        return self.sched_rt_runtime_us < 0


def parse(g: dict[str, Any]) -> Gaps:
    """The model of a checked "gaps" object."""
    return Gaps(sched_rt_runtime_us=g["sched_rt_runtime_us"],
                sched_rt_period_us=g["sched_rt_period_us"],
                sched_rt_runtime_us_before=g["sched_rt_runtime_us_before"],
                threshold_ns=g["threshold_ns"], duration_ns=g["duration_ns"],
                toggles=g["toggles"], toggles_per_s=g["toggles_per_s"],
                longest_ns=g["longest_ns"], longest_start_ns=g["longest_start_ns"],
                count=g["count"], per_s=g["per_s"], stalled_ns=g["stalled_ns"],
                stalled_pct=g["stalled_pct"], expected_gap_ns=g["expected_gap_ns"],
                timeline=tuple(Gap(x["start_ns"], x["gap_ns"]) for x in g["timeline"]),
                timeline_dropped=g["timeline_dropped"])


def of(doc: Doc) -> Gaps | None:
    """A document's gaps section (a gaps document's), else None."""
    g = doc.sections.get(SECTION)
    return g if isinstance(g, Gaps) else None
