# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's "Interrupt rate capacity" section, on real udrv-bench rate
documents (fixtures/lab-rate.json: both kernels, idle and under load): the
figures decode, the table says what the suite prints, the rate rows stay out
of the latency sections; a damaged rate object is an input error, not a
traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_helpers import LAB_RATE, Rendered, load_json, render, run_report
from report_page import check_png, data_uri_png

from rig.bench.rate import spec as rate_spec
from rig.lab.suite import qemu as suite
from tests.support.results_docs import suite_table


@pytest.fixture(scope="module")
def rate_page(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("report-rate"), LAB_RATE)


def test_fixture_is_what_the_lab_measured() -> None:
    """Every run swept 1k..200k/s; the raw cdev receiver lost events at 200k/s."""
    doc = load_json(LAB_RATE)
    assert len(doc["runs"]) == 4
    for run in doc["runs"]:
        rate = run["documents"][0]["rate"]
        assert rate["rates"][0] == 1000 and rate["rates"][-1] == 200000
        (top,) = [s for s in rate["steps"] if s["target_per_s"] == 200000
                  and (s["mechanism"], s["implementation"]) == ("cdev", "raw")]
        assert top["lost"] > 0, top


def test_section_figures_and_table(rate_page: Rendered) -> None:
    page = rate_page.page
    assert "rate" in page.ids
    for fig in ("rate-received", "rate-lost"):
        assert fig in page.figures, sorted(page.figures)
        check_png(data_uri_png(page.figures[fig]))
    doc = load_json(LAB_RATE)
    rows = sum(len(r["documents"][0]["rate"]["capacity"]) for r in doc["runs"])
    assert len(page.tables["table-rate"].rows) == rows


def test_table_says_what_the_suite_prints(rate_page: Rendered) -> None:
    doc = load_json(LAB_RATE)
    runs = [suite.SuiteRun(r["kernel"], r["load"], r["documents"]) for r in doc["runs"]]
    printed = suite_table(rate_spec.text_table, runs)[3:]
    page = [[c.text for c in row] for row in rate_page.page.tables["table-rate"].rows]
    assert len(printed) == len(page)
    for line, row in zip(printed, page, strict=True):
        words = line.split()
        assert words[2:4] == row[1:3], (line, row)
        if words[-1] != "absent":
            assert words[4:7] == row[3:6], (line, row)


def test_rate_rows_only_in_their_section(rate_page: Rendered) -> None:
    page = rate_page.page
    assert not any(f.startswith("hist-rate") for f in page.figures), sorted(page.figures)
    assert "table-latency" not in page.tables  # the rate rows were its only rows


def test_no_rate_section_without_rate_documents(report_a: Rendered) -> None:
    assert "rate" not in report_a.page.ids


def _damaged(tmp_path: Path, change: Any) -> Path:
    doc = load_json(LAB_RATE)
    change(doc["runs"][0]["documents"][0]["rate"])
    path = tmp_path / "lab-rate-bad.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: g.pop("steps"), "rate.steps: missing"),
    (lambda g: g["steps"][0].update(lost="5"), "rate.steps[0].lost"),
    (lambda g: g["capacity"][0].update(measured=1), "rate.capacity[0].measured"),
    (lambda g: g["capacity"][0].update(knee_per_s="fast"), "rate.capacity[0].knee_per_s"),
], ids=["no steps", "lost as text", "measured as a number", "knee as text"])
def test_damaged_rate_object_is_an_input_error(tmp_path: Path, change: Any,
                                               message: str) -> None:
    r = run_report(_damaged(tmp_path, change), "-o", tmp_path / "page.html")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr, r.stderr
