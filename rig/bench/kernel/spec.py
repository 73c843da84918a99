# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench kernel: the kernel's own wake-up path, measured in the kernel (rows only: a
row group of the shared latency table and histograms)."""

from __future__ import annotations

from ..base import BenchSpec

SPEC = BenchSpec("kernel", latency=True)
