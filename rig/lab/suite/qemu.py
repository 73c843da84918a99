# SPDX-License-Identifier: GPL-2.0-only
"""The latency suite on the virtual boards: what `make lab` runs.

Boots each x86 kernel once, runs every `udrv bench` idle and under load
inside it; boots the rpi3 board and runs the toggle bench on GPIO 17 of its
pinctrl-bcm2835 chip, idle.  It collects the result documents
(docs/rig/results.md; each checked by rig.results as it arrives: one that is not
udrv-bench/1 is a failure of its bench) into one udrv-lab/1 document (each run
records its board), and prints the tables of the references (rig.results.text):
toggle rate per mechanism (VanguardiaSur) on x86 and on rpi3, and latency
min/avg/max per mechanism x kernel x load
(Grandegger, gpioirqbench; docs/references.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.bench.base import RATE_PRIORITY
from rig.results import ResultsError, bench_document, checked, model
from rig.results.text import print_tables

from ..boards.api import LabBoard
from ..catalogue import features, lookup, missing_udrv
from ..paths import REPO_ROOT
from ..strategy import Board
from . import pci, plan, python

# what each bench needs of a board and its arguments: rig/lab/suite/plan.py (the one
# plan of make lab, the labgrid suite and the LAVA jobs)
BENCHES = tuple(b for b in plan.PLAIN if b != "pci")  # the x86 boards' plain run
LOADS = plan.LOADS
# samples per row: full run and --quick (CI)
SAMPLES = {m: {n: b.samples[m] for n, b in plan.BENCHES.items() if b.samples}
           for m in plan.MODES}  # fmt: skip
BENCH_TIMEOUT = plan.BENCH_TIMEOUT
PRIORITY = plan.PRIORITY
PRIORITY_BENCHES = tuple(b for b in plan.PLAIN if plan.BENCHES[b].priority == plan.ALL_PRIORITY)
GAPS_SECONDS = {m: int(plan.BENCHES["gaps"].size[m][1].rstrip("s")) for m in plan.MODES}
# The QEMU boards that run a part of the plan only: (benches, loads); the others
# (x86) all their features allow. rpi3: the toggle bench on GPIO 17, idle; q35
# (UIO vs VFIO: rig/lab/suite/pci.py): only udrv-bench pci
PARTS = {"rpi3": (("toggle",), ("none",)), pci.BOARD: ((pci.BENCH,), LOADS)}


@dataclass
class SuiteRun:
    kernel: str
    load: str
    documents: list[dict[str, Any]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    board: str = "x86"  # the machine: "x86" or "rpi3" (rig/lab/catalogue.py)
    variant: str = ""  # a priority-axis run: PRIORITY's key; "" the plain suite


def bench_command(bench: str, load: str, samples: int, duration_s: int = 0) -> str:
    """The bench's command line; with `duration_s`, the latency benches run for
    about that long (each of its loops a share) instead of a sample count."""
    return plan.command(plan.args(bench, load, "full", duration_s=duration_s, samples=samples))


bench_timeout = plan.bench_timeout


def gaps_command(load: str, mode: str, rt_runtime: str = "") -> str:
    """udrv-bench gaps for a few guest seconds; with `rt_runtime`, set for the run."""
    extra = ("--rt-runtime", rt_runtime) if rt_runtime else ()
    return plan.command(plan.args("gaps", load, mode, variant=extra))


def rate_command(load: str, mode: str) -> str:
    return plan.command(plan.args("rate", load, mode))


def _run_one(board: LabBoard, run: SuiteRun, bench: str, cmd: str,
             timeout: float = BENCH_TIMEOUT) -> None:
    """Run one bench command, filing its document, failure or absence in `run`."""
    print(f"lab: {board.target} board, load {run.load}: {cmd}", file=sys.stderr, flush=True)
    r = board.run(cmd, timeout=timeout)
    if r.status == 2 and "unknown command" in r.stderr:
        run.unavailable.append(bench)
    elif r.status != 0:
        run.failures.append(f"{bench}: exit {r.status}: {r.stderr.strip()[-400:]}")
    else:
        try:
            run.documents.append(bench_document(r.stdout, f"{board.target}: {cmd}"))
        except ResultsError as exc:  # not a document udrv writes: a failure, said
            run.failures.append(f"{bench}: {exc}")


def run_steps(board: LabBoard, steps: list[plan.Step], runs: list[SuiteRun], *,
              kernel: str, label: str) -> list[SuiteRun]:
    """Run a plan's steps on a board, each filed in the run of its load and
    variant (`runs`' own, else a new one appended to `runs` as it starts, so a
    board that dies leaves what it measured); the runs it added."""
    by = {(r.load, r.variant): r for r in runs}
    added = []
    for step in steps:
        run = by.get((step.load, step.variant))
        if run is None:
            run = by[(step.load, step.variant)] = SuiteRun(kernel, step.load, board=label,
                                                           variant=step.variant)
            runs.append(run)
            added.append(run)
        _run_one(board, run, step.bench, step.command, step.timeout)
    return added


def run_plan(board: LabBoard, p: plan.Plan, mode: str, loads: list[str] | tuple[str, ...],
             runs: list[SuiteRun], *, kernel: str, label: str,
             duration_s: int = 0) -> list[SuiteRun]:  # fmt: skip
    """The plan on one board (plan.Plan.steps: each load's plain run, gaps, the
    priority axis, the rate sweep), into `runs` as they go; `runs`."""
    runs += [SuiteRun(kernel, load, board=label) for load in loads]
    run_steps(board, p.steps(mode, loads, duration_s), runs, kernel=kernel, label=label)
    return runs


def say_skipped(target: str, p: plan.Plan) -> None:
    """The benches the board's features do not allow, and why (stderr)."""
    for bench, why in p.skipped.items():
        if why != plan.NOT_ASKED:
            print(f"lab: {target}: skipped {bench}: {why}", file=sys.stderr)


