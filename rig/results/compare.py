# SPDX-License-Identifier: GPL-2.0-only
"""Two results side by side: pair their runs, divide their statistics, flag real changes.

A change is "beyond the noise" when the ratio B/A differs from 1 by more than
the noise fraction (default 3%: two boots of the same workload in the lab
gave averages within 3%) and, for averages, by more than 3 standard errors
of the difference (stddev/sqrt(count) of each side), and, for a percentile
pXX, only when both sides hold at least 10 samples beyond it. Maxima are
single samples: their ratio is shown, never judged.

udrv-report's comparison page draws this (rig/report/compare.py);
`python3 -m rig.results compare A B` prints the changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .measures import is_toggle
from .model import Row, RowKey, Run, Stats

NOISE = 0.03
TAIL_SAMPLES = 10
METRICS = (("p50", 0.5), ("avg", None), ("p99", 0.99), ("p99_9", 0.999), ("max", None))
METRIC_NAMES = {"p50": "p50", "avg": "avg", "p99": "p99", "p99_9": "p99.9", "max": "max"}


@dataclass
class Verdict:
    """One metric of one row, A against B: the ratio B/A and whether it is a change."""

    ratio: float | None  # None: A is zero or a side is empty
    kind: str  # "worse", "better", "same" (within the noise), "muted" (not judged)
    why: str


@dataclass
class Change:
    """A row of B that differs from A beyond the noise: the metrics and their ratios B/A."""

    pair: str
    row: Row
    ratios: list[tuple[str, float]]


def pair_runs(a: list[Run], b: list[Run]) -> list[tuple[Run, Run]]:
    """Runs of the same board, kernel label, load and priority variant; else of the
    same kernel, load and variant (two boards); one run each side pairs whatever it is.
    A variant ("irq-prio 90") pairs only with its own: never with the plain run."""
    if len(a) == 1 and len(b) == 1:
        return [(a[0], b[0])]
    for key in (lambda r: (r.board_name, r.kernel, r.load, r.variant),
                lambda r: (r.kernel, r.load, r.variant)):
        by_key: dict[tuple[str, ...], Run] = {}
        for r in b:
            by_key.setdefault(key(r), r)
        pairs = [(r, by_key[key(r)]) for r in a if key(r) in by_key]
        if pairs:
            return pairs
    return []


def pair_name(ra: Run, rb: Run) -> str:
    return ra.label if ra.label == rb.label else f"{ra.label} \u2192 {rb.label}"


def judge(metric: str, q: float | None, a: Stats, b: Stats, noise: float) -> Verdict:
    va, vb = float(getattr(a, metric)), float(getattr(b, metric))
    if va <= 0 or not a.count or not b.count:
        return Verdict(None, "muted", "no ratio: A is zero or empty")
    ratio = vb / va
    if metric == "max":
        return Verdict(ratio, "muted", "maxima are single samples: shown, not judged")
    if q is not None:
        need = math.ceil(TAIL_SAMPLES / (1 - q) - 1e-9)
        if min(a.count, b.count) < need:
            return Verdict(ratio, "muted", f"not judged: {METRIC_NAMES[metric]} needs {need} "
                                           f"samples each side for {TAIL_SAMPLES} beyond it")
    beyond = abs(ratio - 1) > noise
    why = f"|\u00d7{ratio:.3f} - 1| {'>' if beyond else '<='} noise {noise:g}"
    if metric == "avg":
        se = math.sqrt(a.stddev ** 2 / a.count + b.stddev ** 2 / b.count)
        big = abs(vb - va) > 3 * se
        beyond = beyond and big
        why += f"; difference {abs(vb - va):.1f} ns {'>' if big else '<='} 3 SE {3 * se:.1f} ns"
    if not beyond:
        return Verdict(ratio, "same", why)
    return Verdict(ratio, "worse" if ratio > 1 else "better", why)


def metrics(rate: bool, only: tuple[str, ...] = ()) -> list[tuple[str, float | None]]:
    """The metrics compared (@only: these of them): toggle-rate rows have no tail worth
    judging."""
    return [m for m in METRICS if (not rate or m[0] in ("p50", "avg", "max"))
            and (not only or m[0] in only)]


def row_keys(ra: Run, rb: Run, rate: bool) -> list[RowKey]:
    """The rows two runs compare: times, or (rate) toggle rates; the rate
    bench's capacity rows are another measure, compared in their own section."""
    keys: dict[RowKey, None] = {}
    for r in (*ra.rows, *rb.rows):
        if is_toggle(r) if rate else not r.is_rate:
            keys.setdefault(r.key)
    return list(keys)


def change_of(name: str, xa: Row, xb: Row, rate: bool, noise: float,
              only: tuple[str, ...] = ()) -> tuple[list[Verdict], Change | None]:
    """Each metric's verdict for one row, and the change if any is beyond the noise."""
    judged = metrics(rate, only)
    verdicts = [judge(m, q, xa.stats, xb.stats, noise) for m, q in judged]
    ratios = [(m, v.ratio) for (m, _), v in zip(judged, verdicts, strict=True)
              if v.kind in ("worse", "better") and v.ratio is not None]
    return verdicts, Change(name, xb, ratios) if ratios else None


def common_rows(a: list[Run], b: list[Run]) -> list[tuple[Run, Run, Row, Row, bool]]:
    """The rows both sides measured, in their paired runs: (run A, run B, row A, row B,
    whether it is a toggle rate); latency rows then toggle rates."""
    out = []
    for rate in (False, True):
        for ra, rb in pair_runs(a, b):
            for key in row_keys(ra, rb, rate):
                xa, xb = ra.row(key), rb.row(key)
                if xa is not None and xb is not None:
                    out.append((ra, rb, xa, xb, rate))
    return out


def changes(a: list[Run], b: list[Run], noise: float = NOISE,
            only: tuple[str, ...] = ()) -> list[Change]:
    """Every row of B beyond the noise against A (@only: in these metrics)."""
    out = []
    for ra, rb, xa, xb, rate in common_rows(a, b):
        change = change_of(pair_name(ra, rb), xa, xb, rate, noise, only)[1]
        out += [change] if change else []
    return out


def change_text(c: Change) -> str:
    """"std idle: irq cdev/udrv/read irq_to_wake: slower: p50 x1.903, avg x1.910"."""
    parts = []
    for word, worse in (("slower", True), ("faster", False)):
        found = [f"{METRIC_NAMES[m]} \u00d7{r:.3f}" for m, r in c.ratios if (r > 1) == worse]
        if found:
            parts.append(f"{word}: {', '.join(found)}")
    r = c.row
    return f"{c.pair}: {r.bench} {r.label} {r.sample}: {'; '.join(parts)}"
