# SPDX-License-Identifier: GPL-2.0-only
"""The errors udrv-report explains to its user in one line (exit status 2)."""

from __future__ import annotations


class InputError(Exception):
    """A results file that cannot be used: str() is "PATH: what is wrong, what to do"."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class OutputError(Exception):
    """The page or the PNGs cannot be written: str() is the message for the user."""
