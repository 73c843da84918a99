# SPDX-License-Identifier: GPL-2.0-only
"""Property tests of the LAVA converter's reader (rig/lava/results.py), as
tests/rig/report/test_report_fuzz.py does for udrv-report's loader.

Whatever a file holds, read_input() returns a job or raises InputError (exit
2), and convert() of what it returned gives a document that serializes;
never another exception. Every udrv figure LAVA lost (its result line gone
from the captured log) is named in the run's failures. Bounded and the same
examples each run; UDRV_REPORT_FUZZ_EXAMPLES=N runs N new ones (make fuzz)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from lava_helpers import REPO, log_lines

from rig.lava.results import InputError, convert, read_input

set_hypothesis_home_dir(str(REPO / "build" / "hypothesis"))
EXAMPLES = int(os.environ.get("UDRV_REPORT_FUZZ_EXAMPLES", "0"))
SETTINGS = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=not EXAMPLES,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
LINES = log_lines()
FIGURE_LINES = [i for i, x in enumerate(LINES)
                if '"lvl": "results"' in x and '"definition": "0_udrv-bench"' in x
                and '"measurement"' in x]

texts = st.text(max_size=30) | st.sampled_from(
    ["timer", "timer.rows.x--y--z.stats.p50", "udrv-lava-doc-begin timer",
     "udrv-lava-doc-end timer", "udrv-lava-fail timer 1: no", "H4sIAAAA", "pass", "fail",
     "lava", "0_udrv-bench", "ns", "bool", "1e400", "nan", "-0"])
scalars = st.none() | st.booleans() | st.integers() | st.floats() | texts
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(texts, inner, max_size=4), max_leaves=10)
messages = values | st.fixed_dictionaries(
    {"case": texts, "definition": texts, "result": texts},
    optional={"measurement": scalars, "units": texts})
records = st.fixed_dictionaries({"dt": texts, "lvl": st.sampled_from(
    ["results", "target", "info", "debug"]) | texts, "msg": messages})
log_line = records.map(json.dumps) | texts | records.map(lambda r: "- " + json.dumps(r))


def check(path: Path) -> None:
    try:
        job = read_input(str(path))
    except InputError as exc:
        assert str(exc).startswith(str(path).rsplit("/", 1)[0]) or str(path) in str(exc)
        return
    json.dumps(convert([job]))


@SETTINGS
@given(lines=st.lists(log_line, max_size=12))
def test_any_log_lines(tmp_path_factory: Any, lines: list[str]) -> None:
    p = tmp_path_factory.mktemp("f") / "lava.log"
    p.write_text("\n".join(lines))
    check(p)


@SETTINGS
@given(data=values)
def test_any_results_document(tmp_path_factory: Any, data: Any) -> None:
    p = tmp_path_factory.mktemp("f") / "results.json"
    p.write_text(json.dumps(data))
    check(p)


@SETTINGS
@given(cut=st.integers(0, len(LINES)), junk=st.lists(log_line, max_size=3),
       at=st.integers(0, len(LINES)))
def test_captured_log_cut_and_spliced(tmp_path_factory: Any, cut: int, junk: list[str],
                                      at: int) -> None:
    lines = LINES[:cut]
    lines[at:at] = junk
    p = tmp_path_factory.mktemp("f") / "lava.log"
    p.write_text("\n".join(lines))
    check(p)


@SETTINGS
@given(drop=st.sets(st.sampled_from(FIGURE_LINES), min_size=1, max_size=8))
def test_every_lost_figure_is_named(tmp_path_factory: Any, drop: set[int]) -> None:
    lost = {json.loads(LINES[i].replace('! "', '"'))["msg"]["case"] for i in drop}
    p = tmp_path_factory.mktemp("f") / "lava.log"
    p.write_text("\n".join(x for i, x in enumerate(LINES) if i not in drop))
    fails = "\n".join(f for r in convert([read_input(str(p))])["runs"] for f in r["failures"])
    for case in lost:
        assert f"{case}: in the document, not in LAVA's results" in fails


def test_conflicting_names_are_left_out_and_said(tmp_path: Any) -> None:
    """Test cases udrv-lava-bench cannot make: a figure where an object or a
    header field is; the rebuilt document stays one udrv-report reads."""
    from rig.report.load import load

    items = [{"name": n, "suite": "0_udrv-bench", "result": "pass", "measurement": m,
              "unit": u} for n, m, u in (
        ("timer", None, ""), ("timer.a", 1, "count"), ("timer.a.b", 2, "count"),
        ("timer.load", 5, "count"), ("timer.kernel.release", 6, "count"),
        ("timer.rows.x--y--z.stats.p50", 7, "ns"), ("timer.rows.x--y--z.stats.p50.q", 8, "ns"),
        ("timer.rows", 9, "count"),
        # the header's numbers a udrv-bench/1 document must have (without them
        # the rebuilt document is left out, and said: test_lava_results.py)
        ("timer.kernel.realtime", 0, "bool"), ("timer.rt.priority", 80, "count"),
        ("timer.rt.memory_locked", 1, "bool"))]
    p = tmp_path / "results.json"
    p.write_text(json.dumps(items))
    doc = convert([read_input(str(p))])
    fails = doc["runs"][0]["failures"]
    for n in ("timer.a.b", "timer.load", "timer.kernel.release",
              "timer.rows.x--y--z.stats.p50.q", "timer.rows"):
        assert f"{n}: not a figure of a udrv-bench/1 document: left out" in fails, fails
    out = tmp_path / "farm.json"
    out.write_text(json.dumps(doc))
    [run] = load(str(out)).runs
    assert run.docs[0].rows[0].stats.p50 == 7
