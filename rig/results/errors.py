# SPDX-License-Identifier: GPL-2.0-only
"""The one error of rig.results: a results document that cannot be used."""

from __future__ import annotations


class ResultsError(Exception):
    """str() is "SOURCE: what is wrong, what to do" (SOURCE: a path, or what
    the document came from; no prefix when it has none)."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}" if source else message)
        self.source = source
        self.message = message
