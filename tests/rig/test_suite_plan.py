# SPDX-License-Identifier: GPL-2.0-only
"""What `python3 -m rig.lab suite` would run, without booting anything: the
bench command lines, --duration, and the priority axis's table."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from rig.bench.board import LOOPBACK  # noqa: E402
from rig.lab.suite import qemu as suite  # noqa: E402
from rig.lava import job as lava  # noqa: E402


def test_sample_counts_by_default() -> None:
    assert suite.bench_command("irq", "all", 5000) == \
        "udrv-bench irq --json --quiet --load all --samples 5000"


def test_duration_is_shared_by_a_bench_s_loops() -> None:
    # irq: 5 loops, uio: 3, timer: 2; toggle and kernel keep their counts
    assert suite.bench_command("irq", "none", 5000, 3600).endswith("--duration 720s")
    assert suite.bench_command("uio", "none", 5000, 3600).endswith("--duration 1200s")
    assert suite.bench_command("timer", "none", 5000, 3600).endswith("--duration 1800s")
    assert suite.bench_command("toggle", "none", 5000, 3600).endswith("--samples 5000")
    assert suite.bench_command("kernel", "none", 5000, 3600).endswith("--samples 5000")
    assert suite.bench_timeout(0) == suite.BENCH_TIMEOUT
    assert suite.bench_timeout(720) > 30 * 720


@pytest.mark.parametrize("value", ["0h", "1d", "-1h", "1.5h", "", "h", "99999999s", "8000h"])
def test_bad_duration_is_a_usage_error(value: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rig.lab", "suite", "--duration", value],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 2, r
    assert "--duration" in r.stderr, r


@pytest.mark.parametrize("value", ["0", "65", "-1", "1.5", "", "x", "٢", "+2"])
def test_bad_jobs_is_a_usage_error(value: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rig.lab", "suite", "--jobs", value],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 2, r
    assert "--jobs" in r.stderr, r


def test_boards_run_side_by_side_in_the_order_given(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """--jobs 2: two boards at once (threads); the document keeps the order of
    the boards, not the order they finished in."""
    seen: set[str] = set()
    both = threading.Event()

    def fake(kernel: str, mode: str, duration_s: int = 0) -> list[suite.SuiteRun]:
        seen.add(kernel)
        if len(seen) == 2:
            both.set()
        assert both.wait(10), "the second board did not start while the first ran"
        time.sleep(0.2 if kernel == "std" else 0)  # std ends last
        return [suite.SuiteRun(kernel, "none")]

    monkeypatch.setattr(suite, "run_board", fake)
    # the Python section boots boards of its own: not here (its broker run, a
    # run of variant udrvd, comes after the plain runs)
    def fake_python(kernel: str, mode: str) -> tuple[dict, list[dict]]:
        broker = {"board": "x86", "kernel": kernel, "load": "none", "variant": "udrvd",
                  "documents": [], "failures": ["not run"], "unavailable": []}
        return {"lab_kernel": kernel, "failure": "not run"}, [broker]

    monkeypatch.setattr(suite.python, "run_python", fake_python)
    monkeypatch.setattr(suite, "write_report", lambda results: results)
    out = tmp_path / "r.json"
    assert suite.run_suite(["std", "rt"], "quick", out, jobs=2) == 1  # python: "not run"
    doc = json.loads(out.read_text())
    assert [(r["kernel"], r.get("variant")) for r in doc["runs"]] == [
        ("std", None), ("rt", None), ("std", "udrvd"), ("rt", "udrvd")]
    assert [p["lab_kernel"] for p in doc["python"]] == ["std", "rt"]


# ---- the one plan (rig/lab/suite/plan.py): the QEMU suite, labgrid and LAVA alike ----

FIXTURE = ROOT / "tests" / "rig" / "fixtures" / "suite-commands.json"
# what the plan changed on purpose against the recorded commands: make lab's
# rpi3 toggle takes its options in the plan's order, with --load none (the
# benches' default: bench.c takes "none" as no load), as the labgrid suite
# always ran it; a labgrid rt board with iommu runs pci above the irq threads
# too, as make lab's rt-q35 board; reply's skip names its jumpers
REPLY_BEFORE = "needs gpio-wire (two wires and rig/kernel/gpio-reply)"
REPLY_AFTER = "no reply wiring: gpio-wire, or a udrv-reply-wire (two jumpers, A to B and C to D)"
RPI3_BEFORE = "udrv-bench toggle -c pinctrl-bcm2835 --line 17 --no-edges --json --quiet "
RPI3_AFTER = "udrv-bench toggle --json --quiet --load none {} -c pinctrl-bcm2835 --line 17 " \
             "--no-edges"


# the recorded boards that have i2c-stub and the spi-fixture (make lab's QEMU
# targets; the labgrid suite's QEMU boards)
BUS_BOARDS = {"qemu": ("std", "rt", "std-smp", "rt-smp"), "labgrid": ("std", "rt", "rt-q35")}
BUSES_SKIPPED = {"i2c": "no i2c-stub (Debian's SMBus stub, x86 kernels) at 0x50",
                 "spi": "no spi-fixture (rig/kernel/spi-fixture: its loopback chip select)"}


# udrv-bench pwm (12-2026): the last bench of each load's plain run, on every
# board with a loopback (where irq runs, with irq's -c/--out-line), skipped
# (saying why) on the labgrid boards without one
PWM_SKIPPED = {"rpi3": LOOPBACK, "bare": LOOPBACK,
               "odd-jumper": "udrv-wire 17->27: the bench reads line 18"}
PLAIN_BENCHES = ("toggle", "irq", "uio", "timer", "kernel", "reply", "pci", "i2c", "spi")


def _pwm_after_the_plain_benches(now: dict) -> None:
    for part in ("qemu", "labgrid"):
        for key, entry in now[part].items():
            target, mode = key.split()[:2]
            if part == "labgrid" and target in PWM_SKIPPED:
                entry["skipped"]["pwm"] = PWM_SKIPPED[target]
            n = 50 if mode == "quick" else 200
            for run in entry["runs"]:
                cmds = run["commands"]
                irq = [c for c in cmds if c.startswith("udrv-bench irq ")]
                if run["variant"] or not irq:
                    continue
                w = irq[0].split()
                opts = [x for i in range(len(w)) if w[i] in ("-c", "--out-line")
                        for x in w[i:i + 2]]
                last = max(i for i, c in enumerate(cmds)
                           if c.split()[1] in PLAIN_BENCHES)
                cmds.insert(last + 1, " ".join([f"udrv-bench pwm --json --quiet --load "
                                                f"{run['load']} --samples {n}", *opts]))


def _expected_now(before: dict) -> dict:
    """The recording with the intended changes applied (nothing else may differ)."""
    now = json.loads(json.dumps(before))
    # reply's idle plain run also splits each responder's replies into
    # stages (udrv-bench reply --breakdown, plan.IDLE_ARGS)
    for part in ("qemu", "labgrid"):
        for entry in now[part].values():
            for run in entry["runs"]:
                if run["variant"] == "" and run["load"] == "none":
                    run["commands"] = [c + " --breakdown" if c.startswith("udrv-bench reply ")
                                       else c for c in run["commands"]]
    # reply's irq-prio 90 run puts the responders above the log host too
    for part in ("qemu", "labgrid"):
        for entry in now[part].values():
            for run in entry["runs"]:
                if run["variant"] == "irq-prio 90":
                    run["commands"] = [c + " --target-prio 85" if c.startswith("udrv-bench reply ")
                                       else c for c in run["commands"]]
    # a board without gpio-wire may have reply's own jumpers (udrv-reply-wire)
    for entry in now["labgrid"].values():
        if entry["skipped"].get("reply") == REPLY_BEFORE:
            entry["skipped"]["reply"] = REPLY_AFTER
    # the bus benches (12-2026): run after reply (and pci) in the plain runs
    # of the boards that load i2c-stub and the spi-fixture (every x86 target:
    # rig/lab/catalogue.py), skipped where the board has neither
    for part in ("qemu", "labgrid"):
        for key, entry in now[part].items():
            target, mode = key.split()[:2]
            if target not in BUS_BOARDS[part]:
                if part == "labgrid":
                    entry["skipped"]["i2c"] = BUSES_SKIPPED["i2c"]
                    entry["skipped"]["spi"] = BUSES_SKIPPED["spi"]
                continue
            n = 200 if mode == "quick" else 2000
            for run in entry["runs"]:
                cmds = run["commands"]
                after = [i for i, c in enumerate(cmds)
                         if c.startswith(("udrv-bench reply ", "udrv-bench pci "))]
                if run["variant"] == "" and after:
                    load = run["load"]
                    cmds[after[-1] + 1:after[-1] + 1] = [
                        f"udrv-bench i2c --json --quiet --load {load} --samples {n}",
                        f"udrv-bench spi --json --quiet --load {load} --samples {n} "
                        "--device spi-loopback"]
    _pwm_after_the_plain_benches(now)
    for mode in ("quick", "full"):
        [run] = now["qemu"][f"rpi3 {mode}"]["runs"]
        [cmd] = run["commands"]
        assert cmd.startswith(RPI3_BEFORE)
        run["commands"] = [RPI3_AFTER.format(cmd.removeprefix(RPI3_BEFORE))]
        prio = next(r for r in now["labgrid"][f"rt-q35 {mode}"]["runs"]
                    if r["variant"] == "irq-prio 90")
        count = suite.SAMPLES[mode]["pci"]
        prio["commands"].insert(3, f"udrv-bench pci --json --quiet --load none --samples {count} "
                                   "--irq-prio 90")
    return now


def test_the_plan_runs_the_recorded_commands() -> None:
    """make lab's commands (every QEMU target, quick and full, --duration) and
    the labgrid suite's, exactly as recorded before the plan, but the
    intended changes."""
    from tests.support import suite_commands

    before = json.loads(FIXTURE.read_text())
    now = suite_commands.record()
    expected = _expected_now(before)
    for part in ("qemu", "labgrid"):
        assert now[part].keys() == expected[part].keys()
        for key in expected[part]:
            assert now[part][key] == expected[part][key], (part, key)


def _words(cmd: str) -> dict[str, str]:
    """A LAVA command's options (-n is --samples; no --load is --load none)."""
    w = cmd.split()[2:]
    opts = {"bench": w[0], "--load": "none"}
    i = 1
    while i < len(w):
        key = "--samples" if w[i] == "-n" else w[i]
        value = w[i + 1] if i + 1 < len(w) and not w[i + 1].startswith("-") else ""
        opts[key] = value
        i += 2 if value else 1
    return opts


