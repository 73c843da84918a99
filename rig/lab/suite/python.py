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

from ..boards.qemu import Board
from ..boards.targets import target
from ..errors import LabError
from ..image import pyguest

# calls per round x rounds, edges at the generator's period, per library
ARGS = {"full": "-n 5000 --rounds 6 --events 2000 --period-ns 200000",
        "quick": "-n 500 --rounds 2 --events 300 --period-ns 200000"}  # fmt: skip
TIMEOUT = 900.0


def wanted(kernel: str) -> bool:
    """The boards the Python bench runs on: the instruction-counted x86 ones."""
    t = target(kernel)
    return t.machine.name == "x86" and t.icount


def run_python(kernel: str, mode: str) -> dict[str, Any]:
    """Boot the kernel's Python board and run udrv-pybench: its JSON, with the
    board and the boot time; {"kernel", "failure"} when it could not run."""
    only = "" if pyguest.udrv_missing() is None else " --only gpiod"
    cmd = f"udrv-pybench {ARGS[mode]}{only} --json -"
    head: dict[str, Any] = {"board": target(kernel).board, "lab_kernel": kernel}
    try:
        files: dict[str, Any] = dict(pyguest.guest_files(quiet=True))
        with Board(kernel, extra_files=files) as board:
            print(f"lab: {kernel} board (python): {cmd}", file=sys.stderr, flush=True)
            r = board.run(cmd, timeout=TIMEOUT)
            head["boot_s"] = round(board.boot_seconds, 1)
    except LabError as exc:
        return head | {"failure": f"{type(exc).__name__}: {exc}"}
    text, _, js = r.stdout.partition("\n{")
    out = head
    if r.status != 0 or not js:
        out = head | {"failure": f"udrv-pybench: exit {r.status}: {r.stderr.strip()[-400:]}"}
    if js:
        doc = json.loads("{" + js)
        if only:
            doc["note"] = pyguest.udrv_missing()
        out |= {"table": text, "result": doc}
    return out


def failures(results: list[dict[str, Any]]) -> list[str]:
    return [f"x86/{r['lab_kernel']}/python: {r['failure']}" for r in results if "failure" in r]
