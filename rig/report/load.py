# SPDX-License-Identifier: GPL-2.0-only
"""Read results files (udrv-lab/1, udrv-bench/1) and say clearly what is wrong with bad ones.

Every problem raises InputError(path, message): the message names the file,
what is wrong (missing, empty, truncated, not JSON, another schema or
version, a field missing or of the wrong type, with its place in the
document) and what to do about it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .errors import InputError
from .model import Doc, Results, Row, Run, Stats

SCHEMAS = {"udrv-lab": 1, "udrv-bench": 1}
SUPPORTED = ", ".join(f"{name}/{v}" for name, v in SCHEMAS.items())
REMEDY = ("'make lab' writes build/lab/results.json; "
          "'udrv bench NAME --json > FILE' writes one bench")


class _Bad(Exception):
    """A field is missing or wrong: where (a JSON path) and what."""


class _Version(_Bad):
    """A document inside the file has a schema version this tool does not read."""


def read_text(path: str) -> str:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(path, f"no such file ({REMEDY})") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory: give the results file inside it "
                               "(e.g. build/lab/results.json)") from None
    except OSError as exc:
        raise InputError(path, f"cannot read it: {exc.strerror or exc}") from None
    if not data.strip():
        raise InputError(path, f"empty file ({len(data)} bytes): the run that writes it "
                               f"did not finish; run it again ({REMEDY})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not a text file (byte {exc.start} is not UTF-8): "
                               f"not a udrv results file ({REMEDY})") from None


# udrv's documents nest about 8 levels (runs, documents, rows, stats,
# buckets); far deeper is not one of them, and would take the code that
# walks it (messages, the page) past Python's recursion limit
MAX_DEPTH = 64
# the widest integers udrv writes (int64_t, uint64_t)
INT_RANGE = (-(2**63), 2**64 - 1)


def parse_json(path: str, text: str) -> Any:
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except _Bad as exc:
        raise InputError(path, f"not valid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise InputError(path, f"truncated: the JSON stops after {len(text.encode())} bytes "
                                   "before the document is complete (was the run interrupted "
                                   "or the disk full?); run it again") from None
        raise InputError(path, f"not valid JSON: line {exc.lineno} column {exc.colno}: "
                               f"{exc.msg}") from None
    except RecursionError:
        raise InputError(path, f"nested deeper than {MAX_DEPTH} levels: not a udrv results "
                               f"document ({SUPPORTED}; {REMEDY})") from None
    except ValueError:  # an integer longer than Python converts (sys.int_info)
        raise InputError(path, "holds an integer of thousands of digits: not a number udrv "
                               f"writes; not a udrv results document ({REMEDY})") from None
    _check_values(path, doc)
    return doc


def _check_values(path: str, doc: Any) -> None:
    """Refuse what JSON allows but no udrv document holds: deep nesting, unpaired
    surrogates (\\udXXX escapes: not text, cannot be written to the page)."""
    todo = [(doc, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise InputError(path, f"nested deeper than {MAX_DEPTH} levels: not a udrv results "
                                   f"document ({SUPPORTED}; {REMEDY})")
        if isinstance(value, dict):
            todo += [(k, depth + 1) for k in value]
            todo += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            todo += [(v, depth + 1) for v in value]
        elif isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise InputError(path, f"a string holds \\u{ord(value[exc.start]):04x}, half of "
                                       "a UTF-16 surrogate pair: not text; was the file "
                                       "written by another tool?") from None


def _no_constant(name: str) -> Any:
    raise _Bad(f"{name} is not a number udrv writes")


def check_schema(path: str, doc: Any) -> str:
    if not isinstance(doc, dict):
        raise InputError(path, f"the JSON is a {_kind(doc)}, not a udrv results document "
                               f"({SUPPORTED}; {REMEDY})")
    schema = doc.get("schema")
    if not isinstance(schema, str):
        raise InputError(path, f"no \"schema\" field: not a udrv results document "
                               f"(this tool reads {SUPPORTED}; {REMEDY})")
    name, _, version = schema.rpartition("/")
    if name not in SCHEMAS:
        raise InputError(path, f"schema {schema!r} is not a udrv results document "
                               f"(this tool reads {SUPPORTED}; {REMEDY})")
    if version != str(SCHEMAS[name]):
        raise InputError(path, f"schema {schema!r}: this udrv-report reads {SUPPORTED}; "
                               "use the udrv-report of the udrv version that wrote the file")
    return name


def load(path: str) -> Results:
    """Read and check one results file."""
    doc = parse_json(path, read_text(path))
    name = check_schema(path, doc)
    try:
        if name == "udrv-lab":
            results = _lab(path, doc)
        else:
            d = _doc(doc, "")
            results = Results(path, doc["schema"], d.tool_version,
                              [Run(path, _kernel_label(d), d.load, [d], from_bench_file=True)])
    except _Version as exc:
        raise InputError(path, f"{exc}: this udrv-report reads {SUPPORTED}; use the "
                               "udrv-report of the udrv version that wrote it") from None
    except _Bad as exc:
        raise InputError(path, f"{exc}: the file does not follow {doc['schema']} "
                               "(docs/rig/results.md); was it edited or written by another "
                               "tool?") from None
    if not any(r.rows for r in results.runs):
        failed = [f"{r.kernel}/{r.load}: {f}" for r in results.runs for f in r.failures]
        why = f"; the first failure: {failed[0][:300]}" if failed else ""
        raise InputError(path, "holds no bench results (every bench failed or none ran): "
                               f"nothing to report{why}")
    return results


def _lab(path: str, doc: dict[str, Any]) -> Results:
    tool = _get(doc, "tool", dict, "")
    runs = []
    for i, r in enumerate(_get(doc, "runs", list, "")):
        where = f"runs[{i}]"
        r = _typed(r, dict, where)
        run = Run(path, _get(r, "kernel", str, where), _get(r, "load", str, where),
                  lab_board=_opt(r, "board", str, where) or "",
                  variant=_opt(r, "variant", str, where) or "")
        for j, d in enumerate(_get(r, "documents", list, where)):
            run.docs.append(_doc(d, f"{where}.documents[{j}]"))
        run.failures = [str(f) for f in _opt(r, "failures", list, where) or []]
        run.unavailable = [str(f) for f in _opt(r, "unavailable", list, where) or []]
        runs.append(run)
    return Results(path, doc["schema"], str(_get(tool, "version", str, "tool")), runs)


def _kernel_label(d: Doc) -> str:
    """A single bench document has no lab label: name the kernel as the lab does."""
    return "rt" if d.kernel.get("realtime") else "std"


def _doc(d: Any, where: str) -> Doc:
    d = _typed(d, dict, where or "document")
    schema = d.get("schema")
    if where and schema != "udrv-bench/1":
        bad = _Version if str(schema).startswith("udrv-bench/") else _Bad
        raise bad(f"{where}.schema: {schema!r}, expected 'udrv-bench/1'")
    pre = f"{where}." if where else ""
    bench = _get(d, "bench", str, where)
    kernel = _get(d, "kernel", dict, where)
    _get(kernel, "release", str, f"{pre}kernel")
    rows = [_row(bench, r, f"{pre}rows[{k}]") for k, r in enumerate(_get(d, "rows", list, where))]
    return Doc(bench=bench, board=_get(d, "board", str, where), kernel=kernel,
               load=_get(d, "load", str, where), rt=_opt(d, "rt", dict, where) or {},
               tool_version=str(_get(_get(d, "tool", dict, where), "version", str,
                                     f"{pre}tool")),
               rows=rows, gaps=_gaps(d, bench, where), rate=_rate(d, bench, where))


def _gaps(d: dict[str, Any], bench: str, where: str) -> dict[str, Any] | None:
    """udrv bench gaps's own object (docs/rig/results.md), its numbers checked."""
    if bench != "gaps":
        return None
    pre = f"{where}.gaps" if where else "gaps"
    g = _get(d, "gaps", dict, where)
    for key in ("sched_rt_runtime_us", "sched_rt_period_us", "threshold_ns", "duration_ns",
                "longest_ns", "count", "stalled_ns"):
        _get(g, key, int, pre)
    for key in ("per_s", "stalled_pct"):
        _get(g, key, (int, float), pre)
    _opt(g, "expected_gap_ns", int, pre)
    for k, x in enumerate(_get(g, "timeline", list, pre)):
        x = _typed(x, dict, f"{pre}.timeline[{k}]")
        _get(x, "start_ns", int, f"{pre}.timeline[{k}]")
        _get(x, "gap_ns", int, f"{pre}.timeline[{k}]")
    return g


