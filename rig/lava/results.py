# SPDX-License-Identifier: GPL-2.0-only
"""LAVA results -> udrv's results document (udrv-lab/1, docs/rig/results.md).

    python3 -m rig.lava results DIR|FILE... -o farm.json [--board NAME]

Reads what a LAVA job of rig/lava/udrv-bench.yaml left:
  - a job log: lava-run's standard output (one YAML mapping per line; `python3
    -m rig.lava run` keeps it as DIR/lava.log), or the server's
    (`lavacli jobs logs ID` / /api/v0.2/jobs/ID/logs/: the same lines, a YAML
    list). It has the test cases and, between `udrv-lava-doc-begin BENCH` and
    `udrv-lava-doc-end BENCH`, each bench's whole document (gzip, base64);
  - or a results file from the server (/api/v0.2/jobs/ID/tests/ as JSON or
    /results/ID/yaml, `lavacli results ID --yaml`): test cases only.

Each bench's document is the one from the log; every test case of it is
checked against that document (a figure the document has but LAVA did not
record, or recorded with another value, is a failure of the run). Without a
log the document is rebuilt from the test cases (figures only: no histogram
buckets, a note says so). A bench whose test case failed is a failure of its
run, with the reason the log gives. Nothing is dropped silently: whatever does
not add up is in the run's `failures`, which udrv-report prints.

Exit status: 0 written; 2 the input is missing or not a LAVA log or results
of udrv-lava-bench (one line says which and why).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import gzip
import json
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.results import ResultsError, bench_document, checked
from rig.results.check import UNKNOWN
from rig.results.schema import fill_missing, schema_of

EXIT_BAD_INPUT = 2
BEGIN = "udrv-lava-doc-begin "
END = "udrv-lava-doc-end "
FAIL = "udrv-lava-fail "
# what udrv-lava-bench leaves out of the test cases (they are in the document)
SKIPPED = ("buckets", "timeline")
ROW_LABEL = ("mechanism", "implementation", "wait", "sample")
ROW_CASE = re.compile(r"^rows\.(?P<label>.+?)\.(?P<rest>stats\.\w+|loss\.\w+|reference\.\w+"
                      r"|rate_per_s)$")
# the fields of a udrv-bench/1 document (rig/results/udrv-bench-1.schema.json)
FIELDS = frozenset(schema_of("udrv-bench/1")["properties"])
BASE64_LINE = re.compile(r"^[A-Za-z0-9+/]+=*$")
BENCH_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
# float() of LAVA's measurement and the document's number: equal to this
REL_TOLERANCE = 1e-9


class InputError(Exception):
    """The input cannot be converted: the message says which file and why."""


@dataclass
class Case:
    name: str
    result: str
    measurement: float | None = None
    units: str | None = None


@dataclass
class Job:
    """What one LAVA job left: its test cases, documents and failure lines."""

    source: str
    cases: dict[str, Case] = field(default_factory=dict)
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    fail_lines: dict[str, str] = field(default_factory=dict)
    bad_documents: dict[str, str] = field(default_factory=dict)  # bench -> why
    device: str = ""
    has_log: bool = False


# ---- the figures of a document, as udrv-lava-bench names them ----

def _unit(path: list[str], key: str, row_unit: str) -> str:
    parent = path[-1] if path else ""
    if len(path) >= 2 and path[0] == "rows":
        if parent == "stats":
            return "count" if key in ("count", "overflow") else row_unit
        if parent == "loss":
            return "count"
        if parent == "reference":
            return "ratio"
    if parent == "rates":
        return "Hz"
    for suffix, unit in (("_ns", "ns"), ("_us", "us"), ("_pct", "percent")):
        if key.endswith(suffix):
            return unit
    if key == "per_s" or key.endswith("_per_s"):
        return "Hz"
    return "ratio" if key.startswith("ratio") else "count"


def row_label(row: dict[str, Any]) -> str:
    return "--".join(str(row[k]) for k in ROW_LABEL if row.get(k) is not None)


def figures(doc: dict[str, Any]) -> dict[str, tuple[float, str]]:
    """Every figure udrv-lava-bench records for @doc: name -> (value, units)
    (the Python twin of its awk flattener; tests/rig/lava checks they agree)."""
    bench = str(doc.get("bench", ""))
    out: dict[str, tuple[float, str]] = {}

    def walk(value: Any, path: list[str], names: list[str], row_unit: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if path == [] and k == "bench":
                    continue
                if len(path) == 2 and path[0] == "rows" and k in (*ROW_LABEL, "unit"):
                    continue
                walk(v, [*path, k], [*names, k], row_unit)
            return
        if isinstance(value, list):
            if path and path[-1] in SKIPPED:
                return
            for i, v in enumerate(value):
                name = str(i)
                unit = row_unit
                if path == ["rows"] and isinstance(v, dict):
                    name = row_label(v) or name
                    unit = str(v.get("unit") or "ns")
                walk(v, [*path, str(i)], [*names, name], unit)
            return
        if isinstance(value, bool):
            out[".".join([bench, *names])] = (1.0 if value else 0.0, "bool")
        elif isinstance(value, (int, float)):
            # an array's number (rate.rates) takes its units from the array's name
            out[".".join([bench, *names])] = (float(value), _unit(path[:-1], path[-1], row_unit))

    walk(doc, [], [], "ns")
    return out


# ---- reading LAVA's files ----

class _NotYaml(Exception):
    """The text is not YAML (or JSON, which is YAML)."""


def _load_yaml(text: str) -> Any:
    import yaml  # python3-yaml: lava-dispatcher's dependency, and LAVA's format

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)  # a safe loader
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        raise _NotYaml(str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__) \
            from None


def _log_record(line: str) -> dict[str, Any] | None:
    """One line of a LAVA log: {"dt", "lvl", "msg"}, with or without "- "."""
    s = line.strip().removeprefix("- ")
    if not s.startswith("{"):
        return None
    try:
        rec = json.loads(s)
    except ValueError:
        try:
            rec = _load_yaml(s)
        except _NotYaml:
            return None
    return rec if isinstance(rec, dict) and "lvl" in rec and "msg" in rec else None


def _number(v: Any) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if x == x and abs(x) != float("inf") else None


def _add_case(job: Job, name: Any, result: Any, measurement: Any, units: Any,
              definition: Any) -> None:
    # LAVA's own steps (definition "lava": validate, login-action, job) are not udrv's
    if not isinstance(name, str) or not isinstance(result, str) or definition == "lava":
        return
    job.cases[name] = Case(name, result, _number(measurement),
                           units if isinstance(units, str) else None)


def _decode_doc(job: Job, bench: str, lines: list[str]) -> None:
    try:
        raw = gzip.decompress(base64.b64decode("".join(lines), validate=True))
        text = raw.decode("utf-8")
    except (binascii.Error, OSError, EOFError, zlib.error, UnicodeDecodeError,
            ValueError) as exc:
        job.bad_documents[bench] = (f"{bench}: the document in the log is corrupt "
                                    f"({exc}); rebuilt from the test cases")
        return
    try:  # rig.results: udrv-bench/1 and its numbers adding up
        job.documents[bench] = bench_document(text, "")
    except ResultsError as exc:
        job.bad_documents[bench] = (f"{bench}: the document in the log is not "
                                    f"udrv-bench/1 ({exc}); rebuilt from the test cases")


def read_log(job: Job, records: list[dict[str, Any]]) -> None:
    """Test cases, documents and failure lines from a LAVA log's records."""
    job.has_log = True
    block: tuple[str, list[str]] | None = None
    for rec in records:
        lvl, msg = rec.get("lvl"), rec.get("msg")
        if lvl == "results" and isinstance(msg, dict):
            _add_case(job, msg.get("case"), msg.get("result"), msg.get("measurement"),
                      msg.get("units"), msg.get("definition"))
        elif lvl == "target" and isinstance(msg, str):
            block = _target_line(job, msg.strip(), block)
    if block is not None:
        job.bad_documents[block[0]] = (f"{block[0]}: the log ends inside its document "
                                       f"(no {END.strip()} line); rebuilt from the test "
                                       "cases")


