# SPDX-License-Identifier: GPL-2.0-only
"""The "spi" object of a udrv-bench spi document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "spi"


@dataclass(frozen=True)
class Spi:
    """The device measured and its settings as spidev kept them; whether
    every transfer's bytes were checked (a loopback), the batch size."""

    bus: int
    chip_select: int
    mode: int
    bits_per_word: int
    max_speed_hz: int
    checked: bool
    batch: int


def parse(p: dict[str, Any]) -> Spi:
    """The model of a checked "spi" object."""
    return Spi(bus=p["bus"], chip_select=p["chip_select"], mode=p["mode"],
               bits_per_word=p["bits_per_word"], max_speed_hz=p["max_speed_hz"],
               checked=p["checked"], batch=p["batch"])


def of(doc: Doc) -> Spi | None:
    """A document's spi section (an spi document's), else None."""
    p = doc.sections.get(SECTION)
    return p if isinstance(p, Spi) else None
