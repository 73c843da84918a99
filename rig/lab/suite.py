# SPDX-License-Identifier: GPL-2.0-only
"""The latency suite on the virtual boards: what `make lab` runs.

Boots each x86 kernel once, runs every `udrv bench` idle and under load
inside it; boots the rpi3 board and runs the toggle bench on GPIO 17 of its
pinctrl-bcm2835 chip, idle.  It collects the result documents
(docs/results.md) into one udrv-lab/1 document (each run records its board),
and prints the tables of the references: toggle rate per mechanism (ref 000)
on x86 and on rpi3, and latency min/avg/max per mechanism x kernel x load
(ref 002).
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
PRIORITY = {"irq-prio 90": "--irq-prio 90", "SCHED_OTHER": "-P 0"}
PRIORITY_ROWS = (("uio", "uio-ticker", "read", "notify_to_wake"),
                 ("uio", "uio-ticker", "read", "expiry_to_wake"),
                 ("uio", "edu", "read", "write_to_wake"),
                 ("irq", "cdev", "read", "write_to_wake"),
                 ("irq", "cdev", "poll", "write_to_wake"),
                 ("irq", "cdev", "epoll", "write_to_wake"))
# The scheduler gaps (ref 000): udrv bench gaps on each x86 kernel and load, at
# the kernel's RT throttling (filed with the plain runs) and without it (a
# variant run per load); guest seconds per run, full and --quick
GAPS_SECONDS = {"full": 5, "quick": 3}
GAPS_VARIANT = "rt-runtime -1"
# udrv bench rate (the capacity sweep, issue 12) on each x86 kernel and load:
# its default sweep (8 rates x 50 ms per receiver), --quick a short one
RATE_ARGS = {"full": "", "quick": "--rates 2k,20k,200k --step-duration 20ms"}
# and on rt, idle, with the irq threads above the receiver (the priority
# axis's first variant): it moves cdev's knee
RATE_PRIORITY = "irq-prio 90"
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
    return f"udrv-bench {bench} --json --quiet --load {load} {size}"


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
    return (f"udrv-bench toggle -c {RPI3_CHIP} --line {RPI3_LINE} --no-edges "
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
        run.documents.append(json.loads(r.stdout))


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
    cmd = f"udrv-bench gaps --json --quiet --load {load} --duration {GAPS_SECONDS[mode]}s"
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
    return f"udrv-bench rate --json --quiet --load {load} {RATE_ARGS[mode]}".rstrip()


def run_rate(board: LabBoard, runs: list[SuiteRun], mode: str) -> None:
    """The rate sweep in each plain run (filed with the load's other benches),
    and in the RATE_PRIORITY run of the priority axis if there is one."""
    for run in runs:
        if not run.variant:
            _run_one(board, run, "rate", rate_command(run.load, mode))
        elif run.variant == RATE_PRIORITY:
            _run_one(board, run, "rate",
                     f"{rate_command(run.load, mode)} {PRIORITY[RATE_PRIORITY]}")


def rate_table(runs: list[SuiteRun]) -> list[str]:
    """kernel x load x receiver: the knee, CPU there, throughput, ns per event."""
    lines = ["Interrupt rate capacity (udrv bench rate; knee: the highest offered "
             "rate with nothing lost at the source, received/s >= 95% of offered/s;",
             "vs raw: CPU per event over the bare read() at one rate for both, at/s: "
             "the highest raw kept up with, neither preempted)",
             f"{'kernel':<7}{'load':<13}{'mechanism':<12}{'impl':<14}{'knee/s':>9}"
             f"{'CPU %':>7}{'max rx/s':>10}{'ns/event':>10}{'vs raw':>8}{'at/s':>9}"]
    for run in runs:
        for doc in run.documents:
            if doc["bench"] != "rate" or run.variant not in ("", RATE_PRIORITY):
                continue
            for c in doc["rate"]["capacity"]:
                lines.append(_rate_line(run, c))
    return lines


def _rate_line(run: SuiteRun, c: dict[str, Any]) -> str:
    def num(v: float | None, fmt: str) -> str:
        return "-" if v is None else format(v, fmt)

    load = run.variant.replace(" ", "-") if run.variant else run.load
    head = f"{run.kernel:<7}{load:<13}{c['mechanism']:<12}{c['implementation']:<14}"
    if not c["measured"]:
        return head + "absent"
    ratio = c["ratio_vs_raw"]
    return (head + f"{num(c['knee_per_s'], '.0f'):>9}{num(c['cpu_pct_at_knee'], '.1f'):>7}"
            f"{num(c['throughput_per_s'], '.0f'):>10}{num(c['ns_per_event'], '.0f'):>10}"
            f"{'-' if ratio is None else f'x{ratio:.2f}':>8}"
            f"{num(c.get('ratio_at_per_s'), '.0f'):>9}")  # absent before 12-2026


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


def _rows(runs: list[SuiteRun], bench: str) -> dict[tuple[str, str], dict[tuple, Any]]:
    """(kernel, load) -> {row key: row} for one bench (runs of one board)."""
    out: dict[tuple[str, str], dict[tuple, Any]] = {}
    for run in runs:
        table = out.setdefault((run.kernel, run.load), {})
        for doc in run.documents:
            if doc["bench"] != bench:
                continue
            for row in doc["rows"]:
                key = (row["mechanism"], row["implementation"], row["wait"], row["sample"])
                table[key] = row
    return out


def _ratio(row: dict[str, Any]) -> str:
    ref = row.get("reference")
    if not ref or ref.get("ratio_avg") is None:
        return ""
    return f"x{ref['ratio_avg']:.3f} vs {ref['implementation']}"


TOGGLE_TITLES = {
    "x86": "Toggle rate of one GPIO line (udrv bench toggle, idle)",
    "rpi3": f"Toggle rate of GPIO {RPI3_LINE} on the rpi3 board (raspi3b, {RPI3_CHIP}; "
    "udrv bench toggle, idle)",
}


def toggle_table(runs: list[SuiteRun], board: str = "x86") -> list[str]:
    by_run = _rows([r for r in runs if r.board == board and not r.variant], "toggle")
    kernels = [k for k in ("std", "rt") if (k, "none") in by_run]
    keys: list[tuple] = []
    for k in kernels:
        keys += [key for key in by_run[(k, "none")] if key not in keys]
    head = f"{'mechanism':<13}{'implementation':<15}"
    for k in kernels:
        head += f"{k + ' ns/toggle':>16}{'toggles/s':>12}  {'vs reference':<20}"
    lines = [TOGGLE_TITLES.get(board, f"Toggle rate on the {board} board"), head]
    for key in keys:
        line = f"{key[0]:<13}{key[1]:<15}"
        for k in kernels:
            row = by_run[(k, "none")].get(key)
            if row is None:
                line += f"{'-':>16}{'-':>12}  {'':<20}"
                continue
            rate = row["rate_per_s"] or 0
            line += f"{row['stats']['avg']:>16.1f}{rate:>12.0f}  {_ratio(row):<20}"
        lines.append(line)
    return lines + _toggle_footer(by_run, kernels)


PEER = "libgpiod-2.3"


def _toggle_footer(by_run: dict[tuple[str, str], dict[tuple, Any]],
                   kernels: list[str]) -> list[str]:
    """udrv against the peer library (its rows come from the same run of the
    same line), and where the generic mmio call stands against the pin."""
    lines = []
    for mech in ("sysfs", "cdev", "mmio"):
        ratios = []
        for k in kernels:
            rows = by_run[(k, "none")]
            udrv = rows.get((mech, "udrv", None, "toggle"))
            peer = rows.get((mech, PEER, None, "toggle"))
            if udrv and peer and peer["stats"]["avg"]:
                ratios.append(f"x{udrv['stats']['avg'] / peer['stats']['avg']:.3f} {k}")
        if ratios:
            lines.append(f"{mech} udrv vs {PEER} (same line, same run): {', '.join(ratios)}")
    if any((k, "none") in by_run and ("mmio", "udrv-pin", None, "toggle") in by_run[(k, "none")]
           for k in kernels):
        lines.append("mmio udrv: udrv_request_set_value(), a call that checks the index and picks "
                     "set or clear before its one store;")
        lines.append("  the store alone: udrv_mmio_pin_write() (udrv-pin; docs/api.md, "
                     "'What udrv_request_set_value() costs over the store')")
    return lines


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    s = row["stats"]
    return f"{s['min'] / 1000:.1f}/{s['avg'] / 1000:.1f}/{s['max'] / 1000:.1f}"


def latency_table(runs: list[SuiteRun], board: str = "x86") -> list[str]:
    runs = [r for r in runs if r.board == board and not r.variant]
    cols = [(k, ld) for k in ("std", "rt") for ld in LOADS
            if any(r.kernel == k and r.load == ld for r in runs)]
    lines = ["Latency min/avg/max in us per mechanism x kernel x load "
             "(udrv bench irq, uio, timer, kernel)"]
    head = f"{'bench':<7}{'mechanism/impl/wait':<32}{'sample':<16}"
    head += "".join(f"{k + ' ' + ('idle' if ld == 'none' else ld):>22}" for k, ld in cols)
    lines.append(head)
    for bench in BENCHES[1:]:
        if bench == "reply":  # its own table: reply_table()
            continue
        by_run = _rows(runs, bench)
        keys: list[tuple] = []
        for col in cols:
            keys += [key for key in by_run.get(col, {}) if key not in keys]
        for key in keys:
            label = "/".join(p for p in key[:3] if p)
            line = f"{bench:<7}{label:<32}{key[3]:<16}"
            line += "".join(f"{_cell(by_run.get(col, {}).get(key)):>22}" for col in cols)
            lines.append(line)
    return lines


def _p(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    s = row["stats"]
    return f"{s['p50'] / 1000:.1f}/{s['p99'] / 1000:.1f}/{s['max'] / 1000:.1f}"


def priority_table(runs: list[SuiteRun], board: str = "x86") -> list[str]:
    """rt idle: the application above its irq thread, below it, SCHED_OTHER."""
    cols = {"above (FIFO 80 > 50)": next((r for r in runs if r.board == board and
                                          r.kernel == "rt" and r.load == "none" and
                                          not r.variant), None)}
    cols |= {f"below ({v})" if v != "SCHED_OTHER" else v:
             next((r for r in runs if r.board == board and r.kernel == "rt" and
                   r.variant == v), None)
             for v in PRIORITY}
    lines = ["Priority axis on PREEMPT_RT, idle: p50/p99/max in us, the application "
             "above its irq thread, below it, at SCHED_OTHER (udrv bench irq, uio)",
             f"{'bench':<7}{'mechanism/wait':<22}{'sample':<16}"
             + "".join(f"{c:>24}" for c in cols)]
    for bench, mech, wait, sample in PRIORITY_ROWS:
        cells = []
        for run in cols.values():
            by = _rows([run], bench) if run else {}
            cells.append(_p(by.get((run.kernel, run.load), {}).get(
                (mech, "udrv", wait, sample)) if run else None))
        lines.append(f"{bench:<7}{mech + '/' + wait:<22}{sample:<16}"
                     + "".join(f"{c:>24}" for c in cells))
    return lines


def gaps_table(runs: list[SuiteRun], board: str = "x86") -> list[str]:
    """kernel x load x setting: the longest interval, gaps per second, time stalled,
    and what RT throttling should leave (period - runtime every period)."""
    lines = ["Scheduler gaps of a busy SCHED_FIFO loop toggling a GPIO line "
             "(udrv bench gaps; a gap: an interval >= its threshold)",
             f"{'kernel':<8}{'load':<6}{'sched_rt_runtime_us':>20}{'longest ms':>12}"
             f"{'gaps/s':>8}{'stalled %':>11}  expected"]
    for kernel in ("std", "rt"):
        for load in LOADS:
            for run in runs:
                if (run.board, run.kernel, run.load) != (board, kernel, load) or \
                        run.variant not in ("", GAPS_VARIANT):
                    continue
                for doc in run.documents:
                    if doc["bench"] == "gaps":
                        lines.append(_gaps_line(kernel, load, doc))
    return lines


def _gaps_line(kernel: str, load: str, doc: dict[str, Any]) -> str:
    g = doc["gaps"]
    longest = max(g["longest_ns"], doc["rows"][0]["stats"]["max"]) / 1e6
    expected = "none (not throttled)"
    if g["expected_gap_ns"]:
        expected = (f"{g['expected_gap_ns'] / 1e6:.1f} ms every "
                    f"{g['sched_rt_period_us'] / 1e6:g} s")
    return (f"{kernel:<8}{'idle' if load == 'none' else load:<6}"
            f"{g['sched_rt_runtime_us']:>20}{longest:>12.3f}{g['per_s']:>8.2f}"
            f"{g['stalled_pct']:>11.2f}  {expected}")


# udrv bench reply's responders, in the order of ref 002's table
REPLY_ROWS = (("isr", None), ("kthread", None), ("user", "read"), ("user", "poll"),
              ("user", "epoll"), ("user", "busy"))


def reply_table(runs: list[SuiteRun], board: str = "x86") -> list[str]:
    """Trigger -> reply p50/p99/max in us per responder x kernel x load, then
    the priority axis's rt runs (the responders below their irq threads, and
    at SCHED_OTHER) when the suite made them."""
    runs = [r for r in runs if r.board == board]
    cols: list[tuple[str, list[SuiteRun]]] = []
    for k in ("std", "rt"):
        for ld in LOADS:
            sel = [r for r in runs if r.kernel == k and r.load == ld and not r.variant]
            if sel:
                cols.append((f"{k} {'idle' if ld == 'none' else ld}", sel))
    for v in PRIORITY:
        sel = [r for r in runs if r.kernel == "rt" and r.variant == v]
        if sel:
            cols.append((f"rt {v}", sel))
    lines = ["Responders: trigger -> reply p50/p99/max in us as the log host sees it "
             "(udrv bench reply; gpio-reply isr/kthread, a udrv process)",
             f"{'responder':<12}{'wait':<8}" + "".join(f"{c:>22}" for c, _ in cols)]
    tables = [next(iter(_rows(sel, "reply").values()), {}) for _, sel in cols]
    for impl, wait in REPLY_ROWS:
        key = ("gpio", impl, wait, "trigger_to_reply")
        lines.append(f"{impl:<12}{wait or '-':<8}"
                     + "".join(f"{_p(t.get(key)):>22}" for t in tables))
    return lines


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
    if any(r.board == "x86" for r in runs):
        print()
        print("\n".join(toggle_table(runs)))
        print()
        print("\n".join(latency_table(runs)))
    if any(d["bench"] == "reply" for r in runs for d in r.documents):
        print()
        print("\n".join(reply_table(runs)))
    if any(r.variant and r.variant != GAPS_VARIANT for r in runs):
        print()
        print("\n".join(priority_table(runs)))
    if any(d["bench"] == "gaps" for r in runs for d in r.documents):
        print()
        print("\n".join(gaps_table(runs)))
    if any(d["bench"] == "rate" for r in runs for d in r.documents):
        print()
        print("\n".join(rate_table(runs)))
    if any(r.board == suite_pci.BOARD for r in runs):
        print()
        print("\n".join(suite_pci.pci_table(runs)))
    if any(r.board == "rpi3" for r in runs):
        print()
        print("\n".join(toggle_table(runs, "rpi3")))
    if python:
        print()
        print("\n".join(suite_python.python_table(python)))
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
