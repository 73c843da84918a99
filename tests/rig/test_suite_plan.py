# SPDX-License-Identifier: GPL-2.0-only
"""What `python3 -m rig.lab suite` would run, without booting anything: the
bench command lines, --duration, and the priority axis's table."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from rig.lab import suite  # noqa: E402


def test_sample_counts_by_default() -> None:
    assert suite.bench_command("irq", "all", 5000) == \
        "udrv-bench irq --json --quiet --load all --samples 5000"


def test_duration_is_shared_by_a_bench_s_loops() -> None:
    # irq: 5 loops, uio: 3, timer: 2; toggle and kernel keep their counts
    assert suite.bench_command("irq", "none", 5000, 3600).endswith("--duration 720s")
    assert suite.bench_command("uio", "none", 5000, 3600).endswith("--duration 1200s")
    assert suite.bench_command("timer", "none", 5000, 3600).endswith("--duration 1800s")
    assert suite.bench_command("toggle", "none", 5000, 3600).endswith("--samples 5000")
    assert suite.bench_command("kernel", "none", 5000, 3600).endswith("--samples 5000")
    assert suite.bench_timeout(0) == suite.BENCH_TIMEOUT
    assert suite.bench_timeout(720) > 30 * 720


@pytest.mark.parametrize("value", ["0h", "1d", "-1h", "1.5h", "", "h", "99999999s", "8000h"])
def test_bad_duration_is_a_usage_error(value: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rig.lab", "suite", "--duration", value],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 2, r
    assert "--duration" in r.stderr, r


@pytest.mark.parametrize("value", ["0", "65", "-1", "1.5", "", "x", "٢", "+2"])
def test_bad_jobs_is_a_usage_error(value: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rig.lab", "suite", "--jobs", value],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 2, r
    assert "--jobs" in r.stderr, r


def test_boards_run_side_by_side_in_the_order_given(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """--jobs 2: two boards at once (threads); the document keeps the order of
    the boards, not the order they finished in."""
    seen: set[str] = set()
    both = threading.Event()

    def fake(kernel: str, mode: str, duration_s: int = 0) -> list[suite.SuiteRun]:
        seen.add(kernel)
        if len(seen) == 2:
            both.set()
        assert both.wait(10), "the second board did not start while the first ran"
        time.sleep(0.2 if kernel == "std" else 0)  # std ends last
        return [suite.SuiteRun(kernel, "none")]

    monkeypatch.setattr(suite, "run_board", fake)
    # the Python section boots boards of its own: not here
    monkeypatch.setattr(suite.suite_python, "run_python",
                        lambda kernel, mode: {"lab_kernel": kernel, "failure": "not run"})
    monkeypatch.setattr(suite, "write_report", lambda results: results)
    out = tmp_path / "r.json"
    assert suite.run_suite(["std", "rt"], "quick", out, jobs=2) == 1  # python: "not run"
    doc = json.loads(out.read_text())
    assert [r["kernel"] for r in doc["runs"]] == ["std", "rt"]
    assert [p["lab_kernel"] for p in doc["python"]] == ["std", "rt"]
