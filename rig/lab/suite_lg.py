# SPDX-License-Identifier: GPL-2.0-only
"""The suite on any labgrid target: `python3 -m rig.lab suite --lg-env board.yaml`.

The target's place is reserved and locked through its coordinator when it is a
RemotePlace (rig/lab/lg_place.py: a place someone else holds is waited for, never
taken), the board is driven through LabgridBoard (rig/lab/labgrid_board.py), and
the benches its features and wiring allow run idle and under the `all` load,
as `make lab` runs them on the QEMU boards (rig/lab/suite.py: same sample counts,
same commands, same udrv-lab/1 document and tables; each run's board is the
target's flavour).  What decides a bench (plan()):

  toggle    gpio-wire (its default line), a udrv-wire (its output line), or
            bcm2835 (GPIO 17 of pinctrl-bcm2835, make lab's rpi3 command)
  irq       gpio-wire, or a udrv-wire whose input is the output line + 1
  kernel    irqlat and that loopback (the in-kernel responder)
  reply     gpio-wire (two wires and rig/kernel/gpio-reply)
  uio       uio-ticker and/or edu (udrv bench uio -d ticker|edu|both)
  timer     every board
  gaps      every board: gpio-wire's line, the wire's output, GPIO 17 on
            bcm2835, else --no-line (the clock only); with RT throttling and
            without, as make lab
  rate      gpio-wire (its generator; the UIO rows with uio-ticker)
  pci       iommu (udrv bench pci: UIO vs VFIO on edu)
  priority  rt: irq, uio and reply (those of them that run) with --irq-prio 90
            and at SCHED_OTHER, idle

The target option `udrv-wire: "CHIP OUT IN"` is the board's loopback jumper
(rig/lab/envs/*.yaml).  The skipped benches and why go to stderr and into the
document's `labgrid` object (docs/results.md).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.results import ResultsError, checked, model
from rig.results.text import print_tables

from . import suite, suite_pci
from .board_api import LabBoard
from .errors import LabError
from .labgrid_board import LabgridBoard, load_environment, target_features
from .lg_place import (
    WAIT_S,
    Place,
    coordinator_of,
    ensure_labgrid,
    on_signals_stop,
    remote_place,
)
from .suite import (
    BENCHES,
    LOADS,
    PRIORITY,
    PRIORITY_BENCHES,
    RPI3_CHIP,
    RPI3_LINE,
    SAMPLES,
    SuiteRun,
    _run_one,
    bench_command,
    bench_timeout,
    lab_document,
    run_gaps,
    run_rate,
)

# every bench the suite knows, in the order it runs them
ALL = (*BENCHES, "gaps", "rate", suite_pci.BENCH)


@dataclass(frozen=True)
class Wire:
    """A loopback jumper: output line `out` of `chip` wired to input `inp`."""

    chip: str
    out: int
    inp: int

    @property
    def adjacent(self) -> bool:
        """udrv bench irq/kernel read line OUT+1: only that wiring suits them."""
        return self.inp == self.out + 1


def parse_wire(text: str) -> Wire:
    """`udrv-wire: "CHIP OUT IN"` -> Wire; LabError saying the form otherwise."""
    m = re.fullmatch(r"\s*(\S+)\s+([0-9]{1,4})\s+([0-9]{1,4})\s*", text)
    if not m or m[2] == m[3]:
        raise LabError(f"udrv-wire {text!r}: want \"CHIP OUT IN\", a chip and two different "
                       "line numbers (e.g. \"gpiochip0 17 18\": GPIO17 wired to GPIO18)")
    return Wire(m[1], int(m[2]), int(m[3]))


@dataclass
class Plan:
    """What the suite runs on a board: per bench its options (after udrv bench
    NAME's common ones), the benches it skips and why."""

    opts: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    priority: list[str] = field(default_factory=list)


LOOPBACK = "no loopback: the gpio-wire feature (rig/kernel/gpio-wire) or a udrv-wire jumper"


def _loopback(feats: frozenset[str], wire: Wire | None) -> str | None:
    """The options of a bench that drives line N and reads N+1, or None."""
    if "gpio-wire" in feats:
        return ""
    if wire is not None and wire.adjacent:
        return f"-c {wire.chip} --out-line {wire.out}"
    return None


def _line(feats: frozenset[str], wire: Wire | None, flag: str) -> str | None:
    """The options naming one output line to toggle, or None."""
    if "gpio-wire" in feats:
        return ""
    if wire is not None:
        return f"-c {wire.chip} {flag} {wire.out}"
    if "bcm2835" in feats:
        return f"-c {RPI3_CHIP} {flag} {RPI3_LINE}"
    return None


def plan(feats: frozenset[str], wire: Wire | None) -> Plan:
    """The benches `feats` (rig/lab/board_api.py FEATURES) and `wire` allow (module doc)."""
    p = Plan()

    def put(bench: str, opts: str | None, why: str) -> None:
        if opts is None:
            p.skipped[bench] = why
        else:
            p.opts[bench] = opts

    toggle = _line(feats, wire, "--line")
    if toggle is not None and "gpio-wire" not in feats and wire is None:
        toggle += " --no-edges"  # make lab's rpi3 command: no partner line
    put("toggle", toggle, "no GPIO line to toggle: gpio-wire, a udrv-wire or bcm2835")
    loop = _loopback(feats, wire)
    odd = wire is not None and not wire.adjacent and "gpio-wire" not in feats
    why = (f"udrv-wire {wire.out}->{wire.inp}: the bench reads line {wire.out + 1}" if odd and
           wire is not None else LOOPBACK)  # fmt: skip
    put("irq", loop, why)
    uio = [d for d, f in (("ticker", "uio-ticker"), ("edu", "edu")) if f in feats]
    put("uio", None if not uio else "" if len(uio) == 2 else f"-d {uio[0]}",
        "no UIO device: uio-ticker (rig/kernel/uio-ticker) or edu (QEMU's PCI device)")
    put("timer", "", "")
    put("kernel", loop if "irqlat" in feats else None,
        why if "irqlat" in feats else "no irqlat (rig/kernel/irqlat, the in-kernel responder)")
    put("reply", "" if "gpio-wire" in feats else None,
        "needs gpio-wire (two wires and rig/kernel/gpio-reply)")
    gaps = _line(feats, wire, "--line")
    put("gaps", "--no-line" if gaps is None else gaps, "")
    put("rate", "" if "gpio-wire" in feats else None,
        "needs gpio-wire (its edge generator; the UIO rows uio-ticker)")
    put(suite_pci.BENCH, "" if {"iommu", "edu"} <= feats else None,
        "needs iommu and edu (VFIO and UIO on QEMU's edu, the q35 board)")
    if "rt" in feats:
        p.priority = [b for b in PRIORITY_BENCHES if b in p.opts]
    return p


def select(p: Plan, benches: list[str]) -> Plan:
    """Only `benches` of the plan (--benches); the others skipped as not asked for."""
    out = Plan(priority=[b for b in p.priority if b in benches])
    out.opts = {b: opts for b, opts in p.opts.items() if b in benches}
    out.skipped = {b: p.skipped.get(b, "") if b in benches else "not in --benches"
                   for b in ALL if b not in out.opts}  # fmt: skip
    return out


def _cmd(bench: str, load: str, mode: str, opts: str, duration_s: int = 0) -> str:
    return f"{bench_command(bench, load, SAMPLES[mode][bench], duration_s)} {opts}".strip()


def run_board(board: LabBoard, p: Plan, mode: str, loads: list[str], runs: list[SuiteRun],
              duration_s: int = 0) -> None:  # fmt: skip
    """The plan on one board: each load's plain run, then gaps (RT throttling on
    and off), the priority axis (rt), the rate sweep; into `runs` as they go,
    so a board that dies leaves what it measured."""
    plain = []
    for load in loads:
        run = SuiteRun(board.kernel, load, board=board.flavour)
        runs.append(run)
        plain.append(run)
        for bench in (*BENCHES, suite_pci.BENCH):
            if bench in p.opts:
                _run_one(board, run, bench, _cmd(bench, load, mode, p.opts[bench], duration_s),
                         bench_timeout(duration_s))  # fmt: skip
    if "gaps" in p.opts:
        runs += run_gaps(board, plain, mode, p.opts["gaps"])
    if p.priority and "none" in loads:
        for variant, popts in PRIORITY.items():
            run = SuiteRun(board.kernel, "none", board=board.flavour, variant=variant)
            runs.append(run)
            for bench in p.priority:
                _run_one(board, run, bench, f"{_cmd(bench, 'none', mode, p.opts[bench])} {popts}")
    if "rate" in p.opts:
        run_rate(board, runs, mode)


def run_suite(env_file: str | Path, target: str, mode: str, out: Path, *,
              loads: list[str], benches: list[str] | None = None, duration_s: int = 0,
              wait_s: float = WAIT_S) -> int:  # fmt: skip
    """Reserve the target's place, run its plan, release; write the document,
    print the tables and the report; 0 when every bench that ran passed."""
    t0 = time.monotonic()
    env = load_environment(env_file)
    feats = target_features(env, target)
    raw = str(env.config.get_target_option(target, "udrv-wire", ""))  # "": no jumper
    wire = parse_wire(raw) if raw else None
    p = plan(feats, wire)
    if benches is not None:
        p = select(p, benches)
    runs: list[SuiteRun] = []
    died = ""
    flavour = target
    with Place.of(env, target, wait_s) as place:
        board = LabgridBoard(env=env, target=target)
        flavour = board.flavour
        for bench, why in p.skipped.items():
            print(f"lab: {flavour}: skipped {bench}: {why}", file=sys.stderr)
        try:
            run_board(board, p, mode, loads, runs, duration_s)
        except LabError as exc:  # the board died: keep what it measured
            died = f"{type(exc).__name__}: {exc}"
            print(f"lab: {flavour}: the board stopped answering: {died}", file=sys.stderr)
        finally:
            board.close()
    doc = lab_document(runs)
    doc["labgrid"] = {
        "env": str(env_file), "target": target, "flavour": flavour,
        "features": sorted(feats), "wire": raw or None,
        **({"place": place.name, "coordinator": coordinator_of(env),
            "waited_s": round(place.waited_s, 1)} if place is not None else {}),
        "skipped": p.skipped, **({"died": died} if died else {}),
    }  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    try:
        checked(str(out), doc)
    except ResultsError as exc:  # a bug of the suite: what it wrote is not udrv-lab/1
        print(f"lab: {exc}", file=sys.stderr)
        return 1
    print_tables(model(doc, str(out)), [flavour])  # this board's runs
    failures = [f"{r.board}/{r.kernel}/{r.load}: {f}" for r in runs for f in r.failures]
    for f in failures:
        print(f"lab: bench failed: {f}", file=sys.stderr)
    missing = sorted({b for r in runs for b in r.unavailable})
    if missing:
        print(f"lab: not in this udrv yet: {', '.join(missing)}", file=sys.stderr)
    report = suite.write_report(out)
    print(f"\nlab: results in {out} ({time.monotonic() - t0:.0f}s)")
    if report is not None:
        print(f"lab: report in {report}")
    return 1 if failures or died or report is None else 0


def _list(allowed: tuple[str, ...], what: str) -> Any:
    def parse(text: str) -> list[str]:
        items = [t for t in text.split(",") if t]
        bad = [t for t in items if t not in allowed]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"{text!r}: {what} from {', '.join(allowed)}")
        return items
    return parse


