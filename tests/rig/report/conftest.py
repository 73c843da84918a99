# SPDX-License-Identifier: GPL-2.0-only
"""Session fixtures of the udrv-report tests: each page is rendered once."""

from __future__ import annotations

import pytest
from report_helpers import LAB_A, LAB_B, Rendered, render


@pytest.fixture(scope="session")
def report_a(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("report-a"), LAB_A)


@pytest.fixture(scope="session")
def compare_ab(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("compare-ab"), "--compare", LAB_A, LAB_B)


@pytest.fixture(scope="session")
def compare_std_rt(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("compare-std-rt"), "--compare",
                  f"{LAB_A}@std/idle", f"{LAB_A}@rt/idle")
