# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's "Scheduler gaps" section, on real udrv-bench gaps documents
(fixtures/lab-gaps.json: both kernels, idle and under load, the kernel's RT
throttling and --rt-runtime -1): the histogram and the timeline decode, the
table says what the suite prints, the gaps rows stay out of the latency
sections and the rt-runtime runs out of the priority axis; a damaged gaps
object is an input error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_helpers import FIXTURES, Rendered, load_json, render, run_report
from report_page import check_png, data_uri_png

from rig.bench.base import GAPS_VARIANT
from rig.bench.gaps import spec as gaps_spec
from rig.lab.suite import qemu as suite
from tests.support.results_docs import suite_table

LAB_GAPS = FIXTURES / "lab-gaps.json"


@pytest.fixture(scope="module")
def gaps_page(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("report-gaps"), LAB_GAPS)


def test_fixture_is_what_the_lab_measured() -> None:
    """The fixture itself: throttled runs have ~50 ms gaps, -1 runs none."""
    doc = load_json(LAB_GAPS)
    for run in doc["runs"]:
        g = run["documents"][0]["gaps"]
        if run.get("variant") == GAPS_VARIANT:
            assert g["sched_rt_runtime_us"] == -1 and g["count"] == 0
        else:
            assert g["sched_rt_runtime_us"] == 950000 and g["count"] >= 4
            assert abs(g["longest_ns"] - 50_000_000) < 4_500_000


def test_section_figures_and_table(gaps_page: Rendered) -> None:
    page = gaps_page.page
    assert "gaps" in page.ids
    for fig in ("gaps-histogram", "gaps-timeline"):
        assert fig in page.figures, sorted(page.figures)
        check_png(data_uri_png(page.figures[fig]))
    table = page.tables["table-gaps"]
    assert len(table.rows) == 8  # 2 kernels x 2 loads x 2 settings


def test_table_says_what_the_suite_prints(gaps_page: Rendered) -> None:
    doc = load_json(LAB_GAPS)
    runs = [suite.SuiteRun(r["kernel"], r["load"], r["documents"],
                           variant=r.get("variant", "")) for r in doc["runs"]]
    printed = suite_table(gaps_spec.text_table, runs)[2:]
    assert len(printed) == 8
    page_rows = {(row[0].text.split()[0], row[0].text.split()[1], row[1].text):
                 [c.text for c in row[2:5]] for row in gaps_page.page.tables["table-gaps"].rows}
    for line in printed:
        kernel, load, runtime, longest, per_s, stalled, *_ = line.split()
        assert page_rows[(kernel, load, runtime)] == [longest, per_s, stalled], line


def test_gaps_rows_only_in_their_section(gaps_page: Rendered) -> None:
    page = gaps_page.page
    assert not any(f.startswith("hist-gaps") for f in page.figures), sorted(page.figures)
    assert "table-latency" not in page.tables  # the gaps rows were its only rows
    assert "toggles" not in page.ids  # not a toggle-rate row
    assert "priority" not in page.ids  # the rt-runtime runs are not priority variants


def test_no_gaps_section_without_gaps_documents(report_a: Rendered) -> None:
    assert "gaps" not in report_a.page.ids


def _damaged(tmp_path: Path, change: Any) -> Path:
    doc = load_json(LAB_GAPS)
    change(doc["runs"][0]["documents"][0]["gaps"])
    path = tmp_path / "lab-gaps-bad.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: g.pop("timeline"), "gaps.timeline: missing"),
    (lambda g: g.update(count="5"), "gaps.count: "),
    (lambda g: g["timeline"][0].update(gap_ns=1.5), "gaps.timeline[0].gap_ns"),
], ids=["no timeline", "count as text", "gap as float"])
def test_damaged_gaps_object_is_an_input_error(tmp_path: Path, change: Any,
                                               message: str) -> None:
    r = run_report(_damaged(tmp_path, change), "-o", tmp_path / "page.html")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr, r.stderr
