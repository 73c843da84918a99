# SPDX-License-Identifier: GPL-2.0-only
"""udrv lab: boot Debian bookworm's real kernels (standard and PREEMPT_RT) in
QEMU/TCG and run commands inside.  See docs/rig/lab.md.

    from rig.lab import Board
    with Board("rt") as b:
        print(b.run("uname -a").stdout)
"""

from .boards.api import CommandFailed, LabBoard, Result
from .errors import (
    BoardDead,
    BootError,
    CommandTimeout,
    GuestPanic,
    LabError,
    ModuleBuildError,
    PackageError,
    ToolMissing,
)
from .strategy import Board

__all__ = [
    "Board",
    "BoardDead",
    "BootError",
    "CommandFailed",
    "CommandTimeout",
    "GuestPanic",
    "LabBoard",
    "LabError",
    "ModuleBuildError",
    "PackageError",
    "Result",
    "ToolMissing",
]
