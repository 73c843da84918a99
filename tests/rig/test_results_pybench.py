# SPDX-License-Identifier: GPL-2.0-only
"""udrv-pybench's document (udrv-pybench-1) through rig.results: the kept
documents (docs/results/lab.json) pass, a made-up one passes, each field
broken on purpose is refused with a message naming it; the bench writes the
document alone (--json FILE; '-': all of stdout, the table on stderr); the
lab's Python section reads it from that file through rig.results (no document
cut out of the table's output any more) and refuses a broken one."""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from rig.lab.boards.api import Result
from rig.lab.suite import python as suite_python
from rig.results import ResultsError, checked, load, load_pybench, pybench_document
from rig.results.pybench import check_pybench
from rig.results.schema import FILES, HERE, PYBENCH, PYBENCH_FILE, Invalid, schemas
from tests.support.results_docs import damage

REPO = Path(__file__).resolve().parents[2]
LAB_JSON = REPO / "docs" / "results" / "lab.json"
BENCH = REPO / "rig" / "bench" / "python" / "udrv_pybench.py"


def kept() -> list[dict[str, Any]]:
    return [p["result"] for p in json.loads(LAB_JSON.read_text())["python"] if "result" in p]


def document() -> dict[str, Any]:
    """A made-up udrv-pybench-1 document, both libraries, every figure adding up."""
    lat = {"count": 300, "min": 100, "max": 900, "mean": 200.5, "p50": 190, "p90": 300,
           "p99": 800}
    lat_g = {"count": 300, "min": 200, "max": 1800, "mean": 400.0, "p50": 380, "p90": 600,
             "p99": 1600}
    events = {"made": 300, "received": 300, "lost": 0, "dropped": 0, "masked": 0, "other": 0,
              "unaccounted": 0, "seconds": 0.07}
    return {
        "schema": "udrv-pybench-1", "kernel": "6.1.0-test", "chip": "gpio-wire",
        "out_line": 2, "in_line": 3,
        "versions": {"udrv": "1.0.0", "gpiod": "2.5.0 (libgpiod 2.3)", "python": "3.11.2"},
        "histogram": "udrv._rt.Histogram",
        "sched": {"policy": 0, "priority": 0, "cpus": [0]},
        "toggle": {"calls_per_round": 500, "rounds": 2,
                   "order": ["udrv", "gpiod", "gpiod", "udrv"],
                   "rows": {"udrv": {"ns_per_call": [1700.0, 1702.0], "median_ns": 1701.0,
                                     "min_ns": 1700.0, "calls": 1000, "driven": 1000},
                            "gpiod": {"ns_per_call": [10000.0, 10010.0], "median_ns": 10005.0,
                                      "min_ns": 10000.0, "calls": 1000, "driven": 1000}},
                   "ratio": {"median": 0.17, "min": 0.17}},
        "events": {"count": 300, "period_ns": 200000, "buffer": 0,
                   "rows": {"udrv": events | {"latency_ns": lat},
                            "gpiod": events | {"latency_ns": lat_g}},
                   "ratio": {"p50": 0.5, "p99": 0.5, "max": 0.5}},
    }


