# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench kernel: the kernel's own wake-up path, measured in the kernel (rows only: a
row group of the shared latency table and histograms)."""

from __future__ import annotations

from .. import board
from ..base import BenchSpec, PlanSpec
from ..options import Opts, count


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """irqlat and the loopback (the in-kernel responder)."""
    if "irqlat" not in feats:
        return None, "no irqlat (rig/kernel/irqlat, the in-kernel responder)"
    return board.loopback(feats, w)


SPEC = BenchSpec("kernel", latency=True, plan=PlanSpec(_board, count(10000, 500)))
