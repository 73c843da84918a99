# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.lava results: LAVA results -> udrv-lab/1, on a captured log.

The captured log (lava-run of the qemu job, timer irq uio toggle) converts to
four documents, each figure checked against LAVA's test cases; the server's
results form (test cases only) rebuilds rows without buckets; whatever does
not add up (a figure missing, changed, a failed bench, a corrupt document)
is in the run's failures and in udrv-report's page; bad inputs exit 2."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from lava_helpers import LAB_FIXTURE, REPO, lava_cli, log_lines, write_log

from rig.lava.results import InputError, convert, figures, read_input

BENCHES = ["timer", "irq", "uio", "toggle"]


def converted(tmp: Path, lines: list[str], board: str = "qemu-std") -> dict[str, Any]:
    return convert([read_input(str(write_log(tmp, lines)))], board=board)


def failures(doc: dict[str, Any]) -> list[str]:
    return [f for r in doc["runs"] for f in r["failures"]]


def result_line(lines: list[str], case: str) -> int:
    pat = f'"case": "{case}",'
    return next(i for i, x in enumerate(lines) if '"lvl": "results"' in x and pat in x)


def test_captured_log_converts_whole(tmp_path: Path) -> None:
    doc = converted(tmp_path, log_lines())
    assert doc["schema"] == "udrv-lab/1"
    [run] = doc["runs"]
    assert (run["board"], run["kernel"], run["load"]) == ("qemu-std", "std", "none")
    assert [d["bench"] for d in run["documents"]] == BENCHES
    assert run["failures"] == []
    for d in run["documents"]:
        assert d["board"] == "qemu-std"
        assert all(r["stats"]["buckets"] for r in d["rows"])  # the histograms came through
        assert sum(r["stats"]["count"] for r in d["rows"]) > 0


def test_every_figure_was_a_lava_measurement(tmp_path: Path) -> None:
    """The documents' figures are exactly the test cases LAVA logged."""
    lines = log_lines()
    cases = {}
    for x in lines:
        if '"lvl": "results"' in x and '"definition": "0_udrv-bench"' in x:
            msg = yaml.safe_load(x)["msg"]
            if "measurement" in msg:
                cases[msg["case"]] = float(msg["measurement"])
    doc = converted(tmp_path, lines)
    want = {}
    for d in doc["runs"][0]["documents"]:
        want |= {n: v for n, (v, _) in figures(d).items()}
    assert want.keys() == cases.keys()
    assert all(cases[n] == pytest.approx(v) for n, v in want.items())


def test_missing_figure_is_a_failure(tmp_path: Path) -> None:
    """Break on purpose: LAVA lost one measurement."""
    lines = log_lines()
    case = "timer.rows.clock_nanosleep--udrv--wakeup.stats.p99"
    del lines[result_line(lines, case)]
    assert failures(converted(tmp_path, lines)) == [
        f"timer: {case}: in the document, not in LAVA's results"]


def test_changed_figure_is_a_failure(tmp_path: Path) -> None:
    lines = log_lines()
    case = "irq.rows.cdev--udrv--read--write_to_wake.stats.max"
    i = result_line(lines, case)
    lines[i] = re.sub(r'"measurement": ! "[0-9.]+"', '"measurement": ! "1.0"', lines[i])
    [f] = failures(converted(tmp_path, lines))
    assert f.startswith(f"irq: {case}: LAVA recorded 1.0, the document has ")


def test_failed_bench_is_a_failure_with_its_reason(tmp_path: Path) -> None:
    """Break on purpose: the uio bench failed on the board."""
    lines = log_lines()
    i = result_line(lines, "uio")
    lines[i] = lines[i].replace('"result": "pass"', '"result": "fail"')
    lines.insert(i, json.dumps({"dt": "x", "lvl": "target",
                                "msg": "udrv-lava-fail uio 1: udrv: no /dev/uio0"}))
    doc = converted(tmp_path, lines)
    assert "uio: failed in LAVA: exit 1: udrv: no /dev/uio0" in failures(doc)
    assert [d["bench"] for d in doc["runs"][0]["documents"]] == ["timer", "irq", "toggle"]


def test_corrupt_document_is_rebuilt_and_said(tmp_path: Path) -> None:
    lines = log_lines()
    begin = next(i for i, x in enumerate(lines) if "udrv-lava-doc-begin toggle" in x)
    lines[begin + 2] = lines[begin + 2].replace('"msg": "', '"msg": "AAAA', 1)
    doc = converted(tmp_path, lines)
    [f] = failures(doc)
    assert f.startswith("toggle: the document in the log is corrupt")
    toggle = next(d for d in doc["runs"][0]["documents"] if d["bench"] == "toggle")
    assert toggle["rows"] and all(r["stats"]["buckets"] == [] for r in toggle["rows"])


def test_kernel_message_inside_a_document_is_skipped(tmp_path: Path) -> None:
    lines = log_lines()
    begin = next(i for i, x in enumerate(lines) if "udrv-lava-doc-begin timer" in x)
    lines.insert(begin + 2, json.dumps({"dt": "x", "lvl": "target",
                                        "msg": "[   12.345678] random: crng init done"}))
    assert failures(converted(tmp_path, lines)) == []


def server_results(lines: list[str]) -> list[dict[str, Any]]:
    """The log's test cases as LAVA's REST API lists them (/results/ID/yaml)."""
    out = []
    for x in lines:
        if '"lvl": "results"' in x:
            msg = yaml.safe_load(x)["msg"]
            out.append({"name": msg["case"], "suite": msg["definition"],
                        "result": msg["result"], "measurement": msg.get("measurement"),
                        "unit": msg.get("units", ""), "metadata": msg})
    return out


