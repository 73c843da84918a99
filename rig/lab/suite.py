# SPDX-License-Identifier: GPL-2.0-only
"""The latency suite on the virtual boards: what `make lab` runs.

Boots each x86 kernel once, runs every `udrv bench` idle and under load
inside it; boots the rpi3 board and runs the toggle bench on GPIO 17 of its
pinctrl-bcm2835 chip, idle.  It collects the result documents
(docs/results.md; each checked by rig.results as it arrives: one that is not
udrv-bench/1 is a failure of its bench) into one udrv-lab/1 document (each run
records its board), and prints the tables of the references (rig.results.text):
toggle rate per mechanism (ref 000) on x86 and on rpi3, and latency
min/avg/max per mechanism x kernel x load (ref 002).
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

from rig.results import ResultsError, bench_document, checked, model
from rig.results.text import GAPS_VARIANT, PRIORITY_VARIANTS, RATE_PRIORITY, print_tables

from . import suite_pci, suite_python
from .board_api import LabBoard
from .boards import missing_udrv, target
from .paths import REPO_ROOT
from .qemu import Board

BENCHES = ("toggle", "irq", "uio", "timer", "kernel", "reply")
LOADS = ("none", "all")
# samples per row: full run and --quick (CI)
SAMPLES = {
    "full": {"toggle": 100000, "irq": 5000, "uio": 5000, "timer": 10000, "kernel": 10000,
             "reply": 2000, "pci": 500},
    "quick": {"toggle": 2000, "irq": 200, "uio": 200, "timer": 500, "kernel": 500,
              "reply": 200, "pci": 100},
}
BENCH_TIMEOUT = 900.0
# --duration: the measurement loops of each bench share the time (the
# toggle bench and irqlat keep their sample counts: neither is a tail)
LOOPS = {"irq": 5, "uio": 3, "timer": 2, "reply": 6}
# The priority axis (rt, idle): the wake-up benches with the application
# above the irq thread it waits for (the plain runs: FIFO 80 over the
# kernel's FIFO 50), below it, and at SCHED_OTHER
PRIORITY_BENCHES = ("irq", "uio", "reply")
# (the variants' names are the results' vocabulary: rig.results.text)
PRIORITY = dict(zip(PRIORITY_VARIANTS, ("--irq-prio 90", "-P 0"), strict=True))
# The scheduler gaps (ref 000): udrv bench gaps on each x86 kernel and load, at
# the kernel's RT throttling (filed with the plain runs) and without it (a
# variant run per load); guest seconds per run, full and --quick
GAPS_SECONDS = {"full": 5, "quick": 3}
# udrv bench rate (the capacity sweep, issue 12) on each x86 kernel and load:
# its default sweep (8 rates x 50 ms per receiver), --quick a short one
RATE_ARGS = {"full": "", "quick": "--rates 2k,20k,200k --step-duration 20ms"}
# and on rt, idle, with the irq threads above the receiver (the priority
# axis's first variant, RATE_PRIORITY): it moves cdev's knee
# rpi3: GPIO 17 (header pin 11) of the SoC's own chip; no partner line is wired
RPI3_CHIP = "pinctrl-bcm2835"
RPI3_LINE = 17


@dataclass
class SuiteRun:
    kernel: str
    load: str
    documents: list[dict[str, Any]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    board: str = "x86"  # the machine: "x86" or "rpi3" (rig/lab/boards.py)
    variant: str = ""  # a priority-axis run: PRIORITY's key; "" the plain suite


def bench_command(bench: str, load: str, samples: int, duration_s: int = 0) -> str:
    """The bench's command line; with `duration_s`, the latency benches run for
    about that long (each of its LOOPS a share) instead of a sample count."""
    size = f"--samples {samples}"
    if duration_s and bench in LOOPS:
        size = f"--duration {max(1, duration_s // LOOPS[bench])}s"
    return f"udrv bench {bench} --json --quiet --load {load} {size}"


def bench_timeout(duration_s: int) -> float:
    """Wall-clock limit of one bench. Guest time follows the instructions the
    vCPU runs: idle (the clock jumps) it kept up with the host's (20 s of bench
    timer in 15 s), under the all load, which keeps the vCPU busy, it fell far
    behind (20 s of bench irq took 555 s on 2 busy host cores): 40x room."""
    return max(BENCH_TIMEOUT, 40.0 * duration_s + 300)


def run_pci(board: Board, kernel: str, mode: str) -> list[SuiteRun]:
    """The q35 board: udrv bench pci idle and under load; on rt also with the
    irq threads above the bench (RATE_PRIORITY, the priority axis's first)."""
    runs = [run_benches(board, kernel, load, mode, (suite_pci.BENCH,)) for load in LOADS]
    if target(kernel).kernel == "rt":
        run = SuiteRun("rt", "none", board=suite_pci.BOARD, variant=RATE_PRIORITY)
        _run_one(board, run, suite_pci.BENCH,
                 f"{bench_command(suite_pci.BENCH, 'none', SAMPLES[mode][suite_pci.BENCH])} "
                 f"{PRIORITY[RATE_PRIORITY]}")
        runs.append(run)
    return runs


def rpi3_toggle_command(samples: int) -> str:
    return (f"udrv bench toggle -c {RPI3_CHIP} --line {RPI3_LINE} --no-edges "
            f"--json --quiet --samples {samples}")  # fmt: skip


def _run_one(board: LabBoard, run: SuiteRun, bench: str, cmd: str,
             timeout: float = BENCH_TIMEOUT) -> None:
    """Run one bench command, filing its document, failure or absence in `run`."""
    print(f"lab: {board.flavour} board, load {run.load}: {cmd}", file=sys.stderr, flush=True)
    r = board.run(cmd, timeout=timeout)
    if r.status == 2 and "unknown command" in r.stderr:
        run.unavailable.append(bench)
    elif r.status != 0:
        run.failures.append(f"{bench}: exit {r.status}: {r.stderr.strip()[-400:]}")
    else:
        try:
            run.documents.append(bench_document(r.stdout, f"{board.flavour}: {cmd}"))
        except ResultsError as exc:  # not a document udrv writes: a failure, said
            run.failures.append(f"{bench}: {exc}")


def run_benches(board: Board, kernel: str, load: str, mode: str,
                benches: tuple[str, ...] = BENCHES, duration_s: int = 0) -> SuiteRun:
    t = target(kernel)
    run = SuiteRun(t.kernel, load, board=t.board)
    for bench in benches:
        _run_one(board, run, bench,
                 bench_command(bench, load, SAMPLES[mode][bench], duration_s),
                 bench_timeout(duration_s))
    return run


def run_priority(board: Board, kernel: str, mode: str) -> list[SuiteRun]:
    """The priority axis's other two settings, idle (the plain run is the first)."""
    runs = []
    for variant, opts in PRIORITY.items():
        run = SuiteRun(target(kernel).kernel, "none", board=target(kernel).board,
                       variant=variant)
        for bench in PRIORITY_BENCHES:
            cmd = f"{bench_command(bench, 'none', SAMPLES[mode][bench])} {opts}"
            _run_one(board, run, bench, cmd)
        runs.append(run)
    return runs


def gaps_command(load: str, mode: str, rt_runtime: str = "", opts: str = "") -> str:
    """udrv bench gaps for a few guest seconds; with `rt_runtime`, set for the
    run; `opts`: the line to toggle (default: gpio-wire's)."""
    cmd = f"udrv bench gaps --json --quiet --load {load} --duration {GAPS_SECONDS[mode]}s"
    cmd = f"{cmd} {opts}" if opts else cmd
    return f"{cmd} --rt-runtime {rt_runtime}" if rt_runtime else cmd


def run_gaps(board: LabBoard, plain: list[SuiteRun], mode: str,
             opts: str = "") -> list[SuiteRun]:
    """The gaps bench in each plain run (the kernel's throttling), then with
    throttling off: one GAPS_VARIANT run per load. Off, the loop starves
    everything else on the one CPU (the agent too) until it ends by itself."""
    variants = []
    for run in plain:
        _run_one(board, run, "gaps", gaps_command(run.load, mode, opts=opts))
        off = SuiteRun(run.kernel, run.load, board=run.board, variant=GAPS_VARIANT)
        _run_one(board, off, "gaps", gaps_command(run.load, mode, "-1", opts))
        variants.append(off)
    return variants


def rate_command(load: str, mode: str) -> str:
    return f"udrv bench rate --json --quiet --load {load} {RATE_ARGS[mode]}".rstrip()


def run_rate(board: LabBoard, runs: list[SuiteRun], mode: str) -> None:
    """The rate sweep in each plain run (filed with the load's other benches),
    and in the RATE_PRIORITY run of the priority axis if there is one."""
    for run in runs:
        if not run.variant:
            _run_one(board, run, "rate", rate_command(run.load, mode))
        elif run.variant == RATE_PRIORITY:
            _run_one(board, run, "rate",
                     f"{rate_command(run.load, mode)} {PRIORITY[RATE_PRIORITY]}")


def run_rpi3(board: LabBoard, mode: str) -> SuiteRun:
    """The rpi3 part: the toggle bench on pinctrl-bcm2835 line 17, idle (any
    board with that chip: the QEMU rpi3 board, or it as a labgrid target)."""
    run = SuiteRun(board.kernel, "none", board="rpi3")
    _run_one(board, run, "toggle", rpi3_toggle_command(SAMPLES[mode]["toggle"]))
    return run


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


def write_report(results: Path) -> Path | None:
    """The HTML report next to the results (docs/report.md), or None if it failed.

    Through the launcher: it picks a Python that has matplotlib."""
    html = results.with_name("report.html")
    r = subprocess.run([sys.executable, str(REPORT_TOOL), "--quiet", str(results),
                        "-o", str(html)], check=False)
    return html if r.returncode == 0 else None


def run_board(kernel: str, mode: str, duration_s: int = 0) -> list[SuiteRun]:
    """Boot one board and run its part of the suite."""
    machine = target(kernel).machine
    why = missing_udrv(machine)
    if why is not None:
        return [SuiteRun(target(kernel).kernel, "none", failures=[why],
                         board=target(kernel).board)]  # fmt: skip
    runs: list[SuiteRun] = []
    with Board(kernel) as board:
        if machine.name == "rpi3":
            return [run_rpi3(board, mode)]
        if machine.name == suite_pci.BOARD:  # UIO vs VFIO: only udrv bench pci
            return run_pci(board, kernel, mode)
        plain = [run_benches(board, kernel, load, mode, duration_s=duration_s)
                 for load in LOADS]
        runs += plain + run_gaps(board, plain, mode)
        if target(kernel).kernel == "rt":
            runs += run_priority(board, kernel, mode)
        run_rate(board, runs, mode)
    return runs


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
        python = list(pool.map(lambda k: suite_python.run_python(k, mode),
                               [k for k in kernels if suite_python.wanted(k)]))
    runs = [run for part in parts for run in part]
    doc = lab_document(runs)
    if python:
        doc["python"] = python
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    try:
        checked(str(out), doc)
    except ResultsError as exc:  # a bug of the suite: what it wrote is not udrv-lab/1
        print(f"lab: {exc}", file=sys.stderr)
        return 1
    print_tables(model(doc, str(out)))
    failures = [f"{r.board}/{r.kernel}/{r.load}: {f}" for r in runs for f in r.failures]
    failures += suite_python.failures(python)
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
