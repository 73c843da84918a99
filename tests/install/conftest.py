# SPDX-License-Identifier: GPL-2.0-only
"""The install tests use udrvd's test bench (tests/daemon/conftest.py): its
fake chips (tree, fake_cdev) and the guard that no udrvd outlives a test; and
the staged installs (tests/install/staged.py)."""

import pytest

from tests.daemon.conftest import fake_cdev, no_udrvd_left, tree
from tests.install.staged import deb_install, source_install

__all__ = ["deb_install", "fake_cdev", "no_udrvd_left", "source_install", "tree"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "deb: needs udrv's Debian packages in build/deb (make "
                            "deb): scripts/deb-test runs them, make check does not")  # fmt: skip
