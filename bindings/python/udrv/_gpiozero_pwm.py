# SPDX-License-Identifier: LGPL-2.1-or-later
"""PWM for udrv.gpiozero: the pin's PWM (PWMPinMixin) and which pins of a
Raspberry Pi have a hardware PWM channel (pi_pwm_channels).

A Pi's PWM controller (the kernel's PWM class: pwmchipN, its parent device
the controller) drives a pin when the device tree muxes the pin to it: the
pwm overlays (``dtoverlay=pwm,pin=18,func=2``, ``pwm-2chan``) give the
controller's node a pinctrl-0 state naming its pins. A pin has a channel
here when a PWM chip's controller is one of PI_PWM's (by its compatible
string) and its pinctrl-0 names the pin; the channel is PI_PWM's. Without
the overlay there is no chip, or no pin muxed to it: software PWM.

Other boards: none yet (a board file would add its controllers here).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from gpiozero.exc import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    PinInvalidState,
    PinPWMError,
    PinSetInput,
)

import udrv
from udrv._gpiozero_board import sysroot_path
from udrv._pwm import _real

if TYPE_CHECKING:
    from .gpiozero import UdrvFactory, UdrvPin

__all__ = ["PI_PWM", "PWMPinMixin", "pi_pwm_channels"]

# the Pi's PWM controllers, by compatible: GPIO -> channel. BCM2835..2711:
# PWM0 channel 0 on GPIO12 or 18, channel 1 on GPIO13 or 19; the Pi 5's RP1:
# pwm0's channels 0..3 on GPIO12, 13, 18, 19
PI_PWM = {
    "brcm,bcm2835-pwm": {12: 0, 13: 1, 18: 0, 19: 1},
    "raspberrypi,rp1-pwm": {12: 0, 13: 1, 18: 2, 19: 3},
}
DEVICE_TREE = "/proc/device-tree"

Settings = udrv.LineSettings


def _phandles(root: str) -> dict[int, str]:
    """The device tree's nodes by phandle."""
    nodes = {}
    for path, _dirs, files in os.walk(root):
        if "phandle" in files:
            raw = _read(path, "phandle")
            if raw is not None and len(raw) == 4:
                nodes[int.from_bytes(raw, "big")] = path
    return nodes


def _cells(raw: bytes | None) -> list[int]:
    raw = raw or b""
    return [int.from_bytes(raw[i:i + 4], "big") for i in range(0, len(raw) - 3, 4)]


def _state_pins(node: str) -> set[int]:
    """The GPIOs a pinctrl state node names: brcm,pins (BCM2835's cells)
    or pins ("gpio18": RP1's, the generic binding's)."""
    pins = set(_cells(_read(node, "brcm,pins")))
    for name in (_read(node, "pins") or b"").split(b"\0"):
        if name.startswith(b"gpio") and name[4:].isdigit():
            pins.add(int(name[4:]))
    return pins


def _read(node: str, prop: str) -> bytes | None:
    try:
        with open(os.path.join(node, prop), "rb") as f:
            return f.read()
    except OSError:
        return None


def pi_pwm_channels() -> dict[int, tuple[str, int]]:
    """GPIO -> (PWM chip's name, channel) of the pins muxed to a Pi's PWM
    controller that the kernel's PWM class serves."""
    out: dict[int, tuple[str, int]] = {}
    nodes: dict[int, str] | None = None
    for chip in udrv.pwm_list():
        of_node = sysroot_path(f"/sys/class/pwm/{chip}/device/of_node")
        compatible = (_read(of_node, "compatible") or b"").split(b"\0")
        table = next((t for c, t in PI_PWM.items() if c.encode() in compatible), None)
        if table is None:
            continue
        if nodes is None:
            nodes = _phandles(sysroot_path(DEVICE_TREE))
        muxed: set[int] = set()
        for handle in _cells(_read(of_node, "pinctrl-0")):
            if handle in nodes:
                muxed |= _state_pins(nodes[handle])
        for gpio in sorted(muxed & table.keys()):
            out.setdefault(gpio, (chip, table[gpio]))
    return out