def qemu_plan(kernel: str) -> tuple[plan.Plan, tuple[str, ...]]:
    """A QEMU target's plan (its features; PARTS' benches on rpi3 and q35) and loads."""
    p = plan.for_board(features(kernel))
    benches, loads = PARTS.get(lookup(kernel).machine.name, (tuple(plan.BENCHES), LOADS))
    return plan.select(p, benches), loads


def run_benches(board: LabBoard, kernel: str, load: str, mode: str,
                benches: tuple[str, ...] = BENCHES, duration_s: int = 0) -> SuiteRun:
    """The plain run of `benches` under one load (what they need not checked)."""
    t = lookup(kernel)
    p = plan.select(plan.for_board(features(kernel)), benches, force=True)
    steps = [s for s in p.steps(mode, [load], duration_s) if not s.variant]
    runs = [SuiteRun(t.kernel, load, board=t.board)]
    run_steps(board, steps, runs, kernel=t.kernel, label=t.board)
    return runs[0]


def _part(board: LabBoard, kernel: str, mode: str, benches: tuple[str, ...],
          loads: tuple[str, ...] | list[str]) -> list[SuiteRun]:
    t = lookup(kernel)
    p = plan.select(plan.for_board(board.features), benches)
    return run_plan(board, p, mode, loads, [], kernel=t.kernel, label=t.board)


def run_pci(board: LabBoard, kernel: str, mode: str) -> list[SuiteRun]:
    """The q35 board: udrv-bench pci idle and under load; on rt also with the
    irq threads above the bench (RATE_PRIORITY, the priority axis's first)."""
    return _part(board, kernel, mode, (pci.BENCH,), LOADS)


def run_rpi3(board: LabBoard, mode: str) -> SuiteRun:
    """The rpi3 part: the toggle bench on pinctrl-bcm2835 line 17, idle (any
    board with that chip: the QEMU rpi3 board, or it as a labgrid target); the
    SoC's line also where gpio-wire is loaded beside it (the "deb" variant)."""
    p = plan.select(plan.for_board(board.features - {"gpio-wire"}), ("toggle",))
    return run_plan(board, p, mode, ["none"], [], kernel=board.kernel, label="rpi3")[0]


def run_gaps(board: LabBoard, plain: list[SuiteRun], mode: str) -> list[SuiteRun]:
    """The gaps bench in each plain run (the kernel's throttling), then with
    throttling off: one GAPS_VARIANT run per load (the runs it adds). Off, the
    loop starves everything else on the one CPU (the agent too) until it ends."""
    p = plan.select(plan.for_board(board.features), ("gaps",))
    return run_steps(board, p.steps(mode, [r.load for r in plain]), list(plain),
                     kernel=plain[0].kernel, label=plain[0].board)  # fmt: skip


def run_rate(board: LabBoard, runs: list[SuiteRun], mode: str) -> None:
    """The rate sweep in each plain run (filed with the load's other benches),
    and in the RATE_PRIORITY run of the priority axis if there is one."""
    for run in runs:
        if run.variant in ("", RATE_PRIORITY):
            argv = plan.args("rate", run.load, mode, variant=PRIORITY.get(run.variant, ()))
            _run_one(board, run, "rate", plan.command(argv))




