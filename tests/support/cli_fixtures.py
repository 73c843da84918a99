# SPDX-License-Identifier: GPL-2.0-only
"""The fixtures of the CLI tests (tests/cli for udrv, tests/rig/bench for
udrv-bench): the binaries and a fake root per test. A conftest imports the
ones it uses (`from tests.support.cli_fixtures import tree as tree`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import find_bench_binary, find_binary, required


@pytest.fixture(scope="session")
def udrv_bin() -> Path:
    return required(find_binary(), "UDRV_BIN")


@pytest.fixture(scope="session")
def bench_bin() -> Path:
    return required(find_bench_binary(), "UDRV_BENCH_BIN")


@pytest.fixture
def tree(tmp_path: Path) -> FakeTree:
    """An empty fake root (add sys/, dev/, proc/ with the fakes helpers)."""
    return FakeTree(tmp_path / "root")