def test_server_results_rebuild_the_rows(tmp_path: Path) -> None:
    lines = log_lines()
    p = tmp_path / "results.yaml"
    p.write_text(yaml.safe_dump(server_results(lines)))
    doc = convert([read_input(str(p))], board="bbb-01")
    whole = converted(tmp_path, lines)
    [run] = doc["runs"]
    assert run["failures"] == []
    for got, want in zip(run["documents"], whole["runs"][0]["documents"], strict=True):
        assert got["bench"] == want["bench"]
        assert [r["mechanism"] for r in got["rows"]] == [r["mechanism"] for r in want["rows"]]
        assert [r["wait"] for r in got["rows"]] == [r["wait"] for r in want["rows"]]
        for g, w in zip(got["rows"], want["rows"], strict=True):
            assert {k: v for k, v in g["stats"].items() if k != "buckets"} == \
                   {k: v for k, v in w["stats"].items() if k != "buckets"}
            assert g["loss"] == w["loss"]
        assert figures(got).keys() <= figures(want).keys()


def test_report_renders_farm_beside_lab_and_shows_failures(tmp_path: Path) -> None:
    lines = log_lines()
    del lines[result_line(lines, "toggle.rows.cdev--udrv--toggle.stats.p50")]
    farm = tmp_path / "farm.json"
    farm.write_text(json.dumps(converted(tmp_path, lines)))
    html = tmp_path / "report.html"
    report = REPO / "rig" / "report" / "udrv-report"
    proc = subprocess.run([str(report), str(LAB_FIXTURE), str(farm), "-o", str(html), "-q"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    page = html.read_text()
    assert "qemu-std" in page
    assert "toggle.rows.cdev--udrv--toggle.stats.p50: in the document, not in LAVA" in page


def test_compare_lab_and_farm(tmp_path: Path) -> None:
    farm = tmp_path / "farm.json"
    farm.write_text(json.dumps(converted(tmp_path, log_lines())))
    proc = subprocess.run([str(REPO / "rig" / "report" / "udrv-report"), "--compare",
                           f"{LAB_FIXTURE}@std/idle", str(farm), "-o",
                           str(tmp_path / "c.html"), "-q"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "qemu-std" in (tmp_path / "c.html").read_text()


def test_cli_writes_the_document(tmp_path: Path) -> None:
    d = tmp_path / "run"
    d.mkdir()
    write_log(d, log_lines())
    (d / "device-name").write_text("qemu-rt\n")
    proc = lava_cli("results", str(d), "-o", str(tmp_path / "farm.json"))
    assert proc.returncode == 0, proc.stderr
    assert "4 bench documents, 0 failures" in proc.stderr
    doc = json.loads((tmp_path / "farm.json").read_text())
    assert doc["runs"][0]["board"] == "qemu-rt"


@pytest.mark.parametrize("setup, message", [
    (lambda t: t / "nope.log", "no such file"),
    (lambda t: t, "a directory without lava.log"),
    (lambda t: write_log(t, ["just some text"], "x.txt"),
     "neither a LAVA log (lines {dt, lvl, msg}) nor a LAVA results file"),
    (lambda t: write_log(t, ["a: [1, 2"], "x.yaml"), "neither a LAVA log nor a LAVA results"),
    (lambda t: write_log(t, ['{"dt": "x", "lvl": "results", "msg": {"case": "job", '
                             '"definition": "lava", "result": "fail"}}'], "job.log"),
     "no udrv test cases in it"),
    (lambda t: (t / "bin.log").write_bytes(b"\xff\xfe\x00") and t / "bin.log",
     "cannot read it as text"),
])
def test_bad_input_exits_2(tmp_path: Path, setup: Any, message: str) -> None:
    path = setup(tmp_path)
    proc = lava_cli("results", str(path), "-o", str(tmp_path / "out.json"))
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and str(path) in proc.stderr
    assert not (tmp_path / "out.json").exists()
    with pytest.raises(InputError):
        read_input(str(path))


def test_lavacli_raw_log(tmp_path: Path) -> None:
    """The server's log as `lavacli jobs logs --raw` prints it (lavacli 1.2:
    "- " + each record as a one-line YAML flow mapping, every scalar quoted)."""
    raw = ["- " + yaml.dump(yaml.safe_load(x), default_flow_style=True, default_style='"',
                            width=10**6)[:-1] for x in log_lines()]
    doc = converted(tmp_path, raw)
    assert [d["bench"] for d in doc["runs"][0]["documents"]] == BENCHES
    assert failures(doc) == []


def test_every_bench_rebuilt_from_test_cases_loads_in_the_report(tmp_path: Path) -> None:
    """Test cases alone (no log) of every bench's fixture document, as LAVA
    would hold them, rebuild a document udrv-report reads: the rows' stats
    equal the document's; what cannot come back is said."""
    from lava_helpers import bench_documents

    from rig.lava.results import Case, Job
    from rig.report.load import load

    for i, doc in enumerate(bench_documents()):
        job = Job("fixture")
        job.cases[doc["bench"]] = Case(doc["bench"], "pass")
        for name, (value, unit) in figures(doc).items():
            job.cases[name] = Case(name, "pass", value, unit)
        out = convert([job], board="b")
        p = tmp_path / f"{i}.json"
        p.write_text(json.dumps(out))
        [run] = load(str(p)).runs
        [got] = run.docs
        assert [r.stats.p50 for r in got.rows] == [r["stats"]["p50"] for r in doc["rows"]]
        assert run.failures == ([] if doc["bench"] != "rate" else [
            "rate: rate.steps and rate.capacity rebuilt from test cases: their mechanism and "
            "implementation are strings, not test cases ('?'; the job log's document has "
            "them)"]) + ([] if "breakdown" not in doc else [
            "reply: breakdown left out: its stages are named by strings, not test cases "
            "(the job log's document has it)"])
