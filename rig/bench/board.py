# SPDX-License-Identifier: GPL-2.0-only
"""What a bench needs of a lab board, for the benches' plan entries (their
specs' PlanSpec.decide): the board's features (rig/lab/boards/api.py FEATURES)
and its jumpers (Wiring), and the options that name the lines they give."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .options import Opts

# a Raspberry Pi without a jumper: GPIO 17 (header pin 11) of its GPIO chip, the
# SoC's own (rpi3: pinctrl-bcm2835) or the Pi 5's RP1 (pinctrl-rp1, gpiochip0 or
# gpiochip4 by kernel: the label names it either way); no partner line is wired
PI_CHIPS = {"bcm2835": "pinctrl-bcm2835", "rp1": "pinctrl-rp1"}
RPI3_CHIP = PI_CHIPS["bcm2835"]
PI_LINE = 17
LOOPBACK = "no loopback: the gpio-wire feature (rig/kernel/gpio-wire) or a udrv-wire jumper"


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


@dataclass(frozen=True)
class Wiring:
    """A board's jumpers: the loopback (udrv-wire) and reply's (udrv-reply-wire)."""

    loop: Wire | None = None
    reply: ReplyWire | None = None


# a bench's board options from the board's features and wiring: (options, "")
# when it runs, (None, why) when it cannot
Decide = Callable[[frozenset[str], Wiring], tuple[Opts | None, str]]


def line(feats: frozenset[str], wire: Wire | None) -> Opts | None:
    """The options naming one output line to toggle, or None."""
    if "gpio-wire" in feats:
        return ()
    if wire is not None:
        return ("-c", wire.chip, "--line", str(wire.out))
    for feature, chip in PI_CHIPS.items():
        if feature in feats:
            return ("-c", chip, "--line", str(PI_LINE))
    return None


def loopback(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
    """A bench that drives line N and reads N+1."""
    wire = w.loop
    if "gpio-wire" in feats:
        return (), ""
    if wire is not None and wire.adjacent:
        return ("-c", wire.chip, "--out-line", str(wire.out)), ""
    if wire is not None:
        return None, f"udrv-wire {wire.out}->{wire.inp}: the bench reads line {wire.out + 1}"
    return None, LOOPBACK


def needs(*features: str, why: str) -> Decide:
    """A bench that runs with its defaults where the board has all `features`."""
    def decide(feats: frozenset[str], w: Wiring) -> tuple[Opts | None, str]:
        return (() if set(features) <= feats else None), why
    return decide
