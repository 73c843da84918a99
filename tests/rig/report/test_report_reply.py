# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's responder section (rig/report/reply.py) on real
udrv-bench reply documents: the figure decodes, the table says what the
suite prints (rig.results.text's reply_table)."""

from __future__ import annotations

from pathlib import Path

from report_helpers import FIXTURES, Rendered, load_json, render
from report_page import check_png, data_uri_png

from rig.bench.reply import spec as reply_spec
from rig.lab.suite import qemu as suite
from tests.support.results_docs import suite_table

LAB_REPLY = FIXTURES / "lab-reply.json"


def test_responder_section_says_what_the_suite_prints(tmp_path: Path) -> None:
    doc = load_json(LAB_REPLY)
    page = render(tmp_path / "out", LAB_REPLY).page
    assert "reply" in page.ids and "reply-0" in page.figures
    check_png(data_uri_png(page.figures["reply-0"]))
    table = next(t for tid, t in page.tables.items() if tid.startswith("table-reply"))
    assert [h for h, _ in table.head[0]] == [
        "responder", "wait", "std idle", "std all", "rt idle", "rt all",
        "rt idle irq-prio 90", "rt idle SCHED_OTHER"]
    cells = {(row[0].text, row[1].text): [c.text for c in row[2:]] for row in table.rows}
    runs = [suite.SuiteRun(r["kernel"], r["load"], r["documents"], variant=r.get("variant", ""))
            for r in doc["runs"]]
    printed = suite_table(reply_spec.reply_table, runs)
    assert len(printed) == 2 + 6 and len(cells) == 6
    assert printed[1].split()[-5:] == ["rt", "irq-prio", "90", "rt", "SCHED_OTHER"]
    for line in printed[2:]:
        responder, wait, *values = line.split()
        assert cells[(responder, wait)] == values, line


def test_no_responder_section_without_reply_rows(report_a: Rendered) -> None:
    assert "reply" not in report_a.page.ids


def test_the_breakdown_figure(tmp_path: Path) -> None:
    """A stacked bar per responder where the documents have a breakdown
    (udrv-bench reply --breakdown, std and rt), none where they do not."""
    docs = [FIXTURES / f"bench-reply-breakdown-{k}.json" for k in ("std", "rt")]
    page = render(tmp_path / "bd", *docs).page
    assert "reply-breakdown-0" in page.figures
    check_png(data_uri_png(page.figures["reply-breakdown-0"]))
    page = render(tmp_path / "plain", LAB_REPLY).page
    assert "reply-0" in page.figures and "reply-breakdown-0" not in page.figures
