# SPDX-License-Identifier: GPL-2.0-only
"""The one plan of the suite: which benches run on a board, with which arguments.

`make lab` on the QEMU boards (rig/lab/suite/qemu.py), the suite on a labgrid target
(rig/lab/suite/labgrid.py) and a LAVA job (rig/lava/job.py) all ask this module: a
board is its FEATURES (rig/lab/boards/api.py) and, on a real board, its wiring
(Wiring): a loopback jumper (`udrv-wire: "CHIP OUT IN"`) and reply's two
(`udrv-reply-wire: "CHIP A B C D"`); each bench's spec (rig/bench/<bench>/spec.py,
its PlanSpec; BENCHES here) says what it needs of them (else it is skipped,
saying why), its arguments for a quick and a full run and the priority-axis
settings it runs at.  What the plan gives is an argument
list without the program (ARGS below; command() puts PROGRAM in front):

    BENCH --json --quiet --load LOAD SIZE [BOARD OPTIONS] [VARIANT OPTIONS]

What decides a bench (for_board()):

  toggle    gpio-wire (its default line), a udrv-wire (its output line), or
            bcm2835 (GPIO 17 of pinctrl-bcm2835, no partner line: --no-edges)
  irq       gpio-wire, or a udrv-wire whose input is the output line + 1
  kernel    irqlat and that loopback (the in-kernel responder)
  reply     gpio-wire (lines 4-7), or a udrv-reply-wire (A wired to B, C to
            D); isr and kthread with gpio-reply (rig/kernel/gpio-reply), else
            --responder user,lib
  uio       uio-ticker and/or edu (udrv-bench uio -d ticker|edu|both)
  timer     every board
  pci       iommu and edu (udrv-bench pci: UIO vs VFIO on edu)
  gaps      every board: gpio-wire's line, the wire's output, GPIO 17 on
            bcm2835, else --no-line (the clock only); with the kernel's RT
            throttling and without (GAPS_VARIANT)
  rate      gpio-wire (its generator; the UIO rows with uio-ticker)
  priority  rt, idle: irq, uio and reply (those of them that run) with
            --irq-prio 90 and at SCHED_OTHER; pci and rate with --irq-prio 90

The order a board runs them in (steps()): each load's plain run (PLAIN), then
gaps (throttled, in the plain run, and not), the priority axis, the rate sweep.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rig.bench.base import GAPS_VARIANT, PRIORITY_VARIANTS
from rig.bench.board import Decide, ReplyWire, Wire, Wiring
from rig.bench.options import Opts, argv, samples_opt
from rig.bench.specs import SPECS

from ..errors import LabError

# the program the argument lists are given to (the one place that names it)
PROGRAM = ("udrv-bench",)
LOADS = ("none", "all")
MODES = ("full", "quick")
BENCH_TIMEOUT = 900.0
# The priority axis (rt, idle): the application above the irq thread it waits
# for (the plain runs: FIFO 80 over the kernel's FIFO 50), below it, and at
# SCHED_OTHER (the variants' names are the results' vocabulary: rig.bench.base)
PRIORITY: dict[str, tuple[str, ...]] = dict(zip(PRIORITY_VARIANTS, (("--irq-prio", "90"),
                                                                    ("-P", "0")), strict=True))
# GAPS_VARIANT: the scheduler gaps without the kernel's RT throttling, a
# variant run per load
GAPS_VARIANT_ARGS = ("--rt-runtime", "-1")

# udrv-bench's options are spelled in one place, rig.bench.options (argv,
# samples_opt, device_opt, period_opt, brokers_opt: the plan below, the soak,
# the broker rows of the Python section); a board's jumpers and the lines they
# give a bench in rig.bench.board (Wire, ReplyWire, Wiring)

# a jumper's line number in a board's option: decimal, no leading zero
LINE = r"\s+(0|[1-9][0-9]{0,3})"


def parse_wire(text: str) -> Wire:
    """`udrv-wire: "CHIP OUT IN"` -> Wire; LabError saying the form otherwise."""
    m = re.fullmatch(r"\s*(\S+)" + 2 * LINE + r"\s*", text)
    if not m or m[2] == m[3]:
        raise LabError(f"udrv-wire {text!r}: want \"CHIP OUT IN\", a chip and two different "
                       "line numbers (e.g. \"gpiochip0 17 18\": GPIO17 wired to GPIO18)")
    return Wire(m[1], int(m[2]), int(m[3]))


def parse_reply_wire(text: str) -> ReplyWire:
    """`udrv-reply-wire: "CHIP A B C D"` -> ReplyWire; LabError saying the form
    otherwise."""
    m = re.fullmatch(r"\s*(\S+)" + 4 * LINE + r"\s*", text)
    if not m or len({m[2], m[3], m[4], m[5]}) < 4:
        raise LabError(f"udrv-reply-wire {text!r}: want \"CHIP A B C D\", a chip and four "
                       "different line numbers, A wired to B and C to D (e.g. "
                       "\"pinctrl-bcm2835 22 23 24 25\": GPIO22 to GPIO23, GPIO24 to GPIO25)")
    return ReplyWire(m[1], int(m[2]), int(m[3]), int(m[4]), int(m[5]))


@dataclass(frozen=True)
class Bench:
    """One bench of the plan: what it needs of a board (decide), its size
    arguments per mode, the share of --duration each of its loops gets (0:
    it keeps its size), the priority settings it runs at on rt."""

    name: str
    decide: Decide
    size: dict[str, Opts]  # mode -> arguments
    loops: int = 0
    priority: tuple[str, ...] = ()
    # what the bench adds to a priority setting's arguments (variant -> options)
    variant_extra: dict[str, Opts] = field(default_factory=dict)

    @property
    def samples(self) -> dict[str, int]:
        """mode -> --samples N (the benches sized by a count)."""
        return {m: int(a[1]) for m, a in self.size.items() if a[:1] == ("--samples",)}


ALL_PRIORITY = tuple(PRIORITY)
# every bench's entry: its spec's (rig/bench/<bench>/spec.py: PlanSpec), in the
# order of the benches' list (rig.bench.specs.NAMES)
BENCHES: dict[str, Bench] = {
    s.name: Bench(s.name, s.plan.decide, s.plan.size, s.plan.loops, s.plan.priority,
                  s.plan.variant_extra)
    for s in SPECS if s.plan}
# each load's plain run: these, in this order
PLAIN = tuple(s.name for s in SPECS if s.plan and s.plan.plain)
# what a bench adds in its idle plain run (reply's breakdown)
IDLE_ARGS: dict[str, Opts] = {s.name: s.plan.idle for s in SPECS if s.plan and s.plan.idle}


def args(bench: str, load: str, mode: str, opts: Opts = (), variant: Opts = (), *,
         duration_s: int = 0, samples: int | None = None) -> Opts:
    """One run of `bench`: its argument list (without PROGRAM).  `duration_s`:
    a bench with loops runs about that long (each loop a share) instead of its
    count; `samples`: another count than the mode's (LAVA's --samples)."""
    b = BENCHES[bench]
    size = b.size[mode]
    if duration_s and b.loops:
        size = ("--duration", f"{max(1, duration_s // b.loops)}s")
    elif samples is not None and b.samples:
        size = samples_opt(samples)
    return argv(bench, load=load, size=size, opts=(*opts, *variant))


def command(argv: Opts) -> str:
    """The shell command of an argument list: PROGRAM in front."""
    return " ".join((*PROGRAM, *argv))


def bench_timeout(duration_s: int) -> float:
    """Wall-clock limit of one bench. Guest time follows the instructions the
    vCPU runs: idle (the clock jumps) it kept up with the host's (20 s of bench
    timer in 15 s), under the all load, which keeps the vCPU busy, it fell far
    behind (20 s of bench irq took 555 s on 2 busy host cores): 40x room."""
    return max(BENCH_TIMEOUT, 40.0 * duration_s + 300)


@dataclass(frozen=True)
class Step:
    """One bench command of a board's schedule, and the run it is filed in
    (its load and variant: "" the plain run, else a PRIORITY key or GAPS_VARIANT)."""

    bench: str
    load: str
    variant: str
    args: Opts
    timeout: float

    @property
    def command(self) -> str:
        return command(self.args)


@dataclass
class Plan:
    """What a board runs: per bench its board options, the benches it skips and
    why, and whether it has the priority axis (rt)."""

    opts: dict[str, Opts] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    rt: bool = False

    @property
    def priority(self) -> list[str]:
        """The benches the priority axis runs (rt)."""
        return [b for b in BENCHES if self.rt and b in self.opts and BENCHES[b].priority]

    def args(self, bench: str, load: str, mode: str, variant: str = "", *,
             duration_s: int = 0, samples: int | None = None) -> Opts:
        """The argument list of `bench` on this board (see args())."""
        extra = GAPS_VARIANT_ARGS if variant == GAPS_VARIANT else PRIORITY.get(variant, ())
        extra += BENCHES[bench].variant_extra.get(variant, ())
        if not variant and load == "none":
            extra = IDLE_ARGS.get(bench, ())
        return args(bench, load, mode, self.opts[bench], extra, duration_s=duration_s,
                    samples=samples)  # fmt: skip

    def steps(self, mode: str, loads: list[str] | tuple[str, ...] = LOADS,
              duration_s: int = 0) -> list[Step]:
        """The board's schedule: each load's plain run, gaps with the kernel's RT
        throttling (in the plain run) and without, the priority axis (rt, idle),
        the rate sweep (plain runs, then above the irq threads)."""
        def step(bench: str, load: str, variant: str = "", duration: int = 0) -> Step:
            return Step(bench, load, variant,
                        self.args(bench, load, mode, variant, duration_s=duration),
                        bench_timeout(duration))  # fmt: skip

        out = [step(b, load, duration=duration_s) for load in loads for b in PLAIN
               if b in self.opts]
        if "gaps" in self.opts:
            out += [s for load in loads
                    for s in (step("gaps", load), step("gaps", load, GAPS_VARIANT))]
        axis = "none" in loads and self.rt
        if axis:
            out += [step(b, "none", v) for v in PRIORITY for b in PLAIN
                    if b in self.opts and v in BENCHES[b].priority]
        if "rate" in self.opts:
            out += [step("rate", load) for load in loads]
            if axis:
                out += [step("rate", "none", v) for v in BENCHES["rate"].priority]
        return out


def for_board(feats: frozenset[str], wire: Wire | None = None,
              reply: ReplyWire | None = None) -> Plan:
    """The benches `feats` (rig/lab/boards/api.py FEATURES) and the board's
    jumpers (`wire`, `reply`) allow."""
    p = Plan(rt="rt" in feats)
    for b in BENCHES.values():
        opts, why = b.decide(feats, Wiring(wire, reply))
        if opts is None:
            p.skipped[b.name] = why
        else:
            p.opts[b.name] = opts
    return p


NOT_ASKED = "not in --benches"


def select(p: Plan, benches: list[str] | tuple[str, ...], *, force: bool = False) -> Plan:
    """Only `benches` of the plan (the others skipped as not asked for); with
    `force`, an asked bench the board's features do not allow runs anyway,
    with no board options (a LAVA job runs what it was asked)."""
    out = Plan(rt=p.rt)
    out.opts = {b: p.opts.get(b, ()) for b in BENCHES if b in benches and (b in p.opts or force)}
    out.skipped = {b: p.skipped.get(b, "") if b in benches else NOT_ASKED
                   for b in BENCHES if b not in out.opts}  # fmt: skip
    return out
