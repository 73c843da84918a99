# SPDX-License-Identifier: GPL-2.0-only
"""The one plan of the suite: which benches run on a board, with which arguments.

`make lab` on the QEMU boards (rig/lab/suite/qemu.py), the suite on a labgrid target
(rig/lab/suite/labgrid.py) and a LAVA job (rig/lava/job.py) all ask this module: a
board is its FEATURES (rig/lab/boards/api.py) and, on a real board, its wiring
(Wiring): a loopback jumper (`udrv-wire: "CHIP OUT IN"`) and reply's two
(`udrv-reply-wire: "CHIP A B C D"`); BENCHES says per bench what it needs of
them (else it is skipped, saying why), its arguments for a quick and a full run
and the priority-axis settings it runs at.  What the plan gives is an argument
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
from collections.abc import Callable
from dataclasses import dataclass, field

from rig.results.text import GAPS_VARIANT, PRIORITY_VARIANTS, RATE_PRIORITY

from ..errors import LabError

# the program the argument lists are given to (the one place that names it)
PROGRAM = ("udrv-bench",)
LOADS = ("none", "all")
MODES = ("full", "quick")
BENCH_TIMEOUT = 900.0
# rpi3: GPIO 17 (header pin 11) of the SoC's own chip; no partner line is wired
RPI3_CHIP = "pinctrl-bcm2835"
RPI3_LINE = 17
# The priority axis (rt, idle): the application above the irq thread it waits
# for (the plain runs: FIFO 80 over the kernel's FIFO 50), below it, and at
# SCHED_OTHER
# (the variants' names are the results' vocabulary: rig.results.text)
PRIORITY: dict[str, tuple[str, ...]] = dict(zip(PRIORITY_VARIANTS, (("--irq-prio", "90"),
                                                                    ("-P", "0")), strict=True))
# RATE_PRIORITY: the one setting rate and pci run at; GAPS_VARIANT: the
# scheduler gaps without the kernel's RT throttling, a variant run per load
GAPS_VARIANT_ARGS = ("--rt-runtime", "-1")
# reply's responders above the log host (FIFO 80: udrv-bench's default -P)
REPLY_ABOVE_LOG_HOST = ("--target-prio", "85")


Opts = tuple[str, ...]


# ---- udrv-bench's options: the one place that spells them (the plan below,
# the soak, the broker rows of the Python section) ----

def argv(bench: str, *, load: str | None = None, size: Opts = (), opts: Opts = (),
         lead: Opts = ()) -> Opts:
    """A bench's argument list (without PROGRAM), its document on stdout:
    BENCH [LEAD] --json --quiet [--load LOAD] [SIZE] [OPTS]."""
    return (bench, *lead, "--json", "--quiet", *(("--load", load) if load else ()), *size,
            *opts)  # fmt: skip


def samples_opt(n: int, flag: str = "--samples") -> Opts:
    """The bench's count: --samples N (or its short form, -n N)."""
    if flag not in ("--samples", "-n"):
        raise ValueError(f"{flag!r}: udrv-bench's count is --samples or -n")
    return (flag, str(n))


def device_opt(device: str) -> Opts:
    """udrv-bench uio's device: -d ticker|edu|both."""
    return ("-d", device)


def period_opt(period_us: int) -> Opts:
    """udrv-bench uio's uio-ticker period: --period-us P."""
    return ("--period-us", str(period_us))


def brokers_opt(udrvd: str, gpio_manager: str, gpiocli: str) -> Opts:
    """udrv-bench toggle's broker rows: udrvd's and gpio-manager's bus addresses,
    the gpiocli program."""
    return ("--udrvd", udrvd, "--gpio-manager", gpio_manager, "--gpiocli", gpiocli)


@dataclass(frozen=True)
class Wire:
    """A loopback jumper: output line `out` of `chip` wired to input `inp`."""

    chip: str
    out: int
    inp: int

    @property
    def adjacent(self) -> bool:
        """udrv-bench irq/kernel read line OUT+1: only that wiring suits them."""
        return self.inp == self.out + 1


# a jumper's line number in a board's option: decimal, no leading zero
LINE = r"\s+(0|[1-9][0-9]{0,3})"


def parse_wire(text: str) -> Wire:
    """`udrv-wire: "CHIP OUT IN"` -> Wire; LabError saying the form otherwise."""
    m = re.fullmatch(r"\s*(\S+)" + 2 * LINE + r"\s*", text)
    if not m or m[2] == m[3]:
        raise LabError(f"udrv-wire {text!r}: want \"CHIP OUT IN\", a chip and two different "
                       "line numbers (e.g. \"gpiochip0 17 18\": GPIO17 wired to GPIO18)")
    return Wire(m[1], int(m[2]), int(m[3]))


@dataclass(frozen=True)
class ReplyWire:
    """udrv-bench reply's two jumpers on one board: the log host's line A
    (`trigger`) wired to the responder's input B (`inp`), the responder's
    output C (`reply`) to the log host's watched line D (`watch`)."""

    chip: str
    trigger: int
    inp: int
    reply: int
    watch: int

    @property
    def opts(self) -> Opts:
        """udrv-bench reply's options naming the lines."""
        return ("-c", self.chip, "--trigger", str(self.trigger), "--in", str(self.inp),
                "--reply", str(self.reply), "--watch", str(self.watch))


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
class Wiring:
    """A board's jumpers: the loopback (udrv-wire) and reply's (udrv-reply-wire)."""

    loop: Wire | None = None
    reply: ReplyWire | None = None