def test_lava_jobs_ran_the_same_benches_before() -> None:
    """The recorded LAVA jobs' benches with their counts ran the same options
    (-n N then, --samples N now, --load none written out); the benches sized
    otherwise (gaps, rate) and the default counts are the plan's now."""
    from tests.support import suite_commands

    before = json.loads(FIXTURE.read_text())["lava"]
    now = suite_commands.record()["lava"]
    for key in ("qemu std --samples 300 --load all",):
        assert [_words(c) for c in now[key]] == [_words(c) for c in before[key]], key
    key = "qemu std --samples 300 --bench timer,irq,uio,toggle,kernel,reply,gaps,rate"
    # reply's idle run adds --breakdown now (plan.IDLE_ARGS)
    ran = [c + " --breakdown" if c.startswith("udrv-bench reply ") else c
           for c in before[key][:6]]
    assert [_words(c) for c in now[key][:6]] == [_words(c) for c in ran]
    assert now[key][6:] == [suite.gaps_command("none", "quick"),
                            suite.rate_command("none", "quick")]


def _qemu_plain(target: str, mode: str) -> dict[str, str]:
    from tests.support import suite_commands

    run = suite_commands.qemu(target, mode)["runs"][0]
    return {c.split()[1]: c for c in run["commands"]}


def test_three_paths_one_command_per_bench() -> None:
    """The std board's idle run: make lab's commands, the labgrid suite's on an
    env with the same features (python3 -m rig.lab lg-env's) and a LAVA job for
    the qemu device type, bench by bench, are the same; rt and rpi3 too."""
    from tests.support import suite_commands

    for target, benches in (("std", "timer irq uio toggle"), ("rt", "timer irq uio toggle"),
                            ("rpi3", "toggle")):
        for mode in ("quick", "full"):
            qemu = _qemu_plain(target, mode)
            lg = suite_commands.labgrid(target, mode)["runs"][0]["commands"]
            lg_by = {c.split()[1]: c for c in lg}
            spec = lava.JobSpec(kernel=target, benches=benches, mode=mode,
                                urls=dict(suite_commands.URLS))
            job = suite_commands.lava_job(spec)
            assert [c.split()[1] for c in job] == benches.split()
            for cmd in job:
                bench = cmd.split()[1]
                assert cmd == qemu[bench] == lg_by[bench], (target, mode, bench)