def _target_line(job: Job, msg: str, block: tuple[str, list[str]] | None
                 ) -> tuple[str, list[str]] | None:
    if msg.startswith(BEGIN):
        return (msg[len(BEGIN):].split(" ")[0], [])
    if msg.startswith(END) and block is not None:
        _decode_doc(job, block[0], block[1])
        return None
    if block is not None:
        # a kernel message on the console between the lines is not base64
        if BASE64_LINE.match(msg):
            block[1].append(msg)
        return block
    if msg.startswith(FAIL):
        bench, _, why = msg[len(FAIL):].partition(" ")
        job.fail_lines[bench] = why
    return None


def read_results_list(job: Job, items: list[Any]) -> None:
    """The server's results: [{"name", "result", "measurement", "unit", ...}]."""
    for it in items:
        if isinstance(it, dict):
            meta = it.get("metadata")
            units = it.get("unit")
            if not units and isinstance(meta, dict):
                units = meta.get("units")
            _add_case(job, it.get("name"), it.get("result"), it.get("measurement"), units,
                      it.get("suite"))


def read_input(path: str) -> Job:
    p = Path(path)
    if p.is_dir():
        log = p / "lava.log"
        if not log.is_file():
            raise InputError(f"{path}: a directory without lava.log: give the output "
                             "directory of `python3 -m rig.lava run`, or a LAVA log or "
                             "results file")
        name = p / "device-name"  # lava run's (rig/lava/job.py DEVICE_NAME_FILE)
        p = log
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as text ({exc})") from None
    job = Job(str(p))
    if Path(path).is_dir() and name.is_file():
        job.device = name.read_text().strip()
    records = [r for r in map(_log_record, text.splitlines()) if r is not None]
    if records:
        read_log(job, records)
    else:
        try:
            data = _load_yaml(text)
        except _NotYaml as exc:
            raise InputError(f"{path}: neither a LAVA log nor a LAVA results file "
                             f"(YAML/JSON: {exc})") from None
        if isinstance(data, dict) and isinstance(data.get("results"), list):
            data = data["results"]  # /api/v0.2/jobs/ID/tests/ (paginated JSON)
        if not isinstance(data, list):
            raise InputError(f"{path}: neither a LAVA log (lines {{dt, lvl, msg}}) nor a "
                             "LAVA results file (a list of test cases)")
        read_results_list(job, data)
    if not any(_bench_of(n) for n in job.cases) and not job.documents:
        raise InputError(f"{path}: no udrv test cases in it (names BENCH and BENCH.FIGURE "
                         "from rig/lava/udrv-bench.yaml): not a job of udrv's test definition, "
                         "or it did not get to run")
    return job