# a bench's board options from the board's features and wiring: (options, "")
# when it runs, (None, why) when it cannot
Decide = Callable[[frozenset[str], Wiring], tuple["Opts | None", str]]

LOOPBACK = "no loopback: the gpio-wire feature (rig/kernel/gpio-wire) or a udrv-wire jumper"


def _line(feats: frozenset[str], wire: Wire | None) -> Opts | None:
    """The options naming one output line to toggle, or None."""
    if "gpio-wire" in feats:
        return ()
    if wire is not None:
        return ("-c", wire.chip, "--line", str(wire.out))
    if "bcm2835" in feats:
        return ("-c", RPI3_CHIP, "--line", str(RPI3_LINE))
    return None


def _toggle(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    opts = _line(feats, w.loop)
    if opts is not None and "gpio-wire" not in feats and w.loop is None:
        opts += ("--no-edges",)  # bcm2835 alone: no partner line
    return opts, "no GPIO line to toggle: gpio-wire, a udrv-wire or bcm2835"


def _loopback(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    """A bench that drives line N and reads N+1."""
    wire = w.loop
    if "gpio-wire" in feats:
        return (), ""
    if wire is not None and wire.adjacent:
        return ("-c", wire.chip, "--out-line", str(wire.out)), ""
    if wire is not None:
        return None, f"udrv-wire {wire.out}->{wire.inp}: the bench reads line {wire.out + 1}"
    return None, LOOPBACK


def _kernel(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    if "irqlat" not in feats:
        return None, "no irqlat (rig/kernel/irqlat, the in-kernel responder)"
    return _loopback(feats, w)


# the responders of a board without rig/kernel/gpio-reply
PROCESS_RESPONDERS = ("--responder", "user,lib")


def _reply(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    """gpio-wire's lines 4-7 (the bench's defaults) or the reply jumpers; the
    kernel responders only where gpio-reply is loaded."""
    resp = () if "gpio-reply" in feats else PROCESS_RESPONDERS
    if "gpio-wire" in feats:
        return resp, ""
    if w.reply is not None:
        return w.reply.opts + resp, ""
    return None, ("no reply wiring: gpio-wire, or a udrv-reply-wire (two jumpers, A to B "
                  "and C to D)")


def _uio(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    devices = [d for d, f in (("ticker", "uio-ticker"), ("edu", "edu")) if f in feats]
    opts = None if not devices else () if len(devices) == 2 else device_opt(devices[0])
    return opts, "no UIO device: uio-ticker (rig/kernel/uio-ticker) or edu (QEMU's PCI device)"


def _needs(*features: str, why: str) -> Decide:
    """A bench that runs with its defaults where the board has all `features`."""
    def decide(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
        return (() if set(features) <= feats else None), why
    return decide


def _gaps(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    opts = _line(feats, w.loop)
    return ("--no-line",) if opts is None else opts, ""


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


def _count(full: int, quick: int) -> dict[str, Opts]:
    return {"full": samples_opt(full), "quick": samples_opt(quick)}


ALL_PRIORITY = tuple(PRIORITY)
BENCHES: dict[str, Bench] = {b.name: b for b in (
    Bench("toggle", _toggle, _count(100000, 2000)),
    Bench("irq", _loopback, _count(5000, 200), loops=5, priority=ALL_PRIORITY),
    Bench("uio", _uio, _count(5000, 200), loops=3, priority=ALL_PRIORITY),
    Bench("timer", _needs(why=""), _count(10000, 500), loops=2),
    Bench("kernel", _kernel, _count(10000, 500)),
    # irq-prio 90: the responders above the log host too (FIFO 85 over its 80),
    # as gpio-reply's kernel thread at 90 is: on one CPU a responder at the
    # log host's priority waits until the log host blocks
    Bench("reply", _reply, _count(2000, 200), loops=6, priority=ALL_PRIORITY,
          variant_extra={PRIORITY_VARIANTS[0]: REPLY_ABOVE_LOG_HOST}),
    Bench("pci", _needs("iommu", "edu", why="needs iommu and edu (VFIO and UIO on QEMU's edu, "
                        "the q35 board)"), _count(500, 100), priority=(RATE_PRIORITY,)),
    # guest seconds per run; its loop toggles a line (default: gpio-wire's)
    Bench("gaps", _gaps, {"full": ("--duration", "5s"), "quick": ("--duration", "3s")}),
    # the capacity sweep (issue 12): its default sweep (8 rates x 50 ms per
    # receiver), --quick a short one; on rt also above the irq threads
    Bench("rate", _needs("gpio-wire", why="needs gpio-wire (its edge generator; the UIO rows "
                         "uio-ticker)"),
          {"full": (), "quick": ("--rates", "2k,20k,200k", "--step-duration", "20ms")},
          priority=(RATE_PRIORITY,)),
)}  # fmt: skip
# each load's plain run: these, in this order
PLAIN = ("toggle", "irq", "uio", "timer", "kernel", "reply", "pci")
# what a bench adds in its idle plain run: reply's breakdown (a second, traced
# run of each responder, docs/rig/lab.md), where nothing else runs beside it
IDLE_ARGS: dict[str, Opts] = {"reply": ("--breakdown",)}


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
