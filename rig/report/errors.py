# SPDX-License-Identifier: GPL-2.0-only
"""The errors udrv-report explains to its user in one line (exit status 2)."""

from __future__ import annotations

from rig.results.errors import ResultsError

# A results file that cannot be used: str() is "PATH: what is wrong, what to do"
# (rig.results raises it; the report's own checks too)
InputError = ResultsError


class OutputError(Exception):
    """The page or the PNGs cannot be written: str() is the message for the user."""
