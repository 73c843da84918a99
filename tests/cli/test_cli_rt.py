# SPDX-License-Identifier: GPL-2.0-only
"""udrv rt check on fake systems: preemption model, throttling, exit status."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.fakes import FakeTree, fake_thread, rt_system
from tests.support.udrv_runner import Runner


def finding(doc: dict[str, Any], topic: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [f for f in doc["findings"] if f["topic"] == topic]
    assert len(found) == 1, doc["findings"]
    return found[0]


def test_rt_kernel(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    r = udrv("rt", "check", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    assert doc["preempt_model"] == "PREEMPT_RT"
    assert doc["realtime"] is True
    assert doc["release"] == "6.1.0-test"
    assert finding(doc, "preempt")["level"] == "OK"
    assert all(f["level"] != "WARN" for f in doc["findings"])


def test_rt_kernel_by_sysfs_flag_alone(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree, version="#1 SMP Debian 6.1.192-2")
    assert udrv("rt", "check", "--json").json()["preempt_model"] == "PREEMPT_RT"


def test_human_output(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    r = udrv("rt", "check")
    assert r.returncode == 0, r
    assert r.stdout.startswith("  kernel 6.1.0-test, preemption PREEMPT_RT (real-time)\n")
    assert "governor" not in r.stdout  # fine, so only listed with -v
    r = udrv("rt", "check", "-v")
    assert "  ok   governor    cpufreq governor is performance" in r.stdout


@pytest.mark.parametrize(("version", "model", "level"), [
    ("#1 SMP PREEMPT Tue Jan 1 00:00:00 UTC 2030", "PREEMPT", "INFO"),
    ("#1 SMP Debian 6.1.192-2", "unknown", "WARN"),
], ids=["preempt", "unmarked"])
def test_other_models(udrv: Runner, tree: FakeTree, version: str, model: str,
                      level: str) -> None:
    rt_system(tree, version=version, realtime=False)
    r = udrv("rt", "check", "--json")
    doc = r.json()
    assert doc["preempt_model"] == model
    assert doc["realtime"] is False
    assert finding(doc, "preempt")["level"] == level
    assert r.returncode == (1 if level == "WARN" else 0), r


def test_dynamic_none_warns(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree, version="#1 SMP PREEMPT_DYNAMIC Debian", realtime=False)
    tree.file("sys/kernel/debug/sched/preempt", "(none) voluntary full\n")
    r = udrv("rt", "check", "--json")
    assert r.returncode == 1, r
    doc = r.json()
    assert doc["preempt_model"] == "DYNAMIC (none)"
    assert finding(doc, "preempt")["level"] == "WARN"


# ---- throttling ----


def test_throttling_default(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    doc = udrv("rt", "check", "--json").json()
    assert doc["rt_runtime_us"] == 950000
    assert doc["rt_period_us"] == 1000000
    f = finding(doc, "throttling")
    assert f["level"] == "INFO"
    assert "throttled for 50000 µs every 1000000 µs" in f["text"]
    assert "sched_rt_runtime_us" in f["text"]


def test_throttling_off(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree, rt_runtime_us=-1)
    doc = udrv("rt", "check", "--json").json()
    assert doc["rt_runtime_us"] == -1
    f = finding(doc, "throttling")
    assert f["level"] == "OK"
    assert "RT throttling is off" in f["text"]


def test_throttling_unreadable(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree, rt_runtime_us=None, rt_period_us=None)
    doc = udrv("rt", "check", "--json").json()
    assert doc["rt_runtime_us"] is None
    assert doc["rt_period_us"] is None
    assert "could not read" in finding(doc, "throttling")["text"]


# ---- exit status ----


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["human", "json"])
def test_warning_exits_1(udrv: Runner, tree: FakeTree, json_flag: list[str]) -> None:
    rt_system(tree, governor="powersave")
    r = udrv("rt", "check", *json_flag)
    assert r.returncode == 1, r
    if json_flag:
        f = finding(r.json(), "governor")
        assert f["level"] == "WARN"
        assert "powersave" in f["text"]
    else:
        assert "  WARN governor    cpufreq governor is powersave" in r.stdout


def test_jiffies_clocksource_warns(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree, clocksource="jiffies")
    r = udrv("rt", "check", "--json")
    assert r.returncode == 1, r
    assert finding(r.json(), "clocksource")["level"] == "WARN"


def test_info_findings_exit_0(udrv: Runner, tree: FakeTree) -> None:
    """No cpufreq and no isolated CPUs are worth knowing, not warnings."""
    rt_system(tree, governor=None)
    r = udrv("rt", "check", "--json")
    assert r.returncode == 0, r
    assert finding(r.json(), "governor")["level"] == "INFO"



def test_priority_above_the_irq_thread_is_a_warning(udrv: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    fake_thread(tree, 142, "irq/24-udrv", 50)
    fake_thread(tree, 115, "uio-ticker", 50)
    r = udrv("rt", "check", "--json", "--prio", "80", "--wait-for", "irq/24-")
    assert r.returncode == 1, r
    f = finding(r.json(), "priority")
    assert f["level"] == "WARN" and "irq/24-udrv, FIFO 50" in f["text"], f
    assert "chrt -f -p 81 PID" in f["text"], f
    assert "--" not in f["text"], f  # the library names no CLI flag
    r = udrv("rt", "check", "--prio", "40", "--wait-for", "irq/24-", "-w", "uio-ticker")
    assert r.returncode == 0, r
    r = udrv("rt", "check", "-v", "--prio", "40")
    assert "ok   priority    SCHED_FIFO 40 is below the 1 irq thread(s)" in r.stdout, r
