# SPDX-License-Identifier: GPL-2.0-only
"""The UIO-vs-VFIO figure and table (udrv-bench pci): edu's raise-register
write -> userspace wake-up, and the re-arm for the next interrupt, through
UIO INTx, VFIO INTx and VFIO MSI, std vs rt, idle vs load.

A group is one results file and board's runs that have pci rows; a figure
(two panels: write_to_wake, rearm) and a table per group. The table's
ratios are each row's p50 over UIO INTx's in the same run, as the suite
prints them (rig/lab/suite/pci.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt

from rig.bench.pci.spec import MECHANISMS, NAME, RAW, SAMPLES
from rig.results.measures import measure

from . import figcheck
from .fmt import us, us1
from .model import Row, Run
from .plots import _png, finish
from .tables import Cell, Table, num

BENCH = NAME
COLORS = {"std": "#2471a3", "rt": "#c0392b"}
VARIANT_COLOR = "#e67e22"


@dataclass
class Group:
    name: str
    runs: list[Run]  # std idle, std load, rt idle, rt load, rt irq-prio (those present)


def row(run: Run, mech: str, sample: str) -> Row | None:
    """The run's pci row of @mech and @sample through udrv (whatever its wait
    method), or with @sample RAW the path's raw row (a bare read())."""
    impl, sample = ("raw", "write_to_wake") if sample == RAW else ("udrv", sample)
    return next((r for r in run.rows if r.key[0] == BENCH and r.key[1] == mech
                 and r.key[2] == impl and r.key[4] == sample), None)


def samples(mech: str, runs: list[Run]) -> tuple[str, ...]:
    """A path's table rows: the raw row when a run has one."""
    raw = mech != "uio-intx" and any(row(r, mech, RAW) for r in runs)
    return SAMPLES + ((RAW,) if raw else ())


def _order(r: Run) -> tuple[int, int, int]:
    """Plain runs by kernel and load, then the variant (rt, --irq-prio 90)."""
    return (1 if r.variant else 0, {"std": 0, "rt": 1}.get(r.kernel, 2),
            0 if r.load == "none" else 1)


def groups(runs: list[Run]) -> list[Group]:
    """Per source file and board: the runs with pci rows."""
    out: dict[tuple[str, str], list[Run]] = {}
    for r in runs:
        if any(x.key[0] == BENCH for x in r.rows):
            out.setdefault((r.source, r.board_name), []).append(r)
    return [Group(f"{board}" if len(out) == 1 else f"{src}: {board}", sorted(rs, key=_order))
            for (src, board), rs in out.items()]


def _panel(ax: plt.Axes, g: Group, sample: str) -> None:
    """p50 bars per mechanism and run; p99 a black tick, max a grey one."""
    n = len(g.runs)
    height = 0.8 / n
    stats = [s for run in g.runs for m in MECHANISMS
             if (x := row(run, m, sample)) is not None and (s := x.stats).count]
    lim = 1.3 * max((s.p99 for s in stats), default=1) / 1000
    for i, run in enumerate(g.runs):
        for y, mech in enumerate(MECHANISMS):
            x = row(run, mech, sample)
            if x is None or not x.stats.count:
                continue
            s = x.stats
            pos = y + (i - (n - 1) / 2) * height
            ax.barh(pos, s.p50 / 1000, height=height * 0.9,
                    color=VARIANT_COLOR if run.variant else COLORS.get(run.kernel, "#7f8c8d"),
                    hatch="//" if run.load != "none" else None, edgecolor="white",
                    label=run.label if y == 0 else None)
            for v, colour in ((s.p99, "black"), (s.max, "#888888")):
                if v / 1000 > lim:
                    ax.plot([lim], [pos], marker=">", color=colour, markersize=4)
                    continue
                ax.plot([v / 1000] * 2, [pos - height * 0.4, pos + height * 0.4],
                        color=colour, linewidth=1)
            ax.text(s.p50 / 1000, pos, f" {us(s.p50)}", va="center", fontsize=7)
    ax.set_xlim(0, lim)
    ax.set_yticks(range(len(MECHANISMS)), list(MECHANISMS), fontsize=8)
    ax.invert_yaxis()
    ax.set_title(sample, fontsize=9)
    ax.set_xlabel("p50 (\u00b5s); black tick p99, grey tick max (\u25b6: beyond the axis)",
                  fontsize=8)
    ax.grid(True, axis="x", alpha=0.3)


def figure(g: Group) -> bytes | None:
    if not any(row(r, m, s) for r in g.runs for m in MECHANISMS for s in SAMPLES):
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.5 * len(g.runs) * 3 + 1.6))
    figcheck.declare(fig, *(measure(x) for r in g.runs for m in MECHANISMS for s in SAMPLES
                            if (x := row(r, m, s)) is not None))
    for ax, sample in zip(axes, SAMPLES, strict=True):
        _panel(ax, g, sample)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{g.name}: UIO INTx vs VFIO INTx vs VFIO MSI (edu)", fontsize=9)
    finish(fig)
    return _png(fig)


def _cell(x: Row | None) -> str:
    if x is None or not x.stats.count:
        return "-"
    s = x.stats
    cell = f"{us1(s.p50)}/{us1(s.p99)}/{us1(s.max)}"
    ratio = (x.reference or {}).get("ratio_p50")
    if ratio is not None:
        cell += f" x{ratio:.2f}"
    return cell


def table(g: Group) -> Table:
    t = Table(f"table-pci-{len(g.name)}-{g.name.replace(' ', '-')}",
              f"UIO vs VFIO, {g.name}: p50/p99/max in \u00b5s, xR the p50 over UIO INTx's",
              [[("mechanism", 1), ("sample", 1)] + [(r.label, 1) for r in g.runs]])
    for mech in MECHANISMS:
        for sample in samples(mech, g.runs):
            t.rows.append([Cell(mech), Cell(sample)]
                          + [num(_cell(row(run, mech, sample))) for run in g.runs])
    t.note = ("write_to_wake: before edu's raise-register write (0x60) to the wait's return. "
              "rearm: what the next interrupt needs after it: UIO INTx the acknowledge "
              "(0x64) + INTx unmask in the PCI command register, VFIO INTx the acknowledge "
              "+ the VFIO_IRQ_SET_ACTION_UNMASK ioctl, VFIO MSI the acknowledge alone. "
              "raw read(): the VFIO path's wake-up through a bare blocking read() of its "
              "eventfd, xR over udrv's (udrv_vfio_wait() also watches vfio-pci's release "
              "request).")
    return t
