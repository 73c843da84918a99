# SPDX-License-Identifier: GPL-2.0-only
"""The rpi3 board's GPIO block (BCM2837 = BCM2835 GPIO at 0x3F200000), read from
the guest with busybox `devmem` through /dev/mem.

Debian's arm64 kernel has STRICT_DEVMEM and IO_STRICT_DEVMEM, and
pinctrl-bcm2835 claims the GPIO block, so the lab boots rpi3 with
`iomem=relaxed`; without it these reads fail with EPERM.

Note: QEMU's bcm2835 GPIO model updates GPLEV on every GPSET/GPCLR write, even
for a pin configured as input (real silicon does not), so a test that wants
to show a line is *driven* checks gpfsel() == FSEL_OUTPUT as well as gplev().

    from bcm2835 import CHIP, LINE, gplev, gpfsel
    assert gplev(board_rpi3, LINE) == 1
"""

from __future__ import annotations

from typing import Protocol

CHIP = "pinctrl-bcm2835"  # label of the SoC's GPIO chip (gpiochip0)
NUM_LINES = 54
LINE = 17  # GPIO17, header pin 11: free on a Raspberry Pi 3
GPIO_BASE = 0x3F200000  # the ARM physical address (bus address 0x7E200000)
GPFSEL0 = 0x00  # function select, 10 pins per register, 3 bits each
GPSET0 = 0x1C  # write 1: drive high (32 pins per register)
GPCLR0 = 0x28  # write 1: drive low
GPLEV0 = 0x34  # pin level
FSEL_INPUT = 0b000
FSEL_OUTPUT = 0b001
FSEL_ALT5 = 0b010


class _Result(Protocol):
    stdout: str
    stderr: str
    status: int


class Board(Protocol):
    def run(self, command: str, timeout: float = ...) -> _Result: ...


def devmem(board: Board, address: int) -> int:
    """One 32-bit word of physical memory, read by busybox devmem in the guest."""
    r = board.run(f"devmem {address:#x} 32", timeout=60)
    assert r.status == 0, f"devmem {address:#x}: exit {r.status}: {r.stderr.strip()}"
    return int(r.stdout.strip(), 16)


def gplev_word(board: Board, bank: int = 0) -> int:
    """GPLEV0 (lines 0..31) or GPLEV1 (lines 32..53)."""
    return devmem(board, GPIO_BASE + GPLEV0 + 4 * bank)


def gplev(board: Board, line: int) -> int:
    """The level of one line (0 or 1) as the GPIO block reports it in GPLEVn."""
    return (gplev_word(board, line // 32) >> (line % 32)) & 1


def gpfsel(board: Board, line: int) -> int:
    """The function of one line (FSEL_INPUT, FSEL_OUTPUT, FSEL_ALT*) from GPFSELn."""
    word = devmem(board, GPIO_BASE + GPFSEL0 + 4 * (line // 10))
    return (word >> (3 * (line % 10))) & 0b111
