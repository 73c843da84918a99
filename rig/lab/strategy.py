# SPDX-License-Identifier: GPL-2.0-only
"""How a lab board gets from nothing to a shell: prepare its image, then boot it.

rig/lab/image/ makes what a board boots (kernel, modules, initramfs: each step
cached); rig/lab/boards/ boots and drives a board from an image made before
(they import nothing of each other: scripts/check-boundary, lab-layers). The
strategies here combine the two, as labgrid's strategies combine its drivers:

    Board(target)      prepare, then boot a QemuBoard and reach its agent
    shell(target)      prepare, then QEMU on this terminal in shell mode
    write_env(target)  prepare, then write a labgrid environment for it

rig/lab/farm.py is the strategy for several boards behind a labgrid
coordinator.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .boards.labgrid_env import render
from .boards.qemu import QemuBoard, board_command
from .catalogue import lookup, memory_for, qemu_binary
from .image.prepare import Prepared, prepare


class Board(QemuBoard):
    """Prepare `target`'s image and boot it (what the lab's tests and suite use).

    `extra_files` ({guest path: host path}) go into the initramfs; `variant`
    names the image variant they make ("py", "deb": its features, and on rpi3
    "deb" builds and loads rig/kernel/*, catalogue.loads_modules; "py" when
    extra_files are given without one); with `include_static` the static udrv
    build goes in too, and a missing one stops the board before any download."""

    def __init__(
        self,
        target: str = "std",
        *,
        extra_files: dict[str, str | Path] | None = None,
        variant: str = "",
        include_static: bool = True,
        memory: str | None = None,
        append: str = "",
        boot_timeout: float = 300.0,
        strict_modules: bool = False,
        quiet: bool = False,
    ) -> None:
        machine = lookup(target).machine
        qemu_binary(machine)  # fail early and clearly, before any download or build
        memory_for(machine, memory)
        self.prep: Prepared = prepare(target, extra_files=extra_files, variant=variant,
                                      include_static=include_static, quiet=quiet)  # fmt: skip
        super().__init__(
            self.prep, target, variant=variant or ("py" if extra_files else ""),
            memory=memory, append=append, boot_timeout=boot_timeout,
            strict_modules=strict_modules, quiet=quiet,
        )  # fmt: skip


def shell(target: str, *, memory: str | None = None, append: str = "",
          extra_files: dict[str, str | Path] | None = None) -> int:  # fmt: skip
    """Interactive console on this terminal (Ctrl-A X quits QEMU; `exit` powers off)."""
    machine = lookup(target).machine
    qemu_binary(machine)
    prep = prepare(target, extra_files=extra_files)
    serials = ["null", "null"]
    serials[machine.shell_port] = "mon:stdio"
    cmd = board_command(
        prep, memory=memory, serials=serials, console=machine.shell_console,
        append=f"udrv-lab.mode=shell {append}".strip(),
    )  # fmt: skip
    print(
        f"lab: booting {target}: {prep.kernel.release} (Ctrl-A X quits QEMU, `exit` powers off)",
        file=sys.stderr,
    )
    return subprocess.run(cmd, check=False).returncode


def write_env(target: str, out: Path, *, quiet: bool = False) -> Path:
    """Prepare the board's image and write its labgrid environment to `out`."""
    qemu = qemu_binary(lookup(target).machine)
    prep = prepare(target, quiet=quiet)
    text = render(target, prep.kernel.vmlinuz, prep.initramfs, prep.kernel.dtb, qemu)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return out
