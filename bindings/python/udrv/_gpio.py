# SPDX-License-Identifier: LGPL-2.1-or-later
"""Chips and line requests: the package's side of udrv._udrv's Chip and
Request (config mappings, dataclasses, the event iterator, async for)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Literal, Optional, Union

from . import _udrv
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
    RtThread,
)

Line = Union[int, str]
ConfigKey = Union[int, str, tuple[Union[int, str], ...]]
Config = Mapping[ConfigKey, Optional[LineSettings]]
Responder = Callable[["Request", _udrv.EdgeEvent], object]
ChipResponder = Callable[["Chip", _udrv.EdgeEvent], object]

# udrv/responder.h
# "irq": UDRV_RESPOND_IRQ_LINE (3), the helper's own line (2 was 1.5's)
_WAITS = {"read": 0, "busy": 1, "irq": 3}
_LOCK_MEMORY, _PIN_CPU, _DMA_LATENCY = 1, 2, 4

_udrv._set_edge_enum(Edge)


def _flags(priority: int, lock_memory: bool | None, cpu: int | None,
           dma_latency_us: int | None) -> int:
    return ((_LOCK_MEMORY if (priority > 0 if lock_memory is None else lock_memory) else 0)
            | (_PIN_CPU if cpu is not None else 0)
            | (_DMA_LATENCY if dma_latency_us is not None else 0))  # fmt: skip


def _replies(replies: Mapping[int, bool] | None) -> tuple[tuple[int, ...], int]:
    """replies= (offset -> first level) as the reply lines and reply_high."""
    if replies is None:
        return (), 0
    for line in replies:
        if not isinstance(line, int) or isinstance(line, bool) or line < 0:
            raise ValueError(f"replies: a reply line is the helper's, an offset on the "
                             f"chip, not {line!r}")
    high = sum(1 << i for i, level in enumerate(replies.values()) if level)
    return tuple(replies), high


def _line_info(t: tuple[int, str, str, bool, int, bool, int, int, int, int, int]) -> LineInfo:
    return LineInfo(offset=t[0], name=t[1], consumer=t[2], used=t[3],
                    direction=Direction(t[4]), active_low=t[5], bias=Bias(t[6]),
                    drive=Drive(t[7]), edge=Edge(t[8]), event_clock=Clock(t[9]),
                    debounce_us=t[10])


class Chip(_udrv.Chip):
    """A GPIO chip, opened by path ("/dev/gpiochip0"), name ("gpiochip0"),
    number (0 or "0") or label ("pinctrl-bcm2835"). A context manager;
    close() when done (requests made from it stay valid).

    NotFoundError (a FileNotFoundError) when no chip matches, with the
    library's message: what was looked for and where.
    """

    __slots__ = ()

    def __init__(self, spec: str | int | os.PathLike[str]) -> None:
        # the C type opened the chip in __new__
        pass

    @property
    def info(self) -> ChipInfo:
        """The chip's name, label, path, number of lines, character device
        and sysfs base, at once."""
        return ChipInfo(self.name, self.label, self.path, self.num_lines, self.has_cdev,
                        self.sysfs_base)

    def line_info(self, offset: int) -> LineInfo:
        """What the kernel says about line offset: name, consumer, whether
        it is used, and its settings."""
        return _line_info(self._line_info(offset))

    def _offset(self, line: Line) -> int:
        if isinstance(line, str):
            return self.line_offset(line)
        if isinstance(line, int) and not isinstance(line, bool):
            return line
        raise TypeError(f"a line is an offset (int) or a name (str), not {line!r}")

    def watch_line_info(self, line: Line) -> LineInfo:
        """Watch a line (offset or name): from now on each request, release
        or reconfiguration of it by any process is an InfoEvent
        (read_info_event()); what libgpiod's gpionotify shows. Returns the
        line's info now. BusyError when this Chip watches it already;
        OSError (ENOTTY) on a kernel without the watch (before 5.10)."""
        return _line_info(self._watch_line_info(self._offset(line)))

    def unwatch_line_info(self, line: Line) -> None:
        """Stop watching a line (BusyError when it is not watched)."""
        self._unwatch_line_info(self._offset(line))

    def read_info_event(self) -> InfoEvent:
        """The next change of a watched line, waiting for one (Ctrl-C
        interrupts the wait; wait_info_event() or fileno() to wait with a
        timeout or among other files)."""
        change, ts, t = self._read_info_event()
        return InfoEvent(InfoChange(change), ts, _line_info(t))

    def info_events(self, timeout: float | None = None) -> Iterator[InfoEvent]:
        """The watched lines' changes as they come; ends when none came for
        timeout seconds (None: never)."""
        while self.wait_info_event(timeout):
            yield self.read_info_event()

    def _resolve(self, config: Config) -> tuple[list[int], list[LineSettings], dict[str, int]]:
        """config -> offsets, settings (one per line), {name: index}."""
        if not isinstance(config, Mapping):
            raise TypeError("config must be a mapping {line or tuple of lines: "
                            f"LineSettings or None}}, not {type(config).__name__}")
        offsets: list[int] = []
        settings: list[LineSettings] = []
        names: dict[str, int] = {}
        for key, s in config.items():
            if s is None:
                s = LineSettings()
            elif not isinstance(s, LineSettings):
                raise TypeError(f"settings of {key!r} must be a LineSettings or None, "
                                f"not {type(s).__name__}")
            for line in key if isinstance(key, tuple) else (key,):
                if isinstance(line, str):
                    names[line] = len(offsets)
                    offsets.append(self.line_offset(line))
                elif isinstance(line, int) and not isinstance(line, bool):
                    offsets.append(line)
                else:
                    raise TypeError(f"a line is an offset (int) or a name (str), not {line!r}")
                settings.append(s)
        if not offsets:
            raise ValueError("config names no line")
        return offsets, settings, names

    def respond(self, callback: ChipResponder, *, line: int, replies: Mapping[int, bool],
                priority: int = 0, irq_priority: int | None = None, cpu: int | None = None,
                lock_memory: bool | None = None, prefault_stack: int = 0,
                dma_latency_us: int | None = None) -> list[RtThread]:  # fmt: skip
        """Request.respond(wait="irq") with every line the kernel helper
        udrv-irq's and no request: line (its offset) the input, replies
        {offset: first level} its outputs. callback(chip, event) answers
        with chip.reply(offset, level), written when it returns, with the
        helper's next wait; it returns True to stop. The scheduling
        settings and what they put back are respond()'s.
        """
        if not isinstance(line, int) or isinstance(line, bool) or line < 0:
            raise ValueError(f"line is the helper's input, an offset on the chip, not "
                             f"{line!r}")
        found = self._respond(callback, line, _WAITS["irq"], priority, irq_priority or 0,
                              _flags(priority, lock_memory, cpu, dma_latency_us), cpu or 0,
                              dma_latency_us or 0, prefault_stack, 0, 0,
                              *_replies(replies))  # fmt: skip
        return [RtThread(*t) for t in found]

    def request(self, config: Config, *, consumer: str = "udrv",
                backend: Backend = Backend.CDEV, layout: _udrv.GpioLayout | None = None,
                event_buffer_size: int = 0) -> Request:
        """Request lines: config maps offsets or names (or tuples of them
        sharing settings) to LineSettings (None: an input, no edges).

        consumer is the name the kernel shows as the lines' user; backend
        CDEV (default), SYSFS or MMIO (with layout for a block udrv does
        not know); event_buffer_size the kernel's event queue (0: its
        default). BusyError names the holder of a busy line.
        """
        offsets, settings, names = self._resolve(config)
        req = self._request(Request, tuple(offsets), tuple(s._astuple() for s in settings),
                            names or None, consumer, int(Backend(backend)), layout,
                            event_buffer_size)
        assert isinstance(req, Request)
        req._settings = settings
        req._names = names
        return req


class Request(_udrv.Request):
    """Lines of one chip held together (Chip.request()). A context manager;
    release() gives the lines back. Values are logical (active-low applied).

    set_value() is the hot path; get_values()/set_values() touch several
    lines in one operation. Edge events: wait_edge_events(),
    read_edge_events(), edge_events() (an iterator), fileno() (selectors),
    async for (asyncio).
    """

    __slots__ = ("__weakref__", "_names", "_settings")
    _settings: list[LineSettings]
    _names: dict[str, int]

    @classmethod
    def adopt(cls, chip: str, fd: int, offsets: Iterable[int], *,
              names: Mapping[str, int] | None = None) -> Request:  # fmt: skip
        """Take over a request that someone else made: fd is its file
        descriptor, as udrvd hands it over (io.udrv1.Request.GetFd;
        udrv.take_held() asks for you) or a parent passes it on, offsets all
        its lines in its order, chip its chip's name ("gpiochip0"). No
        access to the chip is needed. The Request drives the lines at the
        character device's speed; release() closes fd and leaves the lines
        with their holder, at their level. names ({name: offset}) lets the
        Request take lines by name. Its chip is None and its settings
        empty: they are the holder's, not known here (a reconfigure names
        every line).
        On success the Request owns fd; on an error it stays yours:
        InvalidError when fd is no line request of that many lines.
        """
        offs = tuple(offsets)
        index: dict[str, int] = {}
        for name, off in (names or {}).items():
            if off not in offs:
                raise ValueError(f"line {name!r} (offset {off}) is not in the request {offs}")
            index[name] = offs.index(off)
        req = cls._adopt(chip, fd, offs, index or None)
        assert isinstance(req, Request)
        req._settings = []
        req._names = index
        return req

    @property
    def backend(self) -> Backend:
        """The backend that drives the lines."""
        return Backend(self._backend)

    @property
    def settings(self) -> tuple[LineSettings, ...]:
        """The lines' settings, in request order (empty for a request taken
        over: adopt())."""
        return tuple(self._settings)

    def reconfigure(self, config: Config) -> None:
        """Change lines' settings without releasing them. config has the
        shape of Chip.request()'s; lines it does not name keep theirs, and
        it may name only lines of this request."""
        if not isinstance(config, Mapping):
            raise TypeError("config must be a mapping {line: LineSettings or None}")
        # a request taken over (adopt()) knows no settings: all are named
        new: list[LineSettings | None] = list(self._settings) or [None] * len(self.offsets)
        offsets = self.offsets
        for key, s in config.items():
            if s is None:
                s = LineSettings()
            elif not isinstance(s, LineSettings):
                raise TypeError(f"settings of {key!r} must be a LineSettings or None")
            for line in key if isinstance(key, tuple) else (key,):
                if isinstance(line, str) and line in self._names:
                    new[self._names[line]] = s
                elif isinstance(line, int) and not isinstance(line, bool) and line in offsets:
                    new[offsets.index(line)] = s
                else:
                    raise ValueError(f"line {line!r} is not in this request "
                                     f"(offsets {offsets})")
        known = [s for s in new if s is not None]
        if len(known) < len(new):
            raise ValueError("this request was taken over (adopt()): its lines' settings are "
                             "their holder's, not known here; name every line of it")
        self._reconfigure(tuple(s._astuple() for s in known))
        self._settings = known

    def _index(self, line: Line) -> int:
        """The request's index of a line (offset or name)."""
        if isinstance(line, str) and line in self._names:
            return self._names[line]
        if isinstance(line, int) and not isinstance(line, bool) and line in self.offsets:
            return self.offsets.index(line)
        raise ValueError(f"line {line!r} is not in this request (offsets {self.offsets})")

    def _irq_offset(self, line: Line) -> int:
        """The helper's line for wait="irq": an offset the request does not hold."""
        if not isinstance(line, int) or isinstance(line, bool) or line < 0:
            raise ValueError(f"wait='irq' takes the line's offset on the chip, not {line!r}")
        return line

    def respond(self, callback: Responder, *, line: Line,
                wait: Literal["read", "busy", "irq"] = "read", priority: int = 0,
                irq_priority: int | None = None, cpu: int | None = None,
                lock_memory: bool | None = None, prefault_stack: int = 0,
                dma_latency_us: int | None = None, busy_spin_us: int = 0,
                busy_pause_us: int = 0,
                replies: Mapping[int, bool] | None = None) -> list[RtThread]:  # fmt: skip
        """Call callback(request, event) for each edge of the input line
        (offset or name) until it returns True (None or False: go on).

        wait "read" blocks in the kernel's read of the line's edge events
        (the character device, the line requested with edge detection);
        "busy" reads the level in a loop on any backend, busy_spin_us (0:
        1000) at a time, then pauses busy_pause_us (0: no sleep) and takes
        signals; its events carry the level seen as their edge. "irq"
        blocks in a read of the toolkit's kernel helper udrv-irq
        (/dev/udrv-irq: modprobe udrv-irq), whose handler wakes the thread
        from the line's hard interrupt, no irq thread on the way. With
        "irq" the line is the helper's, not the request's: give its offset
        on the request's chip, a line this request does not hold; the
        helper requests it as an input with both edges for the run and
        gives it back after (a line someone else holds, udrvd's included:
        udrv.Error EBUSY naming the holder). Its events carry the raw level
        the helper read as their edge, and index 0xffffffff.

        The calling thread runs at SCHED_FIFO priority (0: SCHED_OTHER),
        after the threads that wake it (the line's irq thread) are raised
        to irq_priority (None: priority + 1 on PREEMPT_RT; elsewhere they
        are left as they are): never above them there. cpu pins
        it, lock_memory (None: when priority > 0) locks the process's
        memory with prefault_stack bytes of stack (0: 512 KiB),
        dma_latency_us holds /dev/cpu_dma_latency. Everything is put back
        when it returns: by the callback's True, by an exception in the
        callback (it propagates), by Ctrl-C (KeyboardInterrupt; run it in
        the main thread, as Python runs signal handlers there) or an error
        (udrv.Error saying what failed and how to fix it).

        Returns the wake threads it found ([] for "busy", "irq", or a
        wake-up through no thread), as it left them. The callback may drive the
        request's lines; another blocking call on the request meanwhile
        raises RuntimeError.

        With "irq", replies={offset: first level, ...} (at most 8) are
        output lines the helper holds too (offsets on the chip, not lines
        of the request): the callback sets them with
        request.reply(offset, level), and the helper writes them when it
        returns, in the call that waits for the next edge (one system call
        an edge; the raw level, no active-low). Chip.respond() is the same
        with every line the helper's and no request.
        """
        if wait not in _WAITS:
            raise ValueError(f"wait is 'read', 'busy' or 'irq', not {wait!r}")
        found = self._respond(callback, self._irq_offset(line) if wait == "irq" else
                              self._index(line), _WAITS[wait], priority,
                              irq_priority or 0,
                              _flags(priority, lock_memory, cpu, dma_latency_us), cpu or 0,
                              dma_latency_us or 0, prefault_stack, busy_spin_us,
                              busy_pause_us, *_replies(replies))  # fmt: skip
        return [RtThread(*t) for t in found]

    def edge_events(self, timeout: float | None = None) -> Iterator[_udrv.EdgeEvent]:
        """Edge events as they come; the iterator ends when none came for
        timeout seconds (None: never)."""
        while self.wait_edge_events(timeout):
            yield from self.read_edge_events()

    def __aiter__(self) -> AsyncIterator[_udrv.EdgeEvent]:
        """async for ev in request: events through the running loop's
        add_reader on fileno() (the loop never blocks on the request)."""
        from ._aio import aiter_events

        return aiter_events(self)
