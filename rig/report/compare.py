# SPDX-License-Identifier: GPL-2.0-only
"""Two results side by side: pair their runs, divide their statistics, flag real changes.

A change is "beyond the noise" when the ratio B/A differs from 1 by more than
the noise fraction (default 3%: two boots of the same workload in the lab
gave averages within 3%) and, for averages, by more than 3 standard errors
of the difference (stddev/sqrt(count) of each side), and, for a percentile
pXX, only when both sides hold at least 10 samples beyond it. Maxima are
single samples: their ratio is shown, never judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .fmt import us
from .measures import is_toggle
from .model import Row, RowKey, Run, Stats
from .tables import Cell, Table, num

NOISE = 0.03
TAIL_SAMPLES = 10
METRICS = (("p50", 0.5), ("avg", None), ("p99", 0.99), ("p99_9", 0.999), ("max", None))
METRIC_NAMES = {"p50": "p50", "avg": "avg", "p99": "p99", "p99_9": "p99.9", "max": "max"}


@dataclass
class Change:
    """A row of B that differs from A beyond the noise: the metrics and their ratios B/A."""

    pair: str
    row: Row
    ratios: list[tuple[str, float]]


def pair_runs(a: list[Run], b: list[Run]) -> list[tuple[Run, Run]]:
    """Runs of the same board, kernel label and load; else of the same kernel and load
    (two boards); one run each side pairs whatever it is."""
    if len(a) == 1 and len(b) == 1:
        return [(a[0], b[0])]
    for key in (lambda r: (r.board_name, r.kernel, r.load), lambda r: (r.kernel, r.load)):
        by_key: dict[tuple[str, ...], Run] = {}
        for r in b:
            by_key.setdefault(key(r), r)
        pairs = [(r, by_key[key(r)]) for r in a if key(r) in by_key]
        if pairs:
            return pairs
    return []


def pair_name(ra: Run, rb: Run) -> str:
    return ra.label if ra.label == rb.label else f"{ra.label} \u2192 {rb.label}"


def judge(metric: str, q: float | None, a: Stats, b: Stats, noise: float) -> Cell:
    """A cell "A -> B xratio", classed worse/better when the change is beyond the noise."""
    va, vb = float(getattr(a, metric)), float(getattr(b, metric))
    values = f"{us(va)} \u2192 {us(vb)}"
    if va <= 0 or not a.count or not b.count:
        return num(values, "num muted", "no ratio: A is zero or empty")
    ratio = vb / va
    text = f"{values} \u00d7{ratio:.3f}"
    if metric == "max":
        return num(text, "num muted", "maxima are single samples: shown, not judged")
    if q is not None:
        need = math.ceil(TAIL_SAMPLES / (1 - q) - 1e-9)
        if min(a.count, b.count) < need:
            return num(text, "num muted", f"not judged: {METRIC_NAMES[metric]} needs "
                                          f"{need} samples each side for {TAIL_SAMPLES} beyond it")
    beyond = abs(ratio - 1) > noise
    why = f"|\u00d7{ratio:.3f} - 1| {'>' if beyond else '<='} noise {noise:g}"
    if metric == "avg":
        se = math.sqrt(a.stddev ** 2 / a.count + b.stddev ** 2 / b.count)
        big = abs(vb - va) > 3 * se
        beyond = beyond and big
        why += f"; difference {abs(vb - va):.1f} ns {'>' if big else '<='} 3 SE {3 * se:.1f} ns"
    if not beyond:
        return num(text, "num", why)
    return num(text, "num worse" if ratio > 1 else "num better", why)


def ratio_table(pairs: list[tuple[Run, Run]], rate: bool, noise: float,
                changes: list[Change]) -> Table | None:
    """B/A per row of each pair of runs; toggles compare time per toggle (>1: slower)."""
    metrics = [m for m in METRICS if not rate or m[0] in ("p50", "avg", "max")]
    t = Table("table-ratio-toggle" if rate else "table-ratio-latency",
              ("Toggle time per output change, A \u2192 B (\u00b5s) and B/A"
               if rate else "Latency A \u2192 B (\u00b5s) and B/A"),
              [[(h, 1) for h in ("runs", "bench", "mechanism/impl/wait", "sample",
                                 "samples A/B")]
               + [(METRIC_NAMES[m], 1) for m, _ in metrics]
               + ([("toggles/s A \u2192 B", 1)] if rate else [])])
    for ra, rb in pairs:
        name = pair_name(ra, rb)
        keys: dict[RowKey, None] = {}
        for r in (*ra.rows, *rb.rows):
            if is_toggle(r) if rate else not r.is_rate:  # the rate bench: not compared
                keys.setdefault(r.key)
        for key in keys:
            xa, xb = ra.row(key), rb.row(key)
            line = [Cell(name), Cell(key[0]), Cell((xa or xb).label), Cell(key[4])]  # type: ignore[union-attr]
            if xa is None or xb is None:
                side = "A" if xa else "B"
                line.append(Cell(f"only in {side}", "muted"))
                line += [Cell("") for _ in metrics] + ([Cell("")] if rate else [])
                t.rows.append(line)
                continue
            line.append(num(f"{xa.stats.count}/{xb.stats.count}"))
            change = Change(name, xb, [])
            for metric, q in metrics:
                cell = judge(metric, q, xa.stats, xb.stats, noise)
                if "worse" in cell.cls or "better" in cell.cls:
                    change.ratios.append((metric, getattr(xb.stats, metric)
                                          / getattr(xa.stats, metric)))
                line.append(cell)
            if change.ratios:
                changes.append(change)
            if rate:
                line.append(num(f"{xa.rate_per_s or 0:.0f} \u2192 {xb.rate_per_s or 0:.0f}"))
            t.rows.append(line)
    if not t.rows:
        return None
    t.note = (f"Each cell: A \u2192 B and the ratio B/A (>1: B takes longer). Red: B slower, "
              f"green: B faster, beyond the noise (\u00b1{noise:.0%}; averages also beyond 3 "
              f"standard errors; a percentile only with {TAIL_SAMPLES} samples beyond it on "
              "each side). Grey: not judged. Hover a cell for the reason.")
    return t


def change_text(c: Change) -> str:
    """"std idle: irq cdev/udrv/read irq_to_wake: slower: p50 x1.903, avg x1.910"."""
    parts = []
    for word, worse in (("slower", True), ("faster", False)):
        found = [f"{METRIC_NAMES[m]} \u00d7{r:.3f}" for m, r in c.ratios if (r > 1) == worse]
        if found:
            parts.append(f"{word}: {', '.join(found)}")
    r = c.row
    return f"{c.pair}: {r.bench} {r.label} {r.sample}: {'; '.join(parts)}"
