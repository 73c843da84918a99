# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report --compare: side-by-side panels, ratio tables, changes beyond the noise.

The highlighting is checked against the rule of docs/rig/report.md recomputed here
from the raw results, on two real quick runs (A, B) and on the std against the
rt kernel of run A (where RT's longer wake-ups are real changes).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from report_helpers import LAB_A, LAB_B, Rendered, load_json, render, run_report
from report_page import Table, check_png, data_uri_png

METRICS = {"p50": ("p50", 0.5), "avg": ("avg", None), "p99": ("p99", 0.99),
           "p99.9": ("p99_9", 0.999), "max": ("max", None)}


def run_of(doc: dict[str, Any], label: str) -> dict[str, Any]:
    kernel, load = label.split()
    load = "none" if load == "idle" else load
    (run,) = [r for r in doc["runs"] if r["kernel"] == kernel and r["load"] == load]
    return run


def find_row(run: dict[str, Any], bench: str, label: str, sample: str) -> dict[str, Any]:
    (row,) = [x for d in run["documents"] if d["bench"] == bench for x in d["rows"]
              if "/".join(p for p in (x["mechanism"], x["implementation"], x["wait"]) if p)
              == label and x["sample"] == sample]
    return row


def expected_class(metric: str, a: dict[str, Any], b: dict[str, Any], noise: float) -> str:
    """docs/rig/report.md: beyond noise, averages beyond 3 SE, percentiles with 10 beyond."""
    field, q = METRICS[metric]
    va, vb = a[field], b[field]
    if metric == "max" or va <= 0:
        return "muted"
    if q is not None and min(a["count"], b["count"]) * (1 - q) < 10 - 1e-9:
        return "muted"
    ratio = vb / va
    beyond = abs(ratio - 1) > noise
    if metric == "avg":
        se = math.sqrt(a["stddev"] ** 2 / a["count"] + b["stddev"] ** 2 / b["count"])
        beyond = beyond and abs(vb - va) > 3 * se
    if not beyond:
        return ""
    return "worse" if ratio > 1 else "better"


def check_ratio_table(table: Table, doc_a: dict[str, Any], doc_b: dict[str, Any],
                      noise: float) -> set[tuple[str, ...]]:
    """Every cell's class as the rule says; returns the rows with a highlighted cell."""
    heads = [h for h, _ in table.head[0]]
    flagged = set()
    for row in table.rows:
        cell = dict(zip(heads, row, strict=True))
        names = cell["runs"].text.split(" \u2192 ")
        ra, rb = run_of(doc_a, names[0]), run_of(doc_b, names[-1])
        where = (cell["bench"].text, cell["mechanism/impl/wait"].text, cell["sample"].text)
        a, b = find_row(ra, *where), find_row(rb, *where)
        assert cell["samples A/B"].text == f"{a['stats']['count']}/{b['stats']['count']}"
        for metric in METRICS:
            if metric not in cell:
                continue
            want = expected_class(metric, a["stats"], b["stats"], noise)
            got = cell[metric]
            have = {"worse", "better", "muted"} & set(got.cls.split())
            assert have == ({want} if want else set()), (
                f"{cell['runs'].text} {where} {metric}: class {got.cls!r}, rule says {want!r} "
                f"({got.text}; {got.title})")
            ratio = b["stats"][METRICS[metric][0]] / a["stats"][METRICS[metric][0]]
            assert got.text.endswith(f"\u00d7{ratio:.3f}")
            if want in ("worse", "better"):
                flagged.add((cell["runs"].text, *where))
    return flagged


def test_two_runs_compared_row_by_row(compare_ab: Rendered) -> None:
    page = compare_ab.page
    doc_a, doc_b = load_json(LAB_A), load_json(LAB_B)
    for section in ("changes", "ratios", "cmp-toggles", "cmp-breakdown", "cmp-histograms",
                    "metadata"):
        assert section in page.ids
    lat = page.tables["table-ratio-latency"]
    tog = page.tables["table-ratio-toggle"]
    n_lat = sum(1 for r in doc_a["runs"] for d in r["documents"] for x in d["rows"]
                if x["rate_per_s"] is None)
    n_tog = sum(1 for r in doc_a["runs"] for d in r["documents"] for x in d["rows"]
                if x["rate_per_s"] is not None)
    assert (len(lat.rows), len(tog.rows)) == (n_lat, n_tog)
    flagged = check_ratio_table(lat, doc_a, doc_b, 0.03)
    flagged |= check_ratio_table(tog, doc_a, doc_b, 0.03)
    assert f"{len(flagged)} rows differ beyond the noise" in compare_ab.stdout
    changes = [line for line in compare_ab.text.split("<li>") if "\u00d7" in line
               and ("slower" in line or "faster" in line)]
    assert len(changes) == len(flagged)


def test_side_by_side_panels_share_one_picture(compare_ab: Rendered,
                                               report_a: Rendered) -> None:
    page = compare_ab.page
    single = {k.removeprefix("hist-") for k in report_a.page.figures if k.startswith("hist-")}
    pairs = {k.removeprefix("cmp-hist-") for k in page.figures if k.startswith("cmp-hist-")}
    assert pairs == single
    assert {"cmp-toggle-rates", "cmp-breakdown-irq-cdev"} <= set(page.figures)
    for fig_id, src in page.figures.items():
        width, _ = check_png(data_uri_png(src))
        if fig_id.startswith("cmp-hist-"):
            one, _ = check_png(data_uri_png(report_a.page.figures[fig_id[4:]]))
            assert width > 1.7 * one, f"{fig_id}: {width} px is not two panels of {one}"


def test_rt_against_std_flags_real_changes(compare_std_rt: Rendered) -> None:
    doc = load_json(LAB_A)
    table = compare_std_rt.page.tables["table-ratio-latency"]
    assert {row[0].text for row in table.rows} == {"std idle \u2192 rt idle"}
    flagged = check_ratio_table(table, doc, doc, 0.03)
    assert flagged, "the rt kernel's wake-ups differ from std's: nothing was flagged"
    worse = [c for row in table.rows for c in row if "worse" in c.cls.split()]
    assert worse and all(float(c.text.rpartition("\u00d7")[2]) > 1.03 for c in worse)


def test_noise_option_moves_the_threshold(tmp_path: Path, compare_std_rt: Rendered) -> None:
    wide = render(tmp_path, "--compare", "--noise", "0.5", f"{LAB_A}@std/idle",
                  f"{LAB_A}@rt/idle")
    doc = load_json(LAB_A)
    strict = check_ratio_table(compare_std_rt.page.tables["table-ratio-latency"], doc, doc,
                               0.03)
    loose = check_ratio_table(wide.page.tables["table-ratio-latency"], doc, doc, 0.5)
    assert loose < strict


def test_runs_that_do_not_pair_are_an_error(tmp_path: Path) -> None:
    r = run_report("--compare", f"{LAB_A}@std/idle,std/all", f"{LAB_B}@rt/idle,rt/all",
                   "-o", tmp_path / "c.html")
    assert r.returncode == 2, r.stderr
    assert "no run pairs" in r.stderr and "FILE@KERNEL/LOAD" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "c.html").exists()
