# SPDX-License-Identifier: GPL-2.0-only
"""udrv rt check and udrv info on real kernels."""

from __future__ import annotations

import pytest
from guest import CHIP, sh, udrv

pytestmark = [pytest.mark.lg_feature(["uio-ticker"]), pytest.mark.lg_rt]


def test_rt_check_reports_preempt_model(board):
    r = udrv(board, "rt check --json")
    assert r.status in (0, 1), r.stderr
    report = r.json()
    if "PREEMPT_RT" in sh(board, "uname -v").stdout:
        assert report["preempt_model"] == "PREEMPT_RT"
        assert report["realtime"] is True
    else:
        assert report["preempt_model"] != "PREEMPT_RT"
        assert report["realtime"] is False
    assert report["rt_runtime_us"] == 950000
    assert any(f["topic"] == "throttling" for f in report["findings"])


def test_info_sees_everything(board):
    r = udrv(board, "info --json")
    assert r.status == 0, r.stderr
    info = r.json()
    labels = [c["label"] for c in info["gpio"]["chips"]]
    assert CHIP in labels
    names = {d["name"] for d in info["uio"]["devices"]}
    assert {"uio_pci_generic", "uio-ticker"} <= names
