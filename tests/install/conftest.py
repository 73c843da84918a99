# SPDX-License-Identifier: GPL-2.0-only
"""The source install's tests use udrvd's test bench (tests/daemon/conftest.py):
its fake chips (tree, fake_cdev) and the guard that no udrvd outlives a test."""

from tests.daemon.conftest import fake_cdev, no_udrvd_left, tree

__all__ = ["fake_cdev", "no_udrvd_left", "tree"]
