# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv-bench CLI tests: the binary, a fake root per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner, find_bench_binary


@pytest.fixture(scope="session")
def bench_bin() -> Path:
    path = find_bench_binary()
    if not path.is_file():
        pytest.fail(f"udrv-bench not found at {path}: build it with 'ninja -C build/dev' "
                    "or point UDRV_BENCH_BIN at it", pytrace=False)
    return path


@pytest.fixture
def tree(tmp_path: Path) -> FakeTree:
    """An empty fake root (add sys/, dev/, proc/ with the fakes helpers)."""
    return FakeTree(tmp_path / "root")


@pytest.fixture
def bench(bench_bin: Path, tree: FakeTree) -> Runner:
    """bench(*args) runs udrv-bench with UDRV_SYSROOT at the test's fake tree."""
    return Runner(bench_bin, tree.root)
