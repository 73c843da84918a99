# SPDX-License-Identifier: GPL-2.0-only
"""Property tests of udrv-report's results loader (rig/report/load.py over rig.results).

Whatever a results file holds, load() either returns results or raises the
loader's own InputError, whose message starts with the path and says what is
wrong; never another exception (KeyError, TypeError, ValueError, RecursionError,
OverflowError ...). And what it returns is usable by the rest of the report:
every number converts to a finite float, every string encodes as UTF-8.

Inputs: arbitrary JSON values (alone and under a udrv schema), the fixtures
(tests/rig/report/fixtures) with fields replaced, removed or retyped deep
inside, their text cut and spliced, and nesting around Python's recursion
limit. Bounded (a few seconds in all) and the same examples each run, so that
a failure repeats; UDRV_REPORT_FUZZ_EXAMPLES=N runs N new ones per test (make
fuzz). Hypothesis prints the smallest failing input it found.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from report_helpers import BENCH_IRQ, BENCH_TIMER, LAB_A, REPO, load_json, run_report

from rig.report.errors import InputError
from rig.report.load import load, select, split_spec
from rig.report.model import Results, label_runs, ordered_keys

set_hypothesis_home_dir(str(REPO / "build" / "hypothesis"))  # its caches, not in the tree
# make check: 60 examples a test, always the same; make fuzz: many, new each time
EXAMPLES = int(os.environ.get("UDRV_REPORT_FUZZ_EXAMPLES", "0"))
SETTINGS = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=not EXAMPLES,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FIXTURES = {"lab": load_json(LAB_A), "timer": load_json(BENCH_TIMER),
            "irq": load_json(BENCH_IRQ),
            # udrv-bench gaps: its "gaps" object (load._gaps)
            "gaps": load_json(REPO / "tests" / "rig" / "report" / "fixtures" / "lab-gaps.json")}

numbers = (st.integers() | st.integers(min_value=-(10**30), max_value=10**30)
           | st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63) - 1, 10**308 * 10])
           | st.floats() | st.sampled_from([1e308, -0.0, 5e-324]))
texts = st.text(max_size=12) | st.sampled_from(
    ["udrv-lab/1", "udrv-bench/1", "udrv-bench/2", "udrv-lab/", "/1", "std", "none", "\ud800",
     "\x00", "ns", "timer"])
scalars = st.none() | st.booleans() | numbers | texts
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(texts, inner, max_size=5), max_leaves=16)


def check_usable(results: Results) -> None:
    """What load() returns can be drawn: finite numbers, UTF-8 text."""
    def text(s: object) -> None:
        assert isinstance(s, str), repr(s)
        s.encode("utf-8")

    def number(x: object) -> None:
        assert isinstance(x, (int, float)) and not isinstance(x, bool), repr(x)
        assert math.isfinite(float(x)), repr(x)

    text(results.schema)
    text(results.tool_version)
    label_runs(results.runs)
    for rate in (True, False):
        ordered_keys(results.runs, rate)
    for run in results.runs:
        for s in (run.kernel, run.load, run.label, run.board, run.release, *run.failures):
            text(s)
        for doc in run.docs:
            for s in (doc.bench, doc.board, doc.load, doc.tool_version):
                text(s)
            for row in doc.rows:
                for s in (row.mechanism, row.implementation, row.sample, row.unit,
                          row.wait or "", row.note or ""):
                    text(s)
                st_ = row.stats
                for x in (st_.count, st_.min, st_.avg, st_.max, st_.stddev, st_.p50, st_.p90,
                          st_.p99, st_.p99_9, st_.p99_99, st_.overflow,
                          *(v for b in st_.buckets for v in b)):
                    number(x)
                if row.rate_per_s is not None:
                    number(row.rate_per_s)
                for v in (row.loss or {}).values():
                    number(v)


def load_checked(path: Path, data: bytes) -> Results | None:
    """load() returns usable results or raises InputError naming the file."""
    path.write_bytes(data)
    try:
        results = load(str(path))
    except InputError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: ") and len(message) > len(str(path)) + 10, message
        assert "Traceback" not in message
        return None
    check_usable(results)
    return results


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "results.json"


def dumps(value: Any) -> bytes:
    return json.dumps(value).encode()  # NaN and Infinity stay: the loader refuses them


@SETTINGS
@given(value=values)
@example(value={"schema": "udrv-bench/1", "rows": [], "bench": "x"})
@example(value={"schema": "udrv-lab/1", "tool": {"version": 1}, "runs": [{}]})
def test_any_json(scratch: Path, value: Any) -> None:
    load_checked(scratch, dumps(value))


@SETTINGS
@given(schema=st.sampled_from(["udrv-lab/1", "udrv-bench/1"]),
       fields=st.dictionaries(st.sampled_from(
           ["tool", "runs", "bench", "board", "kernel", "load", "rt", "rows", "documents"]),
           values, max_size=6))
def test_any_fields_under_a_schema(scratch: Path, schema: str, fields: dict[str, Any]) -> None:
    load_checked(scratch, dumps({"schema": schema, **fields}))


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A fixture with 1-3 changes anywhere in it: replaced, deleted, retyped, emptied."""
    doc = copy.deepcopy(FIXTURES[draw(st.sampled_from(sorted(FIXTURES)))])
    for _ in range(draw(st.integers(1, 3))):
        parent, key = None, None
        node = doc
        while _children(node) and (parent is None or draw(st.integers(0, 5)) > 0):
            parent, key = node, draw(st.sampled_from(_children(node)))
            node = node[key]
        if parent is None:
            return draw(values)
        how = draw(st.sampled_from(["replace", "delete", "retype", "empty", "duplicate"]))
        if how == "delete":
            del parent[key]
        elif how == "retype":
            parent[key] = {str: 1, int: "1", float: [1.5], bool: 0, list: {}, dict: []}.get(
                type(node), node)
        elif how == "empty":
            parent[key] = type(node)() if isinstance(node, (list, dict, str)) else None
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(node))
        else:
            parent[key] = draw(values)
    return doc