def _bench_of(case: str) -> str | None:
    """The bench a test case belongs to (its name's first part), or None."""
    bench = case.split(".", 1)[0]
    return bench if BENCH_NAME.match(bench) and (case == bench or "." in case) and \
        bench not in ("lava", "job") else None


# ---- to udrv-lab/1 ----

def _check_figures(job: Job, bench: str, doc: dict[str, Any]) -> list[str]:
    """What does not add up between the document and LAVA's test cases."""
    problems = []
    want = figures(doc)
    for name, (value, unit) in want.items():
        case = job.cases.get(name)
        if case is None:
            problems.append(f"{name}: in the document, not in LAVA's results")
        elif case.result != "pass":
            problems.append(f"{name}: LAVA recorded {case.result}")
        elif case.measurement is None or \
                abs(case.measurement - value) > REL_TOLERANCE * max(1.0, abs(value)):
            problems.append(f"{name}: LAVA recorded {case.measurement}, the document "
                            f"has {value}")
        elif case.units != unit:
            problems.append(f"{name}: LAVA recorded units {case.units}, expected {unit}")
    extra = [n for n in job.cases if n.startswith(bench + ".") and n not in want]
    problems += [f"{n}: in LAVA's results, not in the document" for n in extra]
    return [f"{bench}: {p}" for p in problems]