def _seconds(text: str) -> float:
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise argparse.ArgumentTypeError(f"{text!r}: whole seconds, 0..999999")
    return float(text)


def add_arguments(st: argparse.ArgumentParser) -> None:
    """`python3 -m rig.lab suite`'s labgrid options."""
    g = st.add_argument_group("on a labgrid target (rig/lab/suite_lg.py)")
    g.add_argument("--lg-env", metavar="FILE",
                   help="run on the labgrid target of this environment instead of the QEMU "
                   "boards: its place reserved and locked when it is a RemotePlace, the benches "
                   "its features and udrv-wire allow (the others skipped, saying why); "
                   "--board and --kernel do not apply")  # fmt: skip
    g.add_argument("--target", default="main", help="the environment's target (default main)")
    g.add_argument("--lg-wait", type=_seconds, default=WAIT_S, metavar="S",
                   help="wait up to S seconds for a place someone else holds (default "
                   f"{WAIT_S:.0f}); then give up, saying who holds it")  # fmt: skip
    g.add_argument("--benches", type=_list(ALL, "benches"), default=None, metavar="LIST",
                   help=f"only these benches, comma-separated ({','.join(ALL)})")
    g.add_argument("--loads", type=_list(LOADS, "loads"), default=list(LOADS), metavar="LIST",
                   help="the loads, comma-separated (default none,all)")


