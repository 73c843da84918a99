# SPDX-License-Identifier: GPL-2.0-only
"""The scheduler gaps (udrv-bench gaps; rig/lab/suite/qemu.py's run_gaps): a busy
SCHED_FIFO loop at the kernel's RT throttling (the plain runs) and without it
(runs with variant "rt-runtime -1").

Two figures: the histogram of every interval between toggles (log-log: the
toggles at ~1 us, the gaps at tens of ms), and the timeline (each gap's size
against its start in the run); and a table as the suite prints it.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from rig.bench.gaps.model import Gaps, of
from rig.results.measures import measure

from . import figcheck
from .model import Doc, Run
from .plots import Markers, _png, bucket_points, log_log
from .tables import Cell, Table, num

VARIANT_PREFIX = "rt-runtime"


def documents(runs: list[Run]) -> list[tuple[Run, Doc]]:
    """Every gaps document with its run, in the order of the runs."""
    return [(r, d) for r in runs for d in r.docs if d.bench == "gaps" and of(d)]


def _gaps(doc: Doc) -> Gaps:
    g = of(doc)
    assert g is not None, "documents() picks gaps documents"
    return g


def _setting(doc: Doc) -> str:
    runtime = _gaps(doc).sched_rt_runtime_us
    return "throttling off (-1)" if runtime < 0 else f"runtime {runtime} us"


def _label(run: Run, doc: Doc) -> str:
    base = run.label.replace(f" {run.variant}", "") if run.variant else run.label
    return f"{base}, {_setting(doc)}"


def _style(style: Markers, run: Run, doc: Doc) -> tuple[str, str]:
    """A colour per kernel and setting, a marker per load."""
    return style((run.kernel, _gaps(doc).throttling_off), run.load)


def histogram(found: list[tuple[Run, Doc]]) -> bytes | None:
    """Intervals between toggles per bucket, log x and log count axis."""
    if not found:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 4.2))
    figcheck.declare(fig, *(measure(doc.rows[0]) for _, doc in found))
    style = Markers()
    xs_all: list[float] = []
    ys_all: list[int] = []
    for run, doc in found:
        row = doc.rows[0]
        if not row.stats.buckets:
            continue
        color, marker = _style(style, run, doc)
        # the toggles at a few us, the gaps four decades of empty buckets away
        xs, ys = bucket_points(ax, row, color=color, marker=marker, markersize=4,
                               label=f"{_label(run, doc)}: max {row.stats.max / 1e6:.3f} ms")
        xs_all += xs
        ys_all += ys
    thresholds = {_gaps(d).threshold_ns for _, d in found}
    for t in thresholds:
        ax.axvline(t / 1000, color="grey", linestyle=":", linewidth=1)
    log_log(ax, xs_all, ys_all)
    ax.set_xlabel("interval between two toggles (\u00b5s); dotted: the gap threshold")
    ax.set_ylabel("intervals per bucket")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title("udrv-bench gaps: every interval of a busy SCHED_FIFO toggle loop",
                 fontsize=9)
    return _png(fig)


def timeline(found: list[tuple[Run, Doc]]) -> bytes | None:
    """Each gap's size against its start in the run; a run without gaps says so."""
    if not found:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    figcheck.declare(fig, *(measure(doc.rows[0]) for _, doc in found))
    style = Markers()
    for run, doc in found:
        g = _gaps(doc)
        xs = [x.start_ns / 1e9 for x in g.timeline]
        ys = [x.gap_ns / 1e6 for x in g.timeline]
        color, marker = _style(style, run, doc)
        ax.plot(xs, ys, color=color, linestyle="none", marker=marker, markersize=5,
                label=f"{_label(run, doc)}: {len(xs)} gaps" if xs else
                f"{_label(run, doc)}: no gap (longest interval "
                f"{doc.rows[0].stats.max / 1e3:.1f} \u00b5s)")
    ax.set_xlabel("start of the gap in the run (s)")
    ax.set_ylabel("gap (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_title("Each gap >= the threshold, when it began (RT throttling: "
                 "period - runtime, once a period)", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def table(found: list[tuple[Run, Doc]]) -> Table:
    t = Table("table-gaps", "Scheduler gaps: udrv-bench gaps",
              [[(h, 1) for h in ("run", "sched_rt_runtime_us", "longest (ms)", "gaps/s",
                                 "stalled %", "expected", "toggles (sent = on the wire)")]])
    for run, doc in found:
        g = _gaps(doc)
        row = doc.rows[0]
        longest = max(g.longest_ns, int(row.stats.max)) / 1e6
        expected = "none"
        if g.expected_gap_ns:
            expected = (f"{g.expected_gap_ns / 1e6:.1f} ms every "
                        f"{g.sched_rt_period_us / 1e6:g} s")
        wire = "-"
        if row.loss:
            wire = f"{row.loss['sent']} = {row.loss['received']}"
        t.rows.append([Cell(run.label), num(str(g.sched_rt_runtime_us)),
                       num(f"{longest:.3f}"), num(f"{g.per_s:.2f}"),
                       num(f"{g.stalled_pct:.2f}"), Cell(expected), num(wire)])
    t.note = ("A gap: an interval between two toggles of at least the bench's threshold "
              "(1 ms by default). RT throttling lets real-time tasks run "
              "sched_rt_runtime_us of every sched_rt_period_us and stops them for the rest.")
    return t
