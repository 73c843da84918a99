# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench under valgrind: what its own readers do with odd kernel files."""

from __future__ import annotations

import pytest
from test_cli_spike import TIMER, TRACING, fake_tracefs

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner
from tests.support.valgrind import memcheck, valgrind_runner


@pytest.mark.parametrize("name", ["current_tracer", "trace_clock", "tracing_on"])
def test_empty_tracefs_file(bench: Runner, tree: FakeTree, name: str) -> None:
    """An empty tracefs file: --trace-on-spike reads nothing, says so, and
    never looks at the line buffer it did not fill."""
    fake_tracefs(tree)
    tree.file(f"{TRACING}/{name}", "")
    r = memcheck(valgrind_runner(bench), tree.root, [*TIMER, "--trace-on-spike", "100"])
    assert r.returncode == 1, r
    assert "==" not in r.stderr, r.stderr
    assert f"{tree.root}/{TRACING}/{name}" in r.stderr, r.stderr