def test_one_plan_entry_changes_all_three(monkeypatch: pytest.MonkeyPatch) -> None:
    """The irq bench's quick count and its board options changed in the plan
    alone: make lab, the labgrid suite and the LAVA job all run the new one."""
    from rig.lab.suite import plan
    from tests.support import suite_commands

    irq = plan.BENCHES["irq"]
    monkeypatch.setitem(plan.BENCHES, "irq", dataclasses.replace(
        irq, size={**irq.size, "quick": ("--samples", "123")},
        decide=lambda feats, wire: (("--cpu", "0"), "")))
    want = "udrv-bench irq --json --quiet --load none --samples 123 --cpu 0"
    assert _qemu_plain("std", "quick")["irq"] == want
    lg = suite_commands.labgrid("std", "quick")["runs"][0]["commands"]
    assert want in lg
    spec = lava.JobSpec(benches="irq", urls=dict(suite_commands.URLS))
    assert suite_commands.lava_job(spec) == [want]


def test_a_skipped_bench_says_why_and_select_forces_it() -> None:
    from rig.lab.suite import plan

    p = plan.for_board(frozenset({"bcm2835"}))
    assert "iommu" in p.skipped["pci"] and p.opts["toggle"][-1] == "--no-edges"
    forced = plan.select(p, ["pci", "timer"], force=True)
    assert forced.opts == {"timer": (), "pci": ()}
    assert plan.select(p, ["pci"]).skipped["pci"] == p.skipped["pci"]
