# SPDX-License-Identifier: GPL-2.0-only
"""udrv's LAVA job, run for real: lava-run (Debian's lava-dispatcher, no
server) boots the lab's std board under LAVA's qemu device type, LAVA's test
shell runs rig/lava/udrv-bench.yaml in it (the overlay put into the ramdisk),
every figure becomes a LAVA test case, and the converter turns the job's log
back into a udrv-lab/1 document that udrv-report renders beside a make-lab
run (docs/rig/lava.md).

LAVA starts QEMU itself, so this boots a board of its own (~15 s at 300
samples), not the session's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
# the tests that boot boards of their own boot this one (conftest.board_of)
LAB_BOARD = "std"
# after the lab shards (scripts/check.py -m late): lava-run boots its own board
# under LAVA's 120 s login timeout
pytestmark = pytest.mark.late
BENCHES = ("timer", "irq", "uio", "toggle")
# a bench that fails on this board, on purpose: the pc machine has no IOMMU
# (VFIO is the q35 board's), so udrv-bench pci exits 1 and says why; LAVA must
# record a failed case and the converter carry the reason
FAILING = "pci"
SAMPLES = 300


@pytest.fixture(scope="module")
def lava_job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    kernels = os.environ.get("UDRV_LAB_KERNELS", "").replace(",", " ").split()
    if kernels and "std" not in kernels and kernels != ["all"]:
        pytest.skip(f"board 'std' not selected (UDRV_LAB_KERNELS={','.join(kernels)})")
    if shutil.which("lava-run") is None:
        pytest.fail("lava-run is not installed: scripts/install-deps installs "
                    "lava-dispatcher (--no-install-recommends)")
    out = tmp_path_factory.mktemp("lava")
    cmd = [PYTHON, "-m", "rig.lava", "run", "--kernel", "std", "--samples", str(SAMPLES),
           *(a for b in (*BENCHES, FAILING) for a in ("--bench", b)), "--minutes", "10",
           "--out", str(out), "--results", str(out / "farm.json"), "--timeout", "900"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=1200)
    return {"out": out, "proc": proc}


def test_lava_run_passes(lava_job: dict[str, Any]) -> None:
    proc, out = lava_job["proc"], lava_job["out"]
    log = (out / "lava.log").read_text() if (out / "lava.log").exists() else ""
    assert proc.returncode == 0, f"{proc.stderr[-2000:]}\n{log[-3000:]}"
    assert "Job finished correctly" in log
    for b in BENCHES:  # each bench's pass case, in its test set
        assert f'"case": "{b}", "definition": "0_udrv-bench", "endtc": ! "' in log
        assert f"udrv-lava-doc-end {b}" in log
    fail = f'"case": "{FAILING}", "definition": "0_udrv-bench", "endtc"'
    assert fail in log and '"result": "fail", "set": "pci"' in log
    assert f"udrv-lava-fail {FAILING} 1: udrv-bench: vfio-pci cannot take" in log


def test_converted_results(lava_job: dict[str, Any]) -> None:
    out = lava_job["out"]
    assert lava_job["proc"].returncode == 0, lava_job["proc"].stderr[-2000:]
    doc = json.loads((out / "farm.json").read_text())
    [run] = doc["runs"]
    assert (run["board"], run["kernel"], run["load"]) == ("qemu-std", "std", "none")
    # every figure of each document was a LAVA test case; the one failure is pci's
    assert run["failures"] == [f for f in run["failures"] if f.startswith(
        f"{FAILING}: failed in LAVA: exit 1: udrv-bench: vfio-pci cannot take")]
    assert len(run["failures"]) == 1
    assert [d["bench"] for d in run["documents"]] == list(BENCHES)
    for d in run["documents"]:
        assert d["kernel"]["realtime"] is False and d["kernel"]["release"].endswith("-amd64")
        for row in d["rows"]:
            if d["bench"] in ("timer", "irq", "uio"):
                assert row["stats"]["count"] == SAMPLES, (d["bench"], row["mechanism"])
            assert sum(b[2] for b in row["stats"]["buckets"]) == row["stats"]["count"]
            if row["loss"] is not None:
                assert row["loss"]["sent"] == row["loss"]["received"] + row["loss"]["lost"]


def test_report_beside_make_lab(lava_job: dict[str, Any]) -> None:
    out = lava_job["out"]
    assert lava_job["proc"].returncode == 0, lava_job["proc"].stderr[-2000:]
    lab = ROOT / "tests" / "rig" / "report" / "fixtures" / "lab-quick-a.json"
    for args in ([str(lab), str(out / "farm.json"), "-o", str(out / "r.html")],
                 ["--compare", f"{lab}@std/idle", str(out / "farm.json"), "-o",
                  str(out / "c.html")]):
        proc = subprocess.run([str(ROOT / "rig" / "report" / "udrv-report"), "-q", *args],
                              capture_output=True, text=True, check=False, timeout=300)
        assert proc.returncode == 0, proc.stderr
    page = (out / "r.html").read_text()
    assert "qemu-std" in page and f"{FAILING}: failed in LAVA" in page
