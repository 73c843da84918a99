# SPDX-License-Identifier: GPL-2.0-only
"""The responder figure and table (udrv-bench reply: Grandegger's gpioirqbench
responders and Featherston's TS-4200 user-space inverter, docs/references.md):
trigger -> reply as the log host sees it, per responder, std vs rt, idle vs load.

A group is one results file and board's runs that have reply rows: the
plain ones, then the priority axis's (rt, the responders below their irq
threads, at SCHED_OTHER); a figure and a table per group, and where the
runs have `udrv-bench reply --breakdown`'s stages, a stacked bar per
responder and run: where its median traced reply's time went, each traced
event's own cost taken off, with the untraced p50 it must match as a tick.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt

from rig.bench.reply.model import Entry
from rig.bench.reply.model import of as breakdown_of
from rig.bench.reply.spec import REPLY_ROWS
from rig.results.measures import measure

from . import figcheck
from .fmt import us, us1
from .model import RowKey, Run
from .plots import _png
from .tables import Cell, Table, num

SAMPLE = "trigger_to_reply"
RESPONDERS: tuple[tuple[str, str | None], ...] = REPLY_ROWS
ROWS: tuple[RowKey, ...] = tuple(("reply", "gpio", impl, wait, SAMPLE)
                                 for impl, wait in RESPONDERS)
# colour per kernel (and priority-axis variant), hatch per load
COLORS = {"std": "#2471a3", "rt": "#c0392b"}
VARIANT_COLORS = ("#e67e22", "#7f8c8d", "#8e44ad")


# the breakdown's stages by the mark they end at (rig/bench/reply/breakdown.h), in
# the order of a reply, each with a colour and what it is
MARKS: tuple[tuple[str, str, str], ...] = (
    ("ipi", "#95a5a6", "gpio-wire's self-IPI"),
    ("b_hardirq", "#f1c40f", "B's hardirq"),
    ("b_thread", "#e67e22", "B's irq thread runs"),
    ("b_thread_s", "#d35400", "B's second irq thread runs"),
    ("responder", "#8e44ad", "the responder runs"),
    ("reply", "#27ae60", "C written (the reply)"),
    ("helper_write", "#16a085", "C written by udrv-irq in the responder's next wait call"),
    ("d_hardirq", "#2980b9", "D's hardirq"),
    ("d_thread", "#1abc9c", "D's irq thread runs"),
    ("timestamp", "#34495e", "D's event timestamp"),
)


@dataclass
class Group:
    name: str
    runs: list[Run]  # std idle, std load, rt idle, rt load, rt variants (those present)

    @property
    def keys(self) -> list[RowKey]:
        return [k for k in ROWS if any(r.row(k) for r in self.runs)]


def _order(r: Run) -> tuple[int, int, int]:
    """Plain runs by kernel and load, then the variants as the file has them."""
    return (1 if r.variant else 0, {"std": 0, "rt": 1}.get(r.kernel, 2),
            0 if r.load == "none" else 1)


def groups(runs: list[Run]) -> list[Group]:
    """Per source file and board: the runs with reply rows."""
    out: dict[tuple[str, str], list[Run]] = {}
    for r in runs:
        if not any(x.key in ROWS for x in r.rows):
            continue
        out.setdefault((r.source, r.board_name), []).append(r)
    return [Group(f"{board}" if len(out) == 1 else f"{src}: {board}", sorted(rs, key=_order))
            for (src, board), rs in out.items()]


def _name(key: RowKey) -> str:
    return key[2] + (f"/{key[3]}" if key[3] else "")


def figure(g: Group) -> bytes | None:
    """p50 bars per responder and run; p99 as a black tick, max as a grey one."""
    keys = g.keys
    if not keys:
        return None
    n = len(g.runs)
    variants = [r.variant for r in g.runs if r.variant]
    fig, ax = plt.subplots(figsize=(8.5, 0.45 * n * len(keys) + 1.4))
    figcheck.declare(fig, *(measure(x) for run in g.runs for k in keys
                            if (x := run.row(k)) is not None))
    height = 0.8 / n
    # the axis ends past the largest p99; a maximum beyond it is a marker there
    lim = 1.3 * max((r.stats.p99 for run in g.runs for k in keys
                     if (r := run.row(k)) is not None and r.stats.count), default=1) / 1000
    for i, run in enumerate(g.runs):
        for y, key in enumerate(keys):
            row = run.row(key)
            if row is None or not row.stats.count:
                continue
            s = row.stats
            pos = y + (i - (n - 1) / 2) * height
            ax.barh(pos, s.p50 / 1000, height=height * 0.9,
                    color=VARIANT_COLORS[variants.index(run.variant) % 3] if run.variant
                    else COLORS.get(run.kernel, "#7f8c8d"),
                    hatch="//" if run.load != "none" else None, edgecolor="white",
                    label=run.label if y == 0 else None)
            for v, colour in ((s.p99, "black"), (s.max, "#888888")):
                if v / 1000 > lim:
                    ax.plot([lim], [pos], marker=">", color=colour, markersize=4)
                    ax.text(lim, pos, f"max {us(v)} ", va="center", ha="right", fontsize=6)
                    continue
                ax.plot([v / 1000] * 2, [pos - height * 0.4, pos + height * 0.4],
                        color=colour, linewidth=1)
            ax.text(s.p50 / 1000, pos, f" {us(s.p50)}", va="center", fontsize=7)
    ax.set_xlim(0, lim)
    ax.set_yticks(range(len(keys)), [_name(k) for k in keys], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("trigger \u2192 reply, p50 (\u00b5s); black tick p99, grey tick max "
                  "(\u25b6: beyond the axis)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(f"{g.name}: responders (interrupt handler, kernel thread, user task)",
                 fontsize=9)
    fig.tight_layout()
    return _png(fig)


def table(g: Group) -> Table:
    t = Table(f"table-reply-{len(g.name)}-{g.name.replace(' ', '-')}",
              f"Responders, {g.name}: trigger \u2192 reply p50/p99/max in \u00b5s",
              [[("responder", 1), ("wait", 1)] + [(r.label, 1) for r in g.runs]])
    for key in g.keys:
        line = [Cell(key[2]), Cell(key[3] or "-")]
        for run in g.runs:
            row = run.row(key)
            s = row.stats if row else None
            line.append(num(f"{us1(s.p50)}/{us1(s.p99)}/{us1(s.max)}" if s and s.count
                            else "-"))
        t.rows.append(line)
    t.note = ("The log host drives A and reads D's edge events; the responder writes C = !B "
              "(gpio-reply's hard interrupt handler, its irq thread, or a udrv process "
              "waiting by read/poll/epoll or busy-polling B). Runs with a variant are the "
              "priority axis: the irq threads raised above the bench (irq-prio), or the "
              "bench at SCHED_OTHER.")
    return t


def _bd_entries(run: Run) -> list[Entry]:
    return [e for d in run.docs if d.bench == "reply" for e in breakdown_of(d)]


def breakdown_figure(g: Group) -> bytes | None:
    """A stacked bar per responder and run with a breakdown: each stage
    coloured by the mark it ends at; the untraced p50 as a black tick and
    the ratio of the two at the bar's end."""
    bars = [(run, e) for (impl, wait) in RESPONDERS for run in g.runs
            for e in _bd_entries(run) if (e.implementation, e.wait) == (impl, wait)]
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(bars) + 1.8))
    figcheck.declare(fig, "time (ns)")
    colours = {m: c for m, c, _ in MARKS}
    seen: set[str] = set()
    lim = 1.2 * max(max(e.total_ns, e.untraced_p50_ns) for _, e in bars) / 1000
    for y, (_, e) in enumerate(bars):
        left = 0.0
        for st in e.stages:
            mark = st.mark
            label = None if mark in seen else next(t for m, _, t in MARKS if m == mark)
            seen.add(mark)
            ax.barh(y, st.ns / 1000, left=left, height=0.75,
                    color=colours.get(mark, "#7f8c8d"), edgecolor="white", linewidth=0.5,
                    label=label)
            left += st.ns / 1000
        p50 = e.untraced_p50_ns / 1000
        ax.plot([p50] * 2, [y - 0.45, y + 0.45], color="black", linewidth=1.2)
        ax.text(max(left, p50), y, f" \u00d7{e.ratio:.2f}" if e.ratio else "",
                va="center", fontsize=7)
    ax.set_xlim(0, lim)
    names = [f"{e.name} ({run.label})" for run, e in bars]
    ax.set_yticks(range(len(bars)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("median traced reply, each event's cost taken off (\u00b5s); "
                  "black tick: the untraced p50")
    ax.grid(True, axis="x", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    order = [t for _, _, t in MARKS if t in labels]
    ax.legend([handles[labels.index(t)] for t in order], order, fontsize=6,
              loc="lower right", ncol=2, title="each stage: until", title_fontsize=6)
    ax.set_title(f"{g.name}: where a reply's time goes (ftrace, udrv-bench reply --breakdown)",
                 fontsize=9)
    fig.tight_layout()
    return _png(fig)
