# SPDX-License-Identifier: GPL-2.0-only
"""The pictures: latency histograms (OSADL style), wake-up breakdown bars, toggle rates.

Every function takes "columns": a list of (title, runs) drawn side by side
with shared axes (one column for a report, two for a comparison), and
returns the PNG bytes, or None when the runs hold nothing to draw.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import matplotlib.transforms as mtransforms
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

from rig.results.measures import is_toggle, measure

from . import figcheck
from .bins import rebin
from .fmt import us
from .model import Row, RowKey, Run

Columns = Sequence[tuple[str | None, list[Run]]]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22")
LINESTYLES = ("-", "--", "-.", (0, (1, 1)))
DPI = 100
# the wake-up breakdown: the schema's sample names (docs/rig/results.md)
SPLIT = (("write_to_irq", "write \u2192 hardirq", "#4c72b0"),
         ("irq_to_wake", "hardirq \u2192 wake", "#dd8452"))
WHOLE = ("write_to_wake", "write \u2192 wake (no split)", "#9a9a9a")
PARTS = frozenset((SPLIT[0][0], SPLIT[1][0], WHOLE[0]))


class Styles:
    """Colour per kernel (and board, and file when they differ), line style per load."""

    def __init__(self, runs: list[Run], by_source: bool) -> None:
        self._colors: dict[tuple[str, ...], str] = {}
        self._lines: dict[str, object] = {}
        self.by_source = by_source
        for r in runs:
            self.style(r)

    def style(self, run: Run) -> tuple[str, object]:
        group = (run.source if self.by_source else "", run.board_name, run.kernel)
        color = self._colors.setdefault(group, PALETTE[len(self._colors) % len(PALETTE)])
        line = self._lines.setdefault(run.load, LINESTYLES[len(self._lines) % len(LINESTYLES)])
        return color, line


class Markers:
    """Runs drawn as points: a colour per group (a kernel, a kernel and a
    setting), a marker per load."""

    def __init__(self) -> None:
        self.colors: dict[object, str] = {}
        self.markers: dict[str, str] = {}

    def __call__(self, group: object, load: str) -> tuple[str, str]:
        color = self.colors.setdefault(group, PALETTE[len(self.colors) % len(PALETTE)])
        return color, self.markers.setdefault(load, "o^sD"[len(self.markers) % 4])


def _png(fig: Figure) -> bytes:
    """The PNG of @fig, checked against the contract of a figure first (figcheck.py)."""
    fig.set_dpi(DPI)  # figcheck's draw is then the one savefig would make
    for problem in figcheck.problems(fig):
        print(f"udrv-report: warning: figure {figcheck.name(fig)!r}: {problem}",
              file=sys.stderr)
    # bbox_inches="tight" as savefig computes it, from figcheck's draw: savefig
    # would draw the figure once more to find it (a fifth of the report's time)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    tight = fig.get_tightbbox(renderer).padded(matplotlib.rcParams["savefig.pad_inches"])
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches=tight)
    plt.close(fig)
    return buf.getvalue()


def si(value: float, _pos: object = None) -> str:
    """A tick label a reader reads: 500, 20k, 1.5M."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= div:
            return f"{value / div:g}{suffix}"
    return f"{value:g}"


def rate_text(per_s: float) -> str:
    """A rate as a bar's label: 35 /s, 2.5 /s, 131.7 k/s, 1.2 M/s (a gpiocli
    process per toggle makes tens a second: not "0.0 k/s")."""
    for div, unit in ((1e6, "M/s"), (1e3, "k/s")):
        if per_s >= div:
            return f"{per_s / div:.1f} {unit}"
    return f"{per_s:.0f} /s" if per_s >= 10 else f"{per_s:.2g} /s"


