# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench uio: a UIO device's interrupt to the waiting task's wake-up (rows only: a
row group of the shared latency table, histograms and priority axis)."""

from __future__ import annotations

from ..base import BenchSpec

SPEC = BenchSpec("uio", latency=True)
