# SPDX-License-Identifier: GPL-2.0-only
"""Build the report (or the comparison) page and its PNGs from results files."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rig.bench.base import ReportSpec
from rig.bench.specs import SPECS

from . import compare, html, plots, priority, tables
from .errors import InputError, OutputError
from .figures import Figures
from .load import load_all, split_spec
from .model import RowKey, Run, label_runs, ordered_keys
from .tables import key_slug, slug

MARKER = ".udrv-report"  # in a PNG directory this tool owns (stale PNGs are removed)


@dataclass
class Output:
    html: Path
    pngs: list[Path] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)


def render(paths: list[str | Path], out_html: str | Path,
           png_dir: str | Path | None = None) -> Output:
    """The report of one or more results files (FILE[@KERNEL/LOAD,...] each).

    Writes out_html and the PNGs (into png_dir, default out_html without
    .html); raises InputError or OutputError with the message for the user.
    """
    return render_runs(load_all([str(p) for p in paths]), out_html, png_dir)


def render_runs(runs: list[Run], out_html: str | Path,
                png_dir: str | Path | None = None) -> Output:
    """The report of runs already read (load.load_all)."""
    pdir = _prepare(Path(out_html), png_dir)
    sources = list(dict.fromkeys(r.source for r in runs))
    label_runs(runs)
    figs = Figures()
    styles = plots.Styles(runs, by_source=len(sources) > 1)
    shared = {20: lambda: _breakdown_section(figs, [(None, runs)], runs),
              30: lambda: _histogram_section(figs, [(None, runs)], runs, styles),
              40: lambda: _latency_section(runs), 50: lambda: _priority_section(figs, runs)}
    sections = [s for _, make in _ranked(shared, lambda r: (lambda: r.make(figs, runs)))
                if (s := make())]
    sections.append(_metadata_section(runs))
    intro = [html.para(f"Results: {', '.join(sources)}. Runs: "
                       f"{', '.join(r.label for r in runs)}. udrv "
                       f"{', '.join(sorted({d.tool_version for r in runs for d in r.docs}))}."),
             html.para("All times are measured by udrv's benches (docs/rig/results.md). In the lab "
                       "(QEMU -icount) guest time follows the instruction count: compare "
                       "ratios, not absolute values, with real hardware.", "note")]
    _failures(runs, intro)
    page = html.page("udrv latency report", intro, sections)
    return _write(Path(out_html), pdir, page, figs)


def render_compare(spec_a: str, spec_b: str, out_html: str | Path,
                   png_dir: str | Path | None = None, noise: float = compare.NOISE) -> Output:
    """A against B: side-by-side panels, ratio tables, changes beyond the noise flagged."""
    return render_compare_runs(spec_a, load_all([spec_a]), spec_b, load_all([spec_b]),
                               out_html, png_dir, noise)


def render_compare_runs(spec_a: str, runs_a: list[Run], spec_b: str, runs_b: list[Run],
                        out_html: str | Path, png_dir: str | Path | None = None,
                        noise: float = compare.NOISE) -> Output:
    """The comparison of runs already read; spec_a and spec_b name them in the page."""
    label_runs(runs_a)
    label_runs(runs_b)
    pairs = compare.pair_runs(runs_a, runs_b)
    if not pairs:
        raise compare_error(spec_a, spec_b, runs_a, runs_b)
    pdir = _prepare(Path(out_html), png_dir)
    pa, pb = [a for a, _ in pairs], [b for _, b in pairs]
    cols = [(f"A: {_short(spec_a)}", pa), (f"B: {_short(spec_b)}", pb)]
    figs = Figures()
    styles = plots.Styles(pa + pb, by_source=False)
    changes: list[compare.Change] = []
    ratio = html.Section("ratios", "Ratios B/A")
    for rate in (False, True):
        t = compare.ratio_table(pairs, rate, noise, changes)
        if t:
            ratio.body.append(html.table(t))
    summary = html.Section("changes", "Changes beyond the noise")
    texts = [compare.change_text(c) for c in changes]
    summary.body.append(html.bullets(texts) if texts else html.para(
        f"None: every judged difference is within the noise (\u00b1{noise:.0%})."))
    sections = [summary, ratio]
    shared = {20: lambda: _breakdown_section(figs, cols, pa + pb, "cmp-"),
              30: lambda: _histogram_section(figs, cols, pa + pb, styles, "cmp-")}
    sections += [s for _, make in _ranked(
        shared, lambda r: (lambda: r.compare(figs, cols, pa + pb, "cmp-")) if r.compare else None)
        if (s := make())]
    meta = _metadata_section(pa + pb)
    meta.body.insert(0, html.para(f"A: {spec_a}; B: {spec_b}. Pairs of runs: "
                                  + ", ".join(compare.pair_name(a, b) for a, b in pairs)))
    sections.append(meta)
    intro = [html.para(f"A: {spec_a}   B: {spec_b}   "
                       f"({len(texts)} rows changed beyond the noise)")]
    unpaired = [f"A {r.label}" for r in runs_a if r not in pa]
    unpaired += [f"B {r.label}" for r in runs_b if r not in pb]
    if unpaired:
        intro.append(html.para("Runs without a partner, not compared: " + ", ".join(unpaired),
                               "note"))
    _failures(pa + pb, intro)
    out = _write(Path(out_html), pdir, html.page("udrv comparison", intro, sections), figs)
    out.changes = texts
    return out


def _short(spec: str) -> str:
    """"build/lab/results.json@rt/idle" -> "results.json@rt/idle", for plot titles."""
    path, selector = split_spec(spec)
    return Path(path).name + (f"@{selector}" if selector else "")


def compare_error(spec_a: str, spec_b: str, a: list[Run], b: list[Run]) -> Exception:
    have_a = ", ".join(f"{r.kernel}/{r.load}" for r in a)
    have_b = ", ".join(f"{r.kernel}/{r.load}" for r in b)
    return InputError(spec_b, f"no run pairs with {spec_a}: A has {have_a}, B has {have_b}; "
                              "pick one run of each: FILE@KERNEL/LOAD")


def _failures(runs: list[Run], intro: list[str]) -> None:
    bad = [f"{r.label}: {f}" for r in runs for f in r.failures]
    if bad:
        intro.append(html.para("Benches that failed in these runs (not in the report):"))
        intro.append(html.bullets(bad))


# the sections the benches share, by rank among the benches' own (their
# specs' ReportSpec, rig/bench/<bench>/spec.py: toggle 10, reply 60, gaps 70,
# rate 80, pci 90, pwm 95): breakdown 20, histograms 30, latency 40, priority 50
Make = Callable[[], "html.Section | None"]


def _ranked(shared: dict[int, Make],
            of_spec: Callable[[ReportSpec], Make | None]) -> list[tuple[int, Make]]:
    """The shared sections' makers and the specs' (of_spec(report); None: it has
    none on this page), in rank order."""
    found = list(shared.items())
    for spec in SPECS:
        if spec.report and (make := of_spec(spec.report)) is not None:
            found.append((spec.report.rank, make))
    return sorted(found, key=lambda rm: rm[0])


def _latency_benches(runs: list[Run]) -> dict[str, dict[str, list[RowKey]]]:
    """bench -> mechanism -> latency row keys, in order of appearance."""
    out: dict[str, dict[str, list[RowKey]]] = {}
    for key in ordered_keys(runs, rate=False):
        out.setdefault(key[0], {}).setdefault(key[1], []).append(key)
    return out


def _histogram_section(figs: Figures, cols: plots.Columns, runs: list[Run],
                       styles: plots.Styles, prefix: str = "") -> html.Section | None:
    benches = _latency_benches(runs)
    if not benches:
        return None
    s = html.Section(f"{prefix}histograms", "Latency histograms")
    s.body.append(html.para("Samples per bin on a log axis (OSADL style); one panel per "
                            "measurement, one line per run: colour = kernel, line style = "
                            "load. Dotted lines and triangles mark each run's maximum.", "note"))
    for bench, mechs in benches.items():
        b = html.Section(f"{prefix}hist-{slug(bench)}", f"udrv-bench {bench}")
        for mech, keys in mechs.items():
            items = [f for key in keys if (f := figs.add(
                f"{prefix}hist-{key_slug(key)}", plots.histogram(key, cols, styles),
                f"{bench}: {'/'.join(p for p in key[1:4] if p)} {key[4]}"))]
            b.body.append(f"<h4>{html.escape(mech)}</h4>" + html.grid(items))
        s.children.append(b)
    return s


def _breakdown_section(figs: Figures, cols: plots.Columns, runs: list[Run],
                       prefix: str = "") -> html.Section | None:
    groups = plots.breakdown_groups(runs)
    if not groups:
        return None
    s = html.Section(f"{prefix}breakdown", "Where a wake-up's time goes")
    s.body.append(html.para("Average time from the write that raises the line to the "
                            "kernel's hardirq timestamp, and from there to the waiting task's "
                            "wake-up, per wait method. A wait with no event (busy-polling) has "
                            "no hardirq timestamp: its whole write-to-wake time is one bar.",
                            "note"))
    for bench, mech in groups:
        figs.add_to(s, f"{prefix}breakdown-{slug(bench, mech)}",
                    plots.breakdown(bench, mech, cols),
                    f"udrv-bench {bench}, {mech}: write \u2192 hardirq \u2192 wake")
    return s


def _latency_section(runs: list[Run]) -> html.Section | None:
    t = tables.latency_table(runs)
    if t is None:
        return None
    return html.Section("latency", "Latency table", [html.table(t)])


def _priority_section(figs: Figures, runs: list[Run]) -> html.Section | None:
    found = priority.groups(runs)
    if not found:
        return None
    s = html.Section("priority", "Priority axis (PREEMPT_RT)")
    s.body.append(html.para("The same wake-ups with the application above the irq thread it "
                            "waits for, below it, and at SCHED_OTHER (docs/rig/lab.md explains "
                            "the difference with a trace).", "note"))
    for i, g in enumerate(found):
        figs.add_to(s, f"priority-{i}", priority.figure(g),
                    f"{g.name}: p50 per setting, p99 as a tick")
        s.body.append(html.table(priority.table(g)))
    return s


def _metadata_section(runs: list[Run]) -> html.Section:
    return html.Section("metadata", "Metadata", [
        html.table(tables.runs_table(runs)), html.table(tables.documents_table(runs)),
        "<details><summary>Every row: counts, percentiles, losses</summary>"
        + html.table(tables.samples_table(runs)) + "</details>"])


def _prepare(out_html: Path, png_dir: str | Path | None) -> Path:
    """Make the output directories before drawing: a bad output fails fast."""
    pdir = Path(png_dir) if png_dir is not None else out_html.with_suffix("")
    if out_html.is_dir():
        raise OutputError(f"{out_html}: cannot write: a directory has that name; "
                          "give the page another name (-o)")
    try:
        for d in (out_html.parent, pdir):
            _mkdir(d)
        marker = pdir / MARKER
        if not marker.exists() and any(pdir.iterdir()):
            raise OutputError(f"{pdir}: not empty and not a udrv-report PNG directory: "
                              "give an empty or new directory with --png-dir")
        marker.write_text("PNGs written by udrv-report; stale ones are removed\n")
    except OSError as exc:
        raise OutputError(f"{exc.filename or pdir}: cannot write: {exc.strerror or exc}") \
            from None
    return pdir


def _mkdir(d: Path) -> None:
    existing = next(p for p in (d, *d.parents) if p.exists())
    if not existing.is_dir():
        raise OutputError(f"{existing}: not a directory: choose another place for the page "
                          "(-o) or the PNGs (--png-dir)")
    d.mkdir(parents=True, exist_ok=True)


def _write(out_html: Path, pdir: Path, page: str, figs: Figures) -> Output:
    out = Output(out_html)
    try:
        for old in pdir.glob("*.png"):
            if old.stem not in figs.pngs:
                old.unlink()
        for name, png in figs.pngs.items():
            path = pdir / f"{name}.png"
            _atomic(path, png)
            out.pngs.append(path)
        _atomic(out_html, page.encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"{exc.filename or pdir}: cannot write: {exc.strerror or exc}") \
            from None
    return out


def _atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file, so a reader never sees half a page."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
