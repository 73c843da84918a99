# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toggle: the toggle rate of one GPIO line per mechanism and
implementation (rows only: rate_per_s); its tables (tables.py: the rates, the
brokers') and the report's first section (figures: rig/report/plots.py's
toggles, tables: rig/report/tables.py's toggle_tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import board
from ..base import BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from ..options import Opts, count

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.report.plots import Columns
    from rig.results.model import Run
    from rig.results.text import TextTable

NAME = "toggle"
# udrv-bench toggle with the broker rows (--udrvd, --gpio-manager, --gpiocli)
# on the board of the Python image, where udrvd and gpio-manager run
BROKER_VARIANT = "udrvd"
BROKER_MECHANISMS = ("cdev", "dbus", "gpiocli")


def toggle_table(runs: list[Run], board: str = "x86") -> TextTable:
    from .tables import toggle_table

    return toggle_table(runs, board)


def broker_table(runs: list[Run], board: str = "x86") -> TextTable:
    from .tables import broker_table

    return broker_table(runs, board)


def _plain_toggles(runs: list[Run]) -> bool:
    return any(d.bench == NAME for r in runs if not r.variant for d in r.docs)


def _brokers(runs: list[Run]) -> bool:
    return any(r.variant == BROKER_VARIANT for r in runs)


def compare_section(figs: Figures, cols: Columns, runs: list[Run],
                    prefix: str = "") -> Section | None:
    """The toggle rates of @cols side by side (the report: one column; a
    comparison: A and B), and the report's tables."""
    from rig.report import html, plots, tables
    from rig.results.measures import is_toggle

    if not any(is_toggle(x) for r in runs for x in r.rows):
        return None
    s = html.Section(f"{prefix}toggles", "Toggle rates")
    figs.add_to(s, f"{prefix}toggle-rates", plots.toggles(cols),
                "Toggle rate per mechanism and implementation, log axis: raw loop "
                "(bare system calls) and libgpiod beside udrv")
    if not prefix:
        s.body += [html.table(t) for t in tables.toggle_tables(runs)]
    return s


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    return compare_section(figs, [(None, runs)], runs)


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """gpio-wire's line, a udrv-wire's output, or GPIO 17 on bcm2835 or rp1 (no partner
    line there: --no-edges)."""
    opts = board.line(feats, w.loop)
    if opts is not None and "gpio-wire" not in feats and w.loop is None:
        opts += ("--no-edges",)  # a Pi's GPIO 17 alone: no partner line
    return opts, "no GPIO line to toggle: gpio-wire, a udrv-wire, bcm2835 or rp1"


SPEC = BenchSpec(NAME, plan=PlanSpec(_board, count(100000, 2000)),
                 tables=(TextTableSpec("toggle", toggle_table, 10, _plain_toggles),
                         TextTableSpec("broker", broker_table, 80, _brokers)),
                 report=ReportSpec(10, report_section, compare_section))
