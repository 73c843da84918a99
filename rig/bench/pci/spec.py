# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pci: UIO vs VFIO, one PCI device's interrupt (QEMU's edu) through
uio_pci_generic's INTx, vfio-pci's INTx and MSI: the raise-register write to the
wake-up, and the re-arm each needs; its "pci" object (model.py), the suite's table,
the report's section (figures: rig/report/pci.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import board
from ..base import RATE_PRIORITY, BenchSpec, PlanSpec, ReportSpec, TextTableSpec
from ..options import count
from . import model

if TYPE_CHECKING:
    from rig.report.figures import Figures
    from rig.report.html import Section
    from rig.results.model import Row, Run
    from rig.results.text import TextTable

NAME = "pci"
# its paths and samples, in its order
MECHANISMS = ("uio-intx", "vfio-intx", "vfio-msi")
SAMPLES = ("write_to_wake", "rearm")
RAW = "raw read()"  # the sample column of a raw row (a VFIO path's bare read())


def _rows(run: Run) -> dict[tuple[str, str], Row]:
    """(mechanism, sample) -> row; a raw row's sample is RAW."""
    out = {}
    for doc in run.docs:
        if doc.bench == NAME:
            for row in doc.rows:
                raw = row.implementation == "raw"
                out[(row.mechanism, RAW if raw else row.sample)] = row
    return out


def _cell(row: Row | None) -> str:
    from rig.results.text import p50_p99_max, times

    cell = p50_p99_max(row)
    ref = row.reference if row else None
    if ref and ref.get("ratio_p50") is not None:
        cell += f" {times(ref['ratio_p50'], 2)}"
    return cell


def text_table(runs: list[Run], board: str = "q35") -> TextTable:
    """mechanism x sample rows, kernel x load columns (then the rt variant):
    p50/p99/max in us and the p50's ratio to UIO INTx measured in the same run."""
    from rig.results.text import KERNELS, LOADS, Column, TextTable, load_name

    mine = [r for r in runs if r.board_name == board]
    cols = [(f"{k} {load_name(ld)}", r) for k in KERNELS for ld in LOADS
            for r in mine if r.kernel == k and r.load == ld and not r.variant]
    cols += [(f"{r.kernel} {r.variant}", r) for r in mine if r.variant]
    t = TextTable(["UIO vs VFIO: edu's raise-register write -> userspace wake-up, and the "
                   "re-arm for the next interrupt (udrv-bench pci, q35 board);",
                   "p50/p99/max in us, xR: the p50 over UIO INTx's in the same run "
                   "(raw read(): over udrv's of the same path)"],
                  [Column("mechanism", 11), Column("sample", 15)]
                  + [Column(c, 24, ">") for c, _ in cols])
    tables = [_rows(r) for _, r in cols]
    for mech in MECHANISMS:
        raw = mech != "uio-intx" and any((mech, RAW) in x for x in tables)
        for sample in SAMPLES + ((RAW,) if raw else ()):
            t.rows.append([mech, sample, *(_cell(x.get((mech, sample))) for x in tables)])
    return t


def report_section(figs: Figures, runs: list[Run]) -> Section | None:
    from rig.report import html, pci

    found = pci.groups(runs)
    if not found:
        return None
    s = html.Section("pci", "UIO vs VFIO (udrv-bench pci)")
    s.body.append(html.para("One PCI device's interrupt (QEMU's edu on the q35 board, Intel "
                            "IOMMU with interrupt remapping) through uio_pci_generic's INTx, "
                            "vfio-pci's INTx and vfio-pci's MSI: the raise-register write to "
                            "the wake-up, and the re-arm each needs (docs/vfio.md).", "note"))
    for i, g in enumerate(found):
        figs.add_to(s, f"pci-{i}", pci.figure(g),
                    f"{g.name}: write \u2192 wake and re-arm p50 per mechanism, p99 and max "
                    "as ticks")
        s.body.append(html.table(pci.table(g)))
    return s


PLAN = PlanSpec(board.needs("iommu", "edu", why="needs iommu and edu (VFIO and UIO on QEMU's "
                            "edu, the q35 board)"), count(500, 100), priority=(RATE_PRIORITY,))
SPEC = BenchSpec(NAME, section=model.SECTION, parse=model.parse, plan=PLAN,
                 tables=(TextTableSpec("pci", text_table, 70),),
                 report=ReportSpec(90, report_section))
