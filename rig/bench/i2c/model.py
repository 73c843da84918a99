# SPDX-License-Identifier: GPL-2.0-only
"""The "i2c" object of a udrv-bench i2c document, typed (schema.json beside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "i2c"


@dataclass(frozen=True)
class I2c:
    """The device measured: its adapter and address, what the adapter can do
    (the kernel's I2C_FUNC_* bits: which rows there are), the batch size."""

    adapter: str
    bus: int
    address: int
    functionality: int
    batch: int


def parse(p: dict[str, Any]) -> I2c:
    """The model of a checked "i2c" object."""
    return I2c(adapter=p["adapter"], bus=p["bus"], address=p["address"],
               functionality=p["functionality"], batch=p["batch"])


def of(doc: Doc) -> I2c | None:
    """A document's i2c section (an i2c document's), else None."""
    p = doc.sections.get(SECTION)
    return p if isinstance(p, I2c) else None
