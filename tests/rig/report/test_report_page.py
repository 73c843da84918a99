# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report on a real quick suite run: every panel and table there, every image decodes,
the tables say what the suite prints, the metadata is complete."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from report_helpers import (
    BENCH_IRQ,
    BENCH_TIMER,
    LAB_A,
    LAUNCHER,
    REPO,
    Rendered,
    load_json,
    render,
    run_report,
)
from report_page import Page, check_png, data_uri_png

from rig.bench.toggle import spec as toggle_spec
from rig.lab.suite import qemu as suite
from rig.results import text
from tests.support.results_docs import suite_table


def slug(*parts: Any) -> str:
    """The page's id convention (docs/rig/report.md)."""
    def one(p: str) -> str:
        return "".join(c if c.isalnum() or c in "_." else "-" for c in p).strip("-")
    return "-".join(one(str(p)) for p in parts if p is not None)


def rows_of(doc: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(run, document, row) for every row of a udrv-lab/1 document."""
    return [(run, d, row) for run in doc["runs"] for d in run["documents"] for row in d["rows"]]


def latency_keys(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    keys: dict[tuple[Any, ...], None] = {}
    for _, d, row in rows_of(doc):
        if row["rate_per_s"] is None:
            keys.setdefault((d["bench"], row["mechanism"], row["implementation"], row["wait"],
                             row["sample"]))
    return list(keys)


def label(run: dict[str, Any]) -> str:
    return f"{run['kernel']} {'idle' if run['load'] == 'none' else run['load']}"


def test_every_bench_and_panel_is_on_the_page(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    page = report_a.page
    benches = {d["bench"] for _, d, _ in rows_of(doc)}
    assert benches == {"toggle", "irq", "uio", "timer", "kernel"}
    for bench in benches - {"toggle"}:
        assert f"hist-{bench}" in page.ids, f"no histogram section for bench {bench}"
        assert f"udrv-bench {bench}" in page.headings
    assert "toggle-rates" in page.figures
    assert "breakdown-irq-cdev" in page.figures
    for key in latency_keys(doc):
        assert f"hist-{slug(*key)}" in page.figures, f"no histogram panel for {key}"
    expected = {f"hist-{slug(*k)}" for k in latency_keys(doc)} | {"toggle-rates",
                                                                    "breakdown-irq-cdev"}
    assert set(page.figures) == expected
    for table in ("table-toggle-none", "table-toggle-all", "table-latency", "table-runs",
                  "table-documents", "table-samples"):
        assert table in page.tables, f"no table {table}"
    for section in ("toggles", "breakdown", "histograms", "latency", "metadata"):
        assert section in page.ids


def test_every_image_decodes_and_is_written_as_png(report_a: Rendered) -> None:
    page = report_a.page
    files = sorted(report_a.png_dir.glob("*.png"))
    assert {f.stem for f in files} == set(page.figures)
    for fig_id, src in page.figures.items():
        png = data_uri_png(src)
        width, height = check_png(png)
        assert width >= 400 and height >= 200, f"{fig_id}: {width}x{height}"
        assert (report_a.png_dir / f"{fig_id}.png").read_bytes() == png
    assert f"wrote {report_a.html} ({len(files)} plots in {report_a.png_dir})" in report_a.stdout


def test_page_is_self_contained_with_working_contents(report_a: Rendered) -> None:
    page = report_a.page
    assert page.external == []
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"
    assert page.toc, "no table of contents"
    for href in page.toc:
        assert href.startswith("#") and href[1:] in page.ids, f"dead link {href}"
    assert "style" in page.tags
    assert report_a.text.startswith("<!DOCTYPE html>")


def suite_runs(doc: dict[str, Any]) -> list[suite.SuiteRun]:
    return [suite.SuiteRun(r["kernel"], r["load"], r["documents"]) for r in doc["runs"]]


def test_latency_table_says_what_the_suite_prints(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    lines = suite_table(text.latency_table, suite_runs(doc))
    head = lines[1].split()[3:]
    cols = [f"{head[i]} {head[i + 1]}" for i in range(0, len(head), 2)]
    table = report_a.page.tables["table-latency"]
    html_cols = [h for h, _ in table.head[0]][3:]
    assert html_cols == cols
    html_rows = [[c.text for c in row] for row in table.rows]
    cli_rows = [line.split() for line in lines[2:]]
    assert html_rows == cli_rows
    assert len(cli_rows) == len(latency_keys(doc))


def test_toggle_table_says_what_the_suite_prints(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    lines = suite_table(toggle_spec.toggle_table, suite_runs(doc))
    table = report_a.page.tables["table-toggle-none"]
    kernels = [h for h, n in table.head[0] if n == 3]
    assert kernels == ["std", "rt"]
    assert [h for h, _ in table.head[1][2:]] == ["ns/toggle", "toggles/s", "vs reference"] * 2
    html_tokens = [" ".join(c.text for c in row).replace("\u00d7", "x").split()
                   for row in table.rows]
    assert html_tokens == [line.split() for line in lines[2:]]


def test_toggle_table_under_load(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    table = report_a.page.tables["table-toggle-all"]
    runs = [r for r in doc["runs"] if r["load"] == "all"]
    for row in table.rows:
        mech, impl = row[0].text, row[1].text
        for i, run in enumerate(runs):
            (x,) = [x for d in run["documents"] for x in d["rows"]
                    if x["rate_per_s"] is not None and x["mechanism"] == mech
                    and x["implementation"] == impl]
            assert row[2 + 3 * i].text == f"{x['stats']['avg']:.1f}"
            assert row[3 + 3 * i].text == f"{x['rate_per_s']:.0f}"


def test_metadata_names_kernel_board_rt_settings_load_counts_losses(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    runs_table = report_a.page.tables["table-runs"]
    assert len(runs_table.rows) == len(doc["runs"])
    for run, row in zip(doc["runs"], runs_table.rows, strict=True):
        k = run["documents"][0]["kernel"]
        texts = [c.text for c in row]
        assert texts[0] == label(run)
        assert run["documents"][0]["board"] in texts
        assert k["release"] in texts and k["version"] in texts
        assert any(t.startswith(k["preempt_model"]) for t in texts)
        assert run["load"] in texts
        assert ", ".join(d["bench"] for d in run["documents"]) in texts
    docs_table = report_a.page.tables["table-documents"]
    heads = [h for h, _ in docs_table.head[0]]
    docs = [(run, d) for run in doc["runs"] for d in run["documents"]]
    assert len(docs_table.rows) == len(docs)
    for (run, d), row in zip(docs, docs_table.rows, strict=True):
        cell = {h: c.text for h, c in zip(heads, row, strict=True)}
        assert cell["run"] == label(run) and cell["bench"] == d["bench"]
        assert cell["udrv version"] == d["tool"]["version"]
        assert cell["policy"] == d["rt"]["policy"]
        assert cell["priority"] == str(d["rt"]["priority"])
        assert cell["memory locked"] == ("yes" if d["rt"]["memory_locked"] else "no")
        assert cell["samples"] == str(sum(x["stats"]["count"] for x in d["rows"]))
        assert cell["lost"] == str(sum(x["loss"]["lost"] for x in d["rows"] if x["loss"]))


def test_samples_table_has_every_row_with_counts_and_losses(report_a: Rendered) -> None:
    doc = load_json(LAB_A)
    table = report_a.page.tables["table-samples"]
    heads = [h for h, _ in table.head[0]]
    expected = rows_of(doc)
    assert len(table.rows) == len(expected)
    for (run, d, x), row in zip(expected, table.rows, strict=True):
        cell = {h: c.text for h, c in zip(heads, row, strict=True)}
        assert (cell["run"], cell["bench"], cell["sample"]) == (label(run), d["bench"],
                                                                 x["sample"])
        assert cell["samples"] == str(x["stats"]["count"])
        assert cell["lost"] == (str(x["loss"]["lost"]) if x["loss"] else "-")


def test_single_bench_documents_of_one_system_join_one_run(tmp_path: Path) -> None:
    r = render(tmp_path, BENCH_TIMER, BENCH_IRQ)
    page = r.page
    runs = page.tables["table-runs"]
    assert len(runs.rows) == 1
    texts = [c.text for c in runs.rows[0]]
    assert texts[0] == "std idle" and "timer, irq" in texts
    keys = latency_keys({"runs": [{"documents": [load_json(BENCH_TIMER),
                                                 load_json(BENCH_IRQ)]}]})
    assert set(page.figures) == {f"hist-{slug(*k)}" for k in keys} | {"breakdown-irq-cdev"}
    assert "toggles" not in page.ids
    for src in page.figures.values():
        check_png(data_uri_png(src))


def test_selector_keeps_the_named_runs(tmp_path: Path) -> None:
    r = render(tmp_path, f"{LAB_A}@rt/idle")
    assert [row[0].text for row in r.page.tables["table-runs"].rows] == ["rt idle"]
    assert [h for h, _ in r.page.tables["table-latency"].head[0]][3:] == ["rt idle"]


def test_stale_pngs_go_and_a_foreign_directory_is_refused(tmp_path: Path) -> None:
    render(tmp_path, BENCH_IRQ)
    r = render(tmp_path, BENCH_TIMER)
    assert r.page.figures and not any("irq" in k for k in r.page.figures)
    assert {p.stem for p in r.png_dir.glob("*.png")} == set(r.page.figures)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "holiday.png").write_bytes(b"x")
    bad = run_report(BENCH_TIMER, "-o", tmp_path / "x.html", "--png-dir", foreign)
    assert bad.returncode == 2 and "not a udrv-report PNG directory" in bad.stderr
    assert (foreign / "holiday.png").exists()


def python_with_matplotlib() -> str:
    if importlib.util.find_spec("matplotlib"):
        return sys.executable
    loader = importlib.machinery.SourceFileLoader("udrv_report_launcher", str(LAUNCHER))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    launcher = importlib.util.module_from_spec(spec)
    loader.exec_module(launcher)
    python = launcher.other_python()
    if python is None:
        pytest.fail("no Python with matplotlib: scripts/install-deps --check installs "
                    "python3-matplotlib", pytrace=False)
    return str(python)


def test_python_api_for_the_suite(tmp_path: Path) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from rig.report import render; "
            "out = render([sys.argv[2]], sys.argv[3]); print(out.html, len(out.pngs))")
    out = tmp_path / "lab" / "report.html"
    r = subprocess.run([python_with_matplotlib(), "-c", code, str(REPO),
                        str(LAB_A), str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    page = Page(out.read_text())
    assert r.stdout.split() == [str(out), str(len(page.figures))]
    assert {p.stem for p in (tmp_path / "lab" / "report").glob("*.png")} == set(page.figures)


def test_a_new_board_and_mechanism_get_their_panels(tmp_path: Path) -> None:
    """Nothing is hard-coded: a board, kernel and toggle mechanism never seen before.

    Structural check only: run A's std/idle run is copied under another board and
    kernel name with its sysfs toggle rows renamed "mmio" (not a measurement).
    """
    doc = load_json(LAB_A)
    (std,) = [r for r in doc["runs"] if r["kernel"] == "std" and r["load"] == "none"]
    other = json.loads(json.dumps(std))
    other["kernel"] = "arm64"
    other["board"] = "rpi3"  # the lab's name of the machine (newer udrv-lab/1 files)
    for d in other["documents"]:
        d["board"] = "Raspberry Pi 3 Model B (QEMU)"
        for row in d["rows"]:
            if row["mechanism"] == "sysfs":
                row["mechanism"] = "mmio"
            if row["reference"] and row["reference"]["mechanism"] == "sysfs":
                row["reference"]["mechanism"] = "mmio"
    doc["runs"].append(other)
    path = tmp_path / "two-boards.json"
    path.write_text(json.dumps(doc))
    r = render(tmp_path, path)
    runs = [row[0].text for row in r.page.tables["table-runs"].rows]
    assert runs[0] == "Standard PC std idle" and runs[-1] == "rpi3 arm64 idle"
    assert r.page.tables["table-runs"].rows[-1][2].text == "rpi3: Raspberry Pi 3 Model B (QEMU)"
    pc, pi = r.page.tables["table-toggle-Standard-PC-none"], r.page.tables["table-toggle-rpi3-none"]
    assert [h for h, n in pc.head[0] if n == 3] == ["std", "rt"]
    assert [h for h, n in pi.head[0] if n == 3] == ["arm64"]
    toggles = [(row[0].text, row[1].text) for row in pi.rows]
    assert ("mmio", "udrv") in toggles and ("mmio", "raw") in toggles
    assert "rpi3 arm64 idle" in [h for h, _ in r.page.tables["table-latency"].head[0]]
    assert any(k.startswith("hist-") for k in r.page.figures)
    for src in r.page.figures.values():
        check_png(data_uri_png(src))


def with_priority_runs(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """LAB_A plus two priority-axis runs of the rt kernel, made of LAB_A's own
    irq and uio documents of other runs (real, consistent documents)."""
    doc = load_json(LAB_A)
    donors = [r for r in doc["runs"] if not (r["kernel"] == "rt" and r["load"] == "none")]
    for variant, donor in zip(("irq-prio 90", "SCHED_OTHER"), donors, strict=False):
        run = json.loads(json.dumps(donor))
        run.update(kernel="rt", load="none", variant=variant)
        run["documents"] = [d for d in run["documents"] if d["bench"] in ("irq", "uio")]
        for d in run["documents"]:
            d["load"] = "none"
        doc["runs"].append(run)
    path = tmp_path / "lab-priority.json"
    path.write_text(json.dumps(doc))
    return path, doc


def test_priority_axis_section_says_what_the_suite_prints(tmp_path: Path) -> None:
    path, doc = with_priority_runs(tmp_path)
    page = render(tmp_path / "out", path).page
    assert "priority" in page.ids and "priority-0" in page.figures
    check_png(data_uri_png(page.figures["priority-0"]))
    table = next(t for tid, t in page.tables.items() if tid.startswith("table-priority"))
    assert [h for h, _ in table.head[0]][3:] == [
        "above its irq thread", "below it (irq-prio 90)", "SCHED_OTHER"]
    rt_runs = [r for r in doc["runs"] if r["kernel"] == "rt" and r["load"] == "none"]
    printed = suite_table(text.priority_table,
                          [suite.SuiteRun(r["kernel"], r["load"], r["documents"],
                                          variant=r.get("variant", "")) for r in rt_runs])
    cells = {(row[0].text, row[1].text, row[2].text): [c.text for c in row[3:]]
             for row in table.rows}
    assert cells, "no row in the priority table"
    for line in printed[2:]:
        bench, mech_wait, sample, *values = line.split()
        if (bench, mech_wait, sample) in cells:
            assert cells[(bench, mech_wait, sample)] == values, line


def test_no_priority_section_without_variants(report_a: Rendered) -> None:
    assert "priority" not in report_a.page.ids