def _set(tree: dict[str, Any], path: list[str], value: Any) -> bool:
    """tree[p0][p1]... = value; False when a figure already sits where an
    object should be, or something is there already (test cases that
    udrv-lava-bench cannot have made)."""
    for k in path[:-1]:
        tree = tree.setdefault(k, {})
        if not isinstance(tree, dict):
            return False
    if path[-1] in tree:  # a header field ("load", "kernel.release") or a twin
        return False
    tree[path[-1]] = value
    return True


def rebuild(bench: str, cases: dict[str, Case], board: str,
            problems: list[str]) -> dict[str, Any]:
    """A udrv-bench/1 document from the test cases alone: the figures, rows
    without histogram buckets (test cases that do not fit: in @problems)."""
    doc: dict[str, Any] = {"schema": "udrv-bench/1", "tool": {"name": "udrv",
                           "version": "unknown"}, "bench": bench, "board": board,
                           "kernel": {"release": "unknown (LAVA test cases only)"},
                           "load": "none", "rt": {}, "rows": [],
                           "rebuilt": "from LAVA's test cases: no job log"}
    rows: dict[str, dict[str, Any]] = {}
    for name, case in cases.items():
        rest = name[len(bench) + 1:]
        if case.measurement is None:
            continue
        value: Any = case.measurement
        if case.units == "bool":
            value = bool(value)
        elif value == int(value) and case.units != "ratio":
            value = int(value)
        m = ROW_CASE.match(rest)
        if m is None:
            path = rest.split(".")
            if path[0] not in FIELDS or path[0] == "rows" or not _set(doc, path, value):
                problems.append(f"{name}: not a figure of a udrv-bench/1 document: left out")
            continue
        row = rows.get(m["label"])
        if row is None:
            row = rows[m["label"]] = _row_from_label(m["label"])
            doc["rows"].append(row)
        parts = m["rest"].split(".")
        if parts[0] == "stats" and case.units not in ("count", None):
            row["unit"] = case.units
        if not _set(row, parts, value):
            problems.append(f"{name}: not a figure of a udrv-bench/1 document: left out")
    for key in list(doc):
        if key != "rows":
            doc[key] = _listify(doc[key])
    _fill_strings(bench, doc, problems)
    # the header's strings are not test cases
    for key in ("version", "preempt_model"):
        doc["kernel"].setdefault(key, "unknown")
    if isinstance(doc["rt"], dict):
        doc["rt"].setdefault("policy", "unknown")
        for key in ("cpu", "dma_latency_us"):
            doc["rt"].setdefault(key, None)
    for row in doc["rows"]:
        row.setdefault("rate_per_s", None)
        row.setdefault("loss", None)
        row.setdefault("reference", None)
        if isinstance(row["reference"], dict):  # its row's names are strings: unknown
            row["reference"].setdefault("mechanism", UNKNOWN)
            row["reference"].setdefault("implementation", UNKNOWN)
        stats = row.setdefault("stats", {})
        stats.setdefault("buckets", [])
        for k in ("count", "min", "avg", "max", "stddev", "p50", "p90", "p99", "p99_9",
                  "p99_99", "overflow"):
            stats.setdefault(k, 0)
    fill_missing(doc, "udrv-bench/1", UNKNOWN)  # a null or a string is no test case
    return doc


