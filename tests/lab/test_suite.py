# SPDX-License-Identifier: GPL-2.0-only
"""The suite runner behind `make lab` (rig/lab/suite/qemu.py), quick, under load."""

from __future__ import annotations

from rig.bench.pci import spec as pci_spec
from rig.lab.suite import qemu as suite
from rig.results.check import check_lab
from tests.support.results_docs import suite_table


def test_suite_under_load(board, request):
    kernel = request.node.callspec.id
    run = suite.run_benches(board, kernel, "all", "quick")
    assert run.failures == []
    doc = suite.lab_document([run])
    check_lab(doc)
    assert {d["bench"] for d in run.documents} | set(run.unavailable) == set(suite.BENCHES)
    for d in run.documents:
        assert d["load"] == "all"
    # the load was stopped: no load processes are left in the guest
    left = board.run("ps -o comm | grep -c '^udrv' || true").stdout.strip()
    assert left == "0", f"{left} udrv processes left after the benches"


def test_suite_q35_part(board_std_q35):
    """make lab's q35 part (rig/lab/suite/pci.py): udrv-bench pci idle and under
    load, filed as q35 runs; the UIO-vs-VFIO table has every cell."""
    runs = suite.run_pci(board_std_q35, "std-q35", "quick")
    assert [(r.board, r.kernel, r.load, r.variant) for r in runs] == [
        ("q35", "std", "none", ""), ("q35", "std", "all", "")]
    assert all(r.failures == [] for r in runs)
    check_lab(suite.lab_document(runs))
    lines = suite_table(pci_spec.text_table, runs)
    assert len(lines) == 3 + 2 + 3 + 3  # uio-intx; vfio-intx, vfio-msi with their raw rows
    assert all("-" not in line.split()[2:] for line in lines[3:]), lines
    assert all(" x" in line for line in lines[5:]), lines  # the VFIO and raw rows' ratios
