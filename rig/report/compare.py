# SPDX-License-Identifier: GPL-2.0-only
"""The comparison page's ratio tables: rig.results.compare's verdicts as cells.

What is a change beyond the noise, and how runs pair, is rig.results.compare's
(the one comparison of udrv's results); this draws it.
"""

from __future__ import annotations

from rig.results.compare import (
    METRIC_NAMES,
    NOISE,
    TAIL_SAMPLES,
    Change,
    Verdict,
    change_of,
    change_text,
    metrics,
    pair_name,
    pair_runs,
    row_keys,
)
from rig.results.compare import judge as verdict

from .fmt import us
from .model import Run, Stats
from .tables import Cell, Table, num

__all__ = ["NOISE", "Change", "change_text", "judge", "pair_name", "pair_runs", "ratio_table"]


def cell(metric: str, a: Stats, b: Stats, v: Verdict) -> Cell:
    """A cell "A -> B xratio", classed worse/better when the change is beyond the noise."""
    va, vb = float(getattr(a, metric)), float(getattr(b, metric))
    values = f"{us(va)} \u2192 {us(vb)}"
    if v.ratio is None:
        return num(values, "num muted", v.why)
    text = f"{values} \u00d7{v.ratio:.3f}"
    cls = {"muted": "num muted", "same": "num"}.get(v.kind, f"num {v.kind}")
    return num(text, cls, v.why)


def judge(metric: str, q: float | None, a: Stats, b: Stats, noise: float) -> Cell:
    return cell(metric, a, b, verdict(metric, q, a, b, noise))


def ratio_table(pairs: list[tuple[Run, Run]], rate: bool, noise: float,
                changes: list[Change]) -> Table | None:
    """B/A per row of each pair of runs; toggles compare time per toggle (>1: slower)."""
    ms = metrics(rate)
    t = Table("table-ratio-toggle" if rate else "table-ratio-latency",
              ("Toggle time per output change, A \u2192 B (\u00b5s) and B/A"
               if rate else "Latency A \u2192 B (\u00b5s) and B/A"),
              [[(h, 1) for h in ("runs", "bench", "mechanism/impl/wait", "sample",
                                 "samples A/B")]
               + [(METRIC_NAMES[m], 1) for m, _ in ms]
               + ([("toggles/s A \u2192 B", 1)] if rate else [])])
    for ra, rb in pairs:
        name = pair_name(ra, rb)
        for key in row_keys(ra, rb, rate):
            xa, xb = ra.row(key), rb.row(key)
            line = [Cell(name), Cell(key[0]), Cell((xa or xb).label), Cell(key[4])]  # type: ignore[union-attr]
            if xa is None or xb is None:
                side = "A" if xa else "B"
                line.append(Cell(f"only in {side}", "muted"))
                line += [Cell("") for _ in ms] + ([Cell("")] if rate else [])
                t.rows.append(line)
                continue
            line.append(num(f"{xa.stats.count}/{xb.stats.count}"))
            verdicts, change = change_of(name, xa, xb, rate, noise)
            line += [cell(m, xa.stats, xb.stats, v) for (m, _), v in zip(ms, verdicts, strict=True)]
            if change:
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
