# SPDX-License-Identifier: GPL-2.0-only
"""The suite's UIO-vs-VFIO part: udrv-bench pci on the q35 board.

The x86 (pc) board has no IOMMU, so VFIO needs the q35 board (rig/lab/catalogue.py);
`make lab` boots it beside each x86 kernel it measures (std-q35 for std,
rt-q35 for rt) and runs only `udrv-bench pci` there, idle and under load
(on rt also with the irq threads raised above the bench, `--irq-prio 90`):
edu's raise-register write -> wake-up through UIO INTx, VFIO INTx and VFIO
MSI, and the re-arm of each. Its table (rig.bench.pci.spec.text_table) puts them
side by side, with each VFIO row's ratio to the UIO INTx row of the same run
(the bench's `reference`), and each VFIO path's raw row (a bare blocking
read() of its eventfd) with its ratio to udrv's row of the path.
"""

from __future__ import annotations

BENCH = "pci"
BOARD = "q35"


def q35_targets(kernels: list[str]) -> list[str]:
    """The q35 targets to boot beside the x86 kernels `kernels` selects
    (those not selected already)."""
    return [f"{k}-q35" for k in ("std", "rt") if k in kernels and f"{k}-q35" not in kernels]
