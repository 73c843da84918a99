# SPDX-License-Identifier: LGPL-2.1-or-later
"""Real-time helpers and histograms: the package's side of udrv._udrv's
Rt, Histogram and the readiness report."""

from __future__ import annotations

from collections.abc import Sequence

from . import _udrv
from ._types import Policy, RtFinding, RtLevel, RtReport, RtState, RtThread


class Rt(_udrv.Rt):
    """Scheduling, locked memory, CPU affinity and /dev/cpu_dma_latency for
    the calling thread. A context manager: close() drops the dma-latency
    hold (scheduling, affinity and locked memory stay in force)."""

    __slots__ = ()

    def set_scheduler(self, policy: Policy | int, priority: int) -> None:
        """SCHED_FIFO or SCHED_RR at priority 1..99, or SCHED_OTHER at 0."""
        super().set_scheduler(int(policy), priority)

    @property
    def state(self) -> RtState:
        """What is in force for the calling thread, read back."""
        return RtState(*self._state())


class Histogram(_udrv.Histogram):
    """A latency histogram: ~3 significant digits from 1 ns to 2^36 ns
    (about 68.7 s; above: overflow), exact min/max/mean/stddev,
    percentiles. record() is O(1) and allocation-free."""

    __slots__ = ()

    def to_dict(self) -> dict[str, object]:
        """The fields of udrv's JSON histograms (docs/rig/results.md): count,
        min, avg, max, stddev, p50, p90, p99, p99_9, p99_99, overflow (ns)
        and buckets [[lo, hi, count], ...]."""
        empty = self.count == 0
        d: dict[str, object] = {
            "count": self.count,
            "min": self.min,
            "avg": self.mean,
            "max": self.max,
            "stddev": self.stddev,
        }
        for key, p in (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9),
                       ("p99_99", 99.99)):
            d[key] = 0 if empty else self.percentile(p)
        d["overflow"] = self.overflow
        d["buckets"] = [list(b) for b in self.buckets()]
        return d


def rt_check(priority: int | None = None, prefixes: Sequence[str] = ()) -> RtReport:
    """The readiness of this system for real-time work (udrv rt check).
    With priority (the application's SCHED_FIFO priority), a finding
    "priority" about the threads named by prefixes ("irq/24-",
    "uio-ticker"; none: every irq thread) it waits for."""
    t = _udrv._rt_check(priority, tuple(prefixes))
    return RtReport(
        release=t[0], version=t[1], preempt_model=t[2], realtime=t[3], rt_runtime_us=t[4],
        rt_period_us=t[5], governor=t[6], clocksource=t[7], isolcpus=t[8], nohz_full=t[9],
        irq_threads=t[10], irq_thread_prio_min=t[11], irq_thread_prio_max=t[12], can_rt=t[13],
        findings=tuple(RtFinding(RtLevel(f[0]), f[1], f[2]) for f in t[14]))


def rt_threads(prefix: str) -> list[RtThread]:
    """The threads whose name starts with prefix ("irq/24-"), with their
    policy and priority (-1: unreadable)."""
    return [RtThread(*t) for t in _udrv._rt_threads(prefix)]