def _listify(value: Any) -> Any:
    """An object whose keys are all indices (a list flattened into figures:
    rate.steps.3.p50_ns) back into a list, in index order."""
    if not isinstance(value, dict):
        return value
    value = {k: _listify(v) for k, v in value.items()}
    if value and all(k.isdigit() for k in value):
        return [value[k] for k in sorted(value, key=int)]
    return value


def _fill_strings(bench: str, doc: dict[str, Any], problems: list[str]) -> None:
    """What a bench's own object needs beyond figures: gaps' and pwm's
    timelines (not test cases: in the log's document), the names of pwm's
    runs (its rows'), the strings of rate's steps and capacity ("?", said
    once); reply's breakdown cannot come back (said)."""
    gaps = doc.get("gaps")
    if bench == "gaps" and isinstance(gaps, dict):
        gaps.setdefault("timeline", [])
    pwm = doc.get("pwm")
    if bench == "pwm" and isinstance(pwm, dict):
        _pwm_runs(doc["rows"], pwm.get("runs"))
    if doc.pop("breakdown", None) is not None:
        problems.append(f"{bench}: breakdown left out: its stages are named by strings, "
                        "not test cases (the job log's document has it)")
    rate = doc.get("rate")
    if bench != "rate" or not isinstance(rate, dict):
        return
    unnamed = False
    for key in ("steps", "capacity"):
        items = rate.setdefault(key, [])
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict):
                for field_name in ("mechanism", "implementation"):
                    if field_name not in item:
                        item[field_name] = UNKNOWN
                        unnamed = True
    if unnamed:
        problems.append(f"{bench}: rate.steps and rate.capacity rebuilt from test cases: "
                        "their mechanism and implementation are strings, not test cases "
                        "('?'; the job log's document has them)")


def _pwm_runs(rows: list[dict[str, Any]], runs: Any) -> None:
    """pwm's runs are named by strings, which are no test cases; its rows carry
    the same names in their labels, in the same order (each run's width-error
    row, then its period-error row): each run takes its width row's names,
    when there are as many. Its timeline stays empty."""
    widths = [r for r in rows if r.get("sample") == "width-error"]
    if not isinstance(runs, list) or len(runs) != len(widths):
        return
    for run, row in zip(runs, widths, strict=True):
        if isinstance(run, dict):
            run.setdefault("waveform", row["mechanism"])
            run.setdefault("implementation", row["implementation"])
            run.setdefault("timeline", [])


def _row_from_label(label: str) -> dict[str, Any]:
    parts = label.split("--")
    wait = parts[2] if len(parts) == 4 else None
    return {"mechanism": parts[0], "implementation": parts[1] if len(parts) > 1 else "",
            "wait": wait, "sample": parts[-1], "unit": "ns",
            "note": "rebuilt from LAVA test cases: no histogram buckets"}


