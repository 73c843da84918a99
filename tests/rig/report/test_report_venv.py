# SPDX-License-Identifier: GPL-2.0-only
"""The launcher from a venv without matplotlib (the lab's labgrid venv runs the
suite, and with it udrv-report): it must find Debian's python3, although the
venv's python is a symlink to that very interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from report_helpers import BENCH_TIMER, LAUNCHER
from report_page import Page


def test_from_a_venv_without_matplotlib(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    bare = subprocess.run([python, "-c", "import matplotlib"], capture_output=True)
    assert bare.returncode != 0, "the venv must lack matplotlib for this test to mean anything"
    out = tmp_path / "r.html"
    r = subprocess.run([python, str(LAUNCHER), "--quiet", str(BENCH_TIMER), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert Page(out.read_text()).figures
