# SPDX-License-Identifier: GPL-2.0-only
"""The soak's checks and table (rig/lab/suite/soak.py) on synthetic documents, no lab
needed: a loop whose accounting does not add up, a bench that failed or sent
less than asked for must each be caught; an exact run must pass."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rig.lab.suite import soak


def loss(sent: int, received: int, lost: int = 0) -> dict[str, Any]:
    return {"sent": sent, "received": received, "lost": lost}


def irq_document() -> dict[str, Any]:
    """bench irq's shape: three rows per wait method share one accounting."""
    rows = []
    for impl, wait, lost in (("udrv", "read", 0), ("udrv", "poll", 2), ("raw", "read", 0)):
        for sample in ("write_to_irq", "irq_to_wake", "write_to_wake"):
            rows.append({"mechanism": "cdev", "implementation": impl, "wait": wait,
                         "sample": sample, "loss": loss(10, 10 - lost, lost)})
    rows.append({"mechanism": "cdev", "implementation": "udrv", "wait": "busy",
                 "sample": "write_to_wake", "loss": None})
    return {"bench": "irq", "rows": rows}


def checked(doc: dict[str, Any] | None, status: int = 0, asked: int = 30) -> soak.BenchRun:
    run = soak.BenchRun("irq", "udrv-bench irq", asked, status=status, document=doc)
    soak.check_run(run)
    return run


def test_an_exact_run_passes() -> None:
    run = checked(irq_document())
    assert run.problems == []
    assert [lp.label for lp in run.loops] == ["cdev/udrv/read", "cdev/udrv/poll", "cdev/raw/read"]


@pytest.mark.parametrize("damage", ["vanished", "invented", "status", "no-document", "short"])
def test_damage_is_caught(damage: str) -> None:
    doc: dict[str, Any] | None = copy.deepcopy(irq_document())
    status, asked = 0, 30
    assert doc is not None
    first = doc["rows"][0]["loss"]
    if damage == "vanished":  # an edge nobody reports
        first["received"] -= 1
    elif damage == "invented":  # more received than sent
        first["received"] += 1
    elif damage == "status":  # the bench itself failed
        status = 1
    elif damage == "no-document":
        doc = None
    else:  # fewer edges than asked for
        asked = 31
    run = checked(doc, status, asked)
    assert run.problems, damage


def test_commands_split_the_events_over_the_loops() -> None:
    cmds = soak.commands(1_000_000, 1_000_000, 50, "all")
    assert [(b, asked) for b, _, asked in cmds] == [("irq", 1_000_000), ("uio", 1_000_000)]
    assert "--samples 250000" in cmds[0][1] and "--load all" in cmds[0][1]
    assert "--samples 500000" in cmds[1][1] and "--period-us 50" in cmds[1][1]


def test_table_totals_and_flags() -> None:
    good = checked(irq_document())
    bad = checked(irq_document(), status=1)
    doc = {"load": "all", "runs": [
        {"kernel": "std", "release": "6.1", "boot_seconds": 9.0, "seconds": 60.0,
         "benches": [{"bench": "irq", "seconds": 12.5, "problems": good.problems,
                      "loops": [{"loop": lp.label, **lp.loss} for lp in good.loops]}]},
        {"kernel": "rt", "benches": [{"bench": "irq", "seconds": 1.0, "problems": bad.problems,
                                      "loops": [{"loop": lp.label, **lp.loss}
                                                for lp in bad.loops]}]},
    ]}  # fmt: skip
    lines = soak.table(doc)
    std_total = next(x for x in lines if x.startswith("std") and " total " in x)
    assert std_total.split()[3:7] == ["30", "28", "2", "yes"], std_total
    rt_total = next(x for x in lines if x.startswith("rt") and " total " in x)
    assert " NO " in rt_total
