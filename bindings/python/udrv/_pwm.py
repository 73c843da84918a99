# SPDX-License-Identifier: LGPL-2.1-or-later
"""PWM: the package's side of udrv._udrv.PWM (a hardware channel of the
kernel's PWM class) and udrv._udrv.SoftPWM (a software PWM on a line of a
request): the frequency and the duty cycle as a fraction, the polarity as
udrv.Polarity, the servo helpers, SoftPWM's counts."""

from __future__ import annotations

import math
import numbers
import os
from typing import Protocol

from . import _udrv
from ._types import Polarity, SoftPWMStats

NS_PER_S = 1_000_000_000
_NS_MAX = 2**63 - 1  # what period_ns and duty_ns take (udrvpy_ns_arg)


def _real(value: object, name: str) -> float:
    """@value as a finite float: TypeError for a bool or what is no real
    number, ValueError for nan, an infinity or an int beyond a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a finite number, not {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    return v


def _polarity(value: object) -> Polarity:
    if isinstance(value, Polarity):
        return value
    if isinstance(value, str):
        try:
            return Polarity[value.upper()]
        except KeyError:
            pass
        raise ValueError(f"polarity must be 'normal' or 'inversed', not {value!r}")
    raise TypeError(f"polarity must be a udrv.Polarity or 'normal' or 'inversed', not "
                    f"{type(value).__name__}")


class _Wave(Protocol):
    """What _Waveform needs of the C types."""

    @property
    def period_ns(self) -> int: ...
    @property
    def duty_ns(self) -> int: ...
    @duty_ns.setter
    def duty_ns(self, value: int) -> None: ...
    @property
    def _polarity(self) -> int: ...
    @_polarity.setter
    def _polarity(self, value: int) -> None: ...
    def set_config(self, period_ns: int, duty_ns: int) -> None: ...


def _servo_pulse(pwm: _Wave, pulse_us: int, frame_hz: int, min_us: int, max_us: int) -> bool:
    period, duty, clamped = _udrv._servo_pulse(frame_hz, pulse_us, min_us, max_us)
    pwm.set_config(period, duty)
    return clamped


class _Waveform:
    """frequency, duty_cycle, polarity and the servo helpers on period_ns,
    duty_ns and set_config() of PWM and SoftPWM."""

    __slots__ = ()

    @property
    def frequency(self: _Wave) -> float:
        """Hz: 1e9 / period_ns (0.0 while no period is set). Set: the
        period of 1e9 / frequency ns, rounded, the duty cycle kept as its
        fraction of the period."""
        period = self.period_ns
        return NS_PER_S / period if period else 0.0

    @frequency.setter
    def frequency(self: _Wave, value: float) -> None:
        hz = _real(value, "frequency")
        if hz <= 0:
            raise ValueError(f"frequency must be above 0 Hz, not {value!r}")
        ns = NS_PER_S / hz
        if not 1 <= ns <= _NS_MAX:
            raise ValueError(f"frequency {value!r} Hz: a period of {ns:.3g} ns; the "
                             f"periods are 1..{_NS_MAX} ns")
        period = round(ns)
        old = self.period_ns
        duty = round(self.duty_ns * period / old) if old else 0
        self.set_config(period, min(duty, period))

    @property
    def duty_cycle(self: _Wave) -> float:
        """The duty cycle's fraction of the period, 0.0..1.0 (0.0 while no
        period is set). Set: duty_ns of that fraction of the period,
        rounded."""
        period = self.period_ns
        return self.duty_ns / period if period else 0.0

    @duty_cycle.setter
    def duty_cycle(self: _Wave, value: float) -> None:
        fraction = _real(value, "duty_cycle")
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"duty_cycle must be 0.0..1.0, not {value!r}")
        period = self.period_ns
        if not period:
            raise ValueError("duty_cycle: no period set: set frequency or period_ns first")
        self.duty_ns = round(fraction * period)

    @property
    def polarity(self: _Wave) -> Polarity:
        """Polarity.NORMAL (active high for the duty cycle) or INVERSED; set
        with a Polarity or its name ("normal", "inversed"), while stopped
        (disabled) only."""
        return Polarity(self._polarity)

    @polarity.setter
    def polarity(self: _Wave, value: Polarity | str) -> None:
        self._polarity = int(_polarity(value))

    def set_servo_pulse(self: _Wave, pulse_us: int, *, frame_hz: int = 50,
                        min_us: int = 1000, max_us: int = 2000) -> bool:
        """A servo pulse of pulse_us microseconds every 1/frame_hz s, the
        pulse clamped to min_us..max_us; True when it was clamped."""
        return _servo_pulse(self, pulse_us, frame_hz, min_us, max_us)

    def set_servo_angle(self: _Wave, angle: float, *, min_angle: float = -90.0,
                        max_angle: float = 90.0, min_us: int = 1000, max_us: int = 2000,
                        frame_hz: int = 50) -> bool:
        """The pulse for angle on the line from (min_angle, min_us) to
        (max_angle, max_us), degrees or any unit (gpiozero's Servo value:
        -1..1), the angle clamped to the range; True when it was clamped."""
        us, clamped = _udrv._servo_angle_us(
            _real(angle, "angle"), _real(min_angle, "min_angle"),
            _real(max_angle, "max_angle"), min_us, max_us)
        _servo_pulse(self, us, frame_hz, min_us, max_us)
        return clamped


class PWM(_udrv.PWM, _Waveform):
    """A hardware PWM channel of the kernel's PWM class: ``PWM(0, 1)``
    (pwmchip0's channel 1), the chip also by name (``"pwmchip0"``), path
    or its parent device's name (``"fe20c000.pwm"``). The channel is
    exported unless ``export=False`` (then it must be exported already),
    and unexported at close() when this handle exported it, unless
    ``keep_exported`` (the kernel may stop the output it unexports). A
    context manager.

    ``period_ns``, ``duty_ns``, ``frequency`` (Hz), ``duty_cycle`` (0..1),
    ``polarity`` and ``enabled`` read back and set sysfs's attributes (the
    state requested: a controller may round it); set_config() sets the
    period and duty cycle together. The GIL is released around each
    sysfs access.

    Where the chip has a character device (/dev/pwmchipN, Linux 6.16 and
    later) the channel is requested instead of exported, and freed at
    close(): ``waveform`` is what the hardware makes (period, high time,
    offset of the rising edge, ns; None through sysfs), round_waveform()
    what it would make of one, set_waveform() sets one (``exact=True``:
    OSError EDOM where the clock cannot make it).
    """

    __slots__ = ()

    def __init__(self, chip: int | str | os.PathLike[str], channel: int, *,
                 export: bool = True, keep_exported: bool = False) -> None:
        # the C type opened the channel in __new__
        pass


class SoftPWM(_udrv.SoftPWM, _Waveform):
    """A software PWM on line ``line`` (offset or name) of ``request``,
    an output: its own thread drives the line on absolute deadlines of
    CLOCK_MONOTONIC (udrv/soft_pwm.h). Set the period (``frequency`` or
    ``period_ns``) and the duty cycle, then start(); changes while it runs
    take effect at the next period boundary. stop() lets the pulse under
    way end and leaves the line inactive; close() (or the with block's
    end) stops it too, and the request's release() stops and closes its
    SoftPWMs first.

    priority: its thread's SCHED_FIFO priority, 1..99 (0: SCHED_OTHER);
    cpu: the CPU to pin it to; lock_memory: mlockall() while it runs;
    tail_ns: busy-wait that long before each edge; late_ns: an edge later
    than this makes its period a missed one (0: 50 us). ``stats`` are the
    thread's counts (udrv.SoftPWMStats).
    """

    __slots__ = ()

    def __init__(self, request: _udrv.Request, line: int | str, *, priority: int = 0,
                 cpu: int | None = None, lock_memory: bool = False, tail_ns: int = 0,
                 late_ns: int = 0) -> None:
        # the C type made it in __new__
        pass

    @property
    def stats(self) -> SoftPWMStats:
        """The thread's counts since the last start (kept after a stop)."""
        return SoftPWMStats(*self._stats())
