# SPDX-License-Identifier: LGPL-2.1-or-later
"""The enums and the value classes of udrv (importable from udrv)."""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass


class Direction(enum.IntEnum):
    """A line's direction."""

    INPUT = 0
    OUTPUT = 1


class Bias(enum.IntEnum):
    """A line's pull resistor; AS_IS leaves it as it is."""

    AS_IS = 0
    DISABLED = 1
    PULL_UP = 2
    PULL_DOWN = 3


class Drive(enum.IntEnum):
    """How an output drives its line."""

    PUSH_PULL = 0
    OPEN_DRAIN = 1
    OPEN_SOURCE = 2


class Edge(enum.IntEnum):
    """Edge detection of a line, and the edge of an EdgeEvent."""

    NONE = 0
    RISING = 1
    FALLING = 2
    BOTH = 3


class Clock(enum.IntEnum):
    """The clock of edge events' timestamps (HTE: a hardware timestamp engine)."""

    MONOTONIC = 0
    REALTIME = 1
    HTE = 2


class InfoChange(enum.IntEnum):
    """What happened to a watched line (InfoEvent.change): a process
    requested it, released it, or changed its settings."""

    REQUESTED = 1
    RELEASED = 2
    RECONFIGURED = 3


class Backend(enum.IntEnum):
    """How a request drives its lines: the GPIO character device (uAPI v2),
    the legacy sysfs interface, or the SoC's registers (MMIO)."""

    # libudrv's backends (lib/gpio/backends.c), by name and value: a test holds
    # them to the library's (_udrv.BACKEND_NAMES)
    CDEV = 0
    SYSFS = 1
    MMIO = 2


class Polarity(enum.IntEnum):
    """A PWM's polarity (enum udrv_pwm_polarity): NORMAL is active high for
    the duty cycle, INVERSED active low."""

    NORMAL = 0
    INVERSED = 1


class Policy(enum.IntEnum):
    """Scheduling policies (the os.SCHED_* values)."""

    OTHER = getattr(os, "SCHED_OTHER", 0)
    FIFO = getattr(os, "SCHED_FIFO", 1)
    RR = getattr(os, "SCHED_RR", 2)


class RtLevel(enum.IntEnum):
    """The level of an RtFinding."""

    OK = 0
    INFO = 1
    WARN = 2


@dataclass(frozen=True)
class LineSettings:
    """The settings of one line in a request. value is the initial logical
    value of an output (active-low applied); debounce_us 0 is no debounce."""

    direction: Direction = Direction.INPUT
    value: int = 0
    bias: Bias = Bias.AS_IS
    drive: Drive = Drive.PUSH_PULL
    active_low: bool = False
    edge: Edge = Edge.NONE
    debounce_us: int = 0
    event_clock: Clock = Clock.MONOTONIC

    def __post_init__(self) -> None:
        # ints become the enums (ValueError for one that is none of them)
        for name, cls in (("direction", Direction), ("bias", Bias), ("drive", Drive),
                          ("edge", Edge), ("event_clock", Clock)):
            object.__setattr__(self, name, cls(getattr(self, name)))
        if self.value not in (0, 1):
            raise ValueError(f"LineSettings.value is 0 or 1, not {self.value!r}")
        if not 0 <= self.debounce_us <= 0xFFFFFFFF:
            raise ValueError(f"LineSettings.debounce_us is 0..2^32-1, not {self.debounce_us!r}")

    def _astuple(self) -> tuple[int, int, int, int, int, int, int, int]:
        return (int(self.direction), int(self.value), int(self.bias), int(self.drive),
                int(bool(self.active_low)), int(self.edge), int(self.debounce_us),
                int(self.event_clock))


@dataclass(frozen=True)
class LineInfo:
    """What the kernel says about one line (Chip.line_info()). name and
    consumer are "" when unnamed / free."""

    offset: int
    name: str
    consumer: str
    used: bool
    direction: Direction
    active_low: bool
    bias: Bias
    drive: Drive
    edge: Edge
    event_clock: Clock
    debounce_us: int


@dataclass(frozen=True)
class InfoEvent:
    """A change of a watched line's info (Chip.read_info_event()): what
    happened, when (the kernel's CLOCK_MONOTONIC, ns), and the line's info
    after it."""

    change: InfoChange
    timestamp_ns: int
    info: LineInfo


@dataclass(frozen=True)
class ChipInfo:
    """A chip: its name (gpiochip0), label, device path, number of lines,
    whether it has a character device, and its sysfs base (None without
    sysfs GPIO)."""

    name: str
    label: str
    path: str
    num_lines: int
    has_cdev: bool
    sysfs_base: int | None


@dataclass(frozen=True)
class UioMapInfo:
    """A memory region of a UIO device (sys/class/uio/uioN/maps/mapK)."""

    index: int
    name: str
    addr: int
    size: int
    offset: int


@dataclass(frozen=True)
class UioPortInfo:
    """An I/O port region of a UIO device (sys/class/uio/uioN/portio/portK)."""

    index: int
    name: str
    start: int
    size: int
    porttype: str


@dataclass(frozen=True)
class RtState:
    """What is in force for the calling thread: policy, priority, locked
    memory, the single CPU it is pinned to (-1: none), the value held on
    /dev/cpu_dma_latency (-1: none)."""

    policy: int
    priority: int
    memory_locked: bool
    cpu: int
    dma_latency_us: int


@dataclass(frozen=True)
class RtFinding:
    """One finding of rt_check(): its level, topic ("preempt",
    "throttling", ...) and what was found and what to do about it."""

    level: RtLevel
    topic: str
    text: str


@dataclass(frozen=True)
class RtReport:
    """Readiness of this system for real-time work (rt_check())."""

    release: str
    version: str
    preempt_model: str
    realtime: bool
    rt_runtime_us: int
    rt_period_us: int
    governor: str
    clocksource: str
    isolcpus: str
    nohz_full: str
    irq_threads: int
    irq_thread_prio_min: int
    irq_thread_prio_max: int
    can_rt: bool
    findings: tuple[RtFinding, ...]


@dataclass(frozen=True)
class RtThread:
    """A thread wake-ups go through (rt_threads()): pid, name, policy and
    priority (-1: unreadable)."""

    pid: int
    name: str
    policy: int
    priority: int


@dataclass(frozen=True)
class SoftPWMStats:
    """What a SoftPWM's thread counted since its last start (kept after a
    stop): periods begun; of them missed (an edge later than late_ns, or
    its pulse skipped) and skipped (the pulse not driven); the levels
    driven on deadlines; the latest edge's lateness in ns."""

    periods: int
    missed: int
    skipped: int
    edges: int
    worst_late_ns: int
