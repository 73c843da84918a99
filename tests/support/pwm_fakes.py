# SPDX-License-Identifier: GPL-2.0-only
"""Fake PWM chips in a fake tree, their sysfs files served by the preloaded
fake of the kernel's PWM class (tests/lib/fake_pwm_sysfs.c and, for
/dev/pwmchipN, fake_pwm_cdev.c, built as tests/cli's libfake_pwm_sysfs.so):
an export makes pwmN/, an unexport removes it, a channel's attributes are
checked and rewritten as Linux 6.1 does, and every write is logged in the
chip's .log. The tree is laid out as the kernel lays it
(tests/lib/fake_pwm.h)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from .bus_fakes import preload
from .fakes import FakeTree
from .udrv_runner import REPO, required

FAKE_PWM = REPO / "build" / "dev" / "tests" / "cli" / "libfake_pwm_sysfs.so"


@dataclass(frozen=True)
class PwmChip:
    """Chip pwmchip<num> of the tree: its directory (the device's)."""

    tree: FakeTree
    num: int
    rel: str

    def path(self, name: str = "") -> Path:
        return self.tree.path(f"{self.rel}/{name}" if name else self.rel)

    def channel(self, ch: int, period: int, duty: int, polarity: str = "normal",
                enable: int = 0) -> None:
        """Channel ch exported already (a boot script, another program)."""
        for attr, text in (("period", period), ("duty_cycle", duty), ("polarity", polarity),
                           ("enable", enable)):
            self.tree.file(f"{self.rel}/pwm{ch}/{attr}", f"{text}\n")

    def attr(self, ch: int, attr: str) -> str:
        return self.path(f"pwm{ch}/{attr}").read_text().strip()

    def exported(self, ch: int) -> bool:
        return self.path(f"pwm{ch}").is_dir()

    def control(self, name: str, text: str) -> None:
        """A control file of the fake: .delay_ms, .mode, .busy."""
        self.path(name).write_text(text)

    def node(self, step_ns: int = 1) -> None:
        """/dev/pwmchip<num>, Linux 6.16's character device (the fake of
        tests/lib/fake_pwm_cdev.c answers its ioctls), the controller's clock
        ticking every step_ns."""
        self.tree.file(f"dev/pwmchip{self.num}")
        self.control(".step_ns", f"{step_ns}\n")

    def waveform(self, ch: int) -> tuple[int, ...]:
        """What the hardware makes of channel ch through the character
        device: (period, duty, offset) ns, (0, 0, 0) off."""
        wf = self.path(f".wf{ch}")
        return tuple(int(v) for v in wf.read_text().split()) if wf.exists() else (0, 0, 0)

    def log(self) -> list[str]:
        """What was written to the chip and its channels, in order."""
        log = self.path(".log")
        return log.read_text().splitlines() if log.exists() else []


def pwm_tree(tree: FakeTree, num: int = 0, parent: str = "fe20c000.pwm",
             npwm: int = 2) -> PwmChip:
    """pwmchip<num> of platform device <parent> ("": none) with npwm channels,
    none exported; nothing preloaded (enough for what only reads)."""
    rel = (f"sys/devices/platform/{parent}/pwm/pwmchip{num}" if parent
           else f"sys/devices/virtual/pwm/pwmchip{num}")
    tree.file(f"{rel}/npwm", f"{npwm}\n")
    tree.file(f"{rel}/export")
    tree.file(f"{rel}/unexport")
    if parent:
        tree.symlink(f"../../../{parent}", f"{rel}/device")
    tree.symlink(f"../../{rel.removeprefix('sys/')}", f"sys/class/pwm/pwmchip{num}")
    return PwmChip(tree, num, rel)


def pwm_chip(tree: FakeTree, monkeypatch: pytest.MonkeyPatch, num: int = 0,
             parent: str = "fe20c000.pwm", npwm: int = 2) -> PwmChip:
    """pwm_tree()'s chip with the fake preloaded."""
    fake = Path(os.environ.get("UDRV_FAKE_PWM", FAKE_PWM))
    preload(monkeypatch, required(fake, "UDRV_FAKE_PWM"))
    return pwm_tree(tree, num, parent, npwm)
