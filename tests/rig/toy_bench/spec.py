# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toy: a test's bench (tests/rig/test_toy_bench.py copies this
folder to rig/bench/toy/ of a copy of the tree): its "toy" section typed, a
check the schema cannot make, its table and its report section."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base import BenchSpec, ReportSpec, TextTableSpec

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Run
    from rig.results.text import TextTable

NAME = "toy"


@dataclass(frozen=True)
class Toy:
    calls: int


def parse(t: dict[str, Any]) -> Toy:
    return Toy(calls=t["calls"])


def check(t: Toy, doc: dict[str, Any], where: str, rebuilt: bool = False) -> None:
    """Each call is a sample of the row: calls is its count."""
    from rig.results.check import need

    count = doc["rows"][0]["stats"]["count"]
    need(t.calls == count, f"{where}: {t.calls} calls, the row has {count} samples")


def _toys(runs: list[Run]) -> list[tuple[Run, Toy, float]]:
    out = []
    for run in runs:
        for doc in run.docs:
            t = doc.sections.get(NAME)
            if doc.bench == NAME and isinstance(t, Toy):
                out.append((run, t, doc.rows[0].stats.p50))
    return out


def text_table(runs: list[Run], board: str = "x86") -> TextTable:
    from rig.results.text import Column, TextTable

    t = TextTable(["Toy: the time between two clock_gettime() calls (udrv-bench toy)"],
                  [Column("kernel", 8), Column("calls", 10, ">"), Column("p50 ns", 10, ">")])
    for run, toy, p50 in _toys([r for r in runs if r.board_name == board]):
        t.rows.append([run.kernel, str(toy.calls), f"{p50:.0f}"])
    return t


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import html

    found = _toys(runs)
    if not found:
        return None
    items = [f"toy calls {toy.calls}, p50 {p50:.0f} ns" for _, toy, p50 in found]
    return html.Section("toy", "Toy bench", [html.bullets(items)])


SPEC = BenchSpec(NAME, section=NAME, parse=parse, check=check,
                 tables=(TextTableSpec("toy", text_table, 75),),
                 report=ReportSpec(95, report_section))
