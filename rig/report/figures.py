# SPDX-License-Identifier: GPL-2.0-only
"""The PNGs of a page: each added one becomes a <figure> and a file (build.py
writes them); a bench's report section (rig/bench/<bench>/spec.py) adds its own."""

from __future__ import annotations

from . import html


class Figures:
    """Collects the PNGs of a page: each becomes a <figure> and a file."""

    def __init__(self) -> None:
        self.pngs: dict[str, bytes] = {}

    def add(self, fig_id: str, png: bytes | None, caption: str) -> str | None:
        if png is None:
            return None
        self.pngs[fig_id] = png
        return html.figure(fig_id, png, caption)

    def add_to(self, section: html.Section, fig_id: str, png: bytes | None,
               caption: str) -> None:
        """add(), and the figure into @section's body when there is one."""
        fig = self.add(fig_id, png, caption)
        if fig:
            section.body.append(fig)
