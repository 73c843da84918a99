# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench gaps: RT throttling's gaps in a busy SCHED_FIFO loop toggling a
GPIO line, every interval between two toggles timed; its "gaps" object
(model.py), the suite's table, the report's section (figures: rig/report/gaps.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import board
from ..base import GAPS_VARIANT, BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from ..options import Opts
from . import model

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Row, Run
    from rig.results.text import TextTable

NAME = "gaps"


def text_table(runs: list[Run], board: str = "x86") -> TextTable:
    """kernel x load x setting: the longest interval, gaps per second, time stalled,
    and what RT throttling should leave (period - runtime every period)."""
    from rig.results.text import KERNELS, LOADS, Column, TextTable

    t = TextTable(["Scheduler gaps of a busy SCHED_FIFO loop toggling a GPIO line "
                   "(udrv-bench gaps; a gap: an interval >= its threshold)"],
                  [Column("kernel", 8), Column("load", 6), Column("sched_rt_runtime_us", 20, ">"),
                   Column("longest ms", 12, ">"), Column("gaps/s", 8, ">"),
                   Column("stalled %", 11, ">"), Column("expected", 0, "<", "  ")])
    for kernel in KERNELS:
        for load in LOADS:
            for run in runs:
                if (run.board_name, run.kernel, run.load) != (board, kernel, load) or \
                        run.variant not in ("", GAPS_VARIANT):
                    continue
                for doc in run.docs:
                    g = model.of(doc)
                    if doc.bench == NAME and g is not None:
                        t.rows.append(_line(kernel, load, g, doc.rows[0]))
    return t


def _line(kernel: str, load: str, g: model.Gaps, row: Row) -> list[str]:
    from rig.results.text import load_name

    longest = max(g.longest_ns, row.stats.max) / 1e6
    expected = "none (not throttled)"
    if g.expected_gap_ns:
        expected = f"{g.expected_gap_ns / 1e6:.1f} ms every {g.sched_rt_period_us / 1e6:g} s"
    return [kernel, load_name(load), str(g.sched_rt_runtime_us), f"{longest:.3f}",
            f"{g.per_s:.2f}", f"{g.stalled_pct:.2f}", expected]


def check(g: model.Gaps, doc: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """What the schema cannot say (@rebuilt, from LAVA's test cases: no timeline)."""
    from rig.results.check import need

    timeline = g.timeline
    need((rebuilt and not timeline) or len(timeline) + g.timeline_dropped == g.count,
         f"{where}: {len(timeline)} gaps listed + {g.timeline_dropped} dropped, "
         f"count says {g.count}")
    starts = [x.start_ns for x in timeline]
    need(starts == sorted(starts), f"{where}: timeline out of order")
    need(all(x.gap_ns >= g.threshold_ns for x in timeline),
         f"{where}.timeline: a gap < threshold_ns {g.threshold_ns}")
    if g.count:
        need(g.longest_ns >= g.threshold_ns, f"{where}: longest below threshold")
    need(g.stalled_ns <= g.duration_ns, f"{where}: stalled longer than the run")


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import gaps, html

    found = gaps.documents(runs)
    if not found:
        return None
    s = html.Section("gaps", "Scheduler gaps (RT throttling)")
    s.body.append(html.para("A busy SCHED_FIFO loop toggling a GPIO line, every interval "
                            "between two toggles timed (udrv-bench gaps), at the kernel's RT "
                            "throttling and with it off (--rt-runtime -1).", "note"))
    for fig_id, png, caption in (
            ("gaps-histogram", gaps.histogram(found),
             "Every interval between two toggles, log-log: the toggles at a few \u00b5s, "
             "RT throttling's gaps at tens of ms"),
            ("gaps-timeline", gaps.timeline(found),
             "Each gap against its start in the run")):
        figs.add_to(s, fig_id, png, caption)
    s.body.append(html.table(gaps.table(found)))
    return s


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """gpio-wire's line, the wire's output, GPIO 17 on bcm2835 or rp1, else --no-line
    (the clock only): every board."""
    opts = board.line(feats, w.loop)
    return ("--no-line",) if opts is None else opts, ""


# guest seconds per run; its loop toggles a line (default: gpio-wire's); the
# plan runs it after the plain runs, with the kernel's RT throttling (in the
# plain run) and without (GAPS_VARIANT)
PLAN = PlanSpec(_board, {"full": ("--duration", "5s"), "quick": ("--duration", "3s")},
                plain=False)
SPEC = BenchSpec(NAME, section=model.SECTION, parse=model.parse, check=check, own_rows=True,
                 plan=PLAN,
                 tables=(TextTableSpec("gaps", text_table, 50),),
                 report=ReportSpec(70, report_section))
