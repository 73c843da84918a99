# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the udrv CLI tests: the binary, a fake root per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_fixtures import bench_bin as bench_bin
from tests.support.cli_fixtures import tree as tree
from tests.support.cli_fixtures import udrv_bin as udrv_bin
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner


@pytest.fixture
def udrv(udrv_bin: Path, tree: FakeTree) -> Runner:
    """udrv(*args) runs the binary with UDRV_SYSROOT at the test's fake tree."""
    return Runner(udrv_bin, tree.root)
