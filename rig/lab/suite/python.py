# SPDX-License-Identifier: GPL-2.0-only
"""The Python part of `make lab`: udrv-pybench (rig/bench/python/) on the x86
std and rt kernels, Python through udrv vs Python through gpiod 2.5 on the
same gpio-wire line, one run per kernel, a few guest seconds each.

It boots the kernel's Python image variant (rig/lab/image/pyguest.py), a board of its
own so that the other benches keep their image, and files the bench's
udrv-pybench-1 document (written with --json FILE into a file of its own,
read through rig.results) under the lab document's "python" list
(docs/rig/results.md, "python bench").
"""

from __future__ import annotations

import sys
from typing import Any

from ...bench import options
from ...bench.toggle.spec import BROKER_VARIANT
from ...results import ResultsError, bench_document, pybench_document
from ..boards.api import Result
from ..brokers import BUS, BUS2, POLICY, Broker
from ..catalogue import lookup
from ..errors import LabError
from ..image import dbusguest, pyguest
from ..strategy import Board
from . import plan

# calls per round x rounds, edges at the generator's period, per library
# (I2C on rig/kernel/i2c-fixture, an adapter of plain I2C where every peer has a
# row, periphery's transfers too, which i2c-stub cannot do; --gpiozero: the
# MCP3008 reads under Debian 12's gpiozero 1.6.2 too)
ARGS = {mode: f"{size} --period-ns 200000 --buses --i2c-adapter i2c-fixture "
              f"--gpiozero {pyguest.GUEST_GPIOZERO1}"
        for mode, size in (("full", "-n 5000 --rounds 6 --events 2000"),
                           ("quick", "-n 500 --rounds 2 --events 300"))}  # fmt: skip
TIMEOUT = 900.0
# where udrv-pybench writes its document on the board (--json FILE), the
# table alone on its stdout
GUEST_JSON = "/tmp/udrv-pybench.json"


def wanted(kernel: str) -> bool:
    """The boards the Python bench runs on: the instruction-counted x86 ones."""
    t = lookup(kernel)
    return t.machine.name == "x86" and t.icount


# udrv-bench toggle's broker rows (rig/bench/toggle/toggle_dbus.c): toggles per row
# (the D-Bus rows do 1/200 of them, gpiocli's 1/20000)
BROKER_SAMPLES = {"full": 200000, "quick": 40000}
# udrvd may do everything on gpio-wire (the bench requests its line 0)
BROKER_POLICY = "allow uid:0 all gpio gpio-wire *\n"


def broker_command(mode: str) -> str:
    """udrv-bench toggle with the broker rows (plan.py spells its options)."""
    return plan.command(options.argv("toggle", size=options.samples_opt(BROKER_SAMPLES[mode], "-n"),
                                  opts=options.brokers_opt(BUS, BUS2,
                                                        f"{dbusguest.GUEST_GPIOD}/bin/gpiocli")))


def run_brokers(board: Board, kernel: str, mode: str) -> dict[str, Any]:
    """udrv-bench toggle with the broker rows (cdev/udrvd-fd against cdev/raw,
    dbus/udrvd against dbus/gpio-manager, gpiocli/...): udrvd and libgpiod's
    gpio-manager each on a bus of its own (rig/lab/brokers.py), the same
    line. A udrv-lab/1 run of variant BROKER_VARIANT."""
    t = lookup(kernel)
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
    cmd = f"udrv-pybench {ARGS[mode]}{only} --json {GUEST_JSON}"
    head: dict[str, Any] = {"board": lookup(kernel).board, "lab_kernel": kernel}
    runs: list[dict[str, Any]] = []
    try:
        files: dict[str, Any] = dict(pyguest.variant_files(quiet=True))
        with Board(kernel, extra_files=files, variant="py") as board:
            print(f"lab: {kernel} board (python): {cmd}", file=sys.stderr, flush=True)
            r, text = run_pybench(board, cmd)
            head["boot_s"] = round(board.boot_seconds, 1)
            runs.append(run_brokers(board, kernel, mode))
    except LabError as exc:
        return head | {"failure": f"{type(exc).__name__}: {exc}"}, runs
    return pybench_result(head, r, text, pyguest.udrv_missing() if only else None), runs


def run_pybench(board: Board, cmd: str) -> tuple[Result, str | None]:
    """Run udrv-pybench (@cmd writes its document into GUEST_JSON): its result
    and the document's text (None when it wrote none)."""
    board.run(f"rm -f {GUEST_JSON}", check=True)
    r = board.run(cmd, timeout=TIMEOUT)
    there = board.run(f"test -f {GUEST_JSON}").status == 0
    return r, board.get(GUEST_JSON).decode("utf-8", "replace") if there else None


def pybench_result(head: dict[str, Any], r: Result, text: str | None,
                   note: str | None) -> dict[str, Any]:
    """The python entry of a kernel: @head with udrv-pybench's table (its
    stdout) and document (@text, read through rig.results), or why not."""
    out = dict(head)
    if r.status != 0:
        out["failure"] = f"udrv-pybench: exit {r.status}: {r.stderr.strip()[-400:]}"
    if text is None:
        out.setdefault("failure", f"udrv-pybench wrote no {GUEST_JSON}")
        return out
    try:
        doc = pybench_document(text, f"{GUEST_JSON} (udrv-pybench)").doc
    except ResultsError as exc:
        why = f"udrv-pybench wrote no udrv-pybench-1 document: {exc}"
        out["failure"] = f"{out['failure']}; {why}" if "failure" in out else why
        return out
    if note:
        doc["note"] = note
    return out | {"table": r.stdout.rstrip("\n"), "result": doc}


def failures(results: list[dict[str, Any]]) -> list[str]:
    return [f"x86/{r['lab_kernel']}/python: {r['failure']}" for r in results if "failure" in r]
