# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench uio: a UIO device's interrupt to the waiting task's wake-up (rows only: a
row group of the shared latency table, histograms and priority axis)."""

from __future__ import annotations

from .. import board
from ..base import PRIORITY_VARIANTS, BenchSpec, PlanSpec
from ..options import Opts, count, device_opt


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """uio-ticker and/or edu (-d ticker|edu; both: the default)."""
    devices = [d for d, f in (("ticker", "uio-ticker"), ("edu", "edu")) if f in feats]
    opts = None if not devices else () if len(devices) == 2 else device_opt(devices[0])
    return opts, "no UIO device: uio-ticker (rig/kernel/uio-ticker) or edu (QEMU's PCI device)"


SPEC = BenchSpec("uio", latency=True,
                 plan=PlanSpec(_board, count(5000, 200), loops=3, priority=PRIORITY_VARIANTS))
