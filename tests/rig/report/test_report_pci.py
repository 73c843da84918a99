# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's UIO-vs-VFIO section (rig/report/pci.py) on real
udrv-bench pci documents: the figure decodes, the table says what the suite
prints (rig.bench.pci.spec's text_table), ratios included."""

from __future__ import annotations

from pathlib import Path

from report_helpers import FIXTURES, Rendered, load_json, render
from report_page import check_png, data_uri_png

from rig.bench.pci import spec as pci_spec
from rig.lab.suite import qemu as suite
from tests.support.results_docs import suite_table

LAB_PCI = FIXTURES / "lab-pci.json"


def test_pci_section_says_what_the_suite_prints(tmp_path: Path) -> None:
    doc = load_json(LAB_PCI)
    page = render(tmp_path / "out", LAB_PCI).page
    assert "pci" in page.ids and "pci-0" in page.figures
    check_png(data_uri_png(page.figures["pci-0"]))
    table = next(t for tid, t in page.tables.items() if tid.startswith("table-pci"))
    assert [h for h, _ in table.head[0]] == [
        "mechanism", "sample", "std idle", "std all", "rt idle", "rt all",
        "rt idle irq-prio 90"]
    cells = {(row[0].text, row[1].text): [c.text for c in row[2:]] for row in table.rows}
    runs = [suite.SuiteRun(r["kernel"], r["load"], r["documents"], board=r["board"],
                           variant=r.get("variant", "")) for r in doc["runs"]]
    printed = suite_table(pci_spec.text_table, runs)
    assert len(printed) == 3 + 8 and len(cells) == 8  # the VFIO paths with their raw rows
    for line in printed[3:]:
        mech, sample, rest = line[:11].strip(), line[11:26].strip(), line[26:]
        values = [rest[i:i + 24].strip() for i in range(0, len(rest), 24)]
        assert cells[(mech, sample)] == values, line
    # the VFIO rows carry their ratio to UIO INTx, the UIO rows none
    assert all(" x" in v for m, _ in cells if m != "uio-intx" for v in cells[(m, _)])
    assert not any(" x" in v for s in pci_spec.SAMPLES for v in cells[("uio-intx", s)])


def test_priority_section_has_the_pci_rows(tmp_path: Path) -> None:
    """rt-q35 with --irq-prio 90: the priority axis's figure and table (rt idle,
    the application above its irq thread, against below it) show the pci rows."""
    page = render(tmp_path / "out", LAB_PCI).page
    table = next(t for tid, t in page.tables.items() if tid.startswith("table-priority"))
    assert [(row[0].text, row[1].text) for row in table.rows] == [
        ("pci", "uio-intx/read"), ("pci", "vfio-intx/poll"), ("pci", "vfio-msi/poll")]


def test_no_pci_section_without_pci_rows(report_a: Rendered) -> None:
    assert "pci" not in report_a.page.ids
