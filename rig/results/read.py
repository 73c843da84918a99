# SPDX-License-Identifier: GPL-2.0-only
"""Read results documents (udrv-lab/1, udrv-bench/1; udrv-pybench-1), check
them, model them.

Every problem raises ResultsError(source, message): the message names the
file (or what the text came from), what is wrong (missing, empty, truncated,
not JSON, another schema or version, a field missing or of the wrong type,
with its place in the document, numbers that do not add up) and what to do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rig.bench.specs import SPECS

from .check import SUPPORTED, Version, check
from .errors import ResultsError
from .model import Doc, Results, Row, Run, Stats
from .pybench import PyBench, check_pybench
from .pybench import model as pybench_model
from .schema import FILES, PYBENCH_FILE, Invalid

REMEDY = ("'make lab' writes build/lab/results.json; "
          "'udrv-bench NAME --json > FILE' writes one bench")
PYBENCH_REMEDY = "'udrv-pybench --json FILE' writes one"
# udrv's documents nest about 8 levels (runs, documents, rows, stats,
# buckets); far deeper is not one of them, and would take the code that
# walks it (messages, the page) past Python's recursion limit
MAX_DEPTH = 64


def read_text(path: str) -> str:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ResultsError(path, f"no such file ({REMEDY})") from None
    except IsADirectoryError:
        raise ResultsError(path, "is a directory: give the results file inside it "
                                 "(e.g. build/lab/results.json)") from None
    except OSError as exc:
        raise ResultsError(path, f"cannot read it: {exc.strerror or exc}") from None
    if not data.strip():
        raise ResultsError(path, f"empty file ({len(data)} bytes): the run that writes it "
                                 f"did not finish; run it again ({REMEDY})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsError(path, f"not a text file (byte {exc.start} is not UTF-8): "
                                 f"not a udrv results file ({REMEDY})") from None


class _Constant(Exception):
    pass


def _no_constant(name: str) -> Any:
    raise _Constant(f"{name} is not a number udrv writes")


def parse_json(source: str, text: str) -> Any:
    """The JSON value of @text; strict: no NaN/Infinity, no unpaired surrogates,
    no absurd nesting or integers (ResultsError says which)."""
    if not text.strip():
        raise ResultsError(source, "empty: no JSON document")
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except _Constant as exc:
        raise ResultsError(source, f"not valid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise ResultsError(source, f"truncated: the JSON stops after {len(text.encode())} "
                                       "bytes before the document is complete (was the run "
                                       "interrupted or the disk full?); run it again") from None
        raise ResultsError(source, f"not valid JSON: line {exc.lineno} column {exc.colno}: "
                                   f"{exc.msg}") from None
    except RecursionError:
        raise ResultsError(source, f"nested deeper than {MAX_DEPTH} levels: not a udrv "
                                   f"results document ({SUPPORTED}; {REMEDY})") from None
    except ValueError:  # an integer longer than Python converts (sys.int_info)
        raise ResultsError(source, "holds an integer of thousands of digits: not a number "
                                   f"udrv writes; not a udrv results document ({REMEDY})") \
            from None
    _check_values(source, doc)
    return doc


def _check_values(source: str, doc: Any) -> None:
    """Refuse what JSON allows but no udrv document holds: deep nesting, unpaired
    surrogates (\\udXXX escapes: not text, cannot be written to the page)."""
    todo = [(doc, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise ResultsError(source, f"nested deeper than {MAX_DEPTH} levels: not a udrv "
                                       f"results document ({SUPPORTED}; {REMEDY})")
        if isinstance(value, dict):
            todo += [(k, depth + 1) for k in value]
            todo += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            todo += [(v, depth + 1) for v in value]
        elif isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ResultsError(source, f"a string holds \\u{ord(value[exc.start]):04x}, "
                                           "half of a UTF-16 surrogate pair: not text; was the "
                                           "file written by another tool?") from None


def checked(source: str, doc: Any, reader: str = "this reader", want: str = "") -> str:
    """Check @doc (rig.results.check) or raise ResultsError; its schema.
    @want: the one schema accepted ("udrv-bench/1"), else either."""
    try:
        name = check(doc)
    except Version as exc:
        raise ResultsError(source, f"{exc}: {reader} reads {SUPPORTED}; use the tools of "
                                   "the udrv version that wrote it") from None
    except Invalid as exc:
        schema = doc.get("schema") if isinstance(doc, dict) else None
        if not isinstance(schema, str) or schema not in FILES:
            raise ResultsError(source, f"{exc} ({REMEDY})") from None
        raise ResultsError(source, f"{exc}: the document does not follow {schema} "
                                   f"(rig/results/{FILES[schema]}, docs/rig/results.md); was it "
                                   "edited or written by another tool?") from None
    if want and name != want:
        raise ResultsError(source, f"schema {name!r}, expected {want!r}")
    return name


def bench_document(text: str, source: str) -> dict[str, Any]:
    """What `udrv-bench NAME --json` printed (@source: where it came from),
    parsed and checked: a udrv-bench/1 document, else ResultsError."""
    doc = parse_json(source, text)
    checked(source, doc, want="udrv-bench/1")
    return doc  # type: ignore[no-any-return]


def pybench_document(text: str, source: str) -> PyBench:
    """What `udrv-pybench --json FILE` wrote (@source: where it came from),
    parsed, checked (udrv-pybench-1.schema.json, rig.results.pybench) and
    modelled, else ResultsError."""
    doc = parse_json(source, text)
    try:
        check_pybench(doc)
    except Invalid as exc:
        raise ResultsError(source, f"{exc}: not a udrv-pybench-1 document (rig/results/"
                                   f"{PYBENCH_FILE}, docs/rig/results.md); "
                                   f"{PYBENCH_REMEDY}") from None
    return pybench_model(doc, source)


def load_pybench(path: str) -> PyBench:
    """Read, check and model one `udrv-pybench --json FILE` file."""
    return pybench_document(read_text(path), path)


def load(path: str, reader: str = "this reader") -> Results:
    """Read and check one results file, and model it."""
    doc = parse_json(path, read_text(path))
    checked(path, doc, reader)
    return model(doc, path)


def model(doc: dict[str, Any], source: str) -> Results:
    """The model of a document already checked (checked(), or made by udrv)."""
    if doc["schema"] == "udrv-lab/1":
        runs = []
        for r in doc["runs"]:
            run = Run(source, r["kernel"], r["load"], lab_board=r.get("board", ""),
                      variant=r.get("variant", ""))
            run.docs = [_doc(d) for d in r["documents"]]
            run.failures = list(r.get("failures", []))
            run.unavailable = list(r.get("unavailable", []))
            runs.append(run)
        return Results(source, doc["schema"], doc["tool"]["version"], runs,
                       python=list(doc.get("python", [])))
    d = _doc(doc)
    kernel = "rt" if d.kernel["realtime"] else "std"  # a bench file: named as the lab does
    return Results(source, doc["schema"], d.tool_version,
                   [Run(source, kernel, d.load, [d], from_bench_file=True)])


def _doc(d: dict[str, Any]) -> Doc:
    bench = d["bench"]
    return Doc(bench=bench, board=d["board"], kernel=d["kernel"], load=d["load"], rt=d["rt"],
               tool_version=d["tool"]["version"], rows=[_row(bench, r) for r in d["rows"]],
               sections=_sections(d))


def _sections(d: dict[str, Any]) -> dict[str, Any]:
    """Each spec's section the document has, read into the spec's model."""
    return {s.section: s.parse(d[s.section]) for s in SPECS
            if s.section and s.parse and s.section in d}


def _row(bench: str, r: dict[str, Any]) -> Row:
    rate = r["rate_per_s"]
    return Row(bench=bench, mechanism=r["mechanism"], implementation=r["implementation"],
               wait=r["wait"], sample=r["sample"], unit=r["unit"], stats=_stats(r["stats"]),
               loss=r["loss"], rate_per_s=None if rate is None else float(rate),
               reference=r["reference"], note=r["note"])


def _stats(s: dict[str, Any]) -> Stats:
    return Stats(count=s["count"], min=s["min"], avg=s["avg"], max=s["max"],
                 stddev=s["stddev"], p50=s["p50"], p90=s["p90"], p99=s["p99"],
                 p99_9=s["p99_9"], p99_99=s["p99_99"], overflow=s["overflow"],
                 buckets=tuple((b[0], b[1], b[2]) for b in s["buckets"]))
