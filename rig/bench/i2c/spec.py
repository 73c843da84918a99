# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench i2c: one I2C transaction through libudrv against the raw i2c-dev
ioctl, in turns in one run; its "i2c" object (model.py), the suite's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import board
from ..base import BenchSpec, PlanSpec, TextTableSpec
from ..options import count
from . import model

if TYPE_CHECKING:
    from rig.results.model import Run
    from rig.results.text import TextTable

TITLE = ["Time per I2C transaction: libudrv and i2c-tools' libi2c against the raw i2c-dev "
         "ioctl, in turns in one run (udrv-bench i2c on i2c-stub; byte-data, word-data: SMBus "
         "reads;",
         "i2c-block: an I2C block read of 32 bytes; rdwr, where the adapter does plain I2C: "
         "the pointer written, 32 bytes read after a repeated start)"]


def text_table(runs: list[Run], board: str = "x86") -> TextTable:
    from rig.results.text import pair_table

    return pair_table(runs, board, "i2c", TITLE)


SPEC = BenchSpec("i2c", section=model.SECTION, parse=model.parse, own_rows=True,
                 tables=(TextTableSpec("i2c", text_table, 72),),
                 plan=PlanSpec(board.needs("i2c-stub", why="no i2c-stub (Debian's SMBus "
                                           "stub, x86 kernels) at 0x50"),
                               count(2000, 200)))
