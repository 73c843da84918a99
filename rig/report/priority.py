# SPDX-License-Identifier: GPL-2.0-only
"""The priority axis (rig/lab/suite/qemu.py's run_priority): on PREEMPT_RT, the wake-up
benches with the application above the irq thread it waits for (the plain
run), below it (a run with variant "irq-prio N") and at SCHED_OTHER.

A group is one board's rt idle runs of one results file; a figure and a
table per group.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt

from rig.results.measures import measure

from . import figcheck
from .fmt import us, us1
from .model import RowKey, Run
from .plots import _png
from .tables import Cell, Table, num

ROWS: tuple[RowKey, ...] = (
    ("uio", "uio-ticker", "udrv", "read", "notify_to_wake"),
    ("uio", "uio-ticker", "udrv", "read", "expiry_to_wake"),
    ("uio", "edu", "udrv", "read", "write_to_wake"),
    ("irq", "cdev", "udrv", "read", "write_to_wake"),
    ("irq", "cdev", "udrv", "poll", "write_to_wake"),
    ("irq", "cdev", "udrv", "epoll", "write_to_wake"),
    ("pci", "uio-intx", "udrv", "read", "write_to_wake"),
    ("pci", "vfio-intx", "udrv", "poll", "write_to_wake"),
    ("pci", "vfio-msi", "udrv", "poll", "write_to_wake"),
)
COLORS = ("#c0392b", "#2471a3", "#7f8c8d")


@dataclass
class Group:
    name: str
    settings: list[tuple[str, Run]]  # (what the setting is, its run), the plain run first

    @property
    def keys(self) -> list[RowKey]:
        return [k for k in ROWS if any(r.row(k) for _, r in self.settings)]


def _setting(variant: str) -> str:
    if not variant:
        return "above its irq thread"
    if variant.startswith("irq-prio"):
        return f"below it ({variant})"
    return variant


def groups(runs: list[Run]) -> list[Group]:
    """Per source file and board: the rt idle run and its priority variants."""
    out = []
    for base in runs:
        if base.variant or base.kernel != "rt" or base.load != "none":
            continue
        alts = [r for r in runs if r.variant and not r.variant.startswith("rt-runtime") and
                r.source == base.source and
                r.kernel == base.kernel and r.lab_board == base.lab_board]
        if alts:
            out.append(Group(base.label, [(_setting(""), base)] +
                             [(_setting(r.variant), r) for r in alts]))
    return out


def figure(g: Group) -> bytes | None:
    """p50 bars per setting, p99 as a tick, per wake-up measurement."""
    keys = g.keys
    if not keys:
        return None
    n = len(g.settings)
    fig, ax = plt.subplots(figsize=(8.5, 0.55 * n * len(keys) + 1.2))
    figcheck.declare(fig, *(measure(x) for _, run in g.settings for k in keys
                            if (x := run.row(k)) is not None))
    height = 0.8 / n
    for i, (what, run) in enumerate(g.settings):
        for y, key in enumerate(keys):
            row = run.row(key)
            if row is None or not row.stats.count:
                continue
            pos = y + (i - (n - 1) / 2) * height
            ax.barh(pos, row.stats.p50 / 1000, height=height * 0.9, color=COLORS[i % 3],
                    label=what if y == 0 else None)
            ax.plot([row.stats.p99 / 1000] * 2, [pos - height * 0.4, pos + height * 0.4],
                    color="black", linewidth=1)
            ax.text(row.stats.p50 / 1000, pos, f" {us(row.stats.p50)}", va="center",
                    fontsize=7)
    ax.set_yticks(range(len(keys)),
                  [f"{k[0]}: {k[1]}/{k[3]} {k[4]}" for k in keys], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("p50 latency (\u00b5s); the black tick is p99")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"{g.name}: the application above its irq thread, below it, "
                 "SCHED_OTHER", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def table(g: Group) -> Table:
    t = Table(f"table-priority-{len(g.name)}-{g.name.replace(' ', '-')}",
              f"Priority axis, {g.name}: p50/p99/max in \u00b5s",
              [[("bench", 1), ("mechanism/wait", 1), ("sample", 1)]
               + [(what, 1) for what, _ in g.settings]])
    for key in g.keys:
        line = [Cell(key[0]), Cell(f"{key[1]}/{key[3]}"), Cell(key[4])]
        for _, run in g.settings:
            row = run.row(key)
            s = row.stats if row else None
            line.append(num(f"{us1(s.p50)}/{us1(s.p99)}/{us1(s.max)}" if s and s.count
                            else "-"))
        t.rows.append(line)
    t.note = ("The application runs at SCHED_FIFO 80 above the kernel's irq threads "
              "(SCHED_FIFO 50) in the first column, below them (udrv-bench --irq-prio) in "
              "the second, at SCHED_OTHER in the third.")
    return t
