# SPDX-License-Identifier: LGPL-2.1-or-later
"""A gpiozero pin factory on udrv: ``GPIOZERO_PIN_FACTORY=udrv``.

For gpiozero 2 (PyPI, Raspberry Pi OS) and 1.6 (Debian 12's
python3-gpiozero): the same pin names, behaviour and errors on both.

gpiozero finds this factory through the ``gpiozero_pin_factories`` entry
point ``udrv = "udrv.gpiozero:UdrvFactory"``, so with the variable set its
LED, Button and every other GPIO device run on udrv::

    GPIOZERO_PIN_FACTORY=udrv python3 -c 'from gpiozero import LED; LED(17).on()'

or, in a program, ``Device.pin_factory = UdrvFactory()``.

Pin names. On a Raspberry Pi (the device tree says ``raspberrypi,...``) the
names are gpiozero's own (``17``, ``"GPIO17"``, ``"BCM17"``, ``"BOARD11"``,
``"J8:11"``), on the chip that drives the header (label ``pinctrl-bcm2*`` or
``pinctrl-rp1``). Elsewhere (a PC, a BeagleBone, the QEMU lab), and on a Pi
whose default chip is another one (``chip=`` or ``$GPIOZERO_UDRV_CHIP``
naming an expander), a pin is named after the kernel's view of it:

- ``"gpiochip0:5"``: chip name and line offset (offsets count from 0, as in
  ``udrv gpio``, gpioinfo and the kernel);
- ``"gpio-wire:5"``: the chip's label instead of its name, when no other chip
  has that label;
- ``"wire2-out"``: a line name, when no other line has that name;
- ``5`` or ``"5"``: an offset of the default chip: ``UdrvFactory(chip=...)``,
  else ``$GPIOZERO_UDRV_CHIP`` (a name, number, path or label), else the
  first chip.

Backend. The GPIO character device by default (a chip without one, i.e.
sysfs GPIO only, falls back to ``sysfs``); ``UdrvFactory(backend=
udrv.Backend.MMIO)`` or ``GPIOZERO_UDRV_BACKEND=mmio`` drives outputs
through the SoC's registers (claimed through the character device, so the
kernel still knows the line is used; on a Pi 5 RP1's, through
``/dev/gpiomem0``); ``sysfs`` forces the legacy interface.

Pins map to one udrv request per line, made when the pin is first used
(so creating an LED does not glitch the line through an input first) and
reconfigured in place when gpiozero changes its function, pull, edges or
bounce (never released and requested again). ``state`` is the physical
level: gpiozero applies ``active_high`` itself.

Edges: ``when_changed`` callbacks come from udrv's edge events, read by one
thread per factory that waits on the requests of all watched pins with
epoll (the way lgpio and RPi.GPIO deliver gpiozero callbacks: one
thread, callbacks in the order of the events, none running concurrently
with another). The ``ticks`` of a callback is the event's timestamp, taken
by the kernel in its interrupt handler (character device) on
CLOCK_MONOTONIC in nanoseconds, the same clock as :meth:`UdrvFactory.ticks`;
the ``state`` is the level the edge went to. ``bounce`` is the kernel's
debounce (``debounce_us``) on the character device and the mmio backend;
sysfs GPIO has none, so there a callback is dropped when it comes less than
``bounce`` after the last one delivered.

PWM (PWMLED, RGBLED, Servo, AngularServo, Motor, TonalBuzzer...): a pin's
``frequency`` set makes its ``state`` the duty cycle, 0..1. On a Raspberry
Pi, GPIO12, 13, 18 and 19 use the hardware PWM (:class:`udrv.PWM`) when the
device tree muxes them to the PWM controller (``dtoverlay=pwm`` or
``pwm-2chan``; see udrv/_gpiozero_pwm.py): the factory then never requests
such a pin as a GPIO while it is only an output whose state nobody wrote
(a request would take the pin from the PWM controller). Every other pin
gets udrv's software PWM (:class:`udrv.SoftPWM`: a thread of its own, on
absolute deadlines) on the pin's line request. A frequency of None stops
the PWM: the line is a plain output again, inactive (low); closing the pin
stops it the same way first. A frequency outside what the PWM can do
(software: 1/60 Hz to 100 kHz) raises ``PinPWMError``.

SPI (``MCP3008(channel=0)`` and gpiozero's other SPI devices): hardware SPI
through spidev and :class:`udrv.SPI`: by default spidev0.0, with
``port=``/``device=`` spidevPORT.DEVICE, and on a Pi the header's SPI0 pins
too (GPIO11, 10, 9 and 8 or 7, as gpiozero's factories map them, with its
fallback to software SPI when spidev cannot be used). Other pins
(``clock_pin=``, ``mosi_pin=``, ``miso_pin=``, ``select_pin=``, named as
any pin here) are bit-banged on udrv line requests: SPI on any lines
(udrv/_gpiozero_spi.py).

Errors from the library are raised as they come (``udrv.Error``, an
``OSError`` carrying udrv's message and errno: a busy line names its holder,
a missing chip says why); gpiozero's own exceptions are raised for what
gpiozero defines (an invalid function, pull, edge or bounce value, a state
written to an input).

Closing a pin (closing its gpiozero device) sets the line back to an input,
as gpiozero's other factories do, and releases it; closing the factory
stops the event thread and releases every line.

Lines that stay where you put them: with ``UdrvFactory(hold="daemon")`` or
``GPIOZERO_UDRV_HOLD=daemon``, closing a pin that is an output (gpiozero
closes every device when the program exits) hands its line, at its level,
to udrvd (``udrv.hold()``, udrvd(8)), which holds it after the program has
ended; the next program to use that pin takes it back from udrvd
(``udrv.release_held()``) before it requests it, at the level udrvd held
when the device leaves it as it is (``LED(17, initial_value=None)``).
udrvd's policy must let the user drive the line. Inputs are released as
usual. The line is free for a moment at each hand-over: most GPIO drivers
keep an output's level then.
"""

