# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench spi: one SPI transfer through libudrv against the raw spidev ioctl,
in turns in one run; its "spi" object (model.py), the suite's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import board
from ..base import BenchSpec, PlanSpec, TextTableSpec
from ..options import Opts, count
from . import model

if TYPE_CHECKING:
    from rig.results.model import Run
    from rig.results.text import TextTable

TITLE = ["Time per SPI transfer: libudrv against the raw spidev ioctl, in turns in one run "
         "(udrv-bench spi on the spi-fixture's loopback chip select;",
         "xfer-3: 3 bytes, an MCP3008's frame; xfer-32: 32 bytes; message-2: 4 bytes then 32 "
         "in one message)"]
# the spi-fixture's loopback device, by its name (rig/kernel/spi-fixture)
LOOPBACK = "spi-loopback"


def text_table(runs: list[Run], board: str = "x86") -> TextTable:
    from rig.results.text import pair_table

    return pair_table(runs, board, "spi", TITLE)


def _board(feats: frozenset[str], w: board.Wiring) -> tuple[Opts | None, str]:
    """The spi-fixture's loopback chip select."""
    if "spi-fixture" not in feats:
        return None, "no spi-fixture (rig/kernel/spi-fixture: its loopback chip select)"
    return ("--device", LOOPBACK), ""


SPEC = BenchSpec("spi", section=model.SECTION, parse=model.parse, own_rows=True,
                 tables=(TextTableSpec("spi", text_table, 74),),
                 plan=PlanSpec(_board, count(2000, 200)))
