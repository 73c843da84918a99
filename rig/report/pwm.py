# SPDX-License-Identifier: GPL-2.0-only
"""The PWM pulses on the wire (udrv-bench pwm): each generator (the hardware
PWM, udrv's software PWM as started, tuned, with a tail, lgpio's as its user
runs it and tuned) in turns, per waveform (servo, 1khz).

Per waveform two figures: the histogram of every pulse's |width error| (a
panel per generator, a run's buckets as points on log axes, as the gaps
histogram draws them), and the timeline of the rt kernel under load (a
panel per generator: each pulse's signed error against its start in the
run); and a table of the rows as the suite prints them (rig/bench/pwm/spec.py).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from rig.bench.pwm.model import Pwm, PwmRun, of
from rig.bench.pwm.spec import GENERATORS, TARGETS, WAVES, cell, ratio
from rig.results.measures import measure

from . import figcheck
from .fmt import us
from .model import Doc, Row, Run
from .plots import Markers, _png, bucket_points, finish, log_log
from .tables import Cell, Table, num

BENCH = "pwm"
SAMPLE = "width-error"
TIMELINE_RUN = ("rt", "all")  # the kernel and load whose timeline is drawn


def documents(runs: list[Run]) -> list[tuple[Run, Doc]]:
    """Every pwm document with its run, in the order of the runs."""
    return [(r, d) for r in runs for d in r.docs if d.bench == BENCH and of(d)]


def _pwm(doc: Doc) -> Pwm:
    p = of(doc)
    assert p is not None, "documents() picks pwm documents"
    return p


def width_row(doc: Doc, wave: str, gen: str) -> Row | None:
    """The document's width-error row of @wave and @gen."""
    return next((r for r in doc.rows if r.key == (BENCH, wave, gen, None, SAMPLE)), None)


def _generators(found: list[tuple[Run, Doc]], wave: str) -> list[str]:
    return [g for g in GENERATORS if any(width_row(d, wave, g) for _, d in found)]


def _panels(found: list[tuple[Run, Doc]], wave: str, gens: list[str], height: float,
            sharey: bool) -> tuple[Figure, list[Axes]]:
    """Two columns of panels, one a generator of @gens, sharing their x axis
    (and y with @sharey), each with its numbers; a spare one hidden. What they
    draw: @found's width rows of @wave."""
    n = len(gens)
    rows = math.ceil(n / 2)
    fig, axes = plt.subplots(rows, 2, figsize=(9.5, height * rows + 1.3), squeeze=False,
                             sharex=True, sharey=sharey)
    flat = [ax for line in axes for ax in line]
    for ax in flat[n:]:
        ax.set_visible(False)
    for ax in flat[:n]:
        ax.tick_params(labelbottom=True, labelleft=True, labelsize=7)
    figcheck.declare(fig, *(measure(r) for _, d in found for g in gens
                            if (r := width_row(d, wave, g))))
    return fig, flat[:n]


def _labels(axes: list[Axes], x: str, y: str, every_y: bool) -> None:
    """@x under the lowest panel of each column, @y left of each row (of every
    panel: @every_y)."""
    for i, ax in enumerate(axes):
        if i + 2 >= len(axes):
            ax.set_xlabel(x, fontsize=8)
        if every_y or i % 2 == 0:
            ax.set_ylabel(y, fontsize=8)


def _legend(fig: Figure, entries: list[tuple[str, str, str]]) -> None:
    """One legend below the panels: (label, colour, marker) a run."""
    handles = [Line2D([], [], color=c, marker=m, linestyle="none", fillstyle="none")
               for _, c, m in entries]
    fig.legend(handles, [label for label, _, _ in entries], loc="lower center",
               ncol=min(4, len(entries)), frameon=False, fontsize=8, bbox_to_anchor=(0.5, 0))