def _rate(d: dict[str, Any], bench: str, where: str) -> dict[str, Any] | None:
    """udrv bench rate's own object (docs/rig/results.md), its numbers checked."""
    if bench != "rate":
        return None
    pre = f"{where}.rate" if where else "rate"
    g = _get(d, "rate", dict, where)
    for k, s in enumerate(_get(g, "steps", list, pre)):
        s = _typed(s, dict, f"{pre}.steps[{k}]")
        for key in ("mechanism", "implementation"):
            _get(s, key, str, f"{pre}.steps[{k}]")
        for key in ("source_count", "received", "lost"):
            _get(s, key, int, f"{pre}.steps[{k}]")
        for key in ("offered_per_s", "received_per_s"):
            _get(s, key, (int, float), f"{pre}.steps[{k}]")
    for k, c in enumerate(_get(g, "capacity", list, pre)):
        c = _typed(c, dict, f"{pre}.capacity[{k}]")
        for key in ("mechanism", "implementation"):
            _get(c, key, str, f"{pre}.capacity[{k}]")
        _get(c, "measured", bool, f"{pre}.capacity[{k}]")
        for key in ("knee_per_s", "cpu_pct_at_knee", "throughput_per_s", "ns_per_event",
                    "ratio_vs_raw", "ratio_at_per_s"):
            _opt(c, key, (int, float), f"{pre}.capacity[{k}]")
        _opt(c, "note", str, f"{pre}.capacity[{k}]")
    return g


