# SPDX-License-Identifier: GPL-2.0-only
"""The suite's UIO-vs-VFIO part without booting (rig/lab/suite_pci.py): which q35
boards make lab adds, the command it runs there, and the table (rows
mechanism x sample, columns kernel x load, ratios to UIO INTx)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
from rig.lab import __main__ as lab_main  # noqa: E402
from rig.lab import suite, suite_pci  # noqa: E402


def _doc(p50_us: float) -> dict[str, Any]:
    rows = []
    for i, mech in enumerate(suite_pci.MECHANISMS):
        for j, sample in enumerate(suite_pci.SAMPLES):
            p50 = int((p50_us + i + 10 * j) * 1000)
            row: dict[str, Any] = {"mechanism": mech, "implementation": "udrv",
                                   "wait": None if j else ("read" if i == 0 else "poll"),
                                   "sample": sample,
                                   "stats": {"p50": p50, "p99": p50 + 500, "max": p50 + 1000},
                                   "reference": None}
            if i:
                row["reference"] = {"mechanism": "uio-intx", "implementation": "udrv",
                                    "ratio_avg": 1.0, "ratio_p50": p50 / ((p50_us + 10 * j)
                                                                          * 1000)}
            rows.append(row)
    return {"bench": "pci", "rows": rows}


def test_make_lab_boots_q35_beside_x86() -> None:
    assert suite_pci.q35_targets(["std", "rt", "rpi3"]) == ["std-q35", "rt-q35"]
    assert suite_pci.q35_targets(["rt"]) == ["rt-q35"]
    assert suite_pci.q35_targets(["std-q35", "rt-q35"]) == []
    assert suite_pci.q35_targets(["rpi3"]) == []
    assert suite.bench_command("pci", "all", suite.SAMPLES["full"]["pci"]) == \
        "udrv-bench pci --json --quiet --load all --samples 500"
    assert suite.SAMPLES["quick"]["pci"] == 100


@pytest.mark.parametrize(("argv", "boards"), [
    (["suite"], ["std", "rt", "rpi3", "std-q35", "rt-q35"]),
    (["suite", "--kernel", "rt"], ["rt", "rt-q35"]),
    (["suite", "--board", "x86"], ["std", "rt"]),
    (["suite", "--board", "q35", "--kernel", "std"], ["std-q35"]),
])
def test_suite_boards(monkeypatch: pytest.MonkeyPatch, argv: list[str],
                      boards: list[str]) -> None:
    """make lab (--board all) boots the q35 board beside each x86 kernel."""
    seen: list[list[str]] = []
    monkeypatch.setattr(suite, "run_suite", lambda kernels, *a, **k: seen.append(kernels) or 0)
    args = lab_main.parser().parse_args(argv)
    assert args.func(args) == 0
    assert seen == [boards]


def test_pci_table() -> None:
    runs = [suite.SuiteRun("std", "none", [_doc(2.0)], board="q35"),
            suite.SuiteRun("std", "all", [_doc(3.0)], board="q35"),
            suite.SuiteRun("rt", "none", [_doc(20.0)], board="q35"),
            suite.SuiteRun("std", "none", [_doc(99.0)])]  # x86: not in this table
    lines = suite_pci.pci_table(runs)
    assert lines[2].split()[2:] == ["std", "idle", "std", "all", "rt", "idle"]
    body = [line.split() for line in lines[3:]]
    assert [b[:2] for b in body] == [[m, s] for m in suite_pci.MECHANISMS
                                     for s in suite_pci.SAMPLES]
    assert body[0][2:] == ["2.0/2.5/3.0", "3.0/3.5/4.0", "20.0/20.5/21.0"]
    assert body[2][2:] == ["3.0/3.5/4.0", "x1.50", "4.0/4.5/5.0", "x1.33",
                           "21.0/21.5/22.0", "x1.05"]
    assert body[5][2:6] == ["14.0/14.5/15.0", "x1.17", "15.0/15.5/16.0", "x1.15"]


def test_rt_variant_is_the_last_column() -> None:
    runs = [suite.SuiteRun("rt", "none", [_doc(8.0)], board="q35", variant="irq-prio 90"),
            suite.SuiteRun("rt", "none", [_doc(20.0)], board="q35")]
    lines = suite_pci.pci_table(runs)
    assert lines[2].split()[2:] == ["rt", "idle", "rt", "irq-prio", "90"]
    assert lines[3].split()[2:] == ["20.0/20.5/21.0", "8.0/8.5/9.0"]


def test_table_with_a_path_missing() -> None:
    doc = _doc(2.0)
    doc["rows"] = [r for r in doc["rows"] if r["mechanism"] != "vfio-intx"]
    lines = suite_pci.pci_table([suite.SuiteRun("std", "none", [doc], board="q35")])
    assert lines[5].split() == ["vfio-intx", "write_to_wake", "-"]


def test_raw_rows_follow_their_path() -> None:
    """A VFIO path's raw row (a bare read() of its eventfd) is a line of its
    own after the path's udrv rows, with its ratio to udrv's row; it never
    replaces udrv's write_to_wake, which has the same mechanism and sample."""
    doc = _doc(2.0)
    rows: list[dict[str, Any]] = []
    for r in doc["rows"]:
        rows.append(r)
        if r["mechanism"] != "uio-intx" and r["sample"] == "rearm":
            rows.append({"mechanism": r["mechanism"], "implementation": "raw", "wait": "read",
                         "sample": "write_to_wake",
                         "stats": {"p50": 1500, "p99": 1600, "max": 1700},
                         "reference": {"mechanism": r["mechanism"], "implementation": "udrv",
                                       "ratio_avg": 0.5, "ratio_p50": 0.5}})
    doc["rows"] = rows
    body = [line.split() for line in
            suite_pci.pci_table([suite.SuiteRun("std", "none", [doc], board="q35")])[3:]]
    assert [b[0] for b in body] == ["uio-intx"] * 2 + ["vfio-intx"] * 3 + ["vfio-msi"] * 3
    assert body[2][2:] == ["3.0/3.5/4.0", "x1.50"]  # udrv's, not the raw row's
    assert body[4] == ["vfio-intx", "raw", "read()", "1.5/1.6/1.7", "x0.50"]
    assert body[7] == ["vfio-msi", "raw", "read()", "1.5/1.6/1.7", "x0.50"]