def convert(jobs: list[Job], *, board: str = "") -> dict[str, Any]:
    """One udrv-lab/1 document: a run per LAVA job x kernel x load."""
    runs: list[dict[str, Any]] = []
    version = "unknown"
    for job in jobs:
        name = board or job.device or "lava"
        benches = list(dict.fromkeys(b for n in job.cases if (b := _bench_of(n))))
        benches += [b for b in job.documents if b not in benches]
        job_runs: dict[tuple[str, str], dict[str, Any]] = {}
        failures: list[str] = []
        docs = []
        for bench in benches:
            status = job.cases.get(bench)
            if status is not None and status.result != "pass":
                why = job.fail_lines.get(bench, "the log gives no reason")
                failures.append(f"{bench}: failed in LAVA: exit {why}")
                continue
            doc = job.documents.get(bench)
            if doc is not None:
                failures += _check_figures(job, bench, doc)
            else:
                if bench in job.bad_documents:
                    failures.append(job.bad_documents[bench])
                elif job.has_log:
                    failures.append(f"{bench}: no document in the log: rebuilt from the "
                                    "test cases (no histogram buckets)")
                doc = rebuild(bench, {n: c for n, c in job.cases.items()
                                      if n.startswith(bench + ".")}, name, failures)
                try:  # what the test cases rebuilt must still be udrv-bench/1
                    checked("", doc, want="udrv-bench/1")
                except ResultsError as exc:
                    failures.append(f"{bench}: rebuilt from the test cases, but not a "
                                    f"udrv-bench/1 document ({exc}): left out")
                    continue
            if status is None:
                failures.append(f"{bench}: no test case {bench} (its pass/fail) in LAVA's "
                                "results")
            doc["board"] = name
            version = str(doc.get("tool", {}).get("version", version))
            docs.append(doc)
        for doc in docs:
            kernel = "rt" if doc.get("kernel", {}).get("realtime") else "std"
            key = (kernel, str(doc.get("load", "none")))
            run = job_runs.setdefault(key, {"board": name, "kernel": key[0], "load": key[1],
                                            "documents": [], "failures": [],
                                            "lava": {"source": job.source}})
            run["documents"].append(doc)
        if not job_runs:
            job_runs[("std", "none")] = {"board": name, "kernel": "std", "load": "none",
                                         "documents": [], "failures": [],
                                         "lava": {"source": job.source}}
        first = next(iter(job_runs.values()))
        first["failures"] += failures
        runs += job_runs.values()
    return {"schema": "udrv-lab/1", "tool": {"name": "udrv", "version": version},
            "runs": runs}


def convert_path(path: str, *, board: str = "") -> dict[str, Any]:
    return convert([read_input(path)], board=board)


def write_doc(doc: dict[str, Any], out: str) -> None:
    text = json.dumps(doc, indent=2) + "\n"
    if out == "-":
        sys.stdout.write(text)
        return
    Path(out).write_text(text)
    n = sum(len(r["documents"]) for r in doc["runs"])
    f = sum(len(r["failures"]) for r in doc["runs"])
    print(f"lava: wrote {out}: {n} bench documents, {f} failures", file=sys.stderr)
    for r in doc["runs"]:
        for why in r["failures"][:10]:
            print(f"lava:   {r['board']} {r['kernel']}/{r['load']}: {why}", file=sys.stderr)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Turn what a LAVA job of rig/lava/udrv-bench.yaml left into one udrv-lab/1 document "
        "(docs/rig/results.md) for udrv-report: a job log (lava-run's standard output, kept by "
        "`python3 -m rig.lava run` as DIR/lava.log, or `lavacli jobs logs --raw ID`), whose "
        "udrv-lava-doc blocks carry each bench's whole document, every figure checked "
        "against LAVA's test cases; or a results file (`lavacli results ID --yaml`, "
        "/api/v0.2/jobs/ID/tests/), whose test cases rebuild the documents without "
        "histogram buckets. Whatever does not add up (a figure missing or different, a "
        "failed bench and its reason, a corrupt document) is in the run's failures, "
        "which udrv-report prints. Exit status: 0 written; 2 an input missing or not a "
        "LAVA log or results of udrv's definition (docs/rig/lava.md).")
    p.add_argument("inputs", nargs="+", metavar="DIR|FILE",
                   help="lava run's output directory, a LAVA job log or a results file; "
                   "several: a run each")
    p.add_argument("-o", "--out", required=True, help="the udrv-lab/1 file ('-': stdout)")
    p.add_argument("--board", default="", help="the board's name in the results: the LAVA "
                   "device (`lavacli jobs show ID`). Default: DIR/device-name (lava run "
                   "writes it), else 'lava'")


def main(args: argparse.Namespace) -> int:
    try:
        jobs = [read_input(p) for p in args.inputs]
    except InputError as exc:
        print(f"lava results: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    write_doc(convert(jobs, board=args.board), args.out)
    return 0
