# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's inputs: FILE[@RUNS] arguments, each read by rig.results (the one
reader of udrv's results documents: JSON, schema file, the numbers adding up),
then the runs picked and bench files of one system joined.

Every problem raises InputError(path, message) (rig.results.ResultsError).
"""

from __future__ import annotations

from pathlib import Path

from rig.results import read as results_read

from .errors import InputError
from .model import Results, Run

READER = "this udrv-report"


def load(path: str) -> Results:
    """Read and check one results file: something to report, else InputError."""
    results = results_read.load(path, READER)
    if not any(r.rows for r in results.runs):
        failed = [f"{r.kernel}/{r.load}: {f}" for r in results.runs for f in r.failures]
        why = f"; the first failure: {failed[0][:300]}" if failed else ""
        raise InputError(path, "holds no bench results (every bench failed or none ran): "
                               f"nothing to report{why}")
    return results


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
