# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench irq: a GPIO line's edge to the waiting task's wake-up, per wait method (rows only: a
row group of the shared latency table, histograms and priority axis)."""

from __future__ import annotations

from ..base import BenchSpec

SPEC = BenchSpec("irq", latency=True)
