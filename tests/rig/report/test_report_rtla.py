# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report on a real `udrv-bench timer` document of the rt kernel, which
has rtla's rows (hrtimer/rtla-timerlat irq_latency and thread_latency): each
gets its histogram panel and its lines in the latency and samples tables,
as the suite prints them (fixtures/README.md says how it was made)."""

from __future__ import annotations

from typing import Any

from report_helpers import FIXTURES, load_json, render
from report_page import check_png, data_uri_png

from rig.lab.suite import qemu as suite
from rig.results import text
from tests.support.results_docs import suite_table

BENCH_TIMER_RT = FIXTURES / "bench-timer-rt.json"
RTLA = ("irq_latency", "thread_latency")


def rtla_rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in doc["rows"] if r["implementation"] == "rtla-timerlat"]


def test_fixture_is_an_rt_run_with_rtla_rows() -> None:
    doc = load_json(BENCH_TIMER_RT)
    assert doc["kernel"]["preempt_model"] == "PREEMPT_RT" and doc["bench"] == "timer"
    rows = rtla_rows(doc)
    assert [(r["mechanism"], r["sample"]) for r in rows] == [("hrtimer", s) for s in RTLA]
    assert all(r["stats"]["count"] > 0 for r in rows)


def test_rtla_rows_get_panels_and_table_lines(tmp_path) -> None:
    doc = load_json(BENCH_TIMER_RT)
    page = render(tmp_path, BENCH_TIMER_RT).page
    for sample in RTLA:
        fig = f"hist-timer-hrtimer-rtla-timerlat-{sample}"
        assert fig in page.figures, sorted(page.figures)
        check_png(data_uri_png(page.figures[fig]))
    # the latency table: the suite's lines for this one run, rtla's included
    lines = suite_table(text.latency_table, [suite.SuiteRun("rt", "none", [doc])])
    html_rows = [[c.text for c in row] for row in page.tables["table-latency"].rows]
    assert html_rows == [line.split() for line in lines[2:]]
    labels = [(row[1], row[2]) for row in html_rows]
    assert [("hrtimer/rtla-timerlat", s) for s in RTLA] == labels[-2:]
    # the samples table: rtla's counts
    table = page.tables["table-samples"]
    heads = [h for h, _ in table.head[0]]
    cells = [{h: c.text for h, c in zip(heads, row, strict=True)} for row in table.rows]
    got = {c["sample"]: c["samples"] for c in cells if c["sample"] in RTLA}
    assert got == {r["sample"]: str(r["stats"]["count"]) for r in rtla_rows(doc)}
