# SPDX-License-Identifier: GPL-2.0-only
"""udrv-lava-bench's awk reads JSON on the board (issue 42, R5): the boards
run POSIX sh and busybox, no Python, and LAVA's test cases (lava-test-case
NAME --measurement V) can only be recorded there, during the job, so the
flattener stays. What it records must be what rig.results reads from the
same document: for every row of rig.results' model (bench_document(), then
model()) its stats, loss, rate and reference figures, and the document's
rt and kernel numbers, under the name udrv-lava-bench gives them, with the
same value and units; and no row figure that rig.results does not know.
A flattener changed on purpose (one figure off by one) is caught."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from lava_helpers import RECORDER, bench_documents, busybox, pretty

from rig.results import bench_document, model
from rig.results.model import Doc

STATS = ("count", "min", "avg", "max", "stddev", "p50", "p90", "p99", "p99_9", "p99_99",
         "overflow")
# a few stored documents: one per bench of the report's fixtures
DOCS = list({d["bench"]: d for d in bench_documents()}.values())


def awk_figures(tmp: Path, text: str, script: Path = RECORDER,
                awk_dir: Path | None = None) -> dict[str, tuple[float, str]]:
    f = tmp / "doc.json"
    f.write_text(text)
    env = None
    if awk_dir is not None:
        env = {**os.environ, "PATH": f"{awk_dir}:{os.environ['PATH']}"}
    proc = subprocess.run(["sh", str(script), "--flatten", str(f)], capture_output=True,
                          text=True, check=True, timeout=60, env=env)
    out = {}
    for line in proc.stdout.splitlines():
        name, value, unit = line.split(" ")
        out[name] = (float(value), unit)
    return out


def results_figures(text: str) -> tuple[dict[str, tuple[float, str]], Doc]:
    """What rig.results reads from @text, named as udrv-lava-bench names figures."""
    doc = model(bench_document(text, "doc.json"), "doc.json").runs[0].docs[0]
    want: dict[str, tuple[float, str]] = {}
    for r in doc.rows:
        label = "--".join(p for p in (r.mechanism, r.implementation, r.wait, r.sample) if p)
        at = f"{doc.bench}.rows.{label}"
        for f in STATS:
            want[f"{at}.stats.{f}"] = (float(getattr(r.stats, f)),
                                       "count" if f in ("count", "overflow") else r.unit)
        for k, v in (r.loss or {}).items():
            want[f"{at}.loss.{k}"] = (float(v), "count")
        for k, v in (r.reference or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                want[f"{at}.reference.{k}"] = (float(v), "ratio")
        if r.rate_per_s is not None:
            want[f"{at}.rate_per_s"] = (r.rate_per_s, "Hz")
    for part, values in (("kernel", doc.kernel), ("rt", doc.rt)):
        for k, v in values.items():
            if isinstance(v, bool):
                want[f"{doc.bench}.{part}.{k}"] = (1.0 if v else 0.0, "bool")
            elif isinstance(v, (int, float)):
                want[f"{doc.bench}.{part}.{k}"] = (float(v), _unit(k))
    return want, doc


def _unit(key: str) -> str:
    return "us" if key.endswith("_us") else "ns" if key.endswith("_ns") else "count"


def mismatches(got: dict[str, tuple[float, str]], text: str) -> list[str]:
    """Where the awk's figures differ from rig.results' reading of @text."""
    want, doc = results_figures(text)
    bad = [f"{n}: awk {got.get(n)}, rig.results {w}" for n, w in want.items()
           if n not in got or got[n][1] != w[1] or got[n][0] != pytest.approx(w[0], rel=1e-12)]
    row_part = (".stats.", ".loss.", ".reference.")
    bad += [f"{n}: recorded by the awk, not a figure of rig.results' rows" for n in got
            if n.startswith(f"{doc.bench}.rows.") and n not in want
            and (any(p in n for p in row_part) or n.endswith(".rate_per_s"))]
    return bad


def test_a_few_stored_documents_cover_the_benches() -> None:
    assert {d["bench"] for d in DOCS} >= {"toggle", "irq", "timer", "reply", "gaps", "rate"}


@pytest.mark.parametrize("awk", ["host", "busybox"])
def test_awk_records_what_rig_results_reads(tmp_path: Path, awk: str) -> None:
    awk_dir = None
    if awk == "busybox":
        bb = busybox()
        if bb is None:
            pytest.skip("no busybox on the host (Debian: busybox-static)")
        awk_dir = tmp_path / "bin"
        awk_dir.mkdir()
        (awk_dir / "awk").symlink_to(bb)
    for d in DOCS:
        text = pretty(d)
        got = awk_figures(tmp_path, text, awk_dir=awk_dir)
        assert mismatches(got, text) == [], d["bench"]
        assert len(results_figures(text)[0]) > 10


def test_a_flattener_off_by_one_is_caught(tmp_path: Path) -> None:
    """Break on purpose: the awk adds 1 to every p99 it records."""
    src = RECORDER.read_text()
    anchor = "\tk = label(d)\n"
    assert src.count(anchor) == 1
    broken = tmp_path / "udrv-lava-bench"
    broken.write_text(src.replace(anchor, '\tif (key == "p99") v = v + 1\n' + anchor))
    d: Any = next(x for x in DOCS if x["bench"] == "timer")
    text = pretty(d)
    bad = mismatches(awk_figures(tmp_path, text, broken), text)
    assert bad and all(".stats.p99: awk" in b for b in bad), bad
    assert len(bad) == len(d["rows"])