def test_the_schema_file_is_json_schema_2020_12_and_jsonschema_agrees() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((HERE / PYBENCH_FILE).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for doc in [document(), *kept()]:
        v.validate(doc)
    bad = document()
    del bad["events"]["rows"]["udrv"]["latency_ns"]["p99"]
    assert not v.is_valid(bad)


def test_the_kept_and_a_made_up_document_pass() -> None:
    assert len(kept()) == 2
    for doc in [*kept(), document()]:
        m = pybench_document(json.dumps(doc), "doc")
        assert m.doc == doc and m.failures == []
    m = pybench_document(json.dumps(document()), "doc")
    assert m.toggle["udrv"].ns_per_call == (1700.0, 1702.0) and m.rounds == 2
    assert m.events["gpiod"].latency_ns["p50"] == 380 and m.events_ratio["max"] == 0.5
    assert m.note is None and m.order[0] == "udrv"


def test_one_library_no_ratio_no_latency_passes() -> None:
    doc = document()
    for part in ("toggle", "events"):
        del doc[part]["rows"]["udrv"], doc[part]["ratio"]
    doc["toggle"]["order"] = ["gpiod", "gpiod"]
    g = doc["events"]["rows"]["gpiod"]
    g |= {"received": 0, "lost": 300, "latency_ns": {"count": 0}}
    doc["note"] = "udrv is not in the image"
    assert pybench_document(json.dumps(doc), "doc").note == "udrv is not in the image"


def test_a_failed_accounting_is_a_valid_document_with_failures() -> None:
    doc = document()
    doc["toggle"]["rows"]["gpiod"]["driven"] = 999
    r = doc["events"]["rows"]["udrv"]
    r |= {"received": 299, "unaccounted": 1}
    r["latency_ns"]["count"] = 299
    m = pybench_document(json.dumps(doc), "doc")
    assert m.failures == ["gpiod toggle: 1000 set_value calls, gpio-wire counted 999 level "
                          "changes", "udrv events: the generator made 300; 1 unaccounted"]


UDRV_T = ["toggle", "rows", "udrv"]
UDRV_E = ["events", "rows", "udrv"]
DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "schema": (damage(["schema"], "udrv-pybench-2"),
               "schema: 'udrv-pybench-2', expected 'udrv-pybench-1'"),
    "kernel": (damage(["kernel"], KeyError), "kernel: missing"),
    "chip": (damage(["chip"], ""), "chip: empty string"),
    "out_line": (damage(["out_line"], "2"), 'out_line: string "2", expected an integer'),
    "versions": (damage(["versions", "python"], KeyError), "versions.python: missing"),
    "unknown-field": (damage(["toggle", "speed"], 1), "toggle.speed: not a field"),
    "sched": (damage(["sched", "priority"], 120), "sched.priority: 120, expected at most 99"),
    "library": (damage(["toggle", "rows", "pigpio"], {}), "toggle.rows.pigpio: not a field"),
    "order": (damage(["toggle", "order", 0], "pigpio"),
              "toggle.order[0]: 'pigpio', expected one of udrv, gpiod"),
    "ns_per_call": (damage([*UDRV_T, "ns_per_call", 1], None),
                    "toggle.rows.udrv.ns_per_call[1]: null null, expected a number"),
    "rounds": (damage(["toggle", "rounds"], 3), "toggle.rows.udrv.ns_per_call: 2 rounds, "
                                              "rounds says 3"),
    "calls": (damage([*UDRV_T, "calls"], 999), "toggle.rows.udrv.calls: 999, but 2 rounds of "
                                             "500 calls are 1000"),
    "min_ns": (damage([*UDRV_T, "min_ns"], 1699.0), "toggle.rows.udrv.min_ns: 1699.0"),
    "median_ns": (damage([*UDRV_T, "median_ns"], 1800.0),
                  "toggle.rows.udrv.median_ns: 1800.0, the rounds' median is 1701.0"),
    "order-count": (damage(["toggle", "order"], ["udrv", "gpiod", "gpiod"]),
                    "toggle.order: 1 rounds of udrv, rounds says 2"),
    "toggle-ratio": (damage(["toggle", "ratio", "median"], 0.3),
                     "toggle.ratio.median: 0.3, but udrv's 1701.0 / gpiod's 10005.0 is 0.17"),
    "ratio-missing": (damage(["events", "ratio"], KeyError),
                      "events: rows of udrv and gpiod, but no ratio"),
    "made": (damage([*UDRV_E, "made"], -1), "events.rows.udrv.made: -1, expected at least 0"),
    "unaccounted": (damage([*UDRV_E, "unaccounted"], 5),
                    "events.rows.udrv.unaccounted: 5, but made 300 - received 300"),
    "latency-count": (damage([*UDRV_E, "latency_ns", "count"], 299),
                      "events.rows.udrv.latency_ns.count: 299, received 300"),
    "latency-missing": (damage([*UDRV_E, "latency_ns", "p50"], KeyError),
                        "events.rows.udrv.latency_ns.p50: missing"),
    "latency-order": (damage([*UDRV_E, "latency_ns", "p50"], 950),
                      "events.rows.udrv.latency_ns: min 100 <= p50 950"),
    "events-ratio": (damage(["events", "ratio", "p50"], None),
                     "events.ratio.p50: None, but udrv's 190 / gpiod's 380 is 0.5"),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_each_broken_field_is_refused_and_said(name: str, tmp_path: Path) -> None:
    broken, message = DAMAGE[name]
    doc = copy.deepcopy(document())
    broken(doc)
    with pytest.raises(Invalid) as err:
        check_pybench(doc)
    assert message in str(err.value), str(err.value)
    with pytest.raises(ResultsError) as rerr:
        pybench_document(json.dumps(doc), "pybench.json")
    assert str(rerr.value).startswith("pybench.json: ") and message in str(rerr.value) and \
        "not a udrv-pybench-1 document" in str(rerr.value)
    p = tmp_path / "p.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(ResultsError, match="not a udrv-pybench-1 document"):
        load_pybench(str(p))


def test_not_json_or_another_document_is_refused() -> None:
    with pytest.raises(ResultsError, match="empty: no JSON document"):
        pybench_document("\n", "f")
    with pytest.raises(ResultsError, match="truncated"):
        pybench_document(json.dumps(document())[:-3], "f")
    with pytest.raises(ResultsError, match="schema: missing"):
        pybench_document(json.dumps({"bench": "toggle"}), "f")


def test_the_lab_document_checks_its_python_results(tmp_path: Path) -> None:
    lab = json.loads(LAB_JSON.read_text())
    assert len(load(str(LAB_JSON)).python) == 2
    bad = copy.deepcopy(lab)
    bad["python"][1]["result"]["events"]["rows"]["gpiod"]["unaccounted"] = 3
    with pytest.raises(ResultsError) as err:
        checked("lab.json", bad)
    assert "python[1].result.events.rows.gpiod.unaccounted: 3" in str(err.value)
    bad = copy.deepcopy(lab)
    del bad["python"][0]["result"]["toggle"]
    with pytest.raises(ResultsError, match=r"python\[0\]\.result\.toggle: missing"):
        checked("lab.json", bad)


def test_the_pybench_schema_is_its_own() -> None:
    """Not a results document of FILES: load() and check refuse it as one."""
    assert PYBENCH not in FILES and any(PYBENCH_FILE in i for i in schemas())
    with pytest.raises(ResultsError, match="not a udrv results document"):
        checked("p.json", document())


# ---- the bench writes its document alone ----

def bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("udrv_pybench", BENCH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_the_bench_writes_its_document_alone(tmp_path: Path) -> None:
    mod = bench_module()
    doc = document()
    f = tmp_path / "p.json"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert mod.write_json(doc, str(f))
    assert out.getvalue() == "" and load_pybench(str(f)).doc == doc
    with redirect_stdout(out):
        assert mod.write_json(doc, "-")
    assert pybench_document(out.getvalue(), "stdout").doc == doc  # stdout: the document alone
    with redirect_stderr(err):
        assert not mod.write_json(doc, str(tmp_path / "no" / "such" / "dir.json"))
    assert "udrv-pybench: --json " in err.getvalue()


def test_the_bench_help_says_where_the_document_goes() -> None:
    text = bench_module().parser().format_help()
    assert "udrv-pybench-1" in text and "the document alone" in text
    assert "table then on stderr" in " ".join(text.split())


# ---- the lab reads it from its file through rig.results ----

class FakeBoard:
    """A board where udrv-pybench printed @table and wrote @doc (None: nothing)."""

    def __init__(self, table: str, doc: str | None, status: int = 0) -> None:
        self.table, self.doc, self.status = table, doc, status
        self.commands: list[str] = []

    def run(self, cmd: str, timeout: float = 0, *, check: bool = False) -> Result:
        self.commands.append(cmd)
        if cmd.startswith("udrv-pybench"):
            return Result(self.status, self.table.encode(), b"boom\n", 1.0)
        if cmd.startswith("test -f"):
            return Result(0 if self.doc is not None else 1, b"", b"", 0.0)
        return Result(0, b"", b"", 0.0)

    def get(self, guest_path: str, timeout: float = 0) -> bytes:
        assert guest_path == suite_python.GUEST_JSON and self.doc is not None
        return self.doc.encode()


def lab_entry(board: FakeBoard, note: str | None = None) -> dict[str, Any]:
    cmd = f"udrv-pybench -n 2 --json {suite_python.GUEST_JSON}"
    r, text = suite_python.run_pybench(board, cmd)  # type: ignore[arg-type]
    assert board.commands[0] == f"rm -f {suite_python.GUEST_JSON}"
    return suite_python.pybench_result({"lab_kernel": "std"}, r, text, note)


def test_the_lab_files_the_document_from_its_file() -> None:
    doc = document()
    out = lab_entry(FakeBoard("python bench: ...\nudrv  1701.0\n", json.dumps(doc)))
    assert out == {"lab_kernel": "std", "table": "python bench: ...\nudrv  1701.0",
                   "result": doc}
    out = lab_entry(FakeBoard("t\n", json.dumps(doc)), note="no udrv")
    assert out["result"]["note"] == "no udrv"
    out = lab_entry(FakeBoard("t\n", json.dumps(doc), status=1))  # the bench failed its run
    assert out["failure"] == "udrv-pybench: exit 1: boom" and out["result"] == doc


def test_the_lab_refuses_a_broken_or_missing_document() -> None:
    doc = document()
    DAMAGE["unaccounted"][0](doc)
    out = lab_entry(FakeBoard("t\n", json.dumps(doc)))
    assert "result" not in out and out["failure"].startswith(
        "udrv-pybench wrote no udrv-pybench-1 document: /tmp/udrv-pybench.json (udrv-pybench): "
        "events.rows.udrv.unaccounted: 5"), out
    out = lab_entry(FakeBoard("t\n", None, status=1))
    assert out == {"lab_kernel": "std", "failure": "udrv-pybench: exit 1: boom"}
    out = lab_entry(FakeBoard("t\n", None))
    assert out["failure"] == "udrv-pybench wrote no /tmp/udrv-pybench.json"


def test_the_document_is_no_longer_cut_out_of_stdout() -> None:
    """The old path: the JSON after the table on stdout, cut at the first "\\n{"."""
    src = Path(suite_python.__file__).read_text()
    assert 'partition("\\n{")' not in src and "--json -" not in src
    assert "json.loads" not in src
    # a table followed by a document on stdout is not read as one any more
    out = lab_entry(FakeBoard("t\n" + json.dumps(document(), indent=1), None))
    assert "result" not in out
