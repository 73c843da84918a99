# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toggle: the toggle rate of one GPIO line per mechanism and implementation (rows only:
rate_per_s)."""

from __future__ import annotations

from ..base import BenchSpec

SPEC = BenchSpec("toggle")
