# SPDX-License-Identifier: GPL-2.0-only
"""What a results file holds once read: rig.results.model (the one model of
udrv's results documents), under the names the report's modules import."""

from __future__ import annotations

from rig.results.model import (
                               OWN_SECTION,
                               Doc,
                               Results,
                               Row,
                               RowKey,
                               Run,
                               Stats,
                               label_runs,
                               ordered_keys,
                               short_board,
)

__all__ = ["OWN_SECTION", "Doc", "Results", "Row", "RowKey", "Run", "Stats", "label_runs",
           "ordered_keys", "short_board"]
