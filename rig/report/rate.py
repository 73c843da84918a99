# SPDX-License-Identifier: GPL-2.0-only
"""The interrupt rate capacity (udrv-bench rate; rig/lab/suite/qemu.py's run_rate): a
source that counts what it raises swept over offered rates, per mechanism and
receiver.

Two figures of small multiples, a panel per mechanism (colour: the run,
line style: the receiver, a circle: the knee): the rate received against the
rate offered (log-log; the dotted diagonal is "everything received"), and
the share lost at the source against the rate offered; and the capacity
table as the suite prints it.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from rig.bench.rate.model import Rate, Step, of

from . import figcheck
from .model import Doc, Run
from .plots import PALETTE, _png, finish, log_axis
from .tables import Cell, Table, num


def documents(runs: list[Run]) -> list[tuple[Run, Doc]]:
    """Every rate document with its run, in the order of the runs."""
    return [(r, d) for r in runs for d in r.docs if d.bench == "rate" and of(d)]


def _rate(doc: Doc) -> Rate:
    r = of(doc)
    assert r is not None, "documents() picks rate documents"
    return r


MECHANISMS = ("cdev", "cdev-batch", "uio-read", "uio-poll")
# the two measures of a sweep (rig/results/measures.py), a figure each
RECEIVED = "udrv-bench rate: events received per second"
LOST = "udrv-bench rate: share of the source's events lost (%)"
STYLES = {"udrv": "-", "raw": ":", "libgpiod-2.3": "--"}


def _curves(doc: Doc) -> dict[tuple[str, str], list[Step]]:
    """Steps per (mechanism, implementation), in increasing offered rate."""
    out: dict[tuple[str, str], list[Step]] = {}
    for s in _rate(doc).steps:
        out.setdefault((s.mechanism, s.implementation), []).append(s)
    for steps in out.values():
        steps.sort(key=lambda s: s.offered_per_s)
    return out


def _knee(doc: Doc, mech: str, impl: str) -> float | None:
    for c in _rate(doc).capacity:
        if (c.mechanism, c.implementation) == (mech, impl):
            return c.knee_per_s
    return None


def _y(s: Step, loss: bool) -> float:
    if loss:
        return 100.0 * s.lost / s.source_count if s.source_count else 0.0
    return float(s.received_per_s)


def _panel(ax: Any, found: list[tuple[Run, Doc]], mech: str, loss: bool,
           colors: dict[str, str]) -> None:
    xs_all: list[float] = []
    for run, doc in found:
        color = colors.setdefault(run.label, PALETTE[len(colors) % len(PALETTE)])
        for (m, impl), steps in _curves(doc).items():
            if m != mech:
                continue
            xs = [s.offered_per_s for s in steps]
            ys = [_y(s, loss) for s in steps]
            xs_all += xs
            ax.plot(xs, ys, color=color, linestyle=STYLES.get(impl, "-."), linewidth=1.2,
                    marker=".", markersize=3)
            knee = _knee(doc, mech, impl)
            at = [s for s in steps if knee is not None and s.offered_per_s == knee]
            if at:  # the knee: an open circle on its step
                ax.plot([knee], [_y(at[0], loss)], color=color, marker="o", markersize=7,
                        fillstyle="none", linestyle="none")
    ax.set_title(mech, fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    ax.tick_params(labelbottom=True, labelleft=True)  # the numbers on every panel
    if not loss and xs_all:
        lo, hi = min(xs_all), max(xs_all)
        ax.plot([lo, hi], [lo, hi], color="grey", linestyle=(0, (1, 3)), linewidth=1)


def _figure(found: list[tuple[Run, Doc]], loss: bool) -> bytes | None:
    """Small multiples: a panel per mechanism; colour the run, line style the
    receiver (udrv solid, raw dotted, libgpiod-2.3 dashed), circle the knee."""
    if not found:
        return None
    fig, axes = plt.subplots(2, 2, figsize=(9.5, 6.6), sharex=True, sharey=True)
    figcheck.declare(fig, LOST if loss else RECEIVED)
    colors: dict[str, str] = {}
    for ax, mech in zip(axes.flat, MECHANISMS, strict=True):
        _panel(ax, found, mech, loss, colors)
    steps = [s for _, d in found for s in _rate(d).steps]
    offered = [s.offered_per_s for s in steps if s.offered_per_s > 0]
    if offered:
        log_axis(axes[0][0], "x", min(offered) / 1.3, max(offered) * 1.3)
    if loss:
        axes[0][0].set_ylim(-3, 103)
    elif offered:
        got = [s.received_per_s for s in steps if s.received_per_s > 0] + offered
        log_axis(axes[0][0], "y", min(got) / 1.3, max(got) * 1.3)
    for ax in axes[1]:
        ax.set_xlabel("offered (events/s, the source's count)", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("lost at the source (%)" if loss else "received (events/s)",
                      fontsize=8)
    handles = [Line2D([], [], color=c, linewidth=2, label=label) for label, c in colors.items()]
    handles += [Line2D([], [], color="black", linestyle=st, label=impl)
                for impl, st in STYLES.items()]
    handles.append(Line2D([], [], color="black", marker="o", fillstyle="none",
                          linestyle="none", label="knee"))
    if not loss:
        handles.append(Line2D([], [], color="grey", linestyle=(0, (1, 3)),
                              label="everything received"))
    fig.legend(handles=handles, loc="lower center", ncol=4, fontsize=7, frameon=False)
    fig.suptitle("Lost at the source per offered rate" if loss else
                 "Received per offered rate", fontsize=10)
    finish(fig)
    return _png(fig)


def received(found: list[tuple[Run, Doc]]) -> bytes | None:
    return _figure(found, loss=False)


def lost(found: list[tuple[Run, Doc]]) -> bytes | None:
    return _figure(found, loss=True)


def _fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def table(found: list[tuple[Run, Doc]]) -> Table:
    t = Table("table-rate", "Interrupt rate capacity: udrv-bench rate",
              [[(h, 1) for h in ("run", "mechanism", "implementation", "knee (/s)",
                                 "CPU % at the knee", "max received (/s)", "CPU ns/event",
                                 "vs raw")]])
    for run, doc in found:
        for c in _rate(doc).capacity:
            if not c.measured:
                t.rows.append([Cell(run.label), Cell(c.mechanism),
                               Cell(c.implementation), Cell(c.note or "absent", "muted"),
                               Cell(""), Cell(""), Cell(""), Cell("")])
                continue
            ratio = c.ratio_vs_raw
            t.rows.append([Cell(run.label), Cell(c.mechanism), Cell(c.implementation),
                           num(_fmt(c.knee_per_s, ".0f")),
                           num(_fmt(c.cpu_pct_at_knee, ".1f")),
                           num(_fmt(c.throughput_per_s, ".0f")),
                           num(_fmt(c.ns_per_event, ".0f")),
                           num("-" if ratio is None else f"x{ratio:.2f}")])
    t.note = ("Knee: the highest offered rate with nothing lost, counted at the source "
              "(gpio-wire's gen_edges, uio-ticker's ticks), and received per second at "
              "least 95% of offered. Max received: the most events "
              "per second the receiver took in one step; CPU ns/event there, against the "
              "bare read() of the same mechanism.")
    return t