@SETTINGS
@given(doc=mutated())
def test_mutated_fixtures(scratch: Path, doc: Any) -> None:
    load_checked(scratch, dumps(doc))


@SETTINGS
@given(data=st.data())
def test_cut_and_spliced_text(scratch: Path, data: st.DataObject) -> None:
    text = json.dumps(FIXTURES[data.draw(st.sampled_from(["timer", "irq"]))]).encode()
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 64)))
    insert = data.draw(st.binary(max_size=16) | st.sampled_from(
        [b"", b"\xff", b"\xc3", b'"', b"]", b"}", b",", b"1e999", b"-", b"\\ud800", b"\x00"]))
    load_checked(scratch, text[:start] + insert + text[end:])


@functools.cache
def _lab_a() -> Results:
    return load(str(LAB_A))


NESTS: dict[str, Callable[[int], str]] = {
    "top": lambda n: "[" * n + "]" * n,
    "schema": lambda n: '{"schema": ' + "[" * n + "]" * n + "}",
    "rows": lambda n: ('{"schema": "udrv-bench/1", "bench": "x", "rows": '
                       + "[" * n + "]" * n + "}"),
    "failures": lambda n: ('{"schema": "udrv-lab/1", "tool": {"version": "1"}, "runs": '
                           '[{"kernel": "std", "load": "none", "documents": [], "failures": '
                           + "[" * n + "]" * n + "}]}"),
}


@pytest.mark.parametrize("where", sorted(NESTS))
@pytest.mark.parametrize("below", [400, 60, 20, 5, 1, 0, -5, -1000])
def test_nesting_around_the_recursion_limit(scratch: Path, where: str, below: int) -> None:
    depth = max(1, sys.getrecursionlimit() - below)
    load_checked(scratch, NESTS[where](depth).encode())


@pytest.mark.parametrize("text", [
    '{"schema": ' + "1" * 5000 + "}",
    '{"schema": "udrv-bench/1", "x": 1' + "0" * 5000 + "}",
    '{"schema": "udrv-bench/1", "x": 1e99999}',
    '{"schema": "udrv-bench/1", "x": "\\ud800"}',
    '{"schema": "udrv-bench/1", "\\udfff": 1}',
])
def test_numbers_and_text_json_allows(scratch: Path, text: str) -> None:
    load_checked(scratch, text.encode())


@SETTINGS
@given(field=st.sampled_from(["rate_per_s", "min", "count", "bucket", "sent"]),
       value=st.sampled_from([10**400, -(10**400), 2**64, -(2**63) - 1, 1e308 * 10]))
def test_numbers_udrv_does_not_write(scratch: Path, field: str, value: Any) -> None:
    doc = copy.deepcopy(FIXTURES["timer"])
    row = doc["rows"][0]
    if field == "rate_per_s":
        row["rate_per_s"] = value
    elif field == "bucket":
        row["stats"]["buckets"][0][1] = value
    elif field == "sent":
        row["loss"] = {"sent": value, "received": 0, "lost": 0}
    else:
        row["stats"][field] = value
    assert load_checked(scratch, dumps(doc)) is None, f"{field} = {value} loaded"


@SETTINGS
@given(selector=texts | st.text(alphabet=",/@ stdrinoealt", max_size=16))
def test_any_selector(selector: str) -> None:
    results = _lab_a()
    try:
        runs = select(results, selector)
    except InputError as exc:
        assert str(exc).startswith(f"{LAB_A}: no run matches @"), str(exc)
        return
    assert runs and all(r in results.runs for r in runs)
    if "@" not in selector:  # FILE@RUNS splits at the last '@'
        assert split_spec(f"{LAB_A}@{selector}") == (str(LAB_A), selector)


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 100000 + "]" * 100000, "nested deeper than 64 levels"),
    ('{"schema": ' + "7" * 5000 + "}", "an integer of thousands of digits"),
    ('{"schema": "udrv-bench/1", "board": "\\udc80"}', "half of a UTF-16 surrogate pair"),
], ids=["deep", "long-integer", "surrogate"])
def test_the_tool_says_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    """The same files through udrv-report: one line, exit status 2, no traceback."""
    path = tmp_path / "bad.json"
    path.write_text(text)
    r = run_report(path, "-o", tmp_path / "r.html")
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"udrv-report: {path}: ") and message in r.stderr, r.stderr
