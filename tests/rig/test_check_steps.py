# SPDX-License-Identifier: GPL-2.0-only
"""scripts/check_steps/lab_step.py: make lab-check's pytests cover every lab board,
and a board left out of LAB_SHARDS is a failure of the check, not tests that
no pytest selects."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from check_steps import lab_step
from check_steps.common import Tally

from rig.lab.catalogue import TARGETS


def test_every_board_has_a_shard() -> None:
    tally = Tally()
    jobs = lab_step.shard_jobs(tally)
    assert tally.failures == []
    assert [j.env["UDRV_LAB_SHARD"] for j in jobs] == list(lab_step.LAB_SHARDS)
    named = {b for shard in lab_step.LAB_SHARDS for b in shard.split(",")}
    assert named == {*TARGETS, "none"}


@pytest.mark.parametrize("gone", ["rpi3", "rt-q35", "none"])
def test_a_board_in_no_shard_fails(monkeypatch: pytest.MonkeyPatch, gone: str) -> None:
    shards = tuple(",".join(b for b in s.split(",") if b != gone) for s in lab_step.LAB_SHARDS)
    monkeypatch.setattr(lab_step, "LAB_SHARDS", tuple(s for s in shards if s))
    tally = Tally()
    lab_step.shard_jobs(tally)
    assert tally.failures == [f"lab: board {gone} is in no shard of scripts/check.py's "
                              "LAB_SHARDS"]
