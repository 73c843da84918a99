# SPDX-License-Identifier: GPL-2.0-only
"""What a row measures: one chart, one table, one title per measure.

A measure is a quantity and its unit. Every duration row (a latency, a
re-arm, an interval: "unit" ns) is a time, and times of different samples
may share an axis (the priority figure puts a timer's wake-up beside a GPIO
wake-up). A rate row counts something per second, and what it counts is
its bench's: 'udrv-bench toggle' output changes of one line, 'udrv bench
rate' events received from a source. Those are two measures, never one
chart (docs/rig/report.md).
"""

from __future__ import annotations

from .model import Row


def measure(row: Row) -> str:
    """"time (ns)", or "udrv-bench toggle: toggle per second"."""
    if row.is_rate:
        return f"udrv-bench {row.bench}: {row.sample} per second"
    return f"time ({row.unit})"


TOGGLES = "udrv-bench toggle: toggle per second"


def is_toggle(row: Row) -> bool:
    """A row of the toggle-rate chart and tables."""
    return measure(row) == TOGGLES
