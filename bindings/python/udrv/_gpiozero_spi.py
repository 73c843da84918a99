# SPDX-License-Identifier: LGPL-2.1-or-later
"""SPI for udrv's gpiozero pin factory (udrv.gpiozero): gpiozero's SPIDevice
(MCP3008 and the other ADCs, the DACs) asks the factory for ``spi(**args)``.

Hardware SPI is a spidev device through :class:`udrv.SPI`: the default
(``port=0, device=0``: spidev0.0), any ``port``/``device``, and on a
Raspberry Pi the header's SPI0 pins (clock GPIO11, MOSI GPIO10, MISO GPIO9,
select GPIO8 or GPIO7), as gpiozero's own factories map them (falling back
to software SPI, with gpiozero's SPISoftwareFallback warning, when the
spidev device cannot be used). Pins that are no hardware SPI bus (any
lines, named as the factory names them) are bit-banged in software on
udrv line requests (the factory's pins). The same classes for gpiozero
1.6 and 2.
"""

from __future__ import annotations

import array
import threading
from typing import Any

from gpiozero.exc import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    DeviceClosed,
    SPIBadArgs,
    SPIInvalidClockMode,
)
from gpiozero.mixins import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    SharedMixin,
)
from gpiozero.pins import SPI  # type: ignore[import-untyped, import-not-found, unused-ignore]

import udrv

__all__ = ["UdrvHardwareSPI", "UdrvSoftwareSPI", "spi_class", "split_spi_args"]

# a Pi's SPI0 on the header: GPIO numbers of clock, MOSI, MISO and the
# selects of device 0 and 1 (gpiozero's SPI_HARDWARE_PINS)
PI_CLOCK, PI_MOSI, PI_MISO, PI_SELECT = 11, 10, 9, (8, 7)
PIN_ARGS = ("clock_pin", "mosi_pin", "miso_pin", "select_pin")


