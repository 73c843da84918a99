# SPDX-License-Identifier: GPL-2.0-only
"""Helpers of the udrv-report tests: the launcher run on real suite results.

The launcher is run as users run it (rig/report/udrv-report, which picks a Python
with matplotlib); the pages it writes are read back with report_page.py,
which needs only the standard library. Fixtures: fixtures/README.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from report_page import Page

REPO = Path(__file__).resolve().parents[3]
LAUNCHER = REPO / "rig" / "report" / "udrv-report"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
LAB_A = FIXTURES / "lab-quick-a.json"
LAB_B = FIXTURES / "lab-quick-b.json"
BENCH_TIMER = FIXTURES / "bench-timer-std.json"
BENCH_IRQ = FIXTURES / "bench-irq-std.json"
LAB_RATE = FIXTURES / "lab-rate.json"



def run_report(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LAUNCHER), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@dataclass
class Rendered:
    html: Path
    png_dir: Path
    page: Page
    text: str
    stdout: str


def render(out: Path, *args: str | Path) -> Rendered:
    html = out / "page.html"
    r = run_report(*args, "-o", html)
    assert r.returncode == 0, f"udrv-report failed ({r.returncode}):\n{r.stderr}"
    assert "Traceback" not in r.stderr, r.stderr
    # every figure passed rig/report/figcheck.py (one measure, numbers, titles apart)
    assert "warning" not in r.stderr, r.stderr
    text = html.read_text(encoding="utf-8")
    return Rendered(html, out / "page", Page(text), text, r.stdout)


def load_json(path: Path) -> Any:
    return json.loads(path.read_text())
