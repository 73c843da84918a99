# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench timer: a timer's expiry to the task's wake-up, beside cyclictest and rtla (rows
only: a row group of the shared latency table and histograms)."""

from __future__ import annotations

from .. import board
from ..base import BenchSpec, PlanSpec
from ..options import count

# every board
SPEC = BenchSpec("timer", latency=True,
                 plan=PlanSpec(board.needs(why=""), count(10000, 500), loops=2))
