# SPDX-License-Identifier: GPL-2.0-only
"""The "pci" object of a udrv-bench pci document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "pci"


@dataclass(frozen=True)
class Pci:
    """The edu device measured and its driver before and after."""

    device: str
    driver_before: str
    driver_after: str | None
    irq: tuple[tuple[str, int], ...]  # (mechanism, its interrupt's number), as measured


def parse(p: dict[str, Any]) -> Pci:
    """The model of a checked "pci" object."""
    return Pci(device=p["device"], driver_before=p["driver_before"],
               driver_after=p["driver_after"], irq=tuple(p["irq"].items()))


def of(doc: Doc) -> Pci | None:
    """A document's pci section (a pci document's), else None."""
    p = doc.sections.get(SECTION)
    return p if isinstance(p, Pci) else None
