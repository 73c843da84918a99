# SPDX-License-Identifier: GPL-2.0-only
"""Bad results files and bad arguments: one clear line, exit status 2, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from report_helpers import BENCH_TIMER, LAB_A, load_json, run_report


def lab_with(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        doc = load_json(LAB_A)
        change(doc)
        path.write_text(json.dumps(doc))
    return write


def cut_in_string(path: Path) -> None:
    text = LAB_A.read_text()
    path.write_text(text[: text.index('"udrv-bench/1"') + 5])


def drop_stats(doc: dict[str, Any]) -> None:
    del doc["runs"][1]["documents"][0]["rows"][0]["stats"]


def nested_version(doc: dict[str, Any]) -> None:
    doc["runs"][0]["documents"][2]["schema"] = "udrv-bench/2"


def bad_count(doc: dict[str, Any]) -> None:
    doc["runs"][0]["documents"][0]["rows"][1]["stats"]["count"] = "many"


CASES: dict[str, tuple[Callable[[Path], None] | None, str]] = {
    "missing": (None, "no such file ('make lab' writes build/lab/results.json"),
    "empty": (lambda p: p.write_bytes(b""), "empty file (0 bytes)"),
    "blank": (lambda p: p.write_text("\n  \n"), "empty file (4 bytes)"),
    "truncated": (lambda p: p.write_text(LAB_A.read_text()[:50000]), "truncated"),
    "truncated-in-string": (cut_in_string, "truncated"),
    "not-json": (lambda p: p.write_text("min 3642 avg 3837 max 5158\n"), "not valid JSON"),
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\0\0"), "not a text file"),
    "list": (lambda p: p.write_text("[]"), "the JSON is a list, not a udrv results document"),
    "no-schema": (lambda p: p.write_text('{"runs": []}'), 'no "schema" field'),
    "other-schema": (lambda p: p.write_text('{"schema": "cyclictest/1"}'),
                     "schema 'cyclictest/1' is not a udrv results document"),
    "lab-version": (lab_with(lambda d: d.update(schema="udrv-lab/2")),
                    "schema 'udrv-lab/2': this udrv-report reads udrv-lab/1, udrv-bench/1"),
    "bench-version": (lambda p: p.write_text('{"schema": "udrv-bench/7", "rows": []}'),
                      "schema 'udrv-bench/7': this udrv-report reads"),
    "nested-version": (lab_with(nested_version),
                       "runs[0].documents[2].schema: 'udrv-bench/2', expected 'udrv-bench/1'"),
    "missing-field": (lab_with(drop_stats), "runs[1].documents[0].rows[0].stats: missing"),
    "wrong-type": (lab_with(bad_count),
                   'runs[0].documents[0].rows[1].stats.count: string "many", expected an '
                   "integer"),
    "no-results": (lab_with(lambda d: d.update(runs=[])), "holds no bench results"),
    "nan": (lambda p: p.write_text('{"schema": "udrv-lab/1", "x": NaN}'),
            "NaN is not a number udrv writes"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_results_file(case: str, tmp_path: Path) -> None:
    make, message = CASES[case]
    path = tmp_path / f"{case}.json"
    if make is not None:
        make(path)
    out = tmp_path / "out" / "report.html"
    r = run_report(path, "-o", out)
    assert r.returncode == 2, f"exit {r.returncode}: {r.stderr}"
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"udrv-report: {path}: "), lines[0]
    assert message in lines[0], lines[0]
    assert r.stdout == ""
    assert not out.exists()


def test_directory_instead_of_file(tmp_path: Path) -> None:
    r = run_report(tmp_path, "-o", tmp_path / "r.html")
    assert r.returncode == 2 and "is a directory" in r.stderr and "Traceback" not in r.stderr


def test_one_bad_file_among_good_ones_writes_nothing(tmp_path: Path) -> None:
    r = run_report(LAB_A, tmp_path / "gone.json", "-o", tmp_path / "r.html")
    assert r.returncode == 2 and f"{tmp_path / 'gone.json'}: no such file" in r.stderr
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--compare", str(LAB_A)], "--compare takes two files"),
    (["--noise", "0.1", str(LAB_A)], "--noise only applies with --compare"),
    (["--compare", "--noise", "3", str(LAB_A), str(LAB_A)], "give a fraction between 0 and 1"),
    ([f"{LAB_A}@rpi3/idle"], "no run matches @rpi3/idle: the file has std/none, std/all"),
])
def test_bad_arguments(args: list[str], message: str, tmp_path: Path) -> None:
    r = run_report(*args, "-o", tmp_path / "r.html")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr


def test_page_must_be_html(tmp_path: Path) -> None:
    r = run_report(LAB_A, "-o", tmp_path / "report.png")
    assert r.returncode == 2 and "must end in .html" in r.stderr


def test_output_that_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    r = run_report(LAB_A, "-o", blocker / "report.html")
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"udrv-report: {blocker}: not a directory: ")
    assert "Traceback" not in r.stderr
    read_only = tmp_path / "ro"
    read_only.mkdir()
    (read_only / "report.html").mkdir()  # the page's name is taken by a directory
    r = run_report(BENCH_TIMER, "-o", read_only / "report.html")
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"udrv-report: {read_only / 'report.html'}: cannot write: ")
    assert "Traceback" not in r.stderr


def test_help_and_version() -> None:
    r = run_report("--help")
    assert r.returncode == 0 and "--compare" in r.stdout and "FILE@KERNEL" in r.stdout
    r = run_report("--version")
    assert r.returncode == 0 and r.stdout.startswith("udrv-report ")
