# SPDX-License-Identifier: GPL-2.0-only
"""The soak: a million GPIO edges and a million UIO interrupts under load.

    python3 -m rig.lab.suite.soak [--kernel std|rt|all] [--edges N] [--interrupts N]
                        [--period-us N] [--load PROFILE] [--out FILE]
    make soak                                  (both x86 kernels, the defaults)

On each x86 kernel (std, rt) it boots the board once and runs, under the
`all` load (`udrv-bench load`):

    udrv-bench irq  --samples EDGES/4          gpio-wire, one edge in flight;
                                               4 wait methods with events (the
                                               busy method's edges have none)
    udrv-bench uio -d ticker --samples INTERRUPTS/2 --period-us P
                                               uio-ticker, two loops (bare
                                               read() and udrv_uio_wait())

Each bench checks its own accounting and exits 1 when it does not add up.
The soak checks the documents again, loop by loop: sent (counted at the
source: gpio-wire's count of the edges it drove, uio-ticker's count of the
ticks it signalled) = received + lost exactly, and the loops together sent
what was asked for. It prints a short table, writes the result document (schema
udrv-soak/1, default build/lab/soak.json) and exits 1 on any failure.

Not part of `make check`: it takes minutes per kernel. The accounting is
described in docs/rig/kernel-modules.md (gpio-wire's `edges`, uio-ticker's counters).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.bench import options
from rig.results import ResultsError, bench_document

from ..catalogue import TARGETS, missing_udrv
from ..errors import LabError
from ..paths import lab_dir
from ..strategy import Board
from . import plan

SCHEMA = "udrv-soak/1"
EDGES = 1_000_000
INTERRUPTS = 1_000_000
PERIOD_US = 50
LOAD = "all"
IRQ_LOOPS = 4  # bench irq: read, poll, epoll (udrv) and the raw read
UIO_LOOPS = 2  # bench uio -d ticker: the raw read() and udrv_uio_wait()
COMMAND_TIMEOUT = 7200.0  # host seconds per bench command
X86 = tuple(n for n, t in TARGETS.items() if t.board == "x86")


@dataclass
class Loop:
    """One loop of waits: a row key and its loss accounting."""

    label: str
    loss: dict[str, Any]


@dataclass
class BenchRun:
    bench: str
    command: str
    asked: int
    status: int = -1
    seconds: float = 0.0
    stderr: str = ""
    document: dict[str, Any] | None = None
    loops: list[Loop] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def commands(edges: int, interrupts: int, period_us: int, load: str) -> list[tuple[str, str, int]]:
    """(bench, command, events asked for) for one kernel."""
    per_edge_loop = -(-edges // IRQ_LOOPS)
    per_uio_loop = -(-interrupts // UIO_LOOPS)
    irq = options.argv("irq", load=load, size=options.samples_opt(per_edge_loop))
    uio = options.argv("uio", lead=options.device_opt("ticker"), load=load,
                    size=options.samples_opt(per_uio_loop), opts=options.period_opt(period_us))
    return [("irq", plan.command(irq), per_edge_loop * IRQ_LOOPS),
            ("uio", plan.command(uio), per_uio_loop * UIO_LOOPS)]


def loops_of(doc: dict[str, Any]) -> list[Loop]:
    """The loops of a bench document: one per mechanism/implementation/wait
    (the rows of one wait method share their events and their accounting)."""
    loops: dict[str, Loop] = {}
    for row in doc["rows"]:
        if row["loss"] is None:
            continue
        label = "/".join(p for p in (row["mechanism"], row["implementation"], row["wait"]) if p)
        loops.setdefault(label, Loop(label, row["loss"]))
    return list(loops.values())


def check_loop(loop: Loop) -> list[str]:
    """What is wrong with one loop's accounting ([] when it adds up)."""
    loss = loop.loss
    sent, received, lost = loss["sent"], loss["received"], loss["lost"]
    problems = []
    if sent != received + lost:
        problems.append(f"{loop.label}: sent {sent} != received {received} + lost {lost}")
    return problems


def check_run(run: BenchRun) -> None:
    """Fill run.loops and run.problems from its status and document."""
    if run.status != 0:
        run.problems.append(f"{run.command}: exit {run.status}: {run.stderr.strip()[-600:]}")
    if run.document is None:
        run.problems.append(f"{run.command}: no result document")
        return
    run.loops = loops_of(run.document)
    if not run.loops:
        run.problems.append(f"{run.command}: no loop with loss accounting")
    for loop in run.loops:
        run.problems += check_loop(loop)
    sent = sum(loop.loss["sent"] for loop in run.loops)
    if sent < run.asked:
        run.problems.append(f"{run.command}: sent {sent} in all, asked for {run.asked}")


