# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pwm: pulse width and period errors read from the wire's edges, for
a hardware PWM (the lab's pwm-fixture), udrv's software PWM (default, tuned,
with a busy-wait tail) and lgpio's (default, tuned) in turns in one run; its
"pwm" object (model.py) and what the schema cannot say of it, the suite's tables,
the report's section (figures: rig/report/pwm.py)."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .. import board
from ..base import BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from ..options import count
from . import model

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Row, Run
    from rig.results.text import TextTable

TITLE = ["PWM pulse width error on the wire: |width - asked| per pulse, us p50/p99/max, "
         "and the pulses missing (udrv-bench pwm: each generator in turn drives gpio-wire's "
         "line 0,",
         "the kernel's timestamps of the edges on line 1 give every pulse; hw: the "
         "pwm-fixture's hrtimer, the kernel's reference; udrv: libudrv's software PWM as a "
         "program starts it, tuned: SCHED_FIFO 90 on one CPU with memory locked, tail: and a "
         "50 us busy-wait before each edge; lgpio 0.2.2.0's tx_servo/tx_pwm as its user runs "
         "it, and tuned alike. servo: 1.5 ms at 50 Hz; 1khz: 500 us of 1 ms. Under icount: "
         "instruction counts, not silicon)"]
WAVES = ("servo", "1khz")
GENERATORS = ("hw", "udrv", "udrv-tuned", "udrv-tail", "lgpio", "lgpio-tuned")
# the ratios the targets name: udrv tuned (with its tail and
# without) against lgpio as its user runs it, and against lgpio tuned alike
TARGETS = (("udrv-tuned", "lgpio"), ("udrv-tuned", "lgpio-tuned"), ("udrv-tail", "lgpio"),
           ("udrv-tail", "lgpio-tuned"))


def cell(row: Row | None) -> list[str]:
    """A width row's cells: p50/p99/max in us, the pulses missing."""
    from rig.results.text import p50_p99_max

    if row is None:
        return ["-", ""]
    missing = row.loss["lost"] if row.loss else 0
    return [p50_p99_max(row), f"{missing}"]


def ratio(rows: dict[tuple[object, ...], Row], wave: str, a: str, b: str) -> str:
    """@a's p99 width error against @b's in one run's @rows (keyed as
    bench_rows() keys them); "" without either."""
    ra = rows.get((wave, a, None, "width-error"))
    rb = rows.get((wave, b, None, "width-error"))
    if ra is None or rb is None or not ra.stats.p99:
        return ""
    return f"{wave} {a} {ra.stats.p99 / 1000:.1f} us vs {b} {rb.stats.p99 / 1000:.1f} us " \
           f"(x{rb.stats.p99 / ra.stats.p99:.1f})"


def text_table(runs: list[Run], board: str = "x86") -> TextTable:
    from rig.results.text import KERNELS, Column, TextTable, bench_rows, load_name, plain_runs

    by_run = bench_rows(plain_runs(runs, board), "pwm")
    cols_of = [(k, load) for k in KERNELS for load in ("none", "all") if (k, load) in by_run]
    cols = [Column("wave", 6), Column("generator", 12)]
    for k, load in cols_of:
        cols += [Column(f"{k} {load_name(load)} us", 18, ">", "  "), Column("miss", 5, ">")]
    t = TextTable(TITLE, cols)
    for wave in WAVES:
        for gen in GENERATORS:
            line = [wave, gen]
            for kl in cols_of:
                line += cell(by_run[kl].get((wave, gen, None, "width-error")))
            if any(c not in ("-", "") for c in line[2:]):
                t.rows.append(line)
    for k, load in cols_of:
        said = [s for w in WAVES for a, b in TARGETS
                if (s := ratio(by_run[(k, load)], w, a, b))]
        if said:
            t.footer.append(f"p99 {k} {load_name(load)}: " + "; ".join(said))
    return t


CPU_TITLE = ["PWM generators' CPU time, % of the run (udrv-bench pwm: each software "
             "generator's process from its PWM's start to its stop, idle and under the all load;",
             "udrv-tail spins 50 us before each edge: 2 x 50 us of every period)"]


def cpu_table(runs: list[Run], board: str = "x86") -> TextTable:
    from rig.results.text import KERNELS, Column, TextTable, load_name, plain_runs

    cols_of: list[tuple[str, str]] = []
    cpu: dict[tuple[str, str, str, str], float] = {}
    for run in plain_runs(runs, board):
        for doc in run.docs:
            section = model.of(doc)
            if section is None:
                continue
            if (run.kernel, run.load) not in cols_of:
                cols_of.append((run.kernel, run.load))
            for r in section.runs:
                if r.cpu_percent is not None:
                    cpu[(run.kernel, run.load, r.waveform, r.implementation)] = r.cpu_percent
    cols_of = [(k, load) for k in KERNELS for load in ("none", "all") if (k, load) in cols_of]
    cols = [Column("wave", 6), Column("generator", 12)]
    cols += [Column(f"{k} {load_name(load)} %", 12, ">") for k, load in cols_of]
    t = TextTable(CPU_TITLE, cols)
    for wave in WAVES:
        for gen in GENERATORS[1:]:
            cells = [cpu.get((k, load, wave, gen)) for k, load in cols_of]
            if any(c is not None for c in cells):
                t.rows.append([wave, gen, *("-" if c is None else f"{c:.2f}" for c in cells)])
    return t


def check(p: model.Pwm, doc: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """Each run's timeline is its width-error row's samples, signed, in order:
    listed + dropped = the pulses measured, and their largest |error| the
    row's max (at most, when some were dropped). @rebuilt, from LAVA's test
    cases: no timeline."""
    from rig.results.check import need

    widths = {(r["mechanism"], r["implementation"]): r["stats"] for r in doc["rows"]
              if r["sample"] == "width-error"}
    for i, run in enumerate(p.runs):
        at = f"{where}.runs[{i}]"
        tl = run.timeline
        need((rebuilt and not tl) or len(tl) + run.timeline_dropped == run.wire.pulses,
             f"{at}: {len(tl)} pulses listed + {run.timeline_dropped} dropped, "
             f"wire.pulses says {run.wire.pulses}")
        need(all(a.start_ns < b.start_ns for a, b in pairwise(tl)),
             f"{at}.timeline: out of order")
        stats = widths.get((run.waveform, run.implementation))
        need(stats is not None and stats["count"] == run.wire.pulses,
             f"{at}: {run.wire.pulses} pulses measured, its width-error row has "
             f"{stats['count'] if stats else 'no'} samples")
        if tl and stats is not None:
            worst = max(abs(x.error_ns) for x in tl)
            need(worst == stats["max"] or (run.timeline_dropped and worst < stats["max"]),
                 f"{at}.timeline: largest |error_ns| {worst}, its width-error row's "
                 f"max {stats['max']}")


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import html, pwm

    found = pwm.documents(runs)
    if not found:
        return None
    s = html.Section("pwm", "PWM pulses on the wire")
    s.body.append(html.para(
        "Each generator in turn drives gpio-wire's line 0 for the same periods; the kernel's "
        "timestamps of the edges on line 1 give every pulse (udrv-bench pwm). hw: the "
        "pwm-fixture's hrtimer, the kernel's reference; udrv: libudrv's software PWM as a "
        "program starts it, tuned: SCHED_FIFO on one CPU with memory locked, tail: and a "
        "busy-wait before each edge; lgpio: lgpio's tx_servo/tx_pwm as its user runs it, "
        "and tuned alike.", "note"))
    for wave in WAVES:
        figs.add_to(s, f"pwm-histogram-{wave}", pwm.histogram(found, wave),
                    f"{wave}: every pulse's |width error|, log-log, a panel per generator "
                    "(an exact width at 0.5 ns)")
        figs.add_to(s, f"pwm-timeline-{wave}", pwm.timeline(found, wave),
                    f"{wave}, rt under load: each pulse's width error, signed, against its "
                    "start in the run (the first 1000 pulses of a run)")
    if not pwm.has_timeline(found):
        s.body.append(html.para("No run of the rt kernel under the all load here: no "
                                "timeline.", "note"))
    s.body.append(html.table(pwm.table(found)))
    return s


SPEC = BenchSpec("pwm", section=model.SECTION, parse=model.parse, check=check, own_rows=True,
                 tables=(TextTableSpec("pwm", text_table, 76),
                         TextTableSpec("pwm-cpu", cpu_table, 77)),
                 report=ReportSpec(95, report_section),
                 plan=PlanSpec(board.loopback, count(200, 50)))
