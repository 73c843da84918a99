# SPDX-License-Identifier: GPL-2.0-only
"""Session fixtures of the udrv-report tests: each page is rendered once."""

from __future__ import annotations

import pytest
from report_helpers import LAB_A, LAB_B, LAB_RATE, Rendered, render


@pytest.fixture(scope="session")
def report_a(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("report-a"), LAB_A)


@pytest.fixture(scope="session")
def report_a_rate(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """A fresh `make lab`'s page: the suite's benches and the rate sweep, toggle rates
    of two measures (toggles, events received) side by side in the results."""
    return render(tmp_path_factory.mktemp("report-a-rate"), LAB_A, LAB_RATE)


@pytest.fixture(scope="session")
def compare_ab(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("compare-ab"), "--compare", LAB_A, LAB_B)


@pytest.fixture(scope="session")
def compare_std_rt(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("compare-std-rt"), "--compare",
                  f"{LAB_A}@std/idle", f"{LAB_A}@rt/idle")