class PWMPinMixin:
    """A UdrvPin's PWM (gpiozero's frequency, and its state as the duty
    cycle): hardware where the pin has a channel, else software."""

    # the pin's, which these methods use (udrv.gpiozero.UdrvPin)
    _factory: UdrvFactory
    _lock: threading.RLock
    _request: Any
    _set_value: Callable[[int, int], None] | None
    _settings: udrv.LineSettings
    _offset: int
    _deferred: int | None

    if TYPE_CHECKING:
        def _apply(self, settings: udrv.LineSettings) -> None: ...

        def _level(self, value: Any) -> int: ...

    def __init__(self) -> None:
        super().__init__()
        self._pwm: Any = None  # udrv.SoftPWM or udrv.PWM while the pin runs PWM
        self._frequency: float | None = None
        self._duty = 0.0

    def _set_pwm_state(self, value: Any) -> None:
        """state of a pin that is no plain output: a PWM's duty cycle, a
        deferred output's level (requested now), or an input's error."""
        with self._lock:
            if self._pwm is not None:
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                        0 <= value <= 1):
                    raise PinInvalidState(
                        f'invalid state "{value}" for PWM pin {self!r}: 0.0..1.0')
                self._pwm.duty_cycle = value
                self._duty = float(value)
                return
            if self._deferred is not None:
                level = self._level(value)
                self._deferred = None
                self._apply(Settings(direction=udrv.Direction.OUTPUT, value=level))
                return
        raise PinSetInput(f"cannot set state of pin {self!r}: it is an input")

    def _get_frequency(self) -> float | None:
        return self._frequency

    def _set_frequency(self, value: Any) -> None:
        if value is None:
            self._stop_pwm()
            return
        try:
            hz = _real(value, "frequency")
        except (TypeError, ValueError) as e:
            raise PinPWMError(f"invalid frequency {value!r} for pin {self!r}: {e}") from None
        if hz <= 0:
            raise PinPWMError(f"invalid frequency {value!r} for pin {self!r}: above 0 Hz")
        with self._lock:
            try:
                if self._pwm is None:
                    self._start_pwm(hz)
                elif hz != self._frequency:
                    self._pwm.frequency = hz  # the duty cycle's fraction kept
            except ValueError as e:  # udrv.InvalidError too: the PWM's range
                raise PinPWMError(f"frequency {value!r} Hz on pin {self!r}: {e}") from None
            self._frequency = hz

    def _start_pwm(self, hz: float) -> None:
        """PWM at @hz, duty cycle 0 (the line inactive): hardware for a pin
        not requested as a GPIO that has a channel, else software on the
        pin's output request."""
        pin = cast("UdrvPin", self)  # the only class with this mixin
        channel = None if self._request is not None else self._factory._pwm_channel(pin)
        if channel is not None:
            pwm: Any = udrv.PWM(*channel)
            try:
                pwm.frequency = hz
                pwm.duty_ns = 0
                pwm.enable()
            except BaseException:
                pwm.close()
                raise
        else:
            if self._request is None and self._deferred is None:
                self._apply(Settings(direction=udrv.Direction.OUTPUT, value=0))
            elif self._deferred is not None:  # a PWM pin whose controller failed
                self._apply(Settings(direction=udrv.Direction.OUTPUT, value=self._deferred))
            if self._settings.direction != udrv.Direction.OUTPUT:
                raise PinSetInput(f"cannot run PWM on pin {self!r}: it is an input")
            pwm = udrv.SoftPWM(self._request, self._offset)
            try:
                pwm.frequency = hz
                pwm.start()
            except BaseException:
                pwm.close()
                raise
            self._set_value = None  # the state is the PWM's now
        self._deferred = None
        self._pwm, self._duty = pwm, 0.0

    def _stop_pwm(self) -> None:
        """PWM off: a software PWM's line a plain output again, inactive; a
        hardware channel disabled and closed (the pin a deferred output)."""
        with self._lock:
            pwm, self._pwm = self._pwm, None
            self._frequency, self._duty = None, 0.0
            if pwm is None:
                return
            if isinstance(pwm, udrv.SoftPWM):
                pwm.close()  # stopped: the line inactive
                self._set_value = self._request.set_value
                return
            try:
                pwm.disable()
            finally:
                pwm.close()
                self._deferred = 0
