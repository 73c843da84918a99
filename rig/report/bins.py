# SPDX-License-Identifier: GPL-2.0-only
"""Common linear bins for the histograms of several rows (no matplotlib here)."""

from __future__ import annotations

import math

from .model import Row

TARGET_BINS = 200


def nice_ceil(x: float) -> float:
    """The smallest 1, 2 or 5 x 10^k that is >= x."""
    if x <= 1:
        return 1.0
    k = 10 ** math.floor(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * k >= x:
            return float(m * k)
    return 10.0 * k


def rebin(rows: list[Row]) -> tuple[list[float], list[list[int]]]:
    """Common linear bins (ns) for rows' log-linear buckets: edges, counts per row.

    The bin width is a 1-2-5 step of at least range/200 and of the widest
    bucket, so a bucket never spans two bins: it is counted in the bin of its
    middle, and every sample is counted once (overflow aside).
    """
    buckets = [b for r in rows for b in r.stats.buckets]
    lo = min(b[0] for b in buckets)
    hi = max(b[1] for b in buckets) + 1
    widest = max(b[1] - b[0] + 1 for b in buckets)
    width = nice_ceil(max((hi - lo) / TARGET_BINS, widest))
    x0 = math.floor(lo / width) * width
    n = max(1, math.ceil((hi - x0) / width))
    edges = [x0 + i * width for i in range(n + 1)]
    counts = []
    for r in rows:
        c = [0] * n
        for b_lo, b_hi, cnt in r.stats.buckets:
            c[min(n - 1, int(((b_lo + b_hi + 1) / 2 - x0) // width))] += cnt
        counts.append(c)
    return edges, counts
