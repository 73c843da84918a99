# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report: the HTML page and PNGs of udrv's latency results (docs/rig/report.md).

    from rig.report import render
    render(["build/lab/results.json"], "build/lab/report.html")

needs matplotlib (Debian: python3-matplotlib); the udrv-report launcher finds
an interpreter that has it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import InputError, OutputError

__version__ = "1.6.0"
__all__ = ["InputError", "OutputError", "__version__", "render", "render_compare"]

if TYPE_CHECKING:
    from .build import render, render_compare


def __getattr__(name: str) -> Any:
    # matplotlib is imported only when something is drawn
    if name in ("render", "render_compare"):
        from . import build as mod

        return getattr(mod, name)
    raise AttributeError(name)
