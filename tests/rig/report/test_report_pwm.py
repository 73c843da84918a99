# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's "PWM pulses on the wire" section, on real udrv-bench pwm
documents (fixtures/lab-pwm.json: both kernels, idle and under load, every
generator): the histograms and the rt-under-load timelines decode and pass
the figures' contract, the table says what the suite prints, the pwm rows
stay out of the latency sections; a damaged pwm object, or a timeline that
is not its width row's samples, is an input error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_helpers import FIXTURES, Rendered, load_json, render, run_report
from report_page import check_png, data_uri_png

from rig.bench.pwm import model as pwm_model
from rig.bench.pwm import spec as pwm_spec
from rig.lab.suite import qemu as suite
from rig.report import pwm
from rig.results import load
from tests.support.results_docs import suite_table

LAB_PWM = FIXTURES / "lab-pwm.json"
FIGURES = [f"pwm-{kind}-{wave}" for wave in pwm_spec.WAVES for kind in ("histogram", "timeline")]


@pytest.fixture(scope="module")
def pwm_page(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render(tmp_path_factory.mktemp("report-pwm"), LAB_PWM)


def test_fixture_is_what_the_lab_measured() -> None:
    """The fixture itself: every generator of both waveforms in each run, each
    pulse measured in the timeline (none dropped at 200 periods; under load
    some 1khz pulses are missing)."""
    doc = load_json(LAB_PWM)
    assert [(r["kernel"], r["load"]) for r in doc["runs"]] == [
        ("std", "none"), ("std", "all"), ("rt", "none"), ("rt", "all")]
    for run in doc["runs"]:
        p = run["documents"][0]["pwm"]
        assert {(r["waveform"], r["implementation"]) for r in p["runs"]} == {
            (w, g) for w in pwm_spec.WAVES for g in pwm_spec.GENERATORS}
        for r in p["runs"]:
            assert len(r["timeline"]) == r["wire"]["pulses"] >= 150
            assert r["timeline_dropped"] == 0


def test_section_figures_and_table(pwm_page: Rendered) -> None:
    page = pwm_page.page
    assert "pwm" in page.ids
    for fig in FIGURES:
        assert fig in page.figures, sorted(page.figures)
        check_png(data_uri_png(page.figures[fig]))
    table = page.tables["table-pwm"]
    assert len(table.rows) == 12  # 2 waveforms x 6 generators


def test_table_says_what_the_suite_prints(pwm_page: Rendered) -> None:
    doc = load_json(LAB_PWM)
    runs = [suite.SuiteRun(r["kernel"], r["load"], r["documents"]) for r in doc["runs"]]
    printed = [line for line in suite_table(pwm_spec.text_table, runs)
               if line.split()[0] in pwm_spec.WAVES]  # its rows, not the ratios below
    assert len(printed) == 12
    page_rows = {(row[0].text, row[1].text): [c.text for c in row[2:]]
                 for row in pwm_page.page.tables["table-pwm"].rows}
    for line in printed:
        wave, gen, *cells = line.split()
        assert page_rows[(wave, gen)] == cells, line


def test_timeline_is_rt_under_load() -> None:
    """The timeline is drawn for the rt run under load alone; its pulses are
    the width rows' samples, signed."""
    found = pwm.documents(load(str(LAB_PWM)).runs)
    assert len(found) == 4
    [doc] = [d for r, d in found if (r.kernel, r.load) == ("rt", "all")]
    section = pwm_model.of(doc)
    assert section is not None
    run = section.run("servo", "udrv")
    row = pwm.width_row(doc, "servo", "udrv")
    assert run is not None and row is not None
    assert max(abs(x.error_ns) for x in run.timeline) == row.stats.max
    assert pwm.has_timeline(found) and not pwm.has_timeline(
        [(r, d) for r, d in found if r.kernel == "std"])
    assert pwm.timeline([(r, d) for r, d in found if r.kernel == "std"], "servo") is None


def test_pwm_rows_only_in_their_section(pwm_page: Rendered) -> None:
    page = pwm_page.page
    assert not any(f.startswith("hist-pwm") for f in page.figures), sorted(page.figures)
    assert "table-latency" not in page.tables  # the pwm rows were its only rows


def test_no_pwm_section_without_pwm_documents(report_a: Rendered) -> None:
    assert "pwm" not in report_a.page.ids


def _damaged(tmp_path: Path, change: Any) -> Path:
    doc = load_json(LAB_PWM)
    change(doc["runs"][0]["documents"][0]["pwm"]["runs"][0])
    path = tmp_path / "lab-pwm-bad.json"
    path.write_text(json.dumps(doc))
    return path


def _flip_worst(r: dict[str, Any]) -> None:
    """The largest error made larger than the row's max: not its sample."""
    worst = max(r["timeline"], key=lambda x: abs(x["error_ns"]))
    worst["error_ns"] = abs(worst["error_ns"]) + 1


def _swap(r: dict[str, Any]) -> None:
    r["timeline"][0], r["timeline"][1] = r["timeline"][1], r["timeline"][0]


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.pop("timeline"), "pwm.runs[0].timeline: missing"),
    (lambda r: r.update(timeline_dropped=-1), "pwm.runs[0].timeline_dropped"),
    (lambda r: r["timeline"][0].update(error_ns=1.5), "pwm.runs[0].timeline[0].error_ns"),
    (lambda r: r["timeline"].pop(), "pwm.runs[0]: 199 pulses listed + 0 dropped, "
                                    "wire.pulses says 200"),
    (_swap, "pwm.runs[0].timeline: out of order"),
    (_flip_worst, "pwm.runs[0].timeline: largest |error_ns|"),
], ids=["no timeline", "dropped negative", "error as float", "a pulse left out",
        "out of order", "not the row's max"])
def test_damaged_pwm_object_is_an_input_error(tmp_path: Path, change: Any,
                                              message: str) -> None:
    r = run_report(_damaged(tmp_path, change), "-o", tmp_path / "page.html")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr, r.stderr