def lab_document(runs: list[SuiteRun]) -> dict[str, Any]:
    versions = {d["tool"]["version"] for r in runs for d in r.documents}
    return {
        "schema": "udrv-lab/1",
        "tool": {"name": "udrv", "version": ",".join(sorted(versions)) or "unknown"},
        "runs": [{"board": r.board, "kernel": r.kernel, "load": r.load,
                  **({"variant": r.variant} if r.variant else {}),
                  "documents": r.documents, "failures": r.failures,
                  "unavailable": r.unavailable} for r in runs],
    }  # fmt: skip


REPORT_TOOL = REPO_ROOT / "rig" / "report" / "udrv-report"


def write_document(out: Path, doc: dict[str, Any], boards: list[str] | None = None) -> int:
    """Write the udrv-lab/1 document to @out, check it, print its tables (of
    @boards' runs); 1 when what the suite wrote is not udrv-lab/1 (its bug)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    try:
        checked(str(out), doc)
    except ResultsError as exc:
        print(f"lab: {exc}", file=sys.stderr)
        return 1
    print_tables(model(doc, str(out)), boards)
    return 0


def write_report(results: Path) -> Path | None:
    """The HTML report next to the results (docs/rig/report.md), or None if it failed.

    Through the launcher: it picks a Python that has matplotlib."""
    html = results.with_name("report.html")
    r = subprocess.run([sys.executable, str(REPORT_TOOL), "--quiet", str(results),
                        "-o", str(html)], check=False)
    return html if r.returncode == 0 else None


def run_board(kernel: str, mode: str, duration_s: int = 0) -> list[SuiteRun]:
    """Boot one board and run its part of the suite (qemu_plan)."""
    t = lookup(kernel)
    why = missing_udrv(t.machine)
    if why is not None:
        return [SuiteRun(t.kernel, "none", failures=[why], board=t.board)]
    p, loads = qemu_plan(kernel)
    with Board(kernel) as board:
        say_skipped(board.target, p)
        return run_plan(board, p, mode, loads, [], kernel=t.kernel, label=t.board,
                        duration_s=duration_s)


def default_jobs() -> int:
    """Boards measured at once: one per host core."""
    return max(1, len(os.sched_getaffinity(0)))


def run_suite(kernels: list[str], mode: str, out: Path, duration_s: int = 0,
              jobs: int = 0) -> int:
    """Run the suite on the boards `kernels` ("std", "rt", "rpi3"); print the tables.

    `duration_s`: each latency bench (irq, uio, timer) runs about that long
    per kernel and load instead of its sample count (python3 -m rig.lab suite
    --duration 1h, for the tail); the priority axis keeps its counts.
    `jobs`: boards booted at once (0: one per host core)."""
    jobs = jobs or default_jobs()
    t0 = time.monotonic()
    # one board per host core at a time: a TCG guest under -icount is one host
    # thread, and its timings follow its instruction count, not the host, so
    # boards measured side by side give the numbers they give alone
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(kernels)))) as pool:
        parts = list(pool.map(lambda k: run_board(k, mode, duration_s), kernels))
        # udrv vs gpiod from Python: a board of the Python image per x86 kernel
        py_parts = list(pool.map(lambda k: python.run_python(k, mode),
                                 [k for k in kernels if python.wanted(k)]))
    runs = [run for part in parts for run in part]
    doc = lab_document(runs)
    py_runs = [py for py, _ in py_parts]
    # the brokers' runs (udrv-bench toggle --udrvd on the Python board)
    doc["runs"] += [run for _, more in py_parts for run in more]
    if py_runs:
        doc["python"] = py_runs
    if write_document(out, doc):
        return 1
    failures = [f"{r.board}/{r.kernel}/{r.load}: {f}" for r in runs for f in r.failures]
    failures += [f"{r['board']}/{r['kernel']}/{r['variant']}: {f}" for _, more in py_parts
                 for r in more for f in r["failures"]]  # fmt: skip
    failures += python.failures(py_runs)
    for f in failures:
        print(f"lab: bench failed: {f}", file=sys.stderr)
    missing = sorted({b for r in runs for b in r.unavailable})
    if missing:
        print(f"lab: not in this udrv yet: {', '.join(missing)}", file=sys.stderr)
    report = write_report(out)
    print(f"\nlab: results in {out} ({time.monotonic() - t0:.0f}s)")
    if report is None:
        print("lab: no report: udrv-report failed (message above)", file=sys.stderr)
    else:
        print(f"lab: report in {report}")
    return 1 if failures or report is None else 0
