# SPDX-License-Identifier: LGPL-2.1-or-later
"""udrv: GPIO (character device, sysfs, registers), UIO, I2C, SPI, PWM
(hardware and software) and real-time helpers for Linux userspace drivers,
over libudrv (docs/python.md).

    import udrv
    with udrv.Chip("gpiochip0") as chip, chip.request(
            {17: udrv.LineSettings(direction=udrv.Direction.OUTPUT)}) as req:
        req.set_value(17, 1)
"""

from __future__ import annotations

from ._gpio import Chip, Request
from ._i2c import I2C, I2CMessage
from ._pwm import PWM, SoftPWM
from ._rt import Histogram, Rt, rt_check, rt_threads
from ._spi import SPI, SPITransfer
from ._types import (
    Backend,
    Bias,
    ChipInfo,
    Clock,
    Direction,
    Drive,
    Edge,
    InfoChange,
    InfoEvent,
    LineInfo,
    LineSettings,
    Polarity,
    Policy,
    RtFinding,
    RtLevel,
    RtReport,
    RtState,
    RtThread,
    SoftPWMStats,
    UioMapInfo,
    UioPortInfo,
)
from ._udrv import (
    BusyError,
    EdgeEvent,
    Error,
    GpioLayout,
    InvalidError,
    NotFoundError,
    PermissionDeniedError,
    Region,
    UioIrq,
    chip_list,
    gpio_absent_reason,
    i2c_list,
    pwm_list,
    rt_find_irq,
    spi_list,
    uio_absent_reason,
    uio_list,
    version,
)
from ._udrvd import hold, release_held, take_held
from ._uio import Uio

__version__ = version()

__all__ = [
    "I2C",
    "PWM",
    "SPI",
    "Backend",
    "Bias",
    "BusyError",
    "Chip",
    "ChipInfo",
    "Clock",
    "Direction",
    "Drive",
    "Edge",
    "EdgeEvent",
    "Error",
    "GpioLayout",
    "Histogram",
    "I2CMessage",
    "InfoChange",
    "InfoEvent",
    "InvalidError",
    "LineInfo",
    "LineSettings",
    "NotFoundError",
    "PermissionDeniedError",
    "Polarity",
    "Policy",
    "Region",
    "Request",
    "Rt",
    "RtFinding",
    "RtLevel",
    "RtReport",
    "RtState",
    "RtThread",
    "SPITransfer",
    "SoftPWM",
    "SoftPWMStats",
    "Uio",
    "UioIrq",
    "UioMapInfo",
    "UioPortInfo",
    "chip_list",
    "gpio_absent_reason",
    "hold",
    "i2c_list",
    "pwm_list",
    "release_held",
    "rt_check",
    "rt_find_irq",
    "rt_threads",
    "spi_list",
    "take_held",
    "uio_absent_reason",
    "uio_list",
    "version",
]
