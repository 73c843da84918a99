# SPDX-License-Identifier: GPL-2.0-only
"""What a bench's spec holds (rig/bench/<bench>/spec.py: SPEC).

A spec module imports its model (model.py, plain dataclasses) at its top and
nothing else of rig: rig.results reads the sections through the models, and
imports the registry; the text table (rig.results.text) and the report
section (rig.report, matplotlib) are functions of the spec that import what
they draw with when called.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import Decide
from .options import Opts

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.report.plots import Columns
    from rig.results.model import Run
    from rig.results.text import TextTable

HERE = Path(__file__).resolve().parent

# the variants of a lab run (udrv-lab/1 "variant"; the plain run's is ""): the
# priority axis on rt, idle (the plain run: the application above its irq
# thread), the gaps bench with RT throttling off; rate and pci run in the
# first priority variant
PRIORITY_VARIANTS = ("irq-prio 90", "SCHED_OTHER")
GAPS_VARIANT = "rt-runtime -1"
RATE_PRIORITY = PRIORITY_VARIANTS[0]


@dataclass(frozen=True)
class PlanSpec:
    """A bench's entry in the lab's plan (rig.lab.suite.plan: make lab, the
    labgrid suite, a LAVA job): what it needs of a board (decide), its size
    arguments per mode ("full", "quick"), the share of --duration each of its
    loops gets (0: it keeps its size), the priority variants it runs in on
    rt, what it adds to a variant's arguments, whether it is in each load's
    plain run (else the plan schedules it itself: gaps, rate), and what it
    adds in its idle plain run."""

    decide: Decide
    size: dict[str, Opts]
    loops: int = 0
    priority: tuple[str, ...] = ()
    variant_extra: dict[str, Opts] = field(default_factory=dict)
    plain: bool = True
    idle: Opts = ()


@dataclass(frozen=True)
class TextTableSpec:
    """A table `make lab` prints (python3 -m rig.results tables --table NAME)."""

    name: str
    make: Callable[[list[Run], str], TextTable]  # (every run, the board) -> the table
    # its place among the tables, the shared ones' (rig.results.text.RANK) too
    rank: int
    # (the board's runs) -> does the board have it; None: a document of its bench
    wanted: Callable[[list[Run]], bool] | None = None


@dataclass(frozen=True)
class ReportSpec:
    """A section of udrv-report's page (rig.report.build)."""

    # its place among the sections, the shared ones' (rig.report.build.RANK) too
    rank: int
    make: Callable[[Figures, list[Run]], Section | None]  # None: nothing of it here
    # its section of the comparison page: (figures, the columns A and B, their
    # runs, the page's id prefix); None: not on that page
    compare: Callable[[Figures, Columns, list[Run], str], Section | None] | None = None


@dataclass(frozen=True)
class BenchSpec:
    name: str  # udrv-bench NAME, the document's "bench"
    # the document's own object of this bench ("gaps"), read by parse() into
    # its model (rig.results.model.Doc.sections[section]); None: rows only
    section: str | None = None
    parse: Callable[[Any], Any] | None = None
    # what the schema cannot say about that section (rig.results.check): (its
    # model, the document (its rows), its place in the document, rebuilt from
    # LAVA's test cases?) raises rig.results.schema.Invalid
    check: Callable[[Any, dict[str, Any], str, bool], None] | None = None
    # (place in the section, implementation) of the measurements the section
    # holds beside the rows (a peer's among them: rig.results.check's
    # wake_threads rule)
    receivers: Callable[[Any], list[tuple[str, str]]] | None = None
    # drawn by a section of its own, not with the latency rows
    own_rows: bool = False
    # its rows are wake-up latencies: a column group of the shared latency
    # table (rig.results.text.latency_table)
    latency: bool = False
    tables: tuple[TextTableSpec, ...] = ()
    report: ReportSpec | None = None
    plan: PlanSpec | None = None  # None: the lab does not run it

    @property
    def schema(self) -> Path:
        """Its part of udrv-bench-1.schema.json (rig.results.compose)."""
        return HERE / self.name / "schema.json"
