# SPDX-License-Identifier: GPL-2.0-only
"""The "rate" object of a udrv-bench rate document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "rate"


@dataclass(frozen=True)
class Step:
    """One offered rate of one receiver (mechanism x implementation)."""

    mechanism: str
    implementation: str
    target_per_s: int
    refined: bool
    offered_per_s: float
    received_per_s: float
    duration_ns: int
    elapsed_ns: int
    source_count: int
    received: int
    lost: int
    kernel_dropped: int
    masked: int | None  # absent: not counted by this mechanism
    injected: int | None
    overruns: int | None
    reads: int
    cpu_ns: int
    cpu_pct: float
    # in-process receivers (null for a peer's); both absent before 12-2026
    sched_counted: bool  # the document has preempted and slept
    preempted: int | None
    slept: int | None
    samples: int
    p50_ns: int
    p99_ns: int
    max_ns: int


@dataclass(frozen=True)
class Capacity:
    """A receiver's capacity: its knee, throughput and CPU per event."""

    mechanism: str
    implementation: str
    measured: bool
    knee_per_s: float | None
    cpu_pct_at_knee: float | None
    throughput_per_s: float | None
    ns_per_event: float | None
    ratio_vs_raw: float | None
    ratio_at_per_s: float | None  # absent before 12-2026
    note: str | None


@dataclass(frozen=True)
class Rate:
    """The sweep of offered rates per receiver, and each one's capacity."""

    step_duration_ns: int
    batch: int | None
    buffer: int | None
    line: int | None
    refine: int | None
    rates: tuple[int, ...]
    steps: tuple[Step, ...]
    capacity: tuple[Capacity, ...]


def _step(s: dict[str, Any]) -> Step:
    return Step(mechanism=s["mechanism"], implementation=s["implementation"],
                target_per_s=s["target_per_s"], refined=s["refined"],
                offered_per_s=s["offered_per_s"], received_per_s=s["received_per_s"],
                duration_ns=s["duration_ns"], elapsed_ns=s["elapsed_ns"],
                source_count=s["source_count"], received=s["received"], lost=s["lost"],
                kernel_dropped=s["kernel_dropped"], masked=s.get("masked"),
                injected=s.get("injected"), overruns=s.get("overruns"), reads=s["reads"],
                cpu_ns=s["cpu_ns"], cpu_pct=s["cpu_pct"],
                sched_counted="preempted" in s or "slept" in s,
                preempted=s.get("preempted"), slept=s.get("slept"), samples=s["samples"],
                p50_ns=s["p50_ns"], p99_ns=s["p99_ns"], max_ns=s["max_ns"])


def _capacity(c: dict[str, Any]) -> Capacity:
    return Capacity(mechanism=c["mechanism"], implementation=c["implementation"],
                    measured=c["measured"], knee_per_s=c["knee_per_s"],
                    cpu_pct_at_knee=c["cpu_pct_at_knee"],
                    throughput_per_s=c["throughput_per_s"], ns_per_event=c["ns_per_event"],
                    ratio_vs_raw=c["ratio_vs_raw"], ratio_at_per_s=c.get("ratio_at_per_s"),
                    note=c["note"])


def parse(r: dict[str, Any]) -> Rate:
    """The model of a checked "rate" object."""
    return Rate(step_duration_ns=r["step_duration_ns"], batch=r.get("batch"),
                buffer=r.get("buffer"), line=r.get("line"), refine=r.get("refine"),
                rates=tuple(r["rates"]), steps=tuple(_step(s) for s in r["steps"]),
                capacity=tuple(_capacity(c) for c in r["capacity"]))


def of(doc: Doc) -> Rate | None:
    """A document's rate section (a rate document's), else None."""
    r = doc.sections.get(SECTION)
    return r if isinstance(r, Rate) else None
