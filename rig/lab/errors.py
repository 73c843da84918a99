# SPDX-License-Identifier: GPL-2.0-only
"""Exceptions raised by the lab.  Every failure the user can act on is a LabError;
exit_status() turns one into a command's message and exit status."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable


class LabError(Exception):
    """A lab failure with a message meant for humans (no traceback needed)."""


class ToolMissing(LabError):
    """A host tool (qemu, busybox, apt-get, dpkg, make, gcc) is not installed."""


class PackageError(LabError):
    """A Debian package could not be resolved, downloaded or unpacked."""


class ModuleBuildError(LabError):
    """An out-of-tree kernel module failed to build; the message has the compiler output."""


class BootError(LabError):
    """The guest did not come up: QEMU died, the kernel panicked or the agent never answered."""


class GuestPanic(BootError):
    """The guest kernel panicked (seen as 'Kernel panic' on the console)."""


class CommandTimeout(LabError):
    """A command ran longer than its timeout; it was killed in the guest.

    `result` holds what the command had printed (status is the kill's, 137)."""

    def __init__(self, message: str, result: object = None) -> None:
        super().__init__(message)
        self.result = result


class BoardDead(LabError):
    """The board can no longer be used (QEMU exited or the agent stopped answering)."""


def need_tool(tool: str, package: str) -> str:
    """The path of host tool `tool`; ToolMissing naming the Debian `package` if absent."""
    path = shutil.which(tool)
    if path is None:
        raise ToolMissing(f"{tool} is not installed (it comes with Debian's `{package}` package)")
    return path


EXIT_INTERRUPTED = 130  # a shell's status for SIGINT


def exit_status(command: Callable[[], int], prog: str, failed: int) -> int:
    """command()'s exit status, or `failed` after a LabError's message (no traceback:
    the message says what to do) and 130 after Ctrl-C.  `python3 -m rig.lab` and
    `python3 -m rig.lava` end this way."""
    try:
        return int(command())
    except LabError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return failed
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
