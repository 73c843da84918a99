# SPDX-License-Identifier: GPL-2.0-only
"""The suite's UIO-vs-VFIO part: udrv bench pci on the q35 board.

The x86 (pc) board has no IOMMU, so VFIO needs the q35 board (rig/lab/boards.py);
`make lab` boots it beside each x86 kernel it measures (std-q35 for std,
rt-q35 for rt) and runs only `udrv bench pci` there, idle and under load
(on rt also with the irq threads raised above the bench, `--irq-prio 90`):
edu's raise-register write -> wake-up through UIO INTx, VFIO INTx and VFIO
MSI, and the re-arm of each. The table puts them side by side, with each
VFIO row's ratio to the UIO INTx row of the same run (the bench's
`reference`), and each VFIO path's raw row (a bare blocking read() of its
eventfd) with its ratio to udrv's row of the path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .suite import SuiteRun

BENCH = "pci"
BOARD = "q35"
# udrv bench pci's paths and samples, in its order
MECHANISMS = ("uio-intx", "vfio-intx", "vfio-msi")
SAMPLES = ("write_to_wake", "rearm")
RAW = "raw read()"  # the sample column of a raw row
LOADS = ("none", "all")


def q35_targets(kernels: list[str]) -> list[str]:
    """The q35 targets to boot beside the x86 kernels `kernels` selects
    (those not selected already)."""
    return [f"{k}-q35" for k in ("std", "rt") if k in kernels and f"{k}-q35" not in kernels]


def _rows(run: SuiteRun) -> dict[tuple[str, str], dict[str, Any]]:
    """(mechanism, sample) -> row; a raw row's sample is RAW."""
    out = {}
    for doc in run.documents:
        if doc["bench"] == BENCH:
            for row in doc["rows"]:
                raw = row["implementation"] == "raw"
                out[(row["mechanism"], RAW if raw else row["sample"])] = row
    return out


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    s = row["stats"]
    cell = f"{s['p50'] / 1000:.1f}/{s['p99'] / 1000:.1f}/{s['max'] / 1000:.1f}"
    ref = row.get("reference")
    if ref and ref.get("ratio_p50") is not None:
        cell += f" x{ref['ratio_p50']:.2f}"
    return cell


def pci_table(runs: list[SuiteRun]) -> list[str]:
    """mechanism x sample rows, kernel x load columns (then the rt variant):
    p50/p99/max in us and the p50's ratio to UIO INTx measured in the same run."""
    cols = [(f"{k} {'idle' if ld == 'none' else ld}", r)
            for k in ("std", "rt") for ld in LOADS
            for r in runs if r.board == BOARD and r.kernel == k and r.load == ld
            and not r.variant]  # fmt: skip
    cols += [(f"{r.kernel} {r.variant}", r) for r in runs if r.board == BOARD and r.variant]
    lines = ["UIO vs VFIO: edu's raise-register write -> userspace wake-up, and the "
             "re-arm for the next interrupt (udrv bench pci, q35 board);",
             "p50/p99/max in us, xR: the p50 over UIO INTx's in the same run "
             "(raw read(): over udrv's of the same path)",
             f"{'mechanism':<11}{'sample':<15}" + "".join(f"{c:>24}" for c, _ in cols)]
    tables = [_rows(r) for _, r in cols]
    for mech in MECHANISMS:
        raw = mech != "uio-intx" and any((mech, RAW) in t for t in tables)
        for sample in SAMPLES + ((RAW,) if raw else ()):
            lines.append(f"{mech:<11}{sample:<15}"
                         + "".join(f"{_cell(t.get((mech, sample))):>24}" for t in tables))
    return lines
