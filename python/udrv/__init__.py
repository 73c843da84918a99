# SPDX-License-Identifier: LGPL-2.1-or-later
"""udrv: GPIO (character device, sysfs, registers), UIO and real-time
helpers for Linux userspace drivers, over libudrv (docs/python.md)."""

from __future__ import annotations

from ._types import (
    Backend,
    Bias,
    ChipInfo,
    Clock,
    Direction,
    Drive,
    Edge,
    LineInfo,
    LineSettings,
    Policy,
    RtFinding,
    RtLevel,
    RtReport,
    RtState,
    RtThread,
    UioMapInfo,
    UioPortInfo,
)
from ._udrv import (
    BusyError,
    Error,
    InvalidError,
    NotFoundError,
    PermissionDeniedError,
    chip_list,
    uio_list,
    version,
)

__version__ = version()

__all__ = [
    "Backend",
    "Bias",
    "BusyError",
    "ChipInfo",
    "Clock",
    "Direction",
    "Drive",
    "Edge",
    "Error",
    "InvalidError",
    "LineInfo",
    "LineSettings",
    "NotFoundError",
    "PermissionDeniedError",
    "Policy",
    "RtFinding",
    "RtLevel",
    "RtReport",
    "RtState",
    "RtThread",
    "UioMapInfo",
    "UioPortInfo",
    "chip_list",
    "uio_list",
    "version",
]
