# SPDX-License-Identifier: GPL-2.0-only
"""The one interface the lab tests and the suite use to talk to a board.

Two implementations:

    rig.lab.boards.qemu.QemuBoard
                              today's QEMU boards (rig/lab/catalogue.py),
                              booted by the lab from a prepared image
                              (rig.lab.strategy.Board prepares, then boots)
    rig.lab.boards.labgrid_board.LabgridBoard
                              any labgrid target (serial console or SSH; local,
                              or a place reserved from a coordinator), from a
                              labgrid environment file (--lg-env board.yaml)

Both run the same guest agent (rig/lab/image/guest/agent) and speak its framed protocol
(rig/lab/boards/agent.py) over a byte stream: QEMU's second serial port for the QEMU
boards; the target's console or an SSH pipe for labgrid.  So a command's
stdout, stderr and exit status come back exactly, a timed-out command is
killed on the board, and files go both ways, whatever the transport.

What a test may use of a board is `LabBoard` below; anything else (the QEMU
process, the prepared image, the console log file) is QEMU-only and the tests
that use it say so with the feature "qemu".

Features (labgrid's `features:` of a target; `pytest.mark.lg_feature(...)` on
a test): what a board has that some tests and benches need.  A board without
one skips those tests and says which feature is missing.  FEATURES lists the
vocabulary; docs/rig/boards.md explains how to declare each on a real board.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..catalogue import Target
from ..errors import LabError

FEATURES: dict[str, str] = {
    "gpio-wire": "rig/kernel/gpio-wire is loaded: a gpiochip labelled gpio-wire whose lines 2k "
                 "and 2k+1 are wired together (the loopback the GPIO benches measure)",
    "uio-ticker": "rig/kernel/uio-ticker is loaded (a UIO device with a 1 kHz hrtimer interrupt)",
    "irqlat": "rig/kernel/irqlat is loaded (udrv-bench kernel's in-kernel responder)",
    "udrv-irq": "the toolkit's kernel helper kernel/udrv-irq is loaded (/dev/udrv-irq: libudrv's "
                "UDRV_RESPOND_IRQ_LINE, udrv-bench reply's lib/irq)",
    "gpio-reply": "rig/kernel/gpio-reply is loaded (udrv-bench reply's kernel responders, isr "
                  "and kthread)",
    "i2c-fixture": "rig/kernel/i2c-fixture is loaded with i2c-dev: an I2C adapter (plain I2C, "
                   "SMBus emulated by i2c-core) with a 256-byte register file at 0x50",
    "spi-fixture": "rig/kernel/spi-fixture is loaded, its devices bound to spidev: an MCP3008 "
                   "model on chip select 0, a loopback on 1",
    "pwm-fixture": "rig/kernel/pwm-fixture is loaded: a PWM chip of the kernel's PWM class whose "
                   "channels 0 and 1 drive gpio-wire's lines 0 and 2 from hard hrtimers",
    "i2c-stub": "Debian's i2c-stub is loaded with i2c-dev: an SMBus adapter with a chip at 0x50 "
                "(every SMBus transaction, SMBus block included)",
    "edu": "QEMU's edu PCI device, bound to uio_pci_generic (udrv-bench uio/pci)",
    "iommu": "an IOMMU with interrupt remapping and vfio-pci loaded (VFIO)",
    "rt": "a PREEMPT_RT kernel",
    "isolcpus": "two or more CPUs, CPU 1 isolated (isolcpus/nohz_full)",
    "bcm2835": "a Raspberry Pi 3's SoC: pinctrl-bcm2835 GPIO and its registers",
    "rp1": "a Raspberry Pi 5's RP1: pinctrl-rp1 GPIO and its registers through "
           "/dev/gpiomem0 (libudrv's mmio backend)",
    "python": "python3 with udrv's Python package, gpiod and gpiozero",
    "udrvd": "udrvd, dbus-daemon and gdbus, and libgpiod's gpiocli and gpio-manager under "
             "/opt/libgpiod (rig/lab/image/dbusguest.py lays them out)",
    "local-install": "udrv installed from source below /usr/local (make install "
                     "PREFIX=/usr/local, not yet finished: rig/lab/image/localguest.py) with "
                     "systemd-sysusers, usermod, ldconfig and udevadm to finish it",
    "qemu": "the board is one of the lab's own QEMU boards (its process, image and "
            "console log are reachable from the host)",
}  # fmt: skip


@dataclass
class Result:
    """What a board command did."""

    status: int
    stdout_bytes: bytes
    stderr_bytes: bytes
    seconds: float

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode(errors="replace")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode(errors="replace")


class CommandFailed(LabError):
    def __init__(self, cmd: str, result: Result) -> None:
        super().__init__(f"guest command {cmd!r} exited {result.status}: {result.stderr.strip()}")
        self.result = result


class LabBoard(Protocol):
    """A board the lab can drive.

    target    a short name for messages and test ids: "std", "rt", "rpi3"... for
              the QEMU boards, the labgrid target's name (or its udrv-target
              option) for a labgrid board
    kernel    "std" or "rt" (what the board's kernel is: PREEMPT_RT or not)
    release   `uname -r` on the board
    features  the FEATURES this board has
    dead      None while usable; else why not (the next use raises BoardDead)
    """

    target: str
    kernel: str
    release: str
    features: frozenset[str]
    dead: str | None

    def run(self, cmd: str, timeout: float = 60.0, *, check: bool = False) -> Result:
        """Run a shell command on the board; `timeout` is host wall seconds.  On
        timeout the command's process group is killed on the board and
        CommandTimeout is raised (with what it had printed); the board stays
        usable.  check=True raises CommandFailed on a non-zero status."""
        ...

    def put(self, host_path: str | Path, guest_path: str, mode: int | None = None) -> None:
        """Copy a host file onto the board (parent directories are created)."""
        ...

    def put_bytes(self, data: bytes, guest_path: str, mode: int = 0o644) -> None: ...

    def get(self, guest_path: str, timeout: float = 120.0) -> bytes:
        """A board file's contents."""
        ...

    def console_tail(self, lines: int = 40) -> str:
        """The last lines the board's console printed (for failure messages)."""
        ...

    def close(self) -> None:
        """Release the board: power a QEMU board off; stop the agent and
        release the labgrid target (and its place)."""
        ...


class KernelFiles(Protocol):
    """What a board boots of an unpacked kernel (rig.lab.image.kernel.Kernel)."""

    @property
    def spec(self) -> Target: ...
    @property
    def release(self) -> str: ...
    @property
    def vmlinuz(self) -> Path: ...
    @property
    def dtb(self) -> Path | None: ...


class BootImage(Protocol):
    """A prepared image (rig.lab.image.prepare.Prepared): a board drives one, it
    never makes one (the strategy prepares, rig/lab/strategy.py)."""

    @property
    def kernel(self) -> KernelFiles: ...
    @property
    def initramfs(self) -> Path: ...
