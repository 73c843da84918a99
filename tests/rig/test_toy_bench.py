# SPDX-License-Identifier: GPL-2.0-only
"""A new bench touches its own folder and one line per language (issue 42).

A copy of the tree gets tests/rig/toy_bench/ as rig/bench/toy/ (its C, its
meson.build, its Python spec and its part of the schema) and the name "toy"
in the two lists of the benches: rig/bench/meson.build's udrv_benches (C:
the command, its --help line, its sources and spec installed) and
rig/bench/specs.py's NAMES (Python). Nothing else is edited by hand; then,
in the copy:

- udrv-bench (built from the copy) lists toy in --help and measures it: a
  udrv-bench/1 document with the toy's row and its "toy" section;
- `python3 -m rig.results schema --compose` puts the toy's part in the
  schema; `check` takes the document, and refuses it with the section gone
  (the schema) or its count broken (the spec's check);
- the tables have the toy's (`--table toy` too) and udrv-report's page its
  section.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.results_docs import damage

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "tests" / "rig" / "toy_bench"
BENCH = Path("rig") / "bench"
# the two lists, and the line each gets: (file, the line as it is, as it becomes)
LISTS = ((BENCH / "meson.build", "\t\t'pwm']", "\t\t'pwm', 'toy']"),
         (BENCH / "specs.py", '         "pwm")', '         "pwm", "toy")'))


def _tracked(root: Path) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=root, capture_output=True, check=True).stdout
    return [Path(p) for p in out.decode().split("\0") if p and (root / p).is_file()]


def _register(copy: Path) -> None:
    for path, was, becomes in LISTS:
        f = copy / path
        text = f.read_text()
        if text.count(was) != 1:
            pytest.fail(f"{path}: no one line with {was!r}: the list of the benches changed; "
                        "update this test's LISTS")
        f.write_text(text.replace(was, becomes))


def _files(root: Path) -> set[Path]:
    """The files under @root, not a build's or a byte-compiled module."""
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file()
            and not {"build", "__pycache__"} & set(p.relative_to(root).parts)}


def _edits(copy: Path) -> dict[Path, list[str]]:
    """The files of @copy that are not the tree's: each with its lines out
    ("- ") and in ("+ "); a new file: all its lines in."""
    out = {}
    for rel in sorted(_files(copy)):
        mine = (copy / rel).read_text(errors="replace").splitlines()
        if not (REPO / rel).is_file():
            out[rel] = [f"+ {s}" for s in mine]
            continue
        theirs = (REPO / rel).read_text(errors="replace").splitlines()
        if mine != theirs:
            out[rel] = [d for d in difflib.ndiff(theirs, mine) if d[:2] in ("- ", "+ ")]
    return out


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, list[str]]]:
    """The copy with the toy added, and its edits then (before anything ran)."""
    root = tmp_path_factory.mktemp("toy") / "udrv"
    for rel in _tracked(REPO):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, root / rel)
    shutil.copytree(TOY, root / BENCH / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    _register(root)
    return root, _edits(root)


@pytest.fixture(scope="module")
def copy(tree: tuple[Path, dict[Path, list[str]]]) -> Path:
    return tree[0]


def _run(cmd: list[str], cwd: Path, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd), "PYTHONDONTWRITEBYTECODE": "1"}
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    if ok:
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}\n{r.stdout}{r.stderr}"
    return r


@pytest.fixture(scope="module")
def udrv_bench(copy: Path) -> Path:
    """udrv-bench built from the copy (libudrv and the bench library only)."""
    build = copy / "build" / "toy"
    _run(["meson", "setup", str(build), "--buildtype=debug", "-Dwerror=true",
          "-Dudrvd=disabled", "-Dlibgpiod_src=none"], copy)
    _run(["ninja", "-C", str(build), "rig/bench/udrv-bench"], copy)
    return build / "rig" / "bench" / "udrv-bench"


@pytest.fixture(scope="module")
def document(copy: Path, udrv_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = tmp_path_factory.mktemp("toy-doc") / "toy.json"
    _run([str(udrv_bench), "toy", "-n", "500", "--prio", "0", "--no-mlock",
          "--no-dma-latency", "--board", "x86", "-q", "--json", "-o", str(doc)], copy)
    _run([sys.executable, "-m", "rig.results", "schema", "--compose"], copy)
    return doc


def test_the_toy_is_its_folder_and_a_line_per_list(
        tree: tuple[Path, dict[Path, list[str]]]) -> None:
    """Outside rig/bench/toy/, the copy differs from the tree by one line in each list."""
    _, edits = tree
    toy = {p for p in edits if p.parts[:3] == ("rig", "bench", "toy")}
    assert sorted(p.name for p in toy) == [
        "__init__.py", "meson.build", "schema.json", "spec.py", "toy.c"]
    assert sorted(set(edits) - toy) == sorted(p for p, _, _ in LISTS)
    for path, was, becomes in LISTS:
        assert [d[2:].strip() for d in edits[path]] == [
            next(s.strip() for s in (REPO / path).read_text().splitlines() if was in s),
            next(s.strip() for s in (tree[0] / path).read_text().splitlines() if becomes in s)]


def test_udrv_bench_has_the_command(udrv_bench: Path, copy: Path) -> None:
    r = _run([str(udrv_bench), "--help"], copy)
    assert "  toy      the time between two clock_gettime() calls" in r.stdout
    r = _run([str(udrv_bench), "toy", "--help"], copy)
    assert "Usage: udrv-bench toy" in r.stdout


def test_the_document_has_its_row_and_section(document: Path) -> None:
    doc = json.loads(document.read_text())
    assert doc["bench"] == "toy"
    assert [(r["mechanism"], r["sample"]) for r in doc["rows"]] == [("clock", "call_to_call")]
    assert doc["toy"]["calls"] == doc["rows"][0]["stats"]["count"] == 500


def test_the_schema_and_the_check_take_it(copy: Path, document: Path) -> None:
    schema = json.loads((copy / "rig" / "results" / "udrv-bench-1.schema.json").read_text())
    assert "toy" in schema["properties"]["bench"]["enum"]
    _run([sys.executable, "-m", "rig.results", "schema", "--compose", "--check"], copy)
    _run([sys.executable, "-m", "rig.results", "check", str(document)], copy)


@pytest.mark.parametrize(("where", "value", "says"), [
    (["toy"], KeyError, "toy"),  # the section gone: the schema's "then required"
    (["toy", "calls"], 499, "499 calls, the row has 500 samples"),  # the spec's check
])
def test_the_check_refuses_a_broken_toy(copy: Path, document: Path, where: list[str],
                                        value: object, says: str) -> None:
    doc = json.loads(document.read_text())
    damage(where, value)(doc)
    bad = document.with_name(f"toy-broken-{'-'.join(where)}.json")
    bad.write_text(json.dumps(doc))
    r = _run([sys.executable, "-m", "rig.results", "check", str(bad)], copy, ok=False)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout + r.stderr


def test_the_tables_and_the_report_show_it(copy: Path, document: Path) -> None:
    for cmd in (["tables"], ["tables", "--table", "toy"]):
        r = _run([sys.executable, "-m", "rig.results", *cmd, str(document)], copy)
        assert "Toy: the time between two clock_gettime() calls" in r.stdout
        assert "500" in r.stdout
    page = document.with_name("report.html")
    _run([sys.executable, "-m", "rig.report", str(document), "-o", str(page)], copy)
    html = page.read_text()
    assert 'id="toy"' in html and "toy calls 500" in html