from __future__ import annotations

import errno
import os
import threading
import time
import warnings
from typing import Any

from gpiozero.exc import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    GPIOPinInUse,
    PinInvalidPin,
    SPIBadArgs,
    SPISoftwareFallback,
)
from gpiozero.pins import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    Factory,
)
from gpiozero.pins.pi import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    PiBoardInfo,
)

import udrv
from udrv._gpiozero_board import (
    GPIOZERO_1,
    PI_CHIP_LABELS,
    LineInfo,
    LineTable,
    PiLines,
    UdrvBoardInfo,
    chip_views,
    generic_board_info,
    pi_revision,
)
from udrv._gpiozero_events import EventThread
from udrv._gpiozero_pin import CONSUMER, UdrvPin
from udrv._gpiozero_pwm import pi_pwm_channels
from udrv._gpiozero_spi import (
    PI_CLOCK,
    PI_MISO,
    PI_MOSI,
    PI_SELECT,
    PIN_ARGS,
    _SoftBus,
    spi_class,
    split_spi_args,
)

__all__ = ["UdrvBoardInfo", "UdrvFactory", "UdrvPin"]

ENV_CHIP = "GPIOZERO_UDRV_CHIP"
ENV_BACKEND = "GPIOZERO_UDRV_BACKEND"
ENV_HOLD = "GPIOZERO_UDRV_HOLD"

_BACKENDS = {b.name.lower(): b for b in udrv.Backend}