def log_ticks(lo: float, hi: float) -> list[float]:
    """Ticks from lo to hi on a log axis: decades, with 2 and 5 when they fit (up to
    three decades), every digit below one decade; at least two."""
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    decades = math.log10(hi / lo)
    for subs in ((1,),) if decades > 3 else ((1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [m * 10.0 ** e for e in range(first, last + 1) for m in subs
                 if lo <= m * 10.0 ** e <= hi]
        if len(ticks) >= 2:
            return ticks[::math.ceil(len(ticks) / 8)]
    digits = 1 - math.floor(math.log10(hi - lo))  # the ends, rounded inside the range
    return [math.ceil(lo * 10 ** digits) / 10 ** digits,
            math.floor(hi * 10 ** digits) / 10 ** digits]


def log_axis(ax: Axes, which: str, lo: float, hi: float) -> None:
    """A log axis from lo to hi with numbers on it (si()): matplotlib's own shows only
    powers of ten, none at all when the range holds none."""
    ax.set(**{f"{which}scale": "log", f"{which}lim": (lo, hi)})
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_locator(FixedLocator(log_ticks(lo, hi)))
    axis.set_major_formatter(FuncFormatter(si))
    axis.set_minor_locator(LogLocator(subs=(2, 3, 4, 5, 6, 7, 8, 9)))
    axis.set_minor_formatter(NullFormatter())


def bucket_points(ax: Axes, row: Row, **style: object) -> tuple[list[float], list[int]]:
    """A row's histogram as a marker per bucket, at the bucket's middle in \u00b5s
    (bins.rebin's: an exact 0 ns at 0.5 ns), for a log x axis: a line would join
    buckets across decades of empty ones. The x and the counts drawn, for
    log_log()."""
    xs = [(lo + hi + 1) / 2 / 1000 for lo, hi, _ in row.stats.buckets]
    ys = [n for _, _, n in row.stats.buckets]
    ax.plot(xs, ys, linestyle="none", fillstyle="none", **style)  # type: ignore[arg-type]
    return xs, ys


def log_log(ax: Axes, xs: list[float], ys: list[int]) -> None:
    """Log axes around the points bucket_points() drew: x a factor 2 beyond them,
    the counts from below 1."""
    if xs and any(ys):
        log_axis(ax, "x", min(xs) / 2, max(xs) * 2)
        log_axis(ax, "y", 0.7, max(ys) * 2)


def finish(fig: Figure, pad: float = 0.08) -> None:
    """Lay @fig out: its title (suptitle) in a band of its own above the panels, its
    legends (fig.legend, lower center) in one below them, both measured (inches)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    height = fig.get_figheight() * fig.dpi
    top = bottom = 0.0
    title = fig._suptitle  # matplotlib has no public getter of the Text
    if title is not None and title.get_text():
        title.set(y=1 - pad * fig.dpi / height, va="top")
        top = title.get_window_extent(renderer).height + pad * fig.dpi
    for legend in fig.legends:
        bottom = max(bottom, legend.get_window_extent(renderer).height + pad * fig.dpi)
    fig.tight_layout(rect=(0, bottom / height, 1, 1 - top / height))


def legend_label(run: Run, row: Row) -> str:
    s = row.stats
    text = (f"{run.label}: p50 {us(s.p50)}  p99 {us(s.p99)}  p99.9 {us(s.p99_9)}  "
            f"max {us(s.max)} \u00b5s  (n={s.count}")
    if row.loss and row.loss["lost"]:
        text += f", lost {row.loss['lost']}"
    if s.overflow:
        text += f", {s.overflow} beyond the histogram"
    return text + ")"


def histogram(key: RowKey, columns: Columns, styles: Styles) -> bytes | None:
    """One panel per column: every run's histogram of one row, count on a log axis."""
    series = [[(run, row) for run in runs if (row := run.row(key)) and row.stats.buckets]
              for _, runs in columns]
    rows = [row for col in series for _, row in col]
    if not rows:
        return None
    edges, counts = rebin(rows)
    width = edges[1] - edges[0]
    fig, axes = plt.subplots(1, len(columns), figsize=(7.2 * len(columns), 3.4),
                             sharex=True, sharey=True, squeeze=False)
    figcheck.declare(fig, *map(measure, rows))
    top = max(max(c) for c in counts)
    it = iter(counts)
    for ax, (title, _), col in zip(axes[0], columns, series, strict=True):
        for run, row in col:
            _hist_line(ax, run, row, next(it), edges, styles)
        log_axis(ax, "y", 0.8, top * 2.5)
        ax.tick_params(labelleft=True)  # the numbers on every panel
        pad = (edges[-1] - edges[0]) * 0.03 / 1000
        ax.set_xlim(edges[0] / 1000 - pad, edges[-1] / 1000 + pad)
        ax.grid(True, which="major", alpha=0.3)
        ax.set_xlabel("latency (\u00b5s)")
        ax.set_title(_hist_title(key, title), fontsize=10)
        if col:
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8,
                      frameon=False, handlelength=3)
        else:
            ax.text(0.5, 0.5, "not measured", transform=ax.transAxes, ha="center")
    axes[0][0].set_ylabel(f"samples per {_ns(width)} bin")
    return _png(fig)


def _hist_line(ax: Axes, run: Run, row: Row, counts: list[int], edges: list[float],
               styles: Styles) -> None:
    color, line = styles.style(run)
    values = [c if c > 0 else 0.1 for c in counts]
    ax.stairs(values, [e / 1000 for e in edges], baseline=0.1, color=color,
              linestyle=line, linewidth=1.3, label=legend_label(run, row))
    x = row.stats.max / 1000
    ax.axvline(x, color=color, linestyle=":", linewidth=0.9)
    trans = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
    filled = line == LINESTYLES[0]
    ax.plot([x], [0.97], marker="v", color=color, markersize=6, transform=trans,
            markerfacecolor=color if filled else "white", clip_on=False)


def _hist_title(key: RowKey, side: str | None) -> str:
    bench, mech, impl, wait, sample = key
    label = "/".join(p for p in (mech, impl, wait) if p)
    text = f"{label}: {sample}  (udrv-bench {bench})"
    return f"{side}\n{text}" if side else text


def _ns(width: float) -> str:
    return f"{width / 1000:g} \u00b5s" if width >= 1000 else f"{width:g} ns"


def breakdown_groups(runs: list[Run]) -> list[tuple[str, str]]:
    """(bench, mechanism) pairs whose rows split a wake-up at the hardirq timestamp."""
    out: dict[tuple[str, str], None] = {}
    for run in runs:
        samples: dict[tuple[str, str, str, str | None], set[str]] = {}
        for r in run.rows:
            samples.setdefault((r.bench, r.mechanism, r.implementation, r.wait),
                               set()).add(r.sample)
        for (bench, mech, _, _), names in samples.items():
            if {SPLIT[0][0], SPLIT[1][0]} <= names:
                out.setdefault((bench, mech))
    return list(out)


def _bars(run: Run, bench: str, mech: str) -> list[tuple[str, list[tuple[int, float]]]]:
    """Per implementation/wait: (label, [(segment index, avg ns)...]) in order of rows."""
    found: dict[str, dict[str, float]] = {}
    for r in run.rows:
        if r.bench == bench and r.mechanism == mech and r.stats.count:
            name = "/".join(p for p in (r.implementation, r.wait) if p)
            found.setdefault(name, {})[r.sample] = r.stats.avg
    bars = []
    for label, s in found.items():
        if SPLIT[0][0] in s and SPLIT[1][0] in s:
            bars.append((label, [(0, s[SPLIT[0][0]]), (1, s[SPLIT[1][0]])]))
        elif WHOLE[0] in s:
            bars.append((label, [(2, s[WHOLE[0]])]))
    return bars


def breakdown(bench: str, mech: str, columns: Columns) -> bytes | None:
    """Stacked bars of average write -> hardirq -> wake per wait method, one panel per run."""
    panels = [[(run, bars) for run in runs if (bars := _bars(run, bench, mech))]
              for _, runs in columns]
    nrows = max(len(p) for p in panels)
    nbars = max((len(b) for p in panels for _, b in p), default=0)
    if not nbars:
        return None
    fig, axes = plt.subplots(nrows, len(columns), sharex=True, squeeze=False,
                             figsize=(7.2 * len(columns), nrows * (0.3 * nbars + 0.7) + 0.8))
    figcheck.declare(fig, *(measure(r) for _, runs in columns for run in runs
                            for r in run.rows if r.bench == bench and r.mechanism == mech
                            and r.sample in PARTS))
    colors = [c for _, _, c in SPLIT] + [WHOLE[2]]
    names = [n for _, n, _ in SPLIT] + [WHOLE[1]]
    used: set[int] = set()
    for j, ((side, _), panel) in enumerate(zip(columns, panels, strict=True)):
        for i in range(nrows):
            ax = axes[i][j]
            if i >= len(panel):
                ax.set_visible(False)
                continue
            run, bars = panel[i]
            for y, (_, segs) in enumerate(bars):
                left = 0.0
                for seg, value in segs:
                    ax.barh(y, value / 1000, left=left / 1000, color=colors[seg],
                            hatch="//" if seg == 2 else None, edgecolor="white", height=0.7)
                    used.add(seg)
                    left += value
                ax.text(left / 1000, y, f" {us(left)}", va="center", fontsize=8)
            ax.set_yticks(range(len(bars)), [b[0] for b in bars], fontsize=8)
            ax.invert_yaxis()
            ax.set_title(f"{side}: {run.label}" if side else run.label, fontsize=9)
            ax.grid(True, axis="x", alpha=0.3)
            ax.margins(x=0.12)
            ax.tick_params(labelbottom=True)
        axes[-1][j].set_xlabel("average latency (\u00b5s)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[k], hatch="//" if k == 2 else None)
               for k in sorted(used)]
    fig.legend(handles, [names[k] for k in sorted(used)], loc="lower center", ncol=3,
               frameon=False, fontsize=8, bbox_to_anchor=(0.5, 0))
    fig.suptitle(f"udrv-bench {bench}, {mech}: where a wake-up's time goes "
                 "(implementation/wait)", fontsize=10)
    finish(fig)
    return _png(fig)


def toggles(columns: Columns) -> bytes | None:
    """Toggle rate per mechanism x implementation on a log axis, one panel per run.

    Only 'udrv-bench toggle' rows (rig.results.measures.is_toggle): the rate bench's events
    received per second are another measure, drawn in the rate section (rate.py)."""
    panels = [[(run, [r for r in run.rows if is_toggle(r) and r.rate_per_s]) for run in runs]
              for _, runs in columns]
    panels = [[(run, rows) for run, rows in p if rows] for p in panels]
    nrows = max(len(p) for p in panels)
    if not nrows:
        return None
    impls: dict[str, str] = {}
    for p in panels:
        for _, rows in p:
            for r in rows:
                impls.setdefault(r.implementation, PALETTE[len(impls) % len(PALETTE)])
    nbars = max(len(rows) for p in panels for _, rows in p)
    fig, axes = plt.subplots(nrows, len(columns), sharex=True, squeeze=False,
                             figsize=(7.2 * len(columns), nrows * (0.28 * nbars + 1.0) + 0.6))
    figcheck.declare(fig, *(measure(r) for p in panels for _, rows in p for r in rows))
    rates = [r.rate_per_s or 1.0 for p in panels for _, rows in p for r in rows]
    for j, ((side, _), panel) in enumerate(zip(columns, panels, strict=True)):
        for i in range(nrows):
            ax = axes[i][j]
            if i >= len(panel):
                ax.set_visible(False)
                continue
            run, rows = panel[i]
            _toggle_panel(ax, rows, impls)
            ax.set_title(f"{side}: {run.label}" if side else run.label, fontsize=9)
            ax.tick_params(labelbottom=True)  # the numbers under every panel
        axes[len(panels[j]) - 1][j].set_xlabel("toggles per second (log axis)")
    log_axis(axes[0][0], "x", min(rates) / 2, max(rates) * 8)
    fig.suptitle("Toggle rate of one GPIO line (udrv-bench toggle)", fontsize=10)
    finish(fig)
    return _png(fig)


def _toggle_panel(ax: Axes, rows: list[Row], impls: dict[str, str]) -> None:
    for y, r in enumerate(rows):
        rate = r.rate_per_s or 0.0
        ax.barh(y, rate, color=impls[r.implementation], height=0.7)
        text = " " + rate_text(rate)
        ref = r.reference
        if ref and ref.get("ratio_avg"):
            text += f"  time \u00d7{ref['ratio_avg']:.3f} vs {ref.get('implementation')}"
        ax.text(rate, y, text, va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [f"{r.mechanism}  {r.implementation}" for r in rows],
                  fontsize=8)
    ax.invert_yaxis()
    ax.grid(True, axis="x", which="both", alpha=0.3)
