# SPDX-License-Identifier: GPL-2.0-only
"""The bench command lines each path of the suite runs, without a board: the
QEMU suite (rig/lab/suite/qemu.py's run_board on every target), the labgrid suite
(rig/lab/suite/labgrid.py on a few feature sets and wirings) and a LAVA job (the
argument lists rig/lava/job.py writes into it).  A fake board answers every
command with a document naming it, so each run of the result lists the
commands filed in it.

tests/rig/fixtures/suite-commands.json is what this printed before the one plan
(rig/lab/suite/plan.py) replaced the three paths' own decisions (the LAVA jobs then
with string sample counts, samples="300"):

    /usr/bin/python3 -m tests.support.suite_commands > tests/rig/fixtures/suite-commands.json
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from rig.lab import catalogue
from rig.lab.boards.api import Result
from rig.lab.suite import labgrid as suite_lg
from rig.lab.suite import qemu as suite
from rig.lava import job as lava

QEMU_TARGETS = ("std", "rt", "rpi3", "std-q35", "rt-q35", "std-smp", "rt-smp")
# labgrid: the lab's boards as labgrid envs (their features without "qemu"),
# and real boards: a jumper, a jumper to a line that is not the next, nothing
LG_BOARDS: dict[str, tuple[frozenset[str], str]] = {
    **{name: (catalogue.features(name) - {"qemu"}, "") for name in ("std", "rt", "rpi3", "rt-q35")},
    "jumper": (frozenset({"irqlat", "rt"}), "gpiochip1 16 17"),
    "odd-jumper": (frozenset({"uio-ticker"}), "gpiochip0 17 27"),
    "bare": (frozenset(), ""),
}


class FakeBoard:
    """Answers every command with {"bench": NAME, "cmd": CMD}, keeping (cmd, timeout)."""

    def __init__(self, target: str, kernel: str = "std", **_: Any) -> None:
        self.target = target
        self.kernel = "rt" if kernel.startswith("rt") else "std"
        self.release = "6.1.0-fake"
        self.features: frozenset[str] = frozenset()
        self.dead = None
        self.log: list[tuple[str, float]] = []

    def __enter__(self) -> FakeBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, cmd: str, timeout: float = 60.0, *, check: bool = False) -> Result:
        self.log.append((cmd, timeout))
        words = cmd.split()
        bench = words[1] if words[0] == "udrv-bench" else words[0]
        doc = json.dumps({"bench": bench, "cmd": cmd})
        return Result(0, doc.encode(), b"", 0.0)

    def close(self) -> None:
        pass


@contextmanager
def fake_documents() -> Iterator[None]:
    """The suite files FakeBoard's answers as they are (it checks a real
    bench's document against the results contract, which they are not)."""
    saved = suite.bench_document
    suite.bench_document = lambda text, source: json.loads(text)  # type: ignore[assignment]
    try:
        yield
    finally:
        suite.bench_document = saved


def _runs(runs: list[suite.SuiteRun]) -> list[dict[str, Any]]:
    return [{"board": r.board, "kernel": r.kernel, "load": r.load, "variant": r.variant,
             "commands": [d["cmd"] for d in r.documents]} for r in runs]  # fmt: skip


def qemu(target: str, mode: str, duration_s: int = 0) -> dict[str, Any]:
    """suite.run_board on `target` with a fake Board: its runs and (cmd, timeout) log."""
    made: list[FakeBoard] = []

    def board(kernel: str, **kw: Any) -> FakeBoard:
        made.append(FakeBoard(kernel, kernel, **kw))
        return made[-1]

    saved = suite.Board, suite.missing_udrv
    suite.Board, suite.missing_udrv = board, lambda machine: None  # type: ignore[assignment]
    try:
        with fake_documents():
            runs = suite.run_board(target, mode, duration_s)
    finally:
        suite.Board, suite.missing_udrv = saved  # type: ignore[assignment]
    return {"runs": _runs(runs), "timeouts": sorted({t for b in made for _, t in b.log})}


def labgrid(name: str, mode: str, loads: tuple[str, ...] = ("none", "all")) -> dict[str, Any]:
    """suite_lg's plan and run_board for one of LG_BOARDS: its runs and skips."""
    feats, wire = LG_BOARDS[name]
    p = suite_lg.plan(feats, suite_lg.parse_wire(wire) if wire else None)
    board = FakeBoard(name, "rt" if "rt" in feats else "std")
    runs: list[suite.SuiteRun] = []
    with fake_documents():
        suite_lg.run_board(board, p, mode, list(loads), runs)  # type: ignore[arg-type]
    return {"runs": _runs(runs), "skipped": dict(sorted(p.skipped.items()))}


URLS = {"kernel": "file:///srv/k", "ramdisk": "file:///srv/r.cpio.gz",
        "dtb": "file:///srv/board.dtb", "bundle": "file:///srv/udrv.tar"}
# `python3 -m rig.lava job` options (as JobSpec fields): its defaults, the
# real lava-run tests' (tests/lab/test_lava.py, test_lava_rpi3.py), a board's
LAVA_JOBS: dict[str, dict[str, Any]] = {
    "qemu std": {},
    "qemu std --samples 300 --load all": {"samples": 300, "load": "all"},
    "qemu std --samples 300 --bench timer,irq,uio,toggle,kernel,reply,gaps,rate": {
        "samples": 300, "benches": "timer irq uio toggle kernel reply gaps rate"},
    "qemu rt": {"kernel": "rt"},
    "beaglebone-black": {"device_type": "beaglebone-black"},
}


def lava_job(spec: lava.JobSpec) -> list[str]:
    """The bench commands a rendered job runs on the board: the test definition's
    run steps, with the job's parameters, in sh with a udrv-bench that logs them."""
    text = lava.render_job(spec)
    [definition] = yaml.safe_load(text)["actions"][2]["test"]["definitions"]
    testdef = definition["repository"]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "lava").mkdir()
        shutil.copy(lava.RECORDER, d / "lava" / "udrv-lava-bench")
        (d / "bin").mkdir()
        (d / "bin" / "udrv-bench").write_text(
            f'#!/bin/sh\necho "udrv-bench $*" >> {d}/cmds\necho "{{}}"\n')
        (d / "bin" / "udrv-bench").chmod(0o755)
        env = {**os.environ, "PATH": f"{d / 'bin'}:{os.environ['PATH']}",
               **{k: str(v) for k, v in testdef["params"].items()}}
        script = "\n".join(testdef["run"]["steps"])
        subprocess.run(["sh", "-c", script], cwd=d, env=env, capture_output=True, check=False,
                       timeout=60)
        cmds = (d / "cmds").read_text().splitlines() if (d / "cmds").exists() else []
    return [shlex.join(c.split()) for c in cmds]


def record() -> dict[str, Any]:
    out: dict[str, Any] = {"qemu": {}, "labgrid": {}}
    for target in QEMU_TARGETS:
        for mode in ("quick", "full"):
            out["qemu"][f"{target} {mode}"] = qemu(target, mode)
    out["qemu"]["std full --duration 3600"] = qemu("std", "full", 3600)
    for name in LG_BOARDS:
        for mode in ("quick", "full"):
            out["labgrid"][f"{name} {mode}"] = labgrid(name, mode)
    out["lava"] = {name: lava_job(lava.JobSpec(urls=dict(URLS), **kw))
                   for name, kw in LAVA_JOBS.items()}
    return out


if __name__ == "__main__":
    json.dump(record(), sys.stdout, indent=1)
    sys.stdout.write("\n")
