# SPDX-License-Identifier: GPL-2.0-only
"""The results contract (rig/results/*.schema.json + rig.results' checks).

Every real document the project keeps passes (the report's fixtures: what the
benches and the suite wrote); the schema files are valid JSON Schema 2020-12
and the jsonschema package agrees with rig.results' own validator on them;
each kind of damage is refused with a message saying where; and the contract
broken on purpose (a required key removed, a type changed, an unknown
version) is refused by EVERY reader: rig.results, udrv-report (exit 2), the
suite's reader, the LAVA converter and the soak.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rig.lab.boards.api import Result
from rig.lab.suite import qemu as suite
from rig.lab.suite import soak
from rig.lava import results as lava_results
from rig.results import ResultsError, bench_document, checked
from rig.results import read as results_read
from rig.results.check import check_bench, check_lab
from rig.results.schema import FILES, HERE, Invalid, _check_keywords, schemas
from tests.support.results_docs import bench_doc, damage, ref, row, stats

REPO = Path(__file__).resolve().parents[2]
FIXTURES = sorted((REPO / "tests" / "rig" / "report" / "fixtures").glob("*.json"))
REPORT = REPO / "rig" / "report" / "udrv-report"


def fixture_documents() -> list[dict[str, Any]]:
    docs = []
    for f in FIXTURES:
        d = json.loads(f.read_text())
        docs += [x for r in d["runs"] for x in r["documents"]] if "runs" in d else [d]
    return docs


def document() -> dict[str, Any]:
    """A udrv-bench/1 document: two rows, the second against the first."""
    rows = [row("cdev", "raw", "toggle", stats([100, 100, 101]), loss=True, rate_per_s=9.9e6),
            row("cdev", "udrv", "toggle", stats([101, 101, 102]), loss=True, rate_per_s=9.8e6,
                reference=ref("cdev", "raw", 1.01, 1.0))]
    return bench_doc("toggle", rows, realtime=True)


@pytest.mark.parametrize("path", FIXTURES, ids=[f.name for f in FIXTURES])
def test_every_kept_document_passes(path: Path) -> None:
    assert results_read.load(str(path)).runs


def test_a_made_up_document_passes() -> None:
    check_bench(document())
    check_lab(suite.lab_document([suite.SuiteRun("std", "none", [document()])]))


# ---- the schema files are standard JSON Schema, and rig.results reads them so ----

def _jsonschema_validator(name: str) -> Any:
    jsonschema = pytest.importorskip("jsonschema")  # install-deps --check
    store = {sid: s for sid, s in schemas().items()}
    schema = json.loads((HERE / FILES[name]).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def test_the_schema_files_are_json_schema_2020_12() -> None:
    for name in FILES:
        _jsonschema_validator(name)


def test_jsonschema_agrees_on_the_kept_documents() -> None:
    bench, lab = _jsonschema_validator("udrv-bench/1"), _jsonschema_validator("udrv-lab/1")
    for doc in fixture_documents():
        bench.validate(doc)
    for f in FIXTURES:
        d = json.loads(f.read_text())
        if "runs" in d:
            lab.validate(d)


def test_the_validator_refuses_a_keyword_it_does_not_implement() -> None:
    _check_keywords({"type": "object", "properties": {"x": {"minimum": 1}}}, "ok")
    with pytest.raises(ValueError, match="not implemented"):
        _check_keywords({"properties": {"x": {"multipleOf": 2}}}, "bad")


# ---- damage: each refused, where it is said ----

DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], str, bool]] = {
    # name: (damage, message, a schema-level break that jsonschema sees too)
    "key-removed": (damage(["rows", 0, "stats"], KeyError), "rows[0].stats: missing", True),
    "rt-key-removed": (damage(["rt", "priority"], KeyError), "rt.priority: missing", True),
    "type-changed": (damage(["rows", 1, "stats", "count"], "many"),
                     'rows[1].stats.count: string "many", expected an integer', True),
    "unknown-field": (damage(["rows", 0, "latency"], 1), "rows[0].latency: not a field", True),
    "unknown-version": (damage(["schema"], "udrv-bench/2"), "schema 'udrv-bench/2'", True),
    "unknown-bench": (damage(["bench"], "blink"), "bench: 'blink', expected one of", True),
    "buckets": (lambda d: d["rows"][0]["stats"]["buckets"][0].__setitem__(2, 3),
                "rows[0].stats: buckets hold 4 + overflow 0, count says 3", False),
    "loss": (damage(["rows", 1, "loss", "lost"], 1),
             "rows[1].loss: sent 3 != received 3 + lost 1", False),
    "reference": (damage(["rows", 1, "reference", "implementation"], "libgpiod"),
                  "rows[1].reference: cdev/libgpiod is not a row of this run", False),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_damage_is_refused_and_said(name: str) -> None:
    broken, message, schema_level = DAMAGE[name]
    doc = document()
    broken(doc)
    with pytest.raises(Invalid) as err:
        check_bench(doc)
    assert message in str(err.value)
    if schema_level and name != "unknown-version":
        assert not _jsonschema_validator("udrv-bench/1").is_valid(doc)


# ---- a peer's rows at the setting of the rows they are compared with ----

OWN = {"name": "irq/24-udrv-bench-irq", "policy": "SCHED_FIFO", "priority": 90, "raised": True}
PEER_THREAD = {"name": "irq/24-udrv-bench-peer", "policy": "SCHED_FIFO", "priority": 90,
               "raised": True, "implementation": "libgpiod-2.3"}


def peer_document(*threads: dict[str, Any]) -> dict[str, Any]:
    """document() with a libgpiod-2.3 row and @threads as its wake_threads."""
    doc = document()
    doc["rows"].append(row("cdev", "libgpiod-2.3", "toggle", stats([120, 121, 122]),
                           loss=True, rate_per_s=8.2e6))
    doc["wake_threads"] = [dict(t) for t in threads]
    return doc


def test_a_peer_at_the_benchs_setting_passes() -> None:
    check_bench(peer_document(OWN, PEER_THREAD))
    # nothing raised: every irq thread at the kernel's default, none listed for the peer
    check_bench(peer_document(OWN | {"priority": 50, "raised": False}))


@pytest.mark.parametrize(("threads", "message"), [
    # the libgpiod row of make lab's rt irq-prio 90 run before 12-2026
    ((OWN,), "rows[2]: libgpiod-2.3's rows, but no thread of its own request in wake_threads"),
    ((OWN, PEER_THREAD | {"priority": 50, "raised": False}),
     "wake_threads[1]: irq/24-udrv-bench-peer (libgpiod-2.3) runs at SCHED_FIFO 50, the "
     "bench's own threads at SCHED_FIFO 90 raised"),
    ((OWN, PEER_THREAD | {"priority": 80}), "runs at SCHED_FIFO 80 raised"),
], ids=["peer-thread-missing", "peer-left-at-50", "peer-other-priority"])
def test_a_peer_at_another_setting_is_refused(threads: tuple[dict[str, Any], ...],
                                             message: str) -> None:
    with pytest.raises(Invalid) as err:
        check_bench(peer_document(*threads))
    assert message in str(err.value)
    assert "not at the setting" in str(err.value) or "not measured at the setting" in \
        str(err.value)


# ---- every reader refuses the contract broken on purpose ----

BREAKS = ("key-removed", "type-changed", "unknown-version")


def broken(name: str) -> dict[str, Any]:
    doc = copy.deepcopy(document())
    DAMAGE[name][0](doc)
    return doc


@pytest.mark.parametrize("name", BREAKS)
def test_rig_results_refuses(name: str, tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match=DAMAGE[name][1].replace("[", r"\[")):
        bench_document(json.dumps(broken(name)), "stdin")
    p = tmp_path / "b.json"
    p.write_text(json.dumps(broken(name)))
    with pytest.raises(ResultsError) as err:
        results_read.load(str(p))
    assert str(err.value).startswith(f"{p}: ") and DAMAGE[name][1] in str(err.value)
    r = subprocess.run(["python3", "-m", "rig.results", "check", str(p)], cwd=REPO,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and DAMAGE[name][1] in r.stderr, r


@pytest.mark.parametrize("name", BREAKS)
def test_udrv_report_refuses(name: str, tmp_path: Path) -> None:
    lab = suite.lab_document([suite.SuiteRun("rt", "none", [broken(name)])])
    p = tmp_path / "lab.json"
    p.write_text(json.dumps(lab))
    r = subprocess.run([str(REPORT), str(p), "-o", str(tmp_path / "r.html")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r
    [line] = r.stderr.splitlines()
    assert line.startswith(f"udrv-report: {p}: runs[0].documents[0].") and \
        DAMAGE[name][1].removeprefix("schema ") in line, line
    assert not (tmp_path / "r.html").exists()


class FakeBoard:
    """A board whose udrv-bench prints @stdout and exits 0."""

    target = "fake"

    def __init__(self, stdout: str) -> None:
        self.stdout = stdout

    def run(self, cmd: str, timeout: float = 0) -> Result:
        return Result(0, self.stdout.encode(), b"", 0.1)


@pytest.mark.parametrize("name", BREAKS)
def test_the_suite_refuses(name: str) -> None:
    run = suite.SuiteRun("rt", "none")
    suite._run_one(FakeBoard(json.dumps(broken(name))), run, "toggle", "udrv-bench toggle")
    assert run.documents == []
    [failure] = run.failures
    assert failure.startswith("toggle: fake: udrv-bench toggle: ") and \
        DAMAGE[name][1] in failure, failure
    good = suite.SuiteRun("rt", "none")
    suite._run_one(FakeBoard(json.dumps(document())), good, "toggle", "udrv-bench toggle")
    assert good.failures == [] and good.documents == [document()]
    with pytest.raises(ResultsError):  # and the lab document it writes is checked
        checked("", suite.lab_document([suite.SuiteRun("rt", "none", [broken(name)])]))


@pytest.mark.parametrize("name", BREAKS)
def test_the_lava_converter_refuses(name: str) -> None:
    def job(doc: dict[str, Any]) -> lava_results.Job:
        blob = base64.b64encode(gzip.compress(json.dumps(doc).encode())).decode()
        records = [{"lvl": "results", "msg": {"case": "toggle", "result": "pass",
                                              "definition": "toggle"}},
                   {"lvl": "target", "msg": "udrv-lava-doc-begin toggle 3 figures"},
                   *({"lvl": "target", "msg": blob[i:i + 76]} for i in range(0, len(blob), 76)),
                   {"lvl": "target", "msg": "udrv-lava-doc-end toggle"}]
        j = lava_results.Job("job.log")
        lava_results.read_log(j, records)
        return j

    assert "toggle" in job(document()).documents
    j = job(broken(name))
    assert j.documents == {}
    why = j.bad_documents["toggle"]
    assert why.startswith("toggle: the document in the log is not udrv-bench/1 (") and \
        DAMAGE[name][1] in why, why
    out = lava_results.convert([j], board="b")
    assert why in out["runs"][0]["failures"]
    checked("", out)  # what it writes instead is the contract's


@pytest.mark.parametrize("name", BREAKS)
def test_the_soak_refuses(name: str) -> None:
    run = soak.run_bench(FakeBoard(json.dumps(broken(name))), "irq", "udrv-bench irq", 3)  # type: ignore[arg-type]
    assert run.document is None
    assert any(p.startswith("not a udrv-bench/1 document: udrv-bench irq: ")
               and DAMAGE[name][1] in p for p in run.problems), run.problems