def split_spi_args(args: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """gpiozero's spi(**args) -> (port and device, or pins, or neither),
    the other arguments, shared. Mixing the two schemes is SPIBadArgs, as
    in gpiozero's factories."""
    args = dict(args)
    shared = bool(args.pop("shared", False))
    dev: dict[str, Any] = {k: args.pop(k) for k in ("port", "device") if k in args}
    pins: dict[str, Any] = {k: args.pop(k) for k in PIN_ARGS if k in args}
    if args:
        raise SPIBadArgs(f"unrecognized keyword argument {next(iter(args))}")
    if dev and pins:
        raise SPIBadArgs("you must either specify port and device, or clock_pin, mosi_pin, "
                         "miso_pin, and select_pin; combinations of the two schemes (e.g. "
                         "port and clock_pin) are not permitted")
    return dev or pins, args, shared


def _words(data: Any, bits: int) -> bytearray | array.array[int]:
    """gpiozero's words as spidev takes them: a byte each up to 8 bits, then
    16 and 32-bit words in the CPU's order."""
    words = [int(w) for w in data]
    if bits <= 8:
        return bytearray(words)
    return array.array("H" if bits <= 16 else "I", words)


class UdrvHardwareSPI(SPI):  # type: ignore[misc]
    """gpiozero's SPI interface on a spidev device (udrv.SPI): spidevPORT.DEVICE,
    its pins (on a Pi) reserved."""

    def __init__(self, port: int, device: int, pins: tuple[Any, ...] = (), *,
                 pin_factory: Any) -> None:
        self._spi: udrv.SPI | None = None
        self._port, self._device = port, device
        super().__init__(pin_factory=pin_factory)
        self._pins = pins
        try:
            self.pin_factory.reserve_pins(self, *pins)
            self._spi = udrv.SPI(port, device)
            self._spi.max_speed_hz = 500000  # gpiozero's LocalPiHardwareSPI
        except BaseException:
            self.close()
            raise

    def _conflicts_with(self, other: Any) -> bool:
        if isinstance(other, UdrvHardwareSPI):  # clock, MOSI and MISO are shared
            return (self._port, self._device) == (other._port, other._device)
        return True

    def close(self) -> None:
        spi, self._spi = self._spi, None
        if spi is not None:
            spi.close()
        self.pin_factory.release_all(self)
        super().close()

    @property
    def closed(self) -> bool:
        return self._spi is None

    def _bus(self) -> udrv.SPI:
        if self._spi is None:
            raise DeviceClosed(f"{self.__class__.__name__} is closed or uninitialized")
        return self._spi

    def __repr__(self) -> str:
        if self._spi is None:
            return "SPI(closed)"
        return f"SPI(port={self._port}, device={self._device})"

    def transfer(self, data: Any) -> list[int]:
        bus = self._bus()
        bits = bus.bits_per_word
        out = _words(data, bits)
        if not len(out):
            return []
        rx = _words([0] * len(out), bits)
        bus.transfer(out, rx)
        return list(rx)

    def _get_clock_mode(self) -> int:
        return self._bus().mode

    def _set_clock_mode(self, value: int) -> None:
        if value not in range(4):
            raise SPIInvalidClockMode(f"{value} is not a valid clock mode")
        self._bus().mode = value

    def _get_lsb_first(self) -> bool:
        return self._bus().lsb_first

    def _set_lsb_first(self, value: bool) -> None:
        self._bus().lsb_first = bool(value)

    def _get_select_high(self) -> bool:
        return self._bus().cs_high

    def _set_select_high(self, value: bool) -> None:
        self._bus().cs_high = bool(value)

    def _get_bits_per_word(self) -> int:
        return self._bus().bits_per_word

    def _set_bits_per_word(self, value: int) -> None:
        self._bus().bits_per_word = value

    def _get_rate(self) -> int:
        return self._bus().max_speed_hz

    def _set_rate(self, value: float) -> None:
        self._bus().max_speed_hz = int(value)


class UdrvHardwareSPIShared(SharedMixin, UdrvHardwareSPI):  # type: ignore[misc]
    @classmethod
    def _shared_key(cls, port: int, device: int, pins: tuple[Any, ...] = (), *,
                    pin_factory: Any) -> Any:
        return (port, device)


class _SoftBus:
    """Clock, MOSI and MISO of software SPI, shared by the devices on them
    (each with its select pin): the factory's pins, one transfer at a time."""

    def __init__(self, factory: Any, clock: Any, mosi: Any, miso: Any) -> None:
        self.key = (clock, mosi, miso)
        self.lock = threading.RLock()
        self.users = 0
        self.clock = factory.pin(clock)
        self.mosi = None if mosi is None else factory.pin(mosi)
        self.miso = None if miso is None else factory.pin(miso)
        self.clock_idle = -1  # not driven yet
        self.mosi_level = -1

    def idle(self, level: int) -> None:
        if level != self.clock_idle:
            self.clock.output_with_state(level)
            self.clock_idle = level

    def words(self, data: list[int], cpha: bool, lsb_first: bool, bits: int) -> list[int]:
        clock, miso = self.clock, self.miso
        idle, active = self.clock_idle, 1 - self.clock_idle
        order = range(bits) if lsb_first else range(bits - 1, -1, -1)
        result = []
        for word in data:
            read = 0
            for bit in order:
                if cpha:
                    clock.state = active
                self._mosi((word >> bit) & 1)
                clock.state = idle if cpha else active  # the edge the device samples on
                if miso is not None and miso.state:
                    read |= 1 << bit
                if not cpha:
                    clock.state = idle
            result.append(read)
        return result

    def _mosi(self, level: int) -> None:
        if self.mosi is not None and level != self.mosi_level:
            if self.mosi_level < 0:
                self.mosi.output_with_state(level)
            else:
                self.mosi.state = level
            self.mosi_level = level

    def close(self) -> None:
        for pin in (self.miso, self.mosi, self.clock):
            if pin is not None:
                pin.close()


class UdrvSoftwareSPI(SPI):  # type: ignore[misc]
    """gpiozero's SPI interface bit-banged on any lines: the clock, MOSI
    (None: receive only), MISO (None: send only) and select pins named as
    the factory names them; modes 0..3, LSB first, 1..32-bit words, the
    select active low (select_high changes it)."""

    def __init__(self, clock_pin: Any, mosi_pin: Any, miso_pin: Any, select_pin: Any, *,
                 pin_factory: Any) -> None:
        self._bus: _SoftBus | None = None
        self._select: Any = None
        super().__init__(pin_factory=pin_factory)
        self._names = (clock_pin, mosi_pin, miso_pin, select_pin)
        self._cpha = False
        self._lsb_first = False
        self._bits = 8
        self._select_high = False
        try:
            self.pin_factory.reserve_pins(
                self, *(p for p in self._names if p is not None))
            self._bus = pin_factory._soft_spi_bus(clock_pin, mosi_pin, miso_pin)
            self._select = pin_factory.pin(select_pin)
            self._select.output_with_state(1)  # inactive
            with self._bus.lock:
                if self._bus.clock_idle < 0:
                    self._bus.idle(0)
        except BaseException:
            self.close()
            raise

    def _conflicts_with(self, other: Any) -> bool:
        if isinstance(other, UdrvSoftwareSPI):  # the bus's pins are shared
            return bool(self._names[3] == other._names[3])
        return True

    def close(self) -> None:
        select, self._select = self._select, None
        if select is not None:
            select.close()
        bus, self._bus = self._bus, None
        if bus is not None:
            self.pin_factory._soft_spi_done(bus)
        self.pin_factory.release_all(self)
        super().close()

    @property
    def closed(self) -> bool:
        return self._bus is None

    def _check(self) -> _SoftBus:
        if self._bus is None:
            raise DeviceClosed(f"{self.__class__.__name__} is closed or uninitialized")
        return self._bus

    def __repr__(self) -> str:
        if self._bus is None:
            return "SPI(closed)"
        c, mo, mi, s = self._names
        return f"SPI(clock_pin={c!r}, mosi_pin={mo!r}, miso_pin={mi!r}, select_pin={s!r})"

    def transfer(self, data: Any) -> list[int]:
        bus = self._check()
        words = [int(w) for w in data]
        limit = 1 << self._bits
        for w in words:
            if not 0 <= w < limit:
                raise ValueError(f"word {w} does not fit {self._bits} bits")
        with bus.lock:
            self._select.state = int(self._select_high)
            try:
                return bus.words(words, self._cpha, self._lsb_first, self._bits)
            finally:
                self._select.state = int(not self._select_high)

    def _get_clock_mode(self) -> int:
        bus = self._check()
        return bus.clock_idle << 1 | int(self._cpha)

    def _set_clock_mode(self, value: int) -> None:
        if value not in range(4):
            raise SPIInvalidClockMode(f"{value} is not a valid clock mode")
        bus = self._check()
        with bus.lock:
            bus.idle(value >> 1)
            self._cpha = bool(value & 1)

    def _get_lsb_first(self) -> bool:
        return self._lsb_first

    def _set_lsb_first(self, value: bool) -> None:
        self._lsb_first = bool(value)

    def _get_bits_per_word(self) -> int:
        return self._bits

    def _set_bits_per_word(self, value: int) -> None:
        if not 1 <= value <= 32:
            raise ValueError(f"bits_per_word must be 1..32, not {value}")
        self._bits = int(value)

    def _get_select_high(self) -> bool:
        return self._select_high

    def _set_select_high(self, value: bool) -> None:
        bus = self._check()
        with bus.lock:
            self._select_high = bool(value)
            self._select.state = int(not self._select_high)


class UdrvSoftwareSPIShared(SharedMixin, UdrvSoftwareSPI):  # type: ignore[misc]
    @classmethod
    def _shared_key(cls, clock_pin: Any, mosi_pin: Any, miso_pin: Any, select_pin: Any, *,
                    pin_factory: Any) -> Any:
        return (clock_pin, select_pin)


def spi_class(shared: bool, hardware: bool) -> type[SPI]:
    """The factory's _get_spi_class(): hardware takes (port, device, pins),
    software (clock_pin, mosi_pin, miso_pin, select_pin)."""
    return {
        (False, True): UdrvHardwareSPI,
        (True, True): UdrvHardwareSPIShared,
        (False, False): UdrvSoftwareSPI,
        (True, False): UdrvSoftwareSPIShared,
    }[shared, hardware]
