# SPDX-License-Identifier: LGPL-2.1-or-later
"""The gpiozero factory's pin (udrv.gpiozero, whose docstring says what a pin
does): one GPIO line, one udrv request made at its first use and
reconfigured in place, its edges through the factory's event thread
(udrv/_gpiozero_events.py), its PWM through PWMPinMixin
(udrv/_gpiozero_pwm.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import MethodType
from typing import TYPE_CHECKING, Any
from weakref import WeakMethod, ref

from gpiozero.exc import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    PinFixedPull,
    PinInvalidBounce,
    PinInvalidEdges,
    PinInvalidFunction,
    PinInvalidPull,
    PinInvalidState,
    PinSetInput,
)
from gpiozero.pins import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    Pin,
)

import udrv
from udrv._gpiozero_board import LineNumber
from udrv._gpiozero_pwm import PWMPinMixin

if TYPE_CHECKING:
    from udrv.gpiozero import UdrvFactory

__all__ = ["CONSUMER", "UdrvPin"]

CONSUMER = "gpiozero"

_PULLS = {
    "up": udrv.Bias.PULL_UP,
    "down": udrv.Bias.PULL_DOWN,
    "floating": udrv.Bias.DISABLED,
}
_EDGES = {
    "none": udrv.Edge.NONE,
    "rising": udrv.Edge.RISING,
    "falling": udrv.Edge.FALLING,
    "both": udrv.Edge.BOTH,
}
_RISING = udrv.Edge.RISING

Settings = udrv.LineSettings


class UdrvPin(PWMPinMixin, Pin):  # type: ignore[misc]
    """One GPIO line as a gpiozero pin: one udrv request, made at first use
    (its PWM: PWMPinMixin, udrv/_gpiozero_pwm.py)."""

    def __init__(self, factory: UdrvFactory, info: Any, chip: str, offset: int) -> None:
        super().__init__()
        self._factory = factory
        self._info = info
        self._chip_name = chip
        self._offset = offset
        self._lock = threading.RLock()
        self._request: Any = None
        self._set_value: Callable[[int, int], None] | None = None
        self._settings = Settings()
        self._pull = info.pull or "floating"
        self._edges = "both"
        self._bounce_ns: int | None = None
        self._when_changed: Callable[[], Any] | None = None
        self._watching = False
        self._last_ns: int | None = None
        self._soft_bounce_ns: int | None = None
        self._deferred: int | None = None  # a hardware PWM pin's output level, not requested
        self.lost_events = 0
        """edges the kernel dropped before they reached this pin (queue full)"""

    def __repr__(self) -> str:
        return str(self._info.name)

    @property
    def info(self) -> Any:
        return self._info

    @property
    def factory(self) -> UdrvFactory:
        return self._factory

    @property
    def chip(self) -> str:
        return self._chip_name

    @property
    def offset(self) -> int:
        return self._offset

    @property
    def number(self) -> int:
        """gpiozero 1.x's name of the pin: on a Pi its GPIO number, elsewhere
        its offset (naming this line to the factory: a LineNumber)."""
        if self._factory._on_pi:
            return int(self._info.name[4:])
        return LineNumber(self._offset, self._info)

    @property
    def backend(self) -> udrv.Backend:
        """The udrv backend the line is (or will be) requested through."""
        return self._factory._backend_for(self._chip_name)

    # ---- the request ----

    def _kernel_debounce(self) -> bool:
        """Whether the kernel debounces (and can disable a pull): not sysfs."""
        return self._factory._backend_for(self._chip_name) != udrv.Backend.SYSFS

    def _input_settings(self) -> udrv.LineSettings:
        bias = _PULLS[self._pull]
        if bias == udrv.Bias.DISABLED and not self._kernel_debounce():
            bias = udrv.Bias.AS_IS  # sysfs GPIO cannot say "no pull"
        edge = _EDGES[self._edges] if self._watching else udrv.Edge.NONE
        debounce = 0
        if edge != udrv.Edge.NONE and self._bounce_ns and self._kernel_debounce():
            debounce = max(1, round(self._bounce_ns / 1000))
        return Settings(direction=udrv.Direction.INPUT, bias=bias, edge=edge,
                        debounce_us=debounce)

    def _apply(self, settings: udrv.LineSettings) -> None:
        with self._lock:
            if self._request is None:
                self._request = self._factory._request(self._chip_name, self._offset, settings)
            else:
                self._request.reconfigure({self._offset: settings})
            self._settings = settings
            out = settings.direction == udrv.Direction.OUTPUT
            self._set_value = self._request.set_value if out else None

    def _ensure(self) -> Any:
        with self._lock:
            if self._request is None:
                self._apply(self._input_settings())
            return self._request

    def close(self) -> None:
        self.when_changed = None
        self._stop_pwm()
        with self._lock:
            self._deferred = None
            req, self._request = self._request, None
            self._set_value = None
            settings, self._settings = self._settings, Settings()
        if req is None:
            return
        if self._factory._hold and settings.direction == udrv.Direction.OUTPUT:
            # udrvd holds it at the level it has now, after a release of ours
            level = req.get_value(self._offset)
            req.release()
            held = Settings(direction=udrv.Direction.OUTPUT, value=level, bias=settings.bias,
                            drive=settings.drive)
            udrv.hold({self._offset: held}, chip=self._chip_name, consumer=CONSUMER)
            return
        try:
            # as gpiozero's other factories: a closed pin is an input
            req.reconfigure({self._offset: Settings()})
        finally:
            req.release()

    # ---- function, state, pull ----

    def _get_function(self) -> str:
        with self._lock:
            if self._pwm is not None or self._deferred is not None:
                out = True
            elif self._request is not None:
                out = self._settings.direction == udrv.Direction.OUTPUT
            else:
                info = self._factory._chip(self._chip_name).line_info(self._offset)
                out = info.direction == udrv.Direction.OUTPUT
        return "output" if out else "input"

    def _set_function(self, value: str) -> None:
        if value == "input":
            self._stop_pwm()
            with self._lock:
                self._deferred = None
                self._apply(self._input_settings())
        elif value == "output":
            self._stop_events()
            with self._lock:
                if self._pwm is not None or self._deferred is not None:
                    return  # an output already
                if self._request is not None:
                    level = self._request.get_value(self._offset)
                else:  # the level udrvd held it at (hold="daemon"), else low
                    level = self._factory._take_back(self._chip_name, self._offset) or 0
                    if self._factory._pwm_channel(self) is not None:
                        self._deferred = level  # requested at a state's write, if no PWM
                        return
                self._apply(Settings(direction=udrv.Direction.OUTPUT, value=level))
        else:
            raise PinInvalidFunction(f'invalid function "{value}" for pin {self!r}')

    def output_with_state(self, state: Any) -> None:
        self._stop_events()
        self._stop_pwm()
        with self._lock:
            self._deferred = None
            self._apply(Settings(direction=udrv.Direction.OUTPUT, value=self._level(state)))

    def input_with_pull(self, pull: str) -> None:
        self._check_pull(pull)
        self._stop_pwm()
        with self._lock:
            self._deferred = None
            old, self._pull = self._pull, pull
            try:
                self._apply(self._input_settings())
            except BaseException:
                self._pull = old
                raise

    def _level(self, value: Any) -> int:
        if value in (0, 1):  # also False/True and 0.0/1.0
            return int(value)
        raise PinInvalidState(f'invalid state "{value}" for pin {self!r}: 0 or 1')

    # state is gpiozero's hot path (LED.on() is a pin.state = 1): one
    # attribute and one call into udrv when the pin is an output

    def _get_state(self) -> float:
        req = self._request
        if req is None:
            with self._lock:
                if self._pwm is not None:
                    return self._duty
                if self._deferred is not None:
                    return self._deferred
            req = self._ensure()
        if self._pwm is not None:
            return self._duty
        return int(req.get_value(self._offset))

    def _set_state(self, value: Any) -> None:
        set_value = self._set_value  # the request's, while it is a plain output
        if set_value is None:
            self._set_pwm_state(value)
            return
        if value == 1:
            set_value(self._offset, 1)
        elif value == 0:
            set_value(self._offset, 0)
        else:
            raise PinInvalidState(f'invalid state "{value}" for pin {self!r}: 0 or 1')

    state = property(_get_state, _set_state, doc=Pin.state.__doc__)

    def _check_pull(self, value: str) -> None:
        if value not in _PULLS:
            raise PinInvalidPull(f'invalid pull "{value}" for pin {self!r}')
        if self._info.pull not in (value, ""):
            raise PinFixedPull(f"{self!r} has a physical pull-{self._info.pull} resistor")

    def _get_pull(self) -> str:
        return self._pull

    def _set_pull(self, value: str) -> None:
        self._check_pull(value)
        with self._lock:
            if self._request is not None and self._settings.direction != udrv.Direction.INPUT:
                raise PinFixedPull(f"cannot set pull on non-input pin {self!r}")
            old, self._pull = self._pull, value
            try:
                self._apply(self._input_settings())
            except BaseException:
                self._pull = old
                raise

    # ---- edges ----

    def _get_bounce(self) -> float | None:
        return None if not self._bounce_ns else self._bounce_ns / 1e9

    def _set_bounce(self, value: float | None) -> None:
        if value is not None and value < 0:
            raise PinInvalidBounce("bounce must be 0 or greater")
        self._restart_events(lambda: setattr(
            self, "_bounce_ns", None if value is None else round(value * 1e9)))
        self._update_soft_bounce()

    def _update_soft_bounce(self) -> None:
        """sysfs has no kernel debounce: _dispatch filters instead."""
        soft = self._bounce_ns and not self._kernel_debounce()
        self._soft_bounce_ns = self._bounce_ns if soft else None

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        if value not in _EDGES:
            raise PinInvalidEdges(f'invalid edge specification "{value}" for pin {self!r}')
        self._restart_events(lambda: setattr(self, "_edges", value))

    def _restart_events(self, change: Callable[[], None]) -> None:
        watching = self._watching
        if watching:
            self._stop_events()
        change()
        if watching:
            self._start_events()

    def _get_when_changed(self) -> Callable[[int, int], Any] | None:
        return None if self._when_changed is None else self._when_changed()

    def _set_when_changed(self, value: Callable[[int, int], Any] | None) -> None:
        if value is None:
            self._when_changed = None
            self._stop_events()
            return
        # a weak reference, as gpiozero's pins: the device owns the pin
        if isinstance(value, MethodType):
            self._when_changed = WeakMethod(value)
        else:
            self._when_changed = ref(value)
        if not self._watching:
            self._start_events()

    # The pin's lock is never held while waiting for the event thread: that
    # thread may be in a callback of this pin that uses the pin.

    def _start_events(self) -> None:
        with self._lock:
            if self._request is not None and self._settings.direction == udrv.Direction.OUTPUT:
                raise PinSetInput(f"cannot watch edges of pin {self!r}: it is an output")
            self._watching = True
            try:
                self._apply(self._input_settings())
                if self._settings.edge == udrv.Edge.NONE:
                    return  # edges "none": nothing to wait for
                # what an earlier watch left in the queue is not news
                while self._request.wait_edge_events(0):
                    self._request.read_edge_events()
                self._last_ns = None
                self._update_soft_bounce()
            except BaseException:
                self._watching = False
                raise
        self._factory._event_thread().watch(self)

    def _stop_events(self) -> None:
        with self._lock:
            if not self._watching:
                return
            self._watching = False
        events = self._factory._events
        if events is not None:
            events.unwatch(self)
        with self._lock:
            if self._request is not None and self._settings.edge != udrv.Edge.NONE:
                self._apply(self._input_settings())

    def _dispatch(self, events: list[Any]) -> None:
        """Called by the event thread with what the request read: the
        callbacks' path, kept short."""
        bounce = self._soft_bounce_ns
        for ev in events:
            if ev.lost:
                self.lost_events += ev.lost
            ts = ev.timestamp_ns
            if bounce is not None:
                if self._last_ns is not None and ts - self._last_ns < bounce:
                    continue
                self._last_ns = ts
            ref_ = self._when_changed
            method = None if ref_ is None else ref_()
            if method is None:  # the device went away without telling us
                self.when_changed = None
                return
            method(ts, 1 if ev.edge == _RISING else 0)
