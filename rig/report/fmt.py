# SPDX-License-Identifier: GPL-2.0-only
"""Number formats shared by the plots and the tables."""

from __future__ import annotations


def us(ns: float) -> str:
    """Nanoseconds as microseconds with 3 significant digits (9.74, 10.0, 0.632, 152)."""
    v = ns / 1000
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a == 0:
        return "0"
    if a >= 0.001:
        return f"{v:.3f}"
    return f"{v:.3g}"


def us1(ns: float) -> str:
    """Microseconds with one decimal, as the suite's latency table prints them."""
    return f"{ns / 1000:.1f}"
