# SPDX-License-Identifier: GPL-2.0-only
"""Shared by tests/rig/lava: paths, the captured lava-run log, udrv documents."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# `python3 -m rig.lava run --kernel std --samples 300` here (lava-dispatcher
# 2023.01, qemu device type): timer irq uio toggle, its whole standard output
LOG_GZ = FIXTURES / "lava-run-std.log.gz"
RECORDER = REPO / "rig" / "lava" / "udrv-lava-bench"
REPORT_FIXTURES = REPO / "tests" / "rig" / "report" / "fixtures"
LAB_FIXTURE = REPORT_FIXTURES / "lab-quick-a.json"
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def log_lines() -> list[str]:
    return gzip.decompress(LOG_GZ.read_bytes()).decode().splitlines()


def write_log(tmp: Path, lines: list[str], name: str = "lava.log") -> Path:
    p = tmp / name
    p.write_text("\n".join(lines) + "\n")
    return p


def bench_documents() -> list[dict[str, Any]]:
    """Every udrv-bench/1 document of the report's fixtures (every bench the
    lab runs: toggle irq uio timer kernel reply gaps rate pci)."""
    docs: list[dict[str, Any]] = []
    for f in sorted(REPORT_FIXTURES.glob("*.json")):
        d = json.loads(f.read_text())
        if d.get("schema") == "udrv-bench/1":
            docs.append(d)
        for run in d.get("runs", []):
            docs += run["documents"]
    return docs


def pretty(doc: dict[str, Any]) -> str:
    """The layout of libudrv's JSON writer (pretty): what udrv-bench NAME --json prints."""
    return json.dumps(doc, indent=2) + "\n"


def lava_cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-m", "rig.lava", *args], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def busybox() -> str | None:
    return shutil.which("busybox")