def main(args: argparse.Namespace, out: Path) -> int:
    """cmd_suite with --lg-env."""
    if not Path(args.lg_env).is_file():  # before looking for labgrid: the plainer mistake
        raise LabError(f"labgrid environment {args.lg_env} does not exist (a QEMU board's: "
                       "python3 -m rig.lab lg-env; a farm's: python3 -m rig.lab farm up)")
    ensure_labgrid()
    on_signals_stop()
    mode = "quick" if args.quick else "full"
    return run_suite(args.lg_env, args.target, mode, out, loads=args.loads,
                     benches=args.benches, duration_s=args.duration,
                     wait_s=args.lg_wait)  # fmt: skip


def check_arguments(args: argparse.Namespace) -> None:
    """The labgrid options without --lg-env: a usage error."""
    extra = [name for name, default in (("target", "main"), ("benches", None),
                                         ("loads", list(LOADS)), ("lg_wait", WAIT_S))
             if getattr(args, name) != default]  # fmt: skip
    if extra and not args.lg_env:
        raise LabError(f"--{extra[0].replace('_', '-')} applies to a labgrid target: "
                       "give --lg-env FILE")  # fmt: skip


__all__ = ["ALL", "Plan", "Wire", "add_arguments", "main", "parse_wire", "plan", "remote_place"]