class UdrvFactory(Factory):  # type: ignore[misc]
    """gpiozero pin factory on udrv.

    chip: the default chip (name, number, path or label) for plain offsets,
        or on a Pi the chip behind the header; None: ``$GPIOZERO_UDRV_CHIP``,
        else the first chip (on a Pi: the one labelled pinctrl-bcm2*/rp1).
    backend: a ``udrv.Backend`` or its name; None: ``$GPIOZERO_UDRV_BACKEND``,
        else the character device (sysfs on a chip without one).
    layout: the register layout for the mmio backend (``udrv.GpioLayout``;
        None: udrv detects the SoC).
    hold: "daemon": a closed output pin's line is handed to udrvd, which
        holds it at its level after the program ends; "" keeps gpiozero's
        way (an input, released); None: ``$GPIOZERO_UDRV_HOLD``, else "".
    """

    def __init__(self, chip: str | int | None = None,
                 backend: udrv.Backend | str | None = None,
                 layout: udrv.GpioLayout | None = None,
                 hold: str | None = None) -> None:
        super().__init__()
        # gpiozero's reservations lock, made reentrant: a device left to the
        # garbage collector (in a reference cycle, not closed) is finalized
        # whenever an allocation starts a collection, also inside
        # reserve_pins() or release_pins() under this lock, and its __del__
        # closes it, which releases its pins under the lock again, in the
        # same thread (gpiozero's Lock waited there for ever)
        self._res_lock = threading.RLock()
        if chip is None:
            chip = os.environ.get(ENV_CHIP) or None
        if backend is None:
            backend = os.environ.get(ENV_BACKEND) or None
        if hold is None:
            hold = os.environ.get(ENV_HOLD, "")
        if hold not in ("", "daemon"):
            raise ValueError(f"unknown hold {hold!r} ({ENV_HOLD} or hold=): "
                             "'daemon' (udrvd holds closed outputs) or ''")  # fmt: skip
        self._hold = hold == "daemon"
        if self._hold and not udrv._udrv.HAS_UDRVD_CLIENT:
            raise udrv.Error(errno.ENOTSUP, "hold='daemon' needs udrvd's client: this udrv "
                             "was built without libsystemd")  # fmt: skip
        self._backend = self._parse_backend(backend)
        self._layout = layout
        self._lock = threading.RLock()
        self._chips: dict[str, udrv.Chip] = {}
        self._backends: dict[str, udrv.Backend] = {}  # of each chip, when not chosen
        self.pins: dict[Any, UdrvPin] = {}
        self._events: EventThread | None = None
        self._closed = False
        self._pi_info: Any = None  # a Pi's PiBoardInfo
        self._soft_buses: dict[tuple[Any, ...], _SoftBus] = {}  # software SPI's
        self._pwm_channels: dict[int, tuple[str, int]] | None = None  # a Pi's hardware PWM
        self._info, self._default, self._on_pi = self._make_board_info(chip)

    def __enter__(self) -> UdrvFactory:  # gpiozero 1.x's Factory is no context manager
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @staticmethod
    def _parse_backend(backend: udrv.Backend | str | None) -> udrv.Backend | None:
        if backend is None or isinstance(backend, udrv.Backend):
            return backend
        try:
            return _BACKENDS[backend.lower()]
        except KeyError:
            raise ValueError(
                f"unknown udrv backend {backend!r} ({ENV_BACKEND} or backend=): "
                f"use one of {', '.join(_BACKENDS)}") from None

    def _make_board_info(self, spec: str | int | None) -> tuple[Any, str, bool]:
        views = chip_views()
        if not views:  # udrv says why (no GPIO support, no chips, no access)
            raise udrv.NotFoundError(errno.ENODEV, udrv.gpio_absent_reason())
        default = None
        if spec is not None:
            with udrv.Chip(spec) as chip:
                default = chip.name
        header = next((v.name for v in views if v.label in PI_CHIP_LABELS), None)
        rev = pi_revision()
        # a Pi's names are the header's: not when another chip is chosen (an
        # expander, a second controller), whose lines they would misname
        if rev is not None and header is not None and default in (None, header):
            self._pi_info = PiBoardInfo.from_revision(rev)
            pins = PiLines(self._pi_info) if GPIOZERO_1 else self._pi_info
            return pins, header, True
        if default is None:
            default = views[0].name
        if GPIOZERO_1:
            return LineTable(views, default), default, False
        return generic_board_info(views, default), default, False

    def _get_board_info(self) -> Any:  # gpiozero 2: the board's pins and names
        return self._info

    def _get_pi_info(self) -> Any:  # gpiozero 1.x: the Pi's, None elsewhere
        return self._pi_info

    # gpiozero 1.x reserves a pin under the name a device was given (17,
    # "GPIO17": two names, one line) and releases it under pin.number: both
    # are taken to the line's info here, as gpiozero 2 does itself

    def _reservation(self, name: Any) -> Any:
        if not GPIOZERO_1 or isinstance(name, LineInfo):
            return name
        return next((info for _h, info in self._info.find_pin(name)), name)

    def reserve_pins(self, requester: Any, *names: Any) -> None:
        super().reserve_pins(requester, *map(self._reservation, names))

    def release_pins(self, reserver: Any, *names: Any) -> None:
        super().release_pins(reserver, *map(self._reservation, names))

    @property
    def default_chip(self) -> str:
        """The chip of plain offsets (on a Pi: the chip behind the header)."""
        return self._default

    def _line_of(self, info: Any) -> tuple[str, int]:
        if self._on_pi:
            return self._default, int(info.name[4:])
        chip, _, offset = info.name.rpartition(":")
        return chip, int(offset)

    def pin(self, name: Any) -> UdrvPin:
        for _header, info in self._info.find_pin(name):
            if "gpio" not in info.interfaces:
                raise PinInvalidPin(f"{name} is not a GPIO pin ({info.name})")
            with self._lock:
                pin = self.pins.get(info)
                if pin is None:
                    chip, offset = self._line_of(info)
                    pin = UdrvPin(self, info, chip, offset)
                    self.pins[info] = pin
                return pin
        if self._on_pi:
            raise PinInvalidPin(f"{name} is not a valid pin name")
        raise PinInvalidPin(
            f"{name!r} is not a GPIO line here: name one as CHIP:OFFSET "
            f"(e.g. {self.default_chip}:0), a unique line name or label:OFFSET, or an "
            f"offset of the default chip {self.default_chip} (${ENV_CHIP} changes it)")

    def _chip(self, name: str) -> udrv.Chip:
        with self._lock:
            if self._closed:
                raise ValueError("the udrv pin factory is closed")
            chip = self._chips.get(name)
            if chip is None:
                chip = self._chips[name] = udrv.Chip(name)
            return chip

    def _backend_for(self, chip_name: str) -> udrv.Backend:
        if self._backend is not None:
            return self._backend
        backend = self._backends.get(chip_name)
        if backend is None:
            cdev = self._chip(chip_name).info.has_cdev
            backend = udrv.Backend.CDEV if cdev else udrv.Backend.SYSFS
            self._backends[chip_name] = backend
        return backend

    def _request(self, chip_name: str, offset: int, settings: udrv.LineSettings) -> Any:
        def request() -> Any:
            return self._chip(chip_name).request(
                {offset: settings}, consumer=CONSUMER, backend=self._backend_for(chip_name),
                layout=self._layout)

        try:
            return request()
        except udrv.BusyError:
            if self._take_back(chip_name, offset) is None:
                raise  # the kernel's message names the holder
        return request()

    def _take_back(self, chip_name: str, offset: int) -> int | None:
        """hold="daemon": release the line from udrvd if it holds it for us;
        the level it had there, or None."""
        if not self._hold:
            return None
        try:
            return udrv.release_held([offset], chip=chip_name)[offset]
        except udrv.NotFoundError:
            return None  # udrvd does not hold it, or does not run

    def _pwm_channel(self, pin: UdrvPin) -> tuple[str, int] | None:
        """The hardware PWM (chip, channel) of @pin, or None: software PWM."""
        if not self._on_pi or pin.chip != self._default:
            return None
        with self._lock:
            if self._pwm_channels is None:
                self._pwm_channels = pi_pwm_channels()
            return self._pwm_channels.get(pin.offset)

    def _event_thread(self) -> EventThread:
        with self._lock:
            if self._events is None:
                self._events = EventThread()
            return self._events

    def close(self) -> None:
        with self._lock:
            pins = list(self.pins.values())
        for pin in pins:
            pin.close()
        with self._lock:
            events, self._events = self._events, None
            self._closed = True
            chips = list(self._chips.values())
            self._chips.clear()
        if events is not None:
            events.close()
        for chip in chips:
            chip.close()

    # ---- SPI (udrv/_gpiozero_spi.py) ----

    def _get_spi_class(self, shared: bool, hardware: bool) -> Any:
        return spi_class(shared, hardware)

    def spi(self, **spi_args: Any) -> Any:
        """gpiozero's SPI interface: spidev (port and device, the default
        0 and 0, or a Pi's SPI0 pins), else software SPI on the pins."""
        args, _, shared = split_spi_args(spi_args)
        if not args:
            args = {"port": 0, "device": 0}
        if "clock_pin" not in args and "select_pin" not in args and (
                "port" in args or "device" in args):
            return self._spi_device(shared, args.get("port", 0), args.get("device", 0))
        pins = {k: args.get(k) for k in PIN_ARGS}
        if self._on_pi:  # SPI0's pins where none is given, as gpiozero's factories
            spi0 = (PI_CLOCK, PI_MOSI, PI_MISO, PI_SELECT[0])
            pins = {k: args.get(k, d) for k, d in zip(PIN_ARGS, spi0, strict=True)}
            lines = [None if p is None else self.pin(p).offset for p in pins.values()]
            clock, mosi, miso, select = lines
            if (clock == PI_CLOCK and mosi in (None, PI_MOSI) and miso in (None, PI_MISO)
                    and select in PI_SELECT):
                return self._spi_device(shared, 0, PI_SELECT.index(select))
        elif pins["clock_pin"] is None or pins["select_pin"] is None:
            raise SPIBadArgs("software SPI needs clock_pin and select_pin (and mosi_pin, "
                             "miso_pin): there are no default SPI pins here but spidev0.0 "
                             "(port=0, device=0)")
        return spi_class(shared, False)(pin_factory=self, **pins)

    def _spi_device(self, shared: bool, port: Any, device: Any) -> Any:
        """spidevPORT.DEVICE; on a Pi, SPI0's pins reserved and software SPI
        on them when spidev fails (gpiozero's SPISoftwareFallback)."""
        for name, v in (("port", port), ("device", device)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise SPIBadArgs(f"{name} must be an int 0 or more, not {v!r}")
        pi0 = self._on_pi and port == 0 and device in (0, 1)
        spi0 = (PI_CLOCK, PI_MOSI, PI_MISO, PI_SELECT[device]) if pi0 else ()
        try:
            return spi_class(shared, True)(port, device, spi0, pin_factory=self)
        except GPIOPinInUse:
            raise  # software SPI would find them in use too
        except Exception as e:
            if not pi0:
                raise  # no pins to fall back on: udrv's message says why
            warnings.warn(SPISoftwareFallback(
                f"failed to initialize hardware SPI, falling back to software (error was: "
                f"{e!s})"), stacklevel=3)
        return spi_class(shared, False)(*spi0, pin_factory=self)

    def _soft_spi_bus(self, clock: Any, mosi: Any, miso: Any) -> _SoftBus:
        """The software SPI bus on these pins, shared by its devices."""
        key = tuple(None if p is None else self.pin(p) for p in (clock, mosi, miso))
        with self._lock:
            bus = self._soft_buses.get(key)
            if bus is None:
                bus = self._soft_buses[key] = _SoftBus(self, clock, mosi, miso)
            bus.users += 1
            return bus

    def _soft_spi_done(self, bus: _SoftBus) -> None:
        with self._lock:
            bus.users -= 1
            if bus.users:
                return
            self._soft_buses = {k: b for k, b in self._soft_buses.items() if b is not bus}
        bus.close()

    @staticmethod
    def ticks() -> int:
        """CLOCK_MONOTONIC in nanoseconds: the clock of the edge events."""
        return time.monotonic_ns()

    @staticmethod
    def ticks_diff(later: int, earlier: int) -> float:
        return (later - earlier) / 1e9
