# SPDX-License-Identifier: GPL-2.0-only
"""`python3 -m rig.results compare A B`: how many rows both measured, which of
them differ beyond the noise, in the statistics asked for (--metric p50 is the
question "did a change move the medians?")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from rig.results import compare, load
from rig.results.model import label_runs

FIXTURES = Path(__file__).resolve().parent / "report" / "fixtures"
LAB_A, LAB_B = FIXTURES / "lab-quick-a.json", FIXTURES / "lab-quick-b.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rig.results", "compare", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def expected(only: tuple[str, ...]) -> tuple[int, int]:
    a, b = load(str(LAB_A)), load(str(LAB_B))
    label_runs(a.runs + b.runs)
    return (len(compare.changes(a.runs, b.runs, 0.01, only)),
            len(compare.common_rows(a.runs, b.runs)))


def test_a_file_against_itself_changes_nothing() -> None:
    r = run("--noise", "0.01", str(LAB_A), str(LAB_A))
    assert r.returncode == 0, r.stderr
    m = re.match(r"0 of (\d+) rows both measured differ beyond the noise \(\u00b11%\)\n$", r.stdout)
    assert m and int(m.group(1)) > 0, r.stdout


def test_medians_only() -> None:
    found, total = expected(("p50",))
    every, _ = expected(())
    assert 0 < found < every, (found, every)  # the fixtures differ in p50 and beyond it
    r = run("--noise", "0.01", "--metric", "p50", str(LAB_A), str(LAB_B))
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert first == f"{found} of {total} rows both measured differ beyond the noise " \
                    "(\u00b11%, in p50):", r.stdout
    changed = r.stdout.splitlines()[1:]
    assert len(changed) == found
    assert all(re.search(r": (slower|faster): p50 \u00d7\d", c) for c in changed), changed
    assert not any(m in r.stdout for m in ("avg \u00d7", "p99 \u00d7", "p99.9 \u00d7"))


def test_an_unknown_metric_is_a_usage_error() -> None:
    r = run("--metric", "p42", str(LAB_A), str(LAB_B))
    assert r.returncode == 2, r
    assert "--metric" in r.stderr and "p42" in r.stderr
