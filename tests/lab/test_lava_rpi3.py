# SPDX-License-Identifier: GPL-2.0-only
"""udrv's LAVA job on the lab's rpi3 board (raspi3b, Debian's arm64 kernel)
under LAVA's qemu device type: lava-run, the console on the mini-UART, the
timer bench and the toggle bench on pinctrl-bcm2835's GPIO 17 (its level
register read back), converted into udrv-lab/1 (docs/rig/lava.md). LAVA starts
QEMU itself: a board of its own (~10 s)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
LAB_BOARD = "rpi3"  # conftest.board_of: this module boots the rpi3 board
pytestmark = pytest.mark.late  # after the lab shards (scripts/check.py -m late)


def test_lava_run_rpi3(tmp_path: Path) -> None:
    kernels = os.environ.get("UDRV_LAB_KERNELS", "").replace(",", " ").split()
    if kernels and "rpi3" not in kernels and kernels != ["all"]:
        pytest.skip(f"board 'rpi3' not selected (UDRV_LAB_KERNELS={','.join(kernels)})")
    assert shutil.which("lava-run"), "lava-run is not installed (scripts/install-deps)"
    cmd = [PYTHON, "-m", "rig.lava", "run", "--kernel", "rpi3", "--samples", "2000",
           "--bench", "timer", "--bench", "toggle", "--minutes", "10",
           "--out", str(tmp_path), "--results", str(tmp_path / "farm.json")]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=900)
    log = (tmp_path / "lava.log").read_text() if (tmp_path / "lava.log").exists() else ""
    assert proc.returncode == 0, f"{proc.stderr[-2000:]}\n{log[-3000:]}"
    assert "-machine raspi3b" in log and "Job finished correctly" in log
    [run] = json.loads((tmp_path / "farm.json").read_text())["runs"]
    assert run["board"] == "qemu-rpi3" and run["failures"] == []
    timer, toggle = run["documents"]
    assert timer["kernel"]["release"].endswith("-arm64")
    assert timer["rows"][0]["stats"]["count"] == 2000
    mmio = [r for r in toggle["rows"] if r["mechanism"] == "mmio"]
    assert mmio and all("verified: set 1, 0 -> GPLEV0 bit 17" in r["note"] for r in mmio)
