# SPDX-License-Identifier: GPL-2.0-only
"""rig/lava/udrv-lava-bench, the recorder that runs on the board, on the host.

Its awk flattener must name and value every figure exactly as the converter's
Python twin (rig.lava.results.figures) expects, with the host's awk and with
busybox's (the boards'); a bench that fails must be a failed test case with
its reason; the document must come back whole from the log lines."""

from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from lava_helpers import RECORDER, bench_documents, busybox, pretty

from rig.lava.results import figures

DOCS = bench_documents()


# the layouts of one document: the flattener reads tokens, not lines
LAYOUTS = {
    "pretty": pretty,
    "compact": lambda doc: json.dumps(doc, separators=(",", ":")),
    "spread": lambda doc: json.dumps(doc, indent="\t", separators=(" ,\n", " :\n ")),
}


def flatten(tmp: Path, doc: dict[str, Any], awk_dir: Path | None = None,
            layout: str = "pretty") -> dict[str, tuple[float, str]]:
    f = tmp / "doc.json"
    f.write_text(LAYOUTS[layout](doc))
    env = dict(os.environ)
    if awk_dir is not None:
        env["PATH"] = f"{awk_dir}:{env['PATH']}"
    proc = subprocess.run(["sh", str(RECORDER), "--flatten", str(f)], capture_output=True,
                          text=True, check=True, env=env, timeout=60)
    out = {}
    for line in proc.stdout.splitlines():
        name, value, unit = line.split(" ")
        assert name not in out, f"{name} twice"
        out[name] = (float(value), unit)
    return out


def test_fixtures_cover_every_bench() -> None:
    assert {d["bench"] for d in DOCS} >= {"toggle", "irq", "uio", "timer", "kernel", "reply",
                                          "gaps", "rate", "pci"}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("awk", ["host", "busybox"])
def test_awk_flattener_equals_python(tmp_path: Path, awk: str, layout: str) -> None:
    """Every figure of every fixture document, same name, value and units,
    whatever the JSON's layout (no line break at all, or one around every token)."""
    awk_dir = None
    if awk == "busybox":
        bb = busybox()
        if bb is None:
            pytest.skip("no busybox on the host (Debian: busybox-static)")
        awk_dir = tmp_path / "bin"
        awk_dir.mkdir()
        (awk_dir / "awk").symlink_to(bb)
    for doc in DOCS:
        got = flatten(tmp_path, doc, awk_dir, layout)
        want = figures(doc)
        assert got.keys() == want.keys(), (doc["bench"], set(got) ^ set(want))
        for name, (value, unit) in want.items():
            assert got[name][1] == unit, name
            assert got[name][0] == pytest.approx(value, rel=1e-12), name


def test_figure_names_fit_lava() -> None:
    """LAVA keeps test case names up to 100 characters; no spaces."""
    for doc in DOCS:
        for name in figures(doc):
            assert len(name) <= 100 and " " not in name, name


def test_flattener_sees_a_changed_figure(tmp_path: Path) -> None:
    """Break on purpose: a figure changed in the document changes its case."""
    doc = json.loads(json.dumps(next(d for d in DOCS if d["bench"] == "timer")))
    before = flatten(tmp_path, doc)
    doc["rows"][0]["stats"]["p99"] += 1
    after = flatten(tmp_path, doc)
    changed = [n for n in before if before[n] != after[n]]
    label = "--".join(str(doc["rows"][0][k]) for k in ("mechanism", "implementation", "sample"))
    assert changed == [f"timer.rows.{label}.stats.p99"]


def fake_board(tmp: Path, script: str) -> dict[str, str]:
    """A PATH with a fake udrv-bench and lava-test-case/lava-test-set that log their calls."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "udrv-bench").write_text(f"#!/bin/sh\n{script}\n")
    for tool in ("lava-test-case", "lava-test-set"):
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> {tmp}/calls\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}


def test_bench_pass_records_every_figure_and_the_document(tmp_path: Path) -> None:
    doc = next(d for d in DOCS if d["bench"] == "irq")
    (tmp_path / "doc.json").write_text(pretty(doc))
    env = fake_board(tmp_path, f'echo "$*" > {tmp_path}/args; cat {tmp_path}/doc.json')
    proc = subprocess.run(["sh", str(RECORDER), "irq --json --samples 300 -c gpio-wire "
                           "--out-line 4"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # exactly the job's arguments: the script adds none
    args = (tmp_path / "args").read_text().split()
    assert args == ["irq", "--json", "--samples", "300", "-c", "gpio-wire",
                    "--out-line", "4"]
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls[0] == "lava-test-set start irq" and calls[-1] == "lava-test-set stop"
    assert calls[1] == "lava-test-case irq --result pass"
    recorded = {c.split()[1]: c for c in calls[2:-1]}
    assert recorded.keys() == figures(doc).keys()
    lines = proc.stdout.splitlines()
    b64 = lines[lines.index(next(x for x in lines if x.startswith("udrv-lava-doc-begin irq")))
                + 1:lines.index("udrv-lava-doc-end irq")]
    assert json.loads(gzip.decompress(base64.b64decode("".join(b64)))) == doc


def test_bench_failure_is_a_failed_case_with_its_reason(tmp_path: Path) -> None:
    env = fake_board(tmp_path, 'echo "udrv-bench: uio: no /dev/uio0: load uio-ticker" >&2; '
                               "exit 1")
    proc = subprocess.run(["sh", str(RECORDER), "uio --json"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 1
    assert "lava-test-case uio --result fail" in (tmp_path / "calls").read_text()
    assert "udrv-lava-fail uio 1: udrv-bench: uio: no /dev/uio0: load uio-ticker" in proc.stdout


@pytest.mark.parametrize("argv, message", [
    ([], "no bench named"),
    ([" timer --json"], "a bench's name first"),
    (["timer --json", "--json"], "'--json': want 'BENCH ARGS...'"),
    (["Timer --json"], "a bench's name first"),
    (["--bogus"], "unknown option --bogus"),
    (["--udrv-bench", "/nonexistent/udrv-bench", "timer"],
     "no udrv-bench (/nonexistent/udrv-bench)"),
    (["--flatten", "/nonexistent.json"], "cannot read /nonexistent.json"),
])
def test_usage_errors_exit_2(argv: list[str], message: str) -> None:
    proc = subprocess.run(["sh", str(RECORDER), *argv], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


@pytest.mark.parametrize("layout", LAYOUTS)
def test_strings_that_look_like_json_are_strings(tmp_path: Path, layout: str) -> None:
    """Break on purpose: quotes, brackets, colons and commas inside strings
    (escaped quotes, a backslash before a quote) are no tokens of the document."""
    doc = json.loads(json.dumps(next(d for d in DOCS if d["bench"] == "timer")))
    doc["rows"][0]["note"] = 'a \\"b\\" {"c": [1, 2]}, \\\\'
    doc["board"] = '"x": 3, "y": [4]}'
    got = flatten(tmp_path, doc, layout=layout)
    assert got.keys() == figures(doc).keys()
