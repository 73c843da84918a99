# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply --breakdown in the results: the schema's "breakdown" and
rig.results.check's rules, on the lab's documents (tests/rig/report/fixtures/
bench-reply-breakdown-{std,rt}.json, what the bench printed), and each rule
refusing a document broken on purpose: stages that do not add up, a negative
stage, an untraced p50 that is not its row's, a ratio or a 5% verdict that
are not the numbers', a cost that is not its run's, an event type twice,
more taken off than traced, costs without the traced total; and the issue's
5% rule (rig.bench.reply.spec.check_matches) passing the lab's breakdowns and refusing
one just outside it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rig.bench.reply import model as reply_model
from rig.bench.reply import spec as reply_spec
from rig.results.check import Invalid, check_bench

FIXTURES = Path(__file__).resolve().parent / "report" / "fixtures"
KERNELS = ("std", "rt")


def check_breakdown_matches(e: dict[str, Any]) -> None:
    """The spec's 5% rule on an entry as the document holds it."""
    reply_spec.check_matches(reply_model.entry(e))


def breakdown_within(e: dict[str, Any]) -> bool:
    return reply_spec.within(reply_model.entry(e))


def lab(kernel: str) -> dict[str, Any]:
    with open(FIXTURES / f"bench-reply-breakdown-{kernel}.json") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_lab_documents_pass(kernel: str) -> None:
    doc = lab(kernel)
    check_bench(doc)
    # rt: busy not traced; lib/irq and lib/irq-reply: the helper's chains
    assert len(doc["breakdown"]) == (10 if kernel == "std" else 8)
    for e in doc["breakdown"]:
        assert sum(s["ns"] for s in e["stages"]) == e["total_ns"]
    # the process's timestamps on the reply's path: one where the helper
    # writes C (irq-reply), else two
    probes = {(e["implementation"], e["wait"]): e.get("probes_in_reply") for e in doc["breakdown"]}
    assert probes[("lib", "irq-reply")] == 1 and probes[("lib", "irq")] == 2
    assert probes[("kthread", None)] is None


def damaged(kernel: str, fn: Any) -> dict[str, Any]:
    doc = copy.deepcopy(lab(kernel))
    fn(doc["breakdown"][0])
    return doc


def _stage_grows(e: dict[str, Any]) -> None:
    e["stages"][1]["ns"] += 1


def _negative_same_sum(e: dict[str, Any]) -> None:
    old = e["stages"][1]["ns"]
    e["stages"][1]["ns"] = -10
    e["stages"][0]["ns"] += old + 10


def _p50(e: dict[str, Any]) -> None:
    e["untraced_p50_ns"] += 100
    e["ratio"] = e["total_ns"] / e["untraced_p50_ns"]


def _ratio(e: dict[str, Any]) -> None:
    e["ratio"] *= 1.01


def _verdict(e: dict[str, Any]) -> None:
    e["within_5pct"] = not e["within_5pct"]


def _cost(e: dict[str, Any]) -> None:
    e["costs"][0]["ns"] += 50


def _cost_twice(e: dict[str, Any]) -> None:
    e["costs"].append(copy.deepcopy(e["costs"][0]))


def _more_than_traced(e: dict[str, Any]) -> None:
    e["traced_total_ns"] = e["total_ns"] - 1


def _costs_alone(e: dict[str, Any]) -> None:
    del e["traced_total_ns"]


def _probe_alone(e: dict[str, Any]) -> None:
    e["probe_ns"] = 73


def _probe_of_a_module(e: dict[str, Any]) -> None:
    assert e["implementation"] in ("isr", "kthread"), e["implementation"]
    e["probe_ns"], e["probes_in_reply"] = 73, 2


DAMAGE = {
    "sum": (_stage_grows, "the stages add up to"),
    "negative": (_negative_same_sum, "negative"),
    "p50": (_p50, "its row's p50 is"),
    "ratio": (_ratio, "but total_ns / untraced_p50_ns is"),
    "verdict": (_verdict, "within_5pct"),
    "cost": (_cost, "events a reply"),
    "cost twice": (_cost_twice, "an event type twice"),
    "more than traced": (_more_than_traced, "is more than the traced reply's"),
    "costs alone": (_costs_alone, "costs taken off without traced_total_ns"),
    "probe alone": (_probe_alone, "probe_ns and probes_in_reply come together"),
    "probe of a module": (_probe_of_a_module, "only a process's timestamps"),
}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name", DAMAGE)
def test_a_broken_breakdown_is_refused(kernel: str, name: str) -> None:
    fn, message = DAMAGE[name]
    with pytest.raises(Invalid) as err:
        check_bench(damaged(kernel, fn))
    assert message in str(err.value)
    assert "breakdown[0]" in str(err.value)


def test_a_breakdown_outside_reply_is_refused() -> None:
    doc = lab("std")
    doc["bench"] = "irq"
    with pytest.raises(Invalid, match="a breakdown in a irq document"):
        check_bench(doc)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_5pct_rule_passes_the_lab_breakdowns(kernel: str) -> None:
    """Each event's cost taken off, the lab's replies match their untraced
    p50 within 5%; as traced (nothing taken off) none does."""
    for e in lab(kernel)["breakdown"]:
        assert e["within_5pct"]
        check_breakdown_matches(e)
        traced = scaled(e, e["traced_total_ns"])
        with pytest.raises(Invalid, match="more than 5% apart"):
            check_breakdown_matches(traced)


def scaled(e: dict[str, Any], total: int) -> dict[str, Any]:
    """@e with its stages scaled to add up to @total exactly."""
    out = copy.deepcopy(e)
    stages = out["stages"]
    for s in stages:
        s["ns"] = s["ns"] * total // e["total_ns"]
    stages[-1]["ns"] += total - sum(s["ns"] for s in stages)
    out["total_ns"] = total
    return out


def test_the_5pct_rule_at_its_edges() -> None:
    e = lab("std")["breakdown"][2]
    p50 = e["untraced_p50_ns"]
    check_breakdown_matches(scaled(e, p50))
    check_breakdown_matches(scaled(e, p50 + p50 * 5 // 100))
    assert breakdown_within(scaled(e, p50 - p50 * 5 // 100))
    with pytest.raises(Invalid, match="more than 5% apart"):
        check_breakdown_matches(scaled(e, p50 + p50 * 5 // 100 + 1))
    # the sum rule first: stages that do not add up are refused as such
    broken = scaled(e, p50)
    broken["stages"][0]["ns"] += 1
    with pytest.raises(Invalid, match="the stages add up to"):
        check_breakdown_matches(broken)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_reader_exposes_it(kernel: str) -> None:
    from rig.results.read import model

    doc = lab(kernel)
    [run] = model(doc, f"bench-reply-breakdown-{kernel}.json").runs
    [d] = run.docs
    found = reply_model.of(d)
    assert found == reply_model.parse(doc["breakdown"])
    assert all(isinstance(e, reply_model.Entry) for e in found)
    busy = [("user", "busy")] if kernel == "std" else []
    lib = [("lib", "read")] + ([("lib", "busy")] if kernel == "std" else [])
    lib += [("lib", "irq"), ("lib", "irq-reply")]
    assert [(e.implementation, e.wait) for e in found] == [
        ("isr", None), ("kthread", None), ("user", "read"), ("user", "poll"),
        ("user", "epoll"), *busy, *lib]
