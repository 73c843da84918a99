# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench irq: a GPIO line's edge to the waiting task's wake-up, per wait method (rows only: a
row group of the shared latency table, histograms and priority axis)."""

from __future__ import annotations

from .. import board
from ..base import PRIORITY_VARIANTS, BenchSpec, PlanSpec
from ..options import count

# gpio-wire, or a udrv-wire whose input is the output line + 1
SPEC = BenchSpec("irq", latency=True,
                 plan=PlanSpec(board.loopback, count(5000, 200), loops=5,
                               priority=PRIORITY_VARIANTS))
