# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply: trigger to reply as a log host sees it, per responder; with
--breakdown its "breakdown" list (model.py) and the checks that it explains the
measured latency; its table (tables.py: the priority axis's runs join it) and the
report's section (figures: rig/report/reply.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import board
from ..base import PRIORITY_VARIANTS, BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from ..options import Opts, count
from . import model

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Run
    from rig.results.text import TextTable

NAME = "reply"
# udrv-bench reply's responders, in the order of Grandegger's gpioirqbench table
REPLY_ROWS = (("isr", None), ("kthread", None), ("user", "read"), ("user", "poll"),
              ("user", "epoll"), ("user", "busy"), ("lib", "read"), ("lib", "busy"),
              ("lib", "irq"), ("lib", "irq-reply"))
# how far the traced reply may be from the untraced p50 for its stages to
# explain it (the 5%)
TOLERANCE = 0.05


def within(e: model.Entry, tolerance: float = TOLERANCE) -> bool:
    """Does the traced reply's total match the untraced p50 within @tolerance?"""
    p50 = e.untraced_p50_ns
    return p50 > 0 and abs(e.total_ns - p50) <= tolerance * p50


def check_matches(e: model.Entry, tolerance: float = TOLERANCE) -> None:
    """The rule a breakdown must meet to explain the measured latency: its
    stages sum to the traced total, and that is the untraced p50 within
    @tolerance; rig.results.schema.Invalid naming the numbers otherwise."""
    from rig.results.check import need

    total = sum(s.ns for s in e.stages)
    need(total == e.total_ns,
         f"breakdown {e.name}: the stages add up to {total} ns, the reply took "
         f"{e.total_ns} ns")
    ratio = e.total_ns / max(1, e.untraced_p50_ns)
    what = ("the traced reply, each event's cost taken off," if e.costs is not None
            else "the traced reply")
    need(within(e, tolerance),
         f"breakdown {e.name}: {what} took {e.total_ns} ns, the untraced "
         f"p50 is {e.untraced_p50_ns} ns (x{ratio:.3f}): more than "
         f"{tolerance:.0%} apart")


def check(breakdown: model.Breakdown, doc: dict[str, Any], where: str,
          rebuilt: bool = False) -> None:
    """Each entry's stages are contiguous (they add up to the traced reply's
    total exactly) and none is negative; its untraced p50 is its
    trigger_to_reply row's; the ratio and the 5% verdict are its numbers'."""
    from rig.results.check import need

    p50 = {(r["implementation"], r["wait"]): r["stats"]["p50"] for r in doc["rows"]
           if r["sample"] == "trigger_to_reply"}
    seen = set()
    for i, e in enumerate(breakdown):
        at = f"{where}[{i}]"
        key = (e.implementation, e.wait)
        need(key not in seen, f"{at}: {key} twice")
        seen.add(key)
        for k, s in enumerate(e.stages):
            need(s.ns >= 0, f"{at}.stages[{k}]: {s.name} is {s.ns} ns, negative")
        total = sum(s.ns for s in e.stages)
        need(total == e.total_ns, f"{at}: the stages add up to {total} ns, "
             f"total_ns is {e.total_ns}: they must be contiguous")
        need(key in p50, f"{at}: no trigger_to_reply row of {key[0]}"
             f"{'/' + key[1] if key[1] else ''} for its untraced p50")
        need(e.untraced_p50_ns == p50[key], f"{at}: untraced_p50_ns "
             f"{e.untraced_p50_ns}, its row's p50 is {p50[key]}")
        ratio = e.total_ns / e.untraced_p50_ns if e.untraced_p50_ns else None
        need(ratio is None if e.ratio is None else
             ratio is not None and abs(e.ratio - ratio) <= 1e-3 * ratio,
             f"{at}: ratio {e.ratio}, but total_ns / untraced_p50_ns is {ratio}")
        need(e.within_5pct == within(e),
             f"{at}: within_5pct {e.within_5pct}, but the total is x{ratio} the "
             "untraced p50")
        if (e.costs, e.traced_total_ns, e.cost_edges) != (None, None, None):
            check_costs(e, at)
        need((e.probe_ns is None) == (e.probes_in_reply is None),
             f"{at}: probe_ns and probes_in_reply come together")
        need(e.probe_ns is None or e.implementation in ("user", "lib"),
             f"{at}: probe_ns of {e.implementation}: only a process's timestamps are measured")


def check_costs(e: model.Entry, at: str) -> None:
    """The costs taken off a breakdown: all three fields or none; no more taken
    off than the reply took; each event type once, its cost its own run's
    p50 minus the untraced p50 (0 when below) per event inside a reply."""
    from rig.results.check import need

    missing = [name for name, v in (("cost_edges", e.cost_edges), ("costs", e.costs),
                                    ("traced_total_ns", e.traced_total_ns)) if v is None]
    need(not missing, f"{at}: costs taken off without {', '.join(missing)}")
    assert e.costs is not None and e.traced_total_ns is not None
    need(e.total_ns <= e.traced_total_ns,
         f"{at}: total_ns {e.total_ns} with the costs taken off is more than the "
         f"traced reply's {e.traced_total_ns}")
    events = [c.event for c in e.costs]
    need(len(set(events)) == len(events), f"{at}.costs: an event type twice: {events}")
    for k, c in enumerate(e.costs):
        extra = max(0, c.traced_p50_ns - e.untraced_p50_ns)
        want = extra / c.per_reply if c.per_reply > 0 else 0.0
        need(abs(c.ns - want) <= max(1.0, 1e-3 * want),
             f"{at}.costs[{k}]: {c.event} costs {c.ns} ns, but its run's p50 "
             f"{c.traced_p50_ns} ns is {extra} ns over the untraced p50 with "
             f"{c.per_reply} events a reply: {want:.1f} ns each")


def reply_table(runs: list[Run], board: str = "x86") -> TextTable:
    from .tables import reply_table

    return reply_table(runs, board)


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import html, reply

    found = reply.groups(runs)
    if not found:
        return None
    s = html.Section("reply", "Responders (udrv-bench reply)")
    s.body.append(html.para("Trigger to reply as a log host sees it: the interrupt handler, "
                            "the kernel's irq thread (rig/kernel/gpio-reply) and a user task, "
                            "standard kernel vs PREEMPT_RT, idle vs load.", "note"))
    for i, g in enumerate(found):
        figs.add_to(s, f"reply-{i}", reply.figure(g),
                    f"{g.name}: trigger \u2192 reply p50 per responder, p99 and max as ticks")
        s.body.append(html.table(reply.table(g)))
        figs.add_to(s, f"reply-breakdown-{i}", reply.breakdown_figure(g),
                    f"{g.name}: each responder's median traced reply split into its stages "
                    "(edge \u2192 hardirq \u2192 threads \u2192 responder \u2192 reply "
                    "\u2192 wire), the untraced p50 as a tick")
    return s


# the responders of a board without rig/kernel/gpio-reply
PROCESS_RESPONDERS = ("--responder", "user,lib")
# reply's responders above the log host (FIFO 80: udrv-bench's default -P)
REPLY_ABOVE_LOG_HOST = ("--target-prio", "85")


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """gpio-wire's lines 4-7 (the bench's defaults) or the reply jumpers; the
    kernel responders only where gpio-reply is loaded."""
    resp = () if "gpio-reply" in feats else PROCESS_RESPONDERS
    if "gpio-wire" in feats:
        return resp, ""
    if w.reply is not None:
        return w.reply.opts + resp, ""
    return None, ("no reply wiring: gpio-wire, or a udrv-reply-wire (two jumpers, A to B "
                  "and C to D)")


# irq-prio 90: the responders above the log host too (FIFO 85 over its 80), as
# gpio-reply's kernel thread at 90 is: on one CPU a responder at the log
# host's priority waits until the log host blocks. Idle, its breakdown: a
# second, traced run of each responder (docs/rig/lab.md), where nothing else
# runs beside it
PLAN = PlanSpec(_board, count(2000, 200), loops=6, priority=PRIORITY_VARIANTS,
                variant_extra={PRIORITY_VARIANTS[0]: REPLY_ABOVE_LOG_HOST},
                idle=("--breakdown",))
SPEC = BenchSpec(NAME, section=model.SECTION, parse=model.parse, check=check, plan=PLAN,
                 tables=(TextTableSpec("reply", reply_table, 30),),
                 report=ReportSpec(60, report_section))
