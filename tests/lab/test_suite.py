# SPDX-License-Identifier: GPL-2.0-only
"""The suite runner behind `make lab` (lab/suite.py), quick, under load."""

from __future__ import annotations

from results_schema import check_lab_document

from lab import suite


def test_suite_under_load(board, request):
    kernel = request.node.callspec.id
    run = suite.run_benches(board, kernel, "all", "quick")
    assert run.failures == []
    doc = suite.lab_document([run])
    check_lab_document(doc)
    assert {d["bench"] for d in run.documents} | set(run.unavailable) == set(suite.BENCHES)
    for d in run.documents:
        assert d["load"] == "all"
    # the load was stopped: no load processes are left in the guest
    left = board.run("ps -o comm | grep -c '^udrv' || true").stdout.strip()
    assert left == "0", f"{left} udrv processes left after the benches"
