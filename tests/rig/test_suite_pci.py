# SPDX-License-Identifier: GPL-2.0-only
"""The suite's UIO-vs-VFIO part without booting (rig/lab/suite/pci.py): which q35
boards make lab adds and the command it runs there (its table:
tests/rig/test_results_tables.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from rig.lab import __main__ as lab_main  # noqa: E402
from rig.lab.suite import pci  # noqa: E402
from rig.lab.suite import qemu as suite  # noqa: E402


def test_make_lab_boots_q35_beside_x86() -> None:
    assert pci.q35_targets(["std", "rt", "rpi3"]) == ["std-q35", "rt-q35"]
    assert pci.q35_targets(["rt"]) == ["rt-q35"]
    assert pci.q35_targets(["std-q35", "rt-q35"]) == []
    assert pci.q35_targets(["rpi3"]) == []
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