def histogram(found: list[tuple[Run, Doc]], wave: str) -> bytes | None:
    """|width error| per bucket, log x and log count axes, a panel per
    generator (shared axes), a run's points in its colour (kernel, and file
    when several) and marker (load)."""
    gens = _generators(found, wave)
    if not gens:
        return None
    fig, axes = _panels(found, wave, gens, 2.2, sharey=True)
    style = Markers()
    by_source = len({r.source for r, _ in found}) > 1
    entries: dict[str, tuple[str, str, str]] = {}
    xs_all: list[float] = []
    ys_all: list[int] = []
    for ax, gen in zip(axes, gens, strict=True):
        worst: list[tuple[float, str]] = []
        for run, doc in found:
            row = width_row(doc, wave, gen)
            if row is None or not row.stats.buckets:
                continue
            color, marker = style((run.source if by_source else "", run.kernel), run.load)
            entries.setdefault(run.label, (run.label, color, marker))
            xs, ys = bucket_points(ax, row, color=color, marker=marker, markersize=3.5)
            xs_all += xs
            ys_all += ys
            worst.append((row.stats.max, run.label))
        top, where = max(worst, default=(0, "none"))
        ax.set_title(f"{gen}: max {us(top)} \u00b5s ({where})", fontsize=9)
    log_log(axes[0], xs_all, ys_all)  # shared by all
    for ax in axes:
        ax.grid(True, which="major", alpha=0.3)
    _labels(axes, "|width error| (\u00b5s)", "pulses per bucket", every_y=False)
    _legend(fig, list(entries.values()))
    fig.suptitle(f"udrv-bench pwm, {wave}: every pulse's |width - asked|, per generator",
                 fontsize=10)
    finish(fig)
    return _png(fig)


def _timeline_runs(found: list[tuple[Run, Doc]]) -> list[tuple[Run, Doc]]:
    return [(r, d) for r, d in found if (r.kernel, r.load) == TIMELINE_RUN and not r.variant]


def _pwm_run(doc: Doc, wave: str, gen: str) -> PwmRun | None:
    return _pwm(doc).run(wave, gen)


def timeline(found: list[tuple[Run, Doc]], wave: str) -> bytes | None:
    """Each pulse's signed width error against its start in the run, rt under
    load: a panel per generator, each its own error axis (they differ by
    decades), the zero line."""
    picked = _timeline_runs(found)
    gens = [g for g in _generators(picked, wave)
            if any((p := _pwm_run(d, wave, g)) and p.timeline for _, d in picked)]
    if not gens:
        return None
    fig, axes = _panels(picked, wave, gens, 1.9, sharey=False)
    style = Markers()
    entries: dict[str, tuple[str, str, str]] = {}
    for ax, gen in zip(axes, gens, strict=True):
        said = []
        for run, doc in picked:
            p = _pwm_run(doc, wave, gen)
            if p is None or not p.timeline:
                continue
            color, marker = style(run.source, run.load)
            entries.setdefault(run.label, (run.label, color, marker))
            ax.plot([x.start_ns / 1e9 for x in p.timeline],
                    [x.error_ns / 1000 for x in p.timeline], color=color, marker=marker,
                    markersize=2.5, linestyle="none", fillstyle="none")
            errors = [x.error_ns for x in p.timeline]
            said.append(f"{len(errors)} pulses" + (f" of {p.wire.pulses}"
                                                   if p.timeline_dropped else "")
                        + f", {us(min(errors))} to {us(max(errors))} \u00b5s")
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title(f"{gen}: {', '.join(said)}", fontsize=9)
        ax.grid(True, alpha=0.3)
    _labels(axes, "start of the pulse in the run (s)", "width error (\u00b5s)", every_y=True)
    if len(entries) > 1:
        _legend(fig, list(entries.values()))
    kernel, load = TIMELINE_RUN
    fig.suptitle(f"udrv-bench pwm, {wave}, {kernel} under load '{load}': each pulse's "
                 "width - asked, when it began", fontsize=10)
    finish(fig)
    return _png(fig)


def has_timeline(found: list[tuple[Run, Doc]]) -> bool:
    """A run of the kernel and load the timeline is drawn for."""
    return bool(_timeline_runs(found))


def table(found: list[tuple[Run, Doc]]) -> Table:
    """Per waveform and generator, per run: the width error's p50/p99/max and
    the pulses missing, as the suite prints them; the p99 ratios below."""
    t = Table("table-pwm", "PWM pulse width error: udrv-bench pwm, |width - asked| per pulse",
              [[("wave", 1), ("generator", 1)] + [(r.label, 2) for r, _ in found],
               [("", 1), ("", 1)] + [(h, 1) for _ in found
                                     for h in ("p50/p99/max (\u00b5s)", "missing")]])
    for wave in WAVES:
        for gen in _generators(found, wave):
            line = [Cell(wave), Cell(gen)]
            for _, doc in found:
                line += [num(c) for c in cell(width_row(doc, wave, gen))]
            t.rows.append(line)
    said = []
    for run, doc in found:
        rows = {r.key[1:]: r for r in doc.rows}
        said += [f"{run.label}: {s}" for w in WAVES for a, b in TARGETS
                 if (s := ratio(rows, w, a, b))]
    t.note = ("Each pulse's width (a rising edge to the falling one, the kernel's "
              "timestamps on the watched line) against the width asked; missing: periods "
              "with no pulse on the wire. p99, udrv against lgpio: "
              + ("; ".join(said) if said else "none measured") + ".")
    return t
