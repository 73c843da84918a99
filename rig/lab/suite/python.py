# SPDX-License-Identifier: GPL-2.0-only
"""The Python part of `make lab`: udrv-pybench (rig/bench/python/) on the x86
std and rt kernels, Python through udrv vs Python through gpiod 2.5 on the
same gpio-wire line, one run per kernel, a few guest seconds each.

It boots the kernel's Python image variant (rig/lab/image/pyguest.py), a board of its
own so that the other benches keep their image, and files the bench's JSON
under the lab document's "python" list (docs/rig/results.md, "python bench").
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ...results import ResultsError, bench_document
from ...results.text import BROKER_VARIANT
from ..boards.qemu import Board
from ..boards.targets import target
from ..brokers import BUS, BUS2, POLICY, Broker
from ..errors import LabError
from ..image import dbusguest, pyguest
from . import plan

# calls per round x rounds, edges at the generator's period, per library
ARGS = {"full": "-n 5000 --rounds 6 --events 2000 --period-ns 200000",
        "quick": "-n 500 --rounds 2 --events 300 --period-ns 200000"}  # fmt: skip
TIMEOUT = 900.0


def wanted(kernel: str) -> bool:
    """The boards the Python bench runs on: the instruction-counted x86 ones."""
    t = target(kernel)
    return t.machine.name == "x86" and t.icount


# udrv-bench toggle's broker rows (rig/bench/toggle_dbus.c): toggles per row
# (the D-Bus rows do 1/200 of them, gpiocli's 1/20000)
BROKER_SAMPLES = {"full": 200000, "quick": 40000}
# udrvd may do everything on gpio-wire (the bench requests its line 0)
BROKER_POLICY = "allow uid:0 all gpio gpio-wire *\n"


def broker_command(mode: str) -> str:
    """udrv-bench toggle with the broker rows (plan.py spells its options)."""
    return plan.command(plan.argv("toggle", size=plan.samples_opt(BROKER_SAMPLES[mode], "-n"),
                                  opts=plan.brokers_opt(BUS, BUS2,
                                                        f"{dbusguest.GUEST_GPIOD}/bin/gpiocli")))


def run_brokers(board: Board, kernel: str, mode: str) -> dict[str, Any]:
    """udrv-bench toggle with the broker rows (cdev/udrvd-fd against cdev/raw,
    dbus/udrvd against dbus/gpio-manager, gpiocli/...): udrvd and libgpiod's
    gpio-manager each on a bus of its own (rig/lab/brokers.py), the same
    line. A udrv-lab/1 run of variant BROKER_VARIANT."""
    t = target(kernel)
    run: dict[str, Any] = {"board": t.board, "kernel": t.kernel, "load": "none",
                           "variant": BROKER_VARIANT, "documents": [], "failures": [],
                           "unavailable": []}  # fmt: skip
    why = dbusguest.missing()
    if why:
        return run | {"failures": [f"no brokers on the board: {why}"]}
    cmd = broker_command(mode)
    brokers: list[Broker] = []
    try:
        board.put_bytes(BROKER_POLICY.encode(), POLICY)
        brokers += [Broker(board, "udrvd").start(), Broker(board, "gpio-manager", BUS2).start()]
        print(f"lab: {kernel} board (brokers): {cmd}", file=sys.stderr, flush=True)
        r = board.run(cmd, timeout=TIMEOUT)
    except LabError as exc:
        return run | {"failures": [f"brokers: {type(exc).__name__}: {exc}"]}
    finally:
        for b in brokers:
            b.stop()
    if r.status != 0:
        run["failures"].append(f"udrv-bench toggle --udrvd: exit {r.status}: "
                               f"{r.stderr.strip()[-400:]}")  # fmt: skip
    try:  # rig.results: udrv-bench/1, checked (the schema, the accounting)
        run["documents"] = [bench_document(r.stdout, cmd)]
    except ResultsError as exc:
        run["failures"].append(f"udrv-bench toggle --udrvd printed no udrv-bench/1 "
                               f"document: {exc}")  # fmt: skip
    return run


def run_python(kernel: str, mode: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Boot the kernel's Python board and run udrv-pybench, then the broker
    rows of udrv-bench toggle: udrv-pybench's JSON, with the board and the
    boot time ({"kernel", "failure"} when it could not run), and the brokers'
    udrv-lab/1 run (run_brokers())."""
    only = "" if pyguest.udrv_missing() is None else " --only gpiod"
    cmd = f"udrv-pybench {ARGS[mode]}{only} --json -"
    head: dict[str, Any] = {"board": target(kernel).board, "lab_kernel": kernel}
    runs: list[dict[str, Any]] = []
    try:
        files: dict[str, Any] = dict(pyguest.variant_files(quiet=True))
        with Board(kernel, extra_files=files, variant="py") as board:
            print(f"lab: {kernel} board (python): {cmd}", file=sys.stderr, flush=True)
            r = board.run(cmd, timeout=TIMEOUT)
            head["boot_s"] = round(board.boot_seconds, 1)
            runs.append(run_brokers(board, kernel, mode))
    except LabError as exc:
        return head | {"failure": f"{type(exc).__name__}: {exc}"}, runs
    text, _, js = r.stdout.partition("\n{")
    out = head
    if r.status != 0 or not js:
        out = head | {"failure": f"udrv-pybench: exit {r.status}: {r.stderr.strip()[-400:]}"}
    if js:
        doc = json.loads("{" + js)
        if only:
            doc["note"] = pyguest.udrv_missing()
        out |= {"table": text, "result": doc}
    return out, runs


def failures(results: list[dict[str, Any]]) -> list[str]:
    return [f"x86/{r['lab_kernel']}/python: {r['failure']}" for r in results if "failure" in r]
