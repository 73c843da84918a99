# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench rate: the interrupt rate capacity, a source that counts what it raises swept
over offered rates per mechanism and receiver; its "rate" object (model.py), its checks,
the suite's table, the report's section (figures: rig/report/rate.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import board
from ..base import RATE_PRIORITY, BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from . import model

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Run
    from rig.results.text import TextTable

NAME = "rate"
UNKNOWN = "?"  # a receiver a rebuilt document does not know (rig.results.check.UNKNOWN)


def text_table(runs: list[Run], board: str | None = None) -> TextTable:
    """kernel x load x receiver: the knee, CPU there, throughput, ns per event."""
    from rig.results.text import Column, TextTable

    t = TextTable(["Interrupt rate capacity (udrv-bench rate; knee: the highest offered "
                   "rate with nothing lost at the source, received/s >= 95% of offered/s;",
                   "vs raw: CPU per event over the bare read() at one rate for both, at/s: "
                   "the highest raw kept up with, neither preempted)"],
                  [Column("kernel", 7), Column("load", 13), Column("mechanism", 12),
                   Column("impl", 14), Column("knee/s", 9, ">"), Column("CPU %", 7, ">"),
                   Column("max rx/s", 10, ">"), Column("ns/event", 10, ">"),
                   Column("vs raw", 8, ">"), Column("at/s", 9, ">")])
    for run in runs:
        if run.variant not in ("", RATE_PRIORITY) or board not in (None, run.board_name):
            continue
        for doc in run.docs:
            r = model.of(doc)
            if doc.bench == NAME and r is not None:
                t.rows += [_line(run, c) for c in r.capacity]
    return t


def _line(run: Run, c: model.Capacity) -> list[str]:
    from rig.results.text import times

    def num(v: float | None, fmt: str) -> str:
        return "-" if v is None else format(v, fmt)

    head = [run.kernel, run.variant.replace(" ", "-") if run.variant else run.load,
            c.mechanism, c.implementation]
    if not c.measured:
        return [*head, "absent"]
    return [*head, num(c.knee_per_s, ".0f"), num(c.cpu_pct_at_knee, ".1f"),
            num(c.throughput_per_s, ".0f"), num(c.ns_per_event, ".0f"),
            times(c.ratio_vs_raw, 2) or "-", num(c.ratio_at_per_s, ".0f")]


def check(rate: model.Rate, doc: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """Each step's accounting, each receiver's knee and throughput from its steps
    (@rebuilt, from LAVA's test cases: receivers "?", not matched)."""
    from rig.results.check import need

    need(list(rate.rates) == sorted(set(rate.rates)), f"{where}.rates: not ascending")
    for k, s in enumerate(rate.steps):
        w = f"{where}.steps[{k}] ({s.mechanism}/{s.implementation} {s.target_per_s}/s)"
        need(s.target_per_s in rate.rates or s.refined, f"{w}: not a rate asked for")
        need(s.received <= s.source_count, f"{w}: more received than the source made")
        need(s.lost == s.source_count - s.received, f"{w}: lost != made - received")
        need(s.kernel_dropped <= s.lost + s.received, f"{w}: kernel_dropped")
        need(s.reads <= s.received and s.samples <= s.received,
             f"{w}: more reads or samples than events received")
        need(0 < s.duration_ns <= s.elapsed_ns, f"{w}: elapsed_ns < duration_ns")
        if s.samples:
            need(s.p50_ns <= s.p99_ns <= s.max_ns, f"{w}: p50/p99/max out of order")
        if s.sched_counted and s.implementation != UNKNOWN:  # 12-2026
            peer = s.implementation == "libgpiod-2.3"
            need((s.preempted is None) == (s.slept is None) == peer,
                 f"{w}: preempted/slept are counted for in-process receivers only")
    for k, c in enumerate(rate.capacity):
        w = f"{where}.capacity[{k}] ({c.mechanism}/{c.implementation})"
        if rebuilt and UNKNOWN in (c.mechanism, c.implementation):
            continue
        mine = [s for s in rate.steps
                if (s.mechanism, s.implementation) == (c.mechanism, c.implementation)]
        need(c.measured == bool(mine), f"{w}: measured is {c.measured}")
        zero = [s.offered_per_s for s in mine if s.lost == 0 and s.source_count
                and s.received_per_s >= 0.95 * s.offered_per_s]
        need(c.knee_per_s == (max(zero) if zero else None),
             f"{w}: knee_per_s {c.knee_per_s} is not its steps' knee")
        if mine:
            need(c.throughput_per_s == max(s.received_per_s for s in mine),
                 f"{w}: throughput_per_s is not its steps' highest received_per_s")
        if c.implementation == "raw" and c.ns_per_event:
            need(c.ratio_vs_raw == 1.0, f"{w}: the raw receiver's ratio_vs_raw is not 1")
        at_rate = c.ratio_at_per_s
        if at_rate is not None:  # a rate both took, neither preempted
            at = [s for s in rate.steps if s.target_per_s == at_rate
                  and s.mechanism == c.mechanism
                  and s.implementation in ("raw", c.implementation)]
            need(bool(at) and all(s.preempted is None or s.preempted * 100 <= s.received
                                  for s in at),
                 f"{w}: ratio_at_per_s {at_rate}: no such step, or preempted there")


def receivers(rate: model.Rate) -> list[tuple[str, str]]:
    """(place, implementation) of each step: the rows measured beside the bench's own."""
    return [(f"steps[{k}]", s.implementation) for k, s in enumerate(rate.steps)]


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import html
    from rig.report import rate as rate_sweep

    found = rate_sweep.documents(runs)
    if not found:
        return None
    s = html.Section("rate", "Interrupt rate capacity")
    s.body.append(html.para("A source that counts what it raises (gpio-wire's generator, "
                            "uio-ticker) swept over offered rates; per mechanism and receiver "
                            "what was received and what was lost at the source "
                            "(udrv-bench rate).", "note"))
    for fig_id, png, caption in (
            ("rate-received", rate_sweep.received(found),
             "Events received per second against the rate offered"),
            ("rate-lost", rate_sweep.lost(found),
             "Share of the source's events lost, against the rate offered")):
        figs.add_to(s, fig_id, png, caption)
    s.body.append(html.table(rate_sweep.table(found)))
    return s


# the capacity sweep (issue 12): its default sweep (8 rates x 50 ms per
# receiver), --quick a short one; on rt also above the irq threads; the plan
# runs it after the plain runs
PLAN = PlanSpec(board.needs("gpio-wire", why="needs gpio-wire (its edge generator; the UIO "
                            "rows uio-ticker)"),
                {"full": (), "quick": ("--rates", "2k,20k,200k", "--step-duration", "20ms")},
                priority=(RATE_PRIORITY,), plain=False)
SPEC = BenchSpec(NAME, section=model.SECTION, parse=model.parse, check=check, plan=PLAN,
                 receivers=receivers, own_rows=True,
                 tables=(TextTableSpec("rate", text_table, 60),),
                 report=ReportSpec(80, report_section))