def run_bench(board: Board, bench: str, command: str, asked: int) -> BenchRun:
    run = BenchRun(bench, command, asked)
    print(f"soak: {board.target}: {command}", file=sys.stderr, flush=True)
    r = board.run(command, timeout=COMMAND_TIMEOUT)
    run.status, run.seconds, run.stderr = r.status, r.seconds, r.stderr
    try:  # rig.results: udrv-bench/1, its accounting checked (sent = received + lost)
        run.document = bench_document(r.stdout, command) if r.stdout.strip() else None
    except ResultsError as exc:
        run.problems.append(f"not a udrv-bench/1 document: {exc}")
    check_run(run)
    return run


def soak_kernel(kernel: str, args: argparse.Namespace) -> dict[str, Any]:
    """Boot one kernel and run the benches; its part of the document."""
    why = missing_udrv(TARGETS[kernel].machine)
    if why is not None:
        return {"kernel": kernel, "problems": [why], "benches": []}
    t0 = time.monotonic()
    with Board(kernel) as board:
        runs = [run_bench(board, bench, cmd, asked) for bench, cmd, asked in
                commands(args.edges, args.interrupts, args.period_us, args.load)]
        release, boot = board.release, board.boot_seconds
    return {
        "kernel": kernel, "release": release, "boot_seconds": round(boot, 1),
        "seconds": round(time.monotonic() - t0, 1),
        "problems": [p for r in runs for p in r.problems],
        "benches": [{"bench": r.bench, "command": r.command, "asked": r.asked,
                     "status": r.status, "seconds": round(r.seconds, 1),
                     "loops": [{"loop": lp.label, **lp.loss} for lp in r.loops],
                     "problems": r.problems, "stderr": r.stderr[-2000:],
                     "document": r.document} for r in runs],
    }  # fmt: skip


def table(doc: dict[str, Any]) -> list[str]:
    """The short table: one line per loop and a total per bench."""
    head = (f"{'kernel':<7}{'bench':<6}{'loop':<24}{'sent':>10}{'received':>10}"
            f"{'lost':>8}  {'exact':<6}{'seconds':>8}")  # fmt: skip
    lines = [f"Soak under load {doc['load']}: sent (counted at the source) = received + lost",
             head]  # fmt: skip
    keys = ("sent", "received", "lost")
    for run in doc["runs"]:
        for b in run["benches"]:
            total = {k: sum(lp[k] for lp in b["loops"]) for k in keys}
            for lp in [*b["loops"], {"loop": "total", **total}]:
                exact = lp["sent"] == lp["received"] + lp["lost"] and not (
                    lp["loop"] == "total" and b["problems"])
                secs = f"{b['seconds']:>8.1f}" if lp["loop"] == "total" else ""
                lines.append(f"{run['kernel']:<7}{b['bench']:<6}{lp['loop']:<24}"
                             f"{lp['sent']:>10}{lp['received']:>10}{lp['lost']:>8}  "
                             f"{'yes' if exact else 'NO':<6}{secs}")  # fmt: skip
        if "boot_seconds" in run:
            lines.append(f"{run['kernel']:<7}{run['release']}: boot {run['boot_seconds']:.1f}s, "
                         f"in all {run['seconds']:.1f}s")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m rig.lab.suite.soak", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", choices=[*X86, "all"], default="all")
    ap.add_argument("--edges", type=int, default=EDGES, help="GPIO edges (default 10^6)")
    ap.add_argument("--interrupts", type=int, default=INTERRUPTS,
                    help="UIO interrupts (default 10^6)")
    ap.add_argument("--period-us", type=int, default=PERIOD_US,
                    help=f"uio-ticker period (default {PERIOD_US})")
    ap.add_argument("--load", default=LOAD, help=f"load profile (default {LOAD})")
    ap.add_argument("--out", type=Path, default=None,
                    help="result document (default build/lab/soak.json)")
    args = ap.parse_args(argv)
    if args.edges < IRQ_LOOPS or args.interrupts < UIO_LOOPS or args.period_us < 10:
        ap.error("--edges >= 4, --interrupts >= 2, --period-us >= 10")
    out = args.out or lab_dir() / "soak.json"
    kernels = list(X86) if args.kernel == "all" else [args.kernel]
    t0 = time.monotonic()
    try:
        runs = [soak_kernel(k, args) for k in kernels]
    except LabError as exc:
        print(f"soak: lab error: {exc}", file=sys.stderr)
        return 1
    doc = {"schema": SCHEMA, "edges": args.edges, "interrupts": args.interrupts,
           "period_us": args.period_us, "load": args.load, "runs": runs,
           "seconds": round(time.monotonic() - t0, 1),
           "ok": not any(r["problems"] for r in runs)}  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print("\n".join(table(doc)))
    for run in runs:
        for problem in run["problems"]:
            print(f"soak: {run['kernel']}: {problem}", file=sys.stderr)
    print(f"\nsoak: {'exact' if doc['ok'] else 'FAILED'}; results in {out} ({doc['seconds']:.0f}s)")
    return 0 if doc["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
