# SPDX-License-Identifier: GPL-2.0-only
"""The "pwm" object of a udrv-bench pwm document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "pwm"


@dataclass(frozen=True)
class Source:
    """What a generator counted itself: udrv's PWM thread (periods begun,
    missed: an edge late or the pulse skipped, skipped, edges driven, the
    latest edge's lateness) or the fixture's stats (missed: its overruns)."""

    periods: int
    missed: int
    skipped: int
    edges: int
    worst_late_ns: int


@dataclass(frozen=True)
class Wire:
    """What the wire's input line saw: edges, pulses and periods measured,
    the periods of the span and those with no pulse, edges in the direction
    of the one before, and gpio-wire's own count of the edges it drove
    (None on a jumper)."""

    edges: int
    pulses: int
    periods: int
    expected: int
    missing: int
    repeated: int
    driven: int | None


@dataclass(frozen=True)
class Pulse:
    """A measured pulse: its rising edge from the run's first, and its width's
    error (measured - asked, signed)."""

    start_ns: int
    error_ns: int


@dataclass(frozen=True)
class PwmRun:
    """One generator's run of one waveform."""

    waveform: str
    implementation: str
    period_ns: int
    width_ns: int
    periods: int  # it was to run
    read_while_running: bool  # too many edges for the kernel's queue: read every 17 ms
    duration_ns: int
    cpu_ns: int | None  # the generator process's CPU time; None: the hardware's
    source: Source | None
    wire: Wire
    timeline: tuple[Pulse, ...]  # each measured pulse, the first 1000
    timeline_dropped: int  # measured beyond them: wire.pulses = listed + dropped

    @property
    def cpu_percent(self) -> float | None:
        """Its CPU time over the run's duration, in %."""
        if self.cpu_ns is None or not self.duration_ns:
            return None
        return 100.0 * self.cpu_ns / self.duration_ns


@dataclass(frozen=True)
class Pwm:
    """The wire, the hardware PWM (None: none), the tuned generators'
    settings, and the runs."""

    chip: str
    out_line: int
    in_line: int
    hw: str | None
    hw_channel: int
    gen_prio: int
    gen_cpu: int
    tail_ns: int
    lgpio_absent: str | None  # why there are no lgpio rows
    runs: tuple[PwmRun, ...]

    def run(self, waveform: str, implementation: str) -> PwmRun | None:
        return next((r for r in self.runs
                     if (r.waveform, r.implementation) == (waveform, implementation)), None)


def _run(p: dict[str, Any]) -> PwmRun:
    s = p["source"]
    return PwmRun(waveform=p["waveform"], implementation=p["implementation"],
                  period_ns=p["period_ns"], width_ns=p["width_ns"], periods=p["periods"],
                  read_while_running=p["read_while_running"],
                  duration_ns=p["duration_ns"], cpu_ns=p["cpu_ns"],
                  source=None if s is None else Source(**s), wire=Wire(**p["wire"]),
                  timeline=tuple(Pulse(x["start_ns"], x["error_ns"]) for x in p["timeline"]),
                  timeline_dropped=p["timeline_dropped"])


def parse(p: dict[str, Any]) -> Pwm:
    """The model of a checked "pwm" object."""
    return Pwm(chip=p["chip"], out_line=p["out_line"], in_line=p["in_line"], hw=p["hw"],
               hw_channel=p["hw_channel"], gen_prio=p["gen_prio"], gen_cpu=p["gen_cpu"],
               tail_ns=p["tail_ns"], lgpio_absent=p["lgpio_absent"],
               runs=tuple(_run(r) for r in p["runs"]))


def of(doc: Doc) -> Pwm | None:
    """A document's pwm section (a pwm document's), else None."""
    p = doc.sections.get(SECTION)
    return p if isinstance(p, Pwm) else None