def _row(bench: str, r: Any, where: str) -> Row:
    r = _typed(r, dict, where)
    loss = _opt(r, "loss", dict, where)
    if loss is not None:
        loss = {k: int(_get(loss, k, int, f"{where}.loss")) for k in ("sent", "received", "lost")}
    rate = _opt(r, "rate_per_s", (int, float), where)
    return Row(bench=bench,
               mechanism=_get(r, "mechanism", str, where),
               implementation=_get(r, "implementation", str, where),
               wait=_opt(r, "wait", str, where),
               sample=_get(r, "sample", str, where),
               unit=_get(r, "unit", str, where),
               stats=_stats(_get(r, "stats", dict, where), f"{where}.stats"),
               loss=loss,
               rate_per_s=float(rate) if rate is not None else None,
               reference=_opt(r, "reference", dict, where),
               note=_opt(r, "note", str, where))


def _stats(s: dict[str, Any], where: str) -> Stats:
    num = (int, float)
    buckets = []
    for i, b in enumerate(_get(s, "buckets", list, where)):
        b = _typed(b, list, f"{where}.buckets[{i}]")
        if len(b) != 3 or not all(isinstance(v, int) and not isinstance(v, bool)
                                  and INT_RANGE[0] <= v <= INT_RANGE[1] for v in b):
            raise _Bad(f"{where}.buckets[{i}]: {_short(b)}, expected [lo, hi, count] "
                       "64-bit integers")
        buckets.append((b[0], b[1], b[2]))
    return Stats(count=_get(s, "count", int, where), min=_get(s, "min", num, where),
                 avg=_get(s, "avg", num, where), max=_get(s, "max", num, where),
                 stddev=_get(s, "stddev", num, where), p50=_get(s, "p50", num, where),
                 p90=_get(s, "p90", num, where), p99=_get(s, "p99", num, where),
                 p99_9=_get(s, "p99_9", num, where), p99_99=_get(s, "p99_99", num, where),
                 overflow=_opt(s, "overflow", int, where) or 0, buckets=tuple(buckets))


def _get(obj: dict[str, Any], key: str, kind: Any, where: str) -> Any:
    if key not in obj:
        raise _Bad(f"{_at(where, key)}: missing")
    return _typed(obj[key], kind, _at(where, key))


def _opt(obj: dict[str, Any], key: str, kind: Any, where: str) -> Any:
    value = obj.get(key)
    return None if value is None else _typed(value, kind, _at(where, key))


def _typed(value: Any, kind: Any, where: str) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))
    if not ok:
        want = " or ".join(_KIND_NAMES[k] for k in kinds)
        raise _Bad(f"{where}: {_kind(value)} {_short(value)}, expected {want}")
    if isinstance(value, float) and not math.isfinite(value):
        raise _Bad(f"{where}: {value} is not a number udrv writes")
    if isinstance(value, int) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        raise _Bad(f"{where}: {_short(value)} is not a number udrv writes (beyond 64 bits)")
    return value


_KIND_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer",
               float: "a number", bool: "true or false"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "list", str: "string", bool: "boolean", int: "integer",
            float: "number"}.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def load_all(specs: list[str]) -> list[Run]:
    """Read every FILE[@RUNS] argument; bench documents of one system join one run."""
    runs: list[Run] = []
    for spec in specs:
        path, selector = split_spec(spec)
        results = load(path)
        picked = select(results, selector)
        if results.schema.startswith("udrv-bench"):
            _merge_bench(runs, picked[0])
        else:
            runs += picked
    return runs


def split_spec(spec: str) -> tuple[str, str | None]:
    """"results.json@rt/none" -> ("results.json", "rt/none"); a path that exists wins."""
    if "@" not in spec or Path(spec).exists():
        return spec, None
    path, _, selector = spec.rpartition("@")
    return path, selector


def select(results: Results, selector: str | None) -> list[Run]:
    """Keep the runs a selector names: KERNEL[/LOAD][,KERNEL[/LOAD]...]; idle = none."""
    if selector is None:
        return results.runs
    picked = []
    for part in selector.split(","):
        kernel, _, load = part.strip().partition("/")
        load = "none" if load == "idle" else load
        picked += [r for r in results.runs if r.kernel == kernel and load in ("", r.load)
                   and r not in picked]
    if not picked:
        have = ", ".join(f"{r.kernel}/{r.load}" for r in results.runs)
        raise InputError(results.path, f"no run matches @{selector}: the file has {have} "
                                       "(FILE@KERNEL[/LOAD][,...], e.g. results.json@rt/none)")
    return picked


def _merge_bench(runs: list[Run], run: Run) -> None:
    """A bench document joins an earlier bench file's run from the same system and load."""
    doc = run.docs[0]
    for r in runs:
        if (r.from_bench_file and r.board == doc.board and r.release == doc.kernel.get("release")
                and r.load == doc.load and all(d.bench != doc.bench for d in r.docs)):
            r.docs.append(doc)
            r.source = f"{r.source}, {run.source}"
            return
    runs.append(run)
