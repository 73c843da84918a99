# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv-bench CLI tests: the binary, a fake root per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_fixtures import bench_bin as bench_bin
from tests.support.cli_fixtures import tree as tree
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner


@pytest.fixture
def bench(bench_bin: Path, tree: FakeTree) -> Runner:
    """bench(*args) runs udrv-bench with UDRV_SYSROOT at the test's fake tree."""
    return Runner(bench_bin, tree.root)
