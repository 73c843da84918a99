#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""udrv-pybench: Python through udrv vs Python through gpiod 2.5, same line, one run.

Two measurements on rig/kernel/gpio-wire (an output line wired to an input line):

toggle   set_value() on the output line, N calls per round, rounds interleaved
         (udrv, gpiod, gpiod, udrv, udrv, gpiod, ...: each pair swaps who goes
         first, so that drift favours neither); ns/call per round, the median
         and the minimum of the rounds. The source's own count checks the
         calls: gpio-wire's `edges` file (DRIVEN of the input line) must grow
         by exactly N per round, else the round failed.
events   gpio-wire's generator (a hard hrtimer) makes E edges on the input
         line at a fixed period; each side reads them through its own API
         (udrv: Request.read_edge_events(); gpiod: LineRequest.read_edge_events())
         after a blocking wait; latency = CLOCK_MONOTONIC at receipt - the
         event's kernel timestamp (taken in the hardirq), into a udrv.Histogram.
         Losses are counted at the source: made = the generator's gen_edges
         delta; received + lost (the request's sequence-number gaps: the
         kernel's buffer overflowed, or edges merged before its irq thread ran;
         the request holds a second, idle input line so that the kernel
         numbers events in its hardirq handler, where merges leave a gap)
         + dropped (gpio-wire's DROPPED: its drop_every fault injection) +
         masked (gen_masked: made while the line's interrupt was masked, as
         the character device's oneshot threaded handler does until its
         thread ran) must add up to it; the rest is `unaccounted` and fails
         the run.

--buses adds I2C, SPI and gpiozero (the document's buses section): -n calls
per round, --rounds rounds, interleaved the same way, each answer checked.
I2C on i2c-stub at 0x50 (--i2c-adapter): read_byte_data, read_word_data,
read_i2c_block_data(32) through udrv.I2C, smbus (python3-smbus), smbus2 and
periphery (plain I2C transfers only: no row on an SMBus-only adapter, the
reason in `unsupported`), each answer compared with the raw I2C_SMBUS ioctl's
for that register (seeded first, put back after). SPI on spi-fixture's
spi-loopback: a 3-byte transfer through udrv.SPI, spidev (xfer2) and
periphery, each reply what was sent, a different frame each call.
gpiozero's MCP3008(channel=1).value through udrv's factory on spi-fixture's
mcp3008: reads per second, each value the channel's input (set per round);
with --gpiozero DIR, the same again under the gpiozero in DIR (a child
udrv-pybench with DIR first on its sys.path, which must import it from there).
A wrong answer or a peer that does not import fails the run.

The table has a row per library and a row of ratios udrv/gpiod (below 1:
udrv is faster), on standard output. --json FILE writes the same numbers as a
document of its own into FILE, the document alone (schema udrv-pybench-1:
rig/results/udrv-pybench-1.schema.json, docs/rig/results.md "python bench";
read it with rig.results.load_pybench); with --json - the document is all of
standard output and the table goes to standard error.

Exit status: 0 when every round counted and every edge was accounted for, 1
when not (or a runtime failure, with the reason, or FILE could not be
written), 2 on a usage error. SIGINT/SIGTERM stop the generator and put back
its settings.

Examples:
  udrv-pybench                                  # 5 rounds of 2000 calls, 1000 edges at 5 kHz
  udrv-pybench -n 500 --rounds 3 --events 300 --json /out/pybench.json
  udrv-pybench --prio 80                        # both sides at SCHED_FIFO 80
  udrv-pybench --profile -n 1000 --events 500   # where the time goes, per library
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = "udrv-pybench-1"
WIRE = Path("/sys/devices/platform/gpio-wire")
EDGES = WIRE / "edges"
LIBS = ("udrv", "gpiod")
QUIET_S = 1.0  # after the generator stopped: no event for this long ends a run


class BenchError(Exception):
    """A runtime failure: the message says what and the fix."""


def _positive(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"{text!r}: a whole number {lo}..{hi}")
        return int(text)

    return parse


def read_int(path: Path) -> int:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError) as exc:
        raise BenchError(f"cannot read a number from {path}: {exc} (is gpio-wire loaded?)") \
            from exc


def write_int(path: Path, value: int) -> None:
    try:
        path.write_text(f"{value}\n")
    except OSError as exc:
        raise BenchError(f"cannot write {value} to {path}: {exc}") from exc


def wire_counts(in_line: int) -> tuple[int, int]:
    """gpio-wire's counts for @in_line's wire: (DRIVEN, DROPPED), the level
    changes put on it and the edges its fault injection (drop_every) swallowed."""
    try:
        for line in EDGES.read_text().splitlines():
            f = line.split()
            if len(f) == 3 and f[0] == str(in_line):
                return int(f[1]), int(f[2])
    except (OSError, ValueError) as exc:
        raise BenchError(f"cannot read {EDGES}: {exc} (is gpio-wire loaded?)") from exc
    raise BenchError(f"{EDGES} has no line {in_line}")


def driven(in_line: int) -> int:
    return wire_counts(in_line)[0]


def companion_line(in_line: int) -> int:
    """Another input line of gpio-wire, requested with @in_line for its events:
    in a request of two lines or more the kernel numbers events (seqno) in its
    hardirq handler, so edges merged before the irq thread queued them leave a
    gap; a one-line request numbers them in the thread, where merges vanish."""
    try:
        inputs = [int(r.split()[0]) for r in EDGES.read_text().splitlines() if r.strip()]
    except (OSError, ValueError, IndexError) as exc:
        raise BenchError(f"cannot read {EDGES}: {exc} (is gpio-wire loaded?)") from exc
    others = sorted((x for x in inputs if x != in_line), key=lambda x: (x < in_line, x))
    if not others:
        raise BenchError(f"gpio-wire has no input line besides {in_line} (nlines >= 4)")
    return others[0]


def find_chip(label: str) -> str:
    """/dev/gpiochipN of the chip labelled @label (from sysfs: no library's lookup)."""
    for cls in sorted(Path("/sys/class/gpio").glob("gpiochip*")):
        with contextlib.suppress(OSError):
            if (cls / "label").read_text().strip() == label:
                for dev in sorted((cls / "device").glob("gpiochip*")):
                    return f"/dev/{dev.name}"
    raise BenchError(f"no gpiochip labelled {label!r}: load the gpio-wire module "
                     "(insmod gpio-wire.ko)")


# --- the two sides, behind the same small interface ---------------------------------
class Side:
    name = ""

    def output(self, path: str, line: int) -> Any: ...
    def toggler(self, req: Any, line: int) -> Callable[[int], None]: ...
    def edges(self, path: str, lines: tuple[int, int], buffer: int) -> Any: ...
    def read(self, req: Any) -> list[tuple[int, int, int]]:
        """(timestamp_ns, request seqno, offset) of the pending events; blocks
        until one is."""
        raise NotImplementedError

    def wait(self, req: Any, timeout: float) -> bool: ...
    version = ""


class UdrvSide(Side):
    name = "udrv"

    def __init__(self) -> None:
        import udrv

        self.m = udrv
        self.version = udrv.version()

    def output(self, path: str, line: int) -> Any:
        s = self.m.LineSettings(direction=self.m.Direction.OUTPUT, value=0)
        with self.m.Chip(path) as chip:
            return chip.request({line: s}, consumer="udrv-pybench")

    def toggler(self, req: Any, line: int) -> Callable[[int], None]:
        set_value = req.set_value
        values = (0, 1)

        def run(n: int) -> None:
            for i in range(n):
                set_value(line, values[i & 1])

        return run

    def edges(self, path: str, lines: tuple[int, int], buffer: int) -> Any:
        s = self.m.LineSettings(edge=self.m.Edge.BOTH, event_clock=self.m.Clock.MONOTONIC)
        with self.m.Chip(path) as chip:
            return chip.request({lines: s}, consumer="udrv-pybench", event_buffer_size=buffer)

    def wait(self, req: Any, timeout: float) -> bool:
        return bool(req.wait_edge_events(timeout))

    def read(self, req: Any) -> list[tuple[int, int]]:
        return [(ev.timestamp_ns, ev.seqno, ev.offset) for ev in req.read_edge_events(64)]


class GpiodSide(Side):
    name = "gpiod"

    def __init__(self) -> None:
        import gpiod
        from gpiod.line import Clock, Direction, Edge, Value

        self.m = gpiod
        self.Clock, self.Direction, self.Edge, self.Value = Clock, Direction, Edge, Value
        self.version = f"{gpiod.__version__} (libgpiod {gpiod.api_version})"

    def output(self, path: str, line: int) -> Any:
        s = self.m.LineSettings(direction=self.Direction.OUTPUT, output_value=self.Value.INACTIVE)
        return self.m.request_lines(path, consumer="udrv-pybench", config={line: s})

    def toggler(self, req: Any, line: int) -> Callable[[int], None]:
        set_value = req.set_value
        values = (self.Value.INACTIVE, self.Value.ACTIVE)

        def run(n: int) -> None:
            for i in range(n):
                set_value(line, values[i & 1])

        return run

    def edges(self, path: str, lines: tuple[int, int], buffer: int) -> Any:
        s = self.m.LineSettings(edge_detection=self.Edge.BOTH, event_clock=self.Clock.MONOTONIC)
        return self.m.request_lines(path, consumer="udrv-pybench", config={lines: s},
                                    event_buffer_size=buffer or None)  # fmt: skip

    def wait(self, req: Any, timeout: float) -> bool:
        return bool(req.wait_edge_events(timeout))

    def read(self, req: Any) -> list[tuple[int, int]]:
        return [(ev.timestamp_ns, ev.global_seqno, ev.line_offset)
                for ev in req.read_edge_events(64)]


# --- toggle ------------------------------------------------------------------------
@dataclass
class ToggleRow:
    ns_per_call: list[float] = field(default_factory=list)
    calls: int = 0
    driven: int = 0  # counted at the source

    def summary(self) -> dict[str, Any]:
        return {"ns_per_call": [round(x, 1) for x in self.ns_per_call],
                "median_ns": round(statistics.median(self.ns_per_call), 1),
                "min_ns": round(min(self.ns_per_call), 1),
                "calls": self.calls, "driven": self.driven}  # fmt: skip


def toggle_round(side: Side, path: str, out_line: int, in_line: int, n: int,
                 row: ToggleRow) -> None:  # fmt: skip
    req = side.output(path, out_line)
    try:
        run = side.toggler(req, out_line)
        run(100 if n >= 100 else n - n % 2)  # warm-up (even: ends low)
        before = driven(in_line)
        t0 = time.perf_counter_ns()
        run(n)
        t1 = time.perf_counter_ns()
        got = driven(in_line) - before
        run(1)  # the line back low (the level it was requested at): values[0]
    finally:
        req.release()
    row.ns_per_call.append((t1 - t0) / n)
    row.calls += n
    row.driven += got


def bench_toggle(sides: list[Side], path: str, out_line: int, in_line: int, n: int,
                 rounds: int) -> tuple[dict[str, ToggleRow], list[str]]:  # fmt: skip
    rows = {s.name: ToggleRow() for s in sides}
    order: list[str] = []
    for r in range(rounds):
        for side in sides if r % 2 == 0 else reversed(sides):
            toggle_round(side, path, out_line, in_line, n, rows[side.name])
            order.append(side.name)
    return rows, order


# --- events -------------------------------------------------------------------------
@dataclass
class EventRow:
    made: int = 0  # the generator's gen_edges
    received: int = 0
    lost: int = 0  # the request's sequence-number gaps (kernel buffer overflow, merged)
    dropped: int = 0  # gpio-wire's DROPPED (drop_every): made, never raised
    masked: int = 0  # the generator's gen_masked: made while the irq was masked
    other: int = 0  # events of the companion line (nobody drives it: 0)
    hist: Any = None
    seconds: float = 0.0

    @property
    def unaccounted(self) -> int:
        return self.made - self.received - self.lost - self.dropped - self.masked

    def summary(self) -> dict[str, Any]:
        return {"made": self.made, "received": self.received, "lost": self.lost,
                "dropped": self.dropped, "masked": self.masked, "other": self.other,
                "unaccounted": self.unaccounted,
                "seconds": round(self.seconds, 6), "latency_ns": latency(self.hist)}  # fmt: skip


def latency(h: Any) -> dict[str, Any]:
    """The histogram's figures (ns): count, min, p50, p90, p99, max, mean."""
    if not h.count:
        return {"count": 0}
    out = {"count": h.count, "min": h.min, "max": h.max, "mean": round(h.mean, 1)}
    for p in (50, 90, 99):
        out[f"p{p}"] = h.percentile(p)
    return out


class Generator:
    """gpio-wire's generator on @line; restore() puts its settings back."""

    def __init__(self, line: int) -> None:
        self.saved = {a: read_int(WIRE / a) for a in ("gen_line", "gen_limit")}
        if read_int(WIRE / "gen_period_ns"):
            raise BenchError(f"gpio-wire's generator is running ({WIRE}/gen_period_ns is not "
                             "0): another bench uses it; stop it with echo 0 > gen_period_ns")
        write_int(WIRE / "gen_line", line)

    def start(self, period_ns: int, limit: int) -> None:
        write_int(WIRE / "gen_limit", limit)
        write_int(WIRE / "gen_period_ns", period_ns)

    def running(self) -> bool:
        return read_int(WIRE / "gen_period_ns") != 0

    @staticmethod
    def made() -> int:
        return read_int(WIRE / "gen_edges")

    @staticmethod
    def masked() -> int:
        """Edges made while the line's interrupt was masked: raised nowhere (the
        character device's threaded handler keeps it masked until its thread ran)."""
        return read_int(WIRE / "gen_masked")

    def restore(self) -> None:
        with contextlib.suppress(BenchError):
            write_int(WIRE / "gen_period_ns", 0)
        for attr, value in self.saved.items():
            with contextlib.suppress(BenchError):
                write_int(WIRE / attr, value)


class ListHist:
    """The figures of udrv.Histogram that this bench uses, from a list: only for
    --only gpiod where udrv is not installed (the JSON says which was used)."""

    def __init__(self) -> None:
        self.v: list[int] = []
        self.record = self.v.append

    count = property(lambda self: len(self.v))
    min = property(lambda self: min(self.v))
    max = property(lambda self: max(self.v))
    mean = property(lambda self: statistics.fmean(self.v))

    def percentile(self, p: float) -> int:
        s = sorted(self.v)
        return s[min(len(s) - 1, int(len(s) * p / 100))]


def new_hist() -> Any:
    try:
        import udrv
    except ImportError:
        return ListHist()
    return udrv.Histogram()


def event_run(side: Side, gen: Generator, path: str, in_line: int, count: int,
              period_ns: int, buffer: int, hold_s: float) -> EventRow:  # fmt: skip
    """Make @count edges at @period_ns; read them (after @hold_s of not reading)."""
    row = EventRow(hist=new_hist())
    record = row.hist.record
    req = side.edges(path, (in_line, companion_line(in_line)), buffer)
    try:
        time.sleep(0.02)  # the request's irq thread runs once (docs/rig/kernel-modules.md)
        made0, dropped0, masked0 = gen.made(), wire_counts(in_line)[1], gen.masked()
        last_seq = 0
        read, wait, now = side.read, side.wait, time.monotonic_ns
        t0 = time.monotonic()
        gen.start(period_ns, count)
        if hold_s:
            time.sleep(hold_s)
        # the end: the generator stopped by its limit and every edge it made is
        # accounted for, or QUIET_S without an event after it stopped (on the
        # SMP boards guest time is the host's: the irq thread can be late)
        deadline = t0 + hold_s + count * period_ns / 1e9 * 4 + 5.0
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            if wait(req, 0.05):
                events = read(req)
                t = now()
                for ts, seq, off in events:
                    row.lost += seq - last_seq - 1
                    last_seq = seq
                    if off == in_line:
                        record(t - ts)
                        row.received += 1
                    else:
                        row.other += 1
                quiet_since = time.monotonic()
                continue
            if gen.running():
                quiet_since = time.monotonic()
                continue
            made = gen.made() - made0
            if row.received + row.lost >= made - (wire_counts(in_line)[1] - dropped0) \
                    - (gen.masked() - masked0) or time.monotonic() - quiet_since > QUIET_S:
                break
        row.seconds = time.monotonic() - t0
        row.made = gen.made() - made0
        row.dropped = wire_counts(in_line)[1] - dropped0
        row.masked = gen.masked() - masked0
    finally:
        req.release()
    return row


def park(side: Side, path: str, out_line: int) -> None:
    """Drive the wire low from its output line (high, then low: the generator
    moved the input's level behind the output's back, and an interrupted run
    may have left it high)."""
    req = side.output(path, out_line)
    try:
        run = side.toggler(req, out_line)
        run(2)  # low, high
        run(1)  # low
    finally:
        req.release()


def bench_events(sides: list[Side], path: str, out_line: int, in_line: int, count: int,
                 period_ns: int, buffer: int, hold_s: float) -> dict[str, EventRow]:  # fmt: skip
    gen = Generator(in_line)
    try:
        return {s.name: event_run(s, gen, path, in_line, count, period_ns, buffer, hold_s)
                for s in sides}  # fmt: skip
    finally:
        gen.restore()
        park(sides[0], path, out_line)


# --- --profile ----------------------------------------------------------------------
def profile(sides: list[Side], path: str, args: argparse.Namespace) -> None:
    """One toggle round and one events run per library under cProfile: the
    Python-visible calls per set_value() and per event, and where time went
    (what to look at when one side is slower)."""
    import cProfile
    import io
    import pstats

    def report(name: str, what: str, prof: cProfile.Profile, n: int) -> None:
        st = pstats.Stats(prof)
        print(f"{name}: {st.total_calls / max(n, 1):.2f} calls per {what} ({n})")  # type: ignore[attr-defined]
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(6)
        print("\n".join(out.getvalue().strip().splitlines()[-7:]))

    for side in sides:
        req = side.output(path, args.out_line)
        try:
            run = side.toggler(req, args.out_line)
            prof = cProfile.Profile()
            prof.runcall(run, args.calls)
            run(1)  # back low
        finally:
            req.release()
        report(side.name, "set_value", prof, args.calls)
        gen = Generator(args.in_line)
        try:
            prof = cProfile.Profile()
            row = prof.runcall(event_run, side, gen, path, args.in_line, args.events,
                               args.period_ns, args.buffer, 0.0)
        finally:
            gen.restore()
            park(side, path, args.out_line)
        report(side.name, "event", prof, row.received)


# --- buses (--buses): I2C on i2c-stub, SPI on spi-fixture's loopback, gpiozero's MCP3008 ---
I2C_ADAPTER = "SMBus stub driver"  # Debian's i2c-stub (the lab loads it with chip_addr=0x50)
I2C_ADDRESS = 0x50
I2C_LIBS = ("udrv", "smbus", "smbus2", "periphery")
SPI_LIBS = ("udrv", "spidev", "periphery")
I2C_CALLS = {"byte-data": 1, "word-data": 2, "i2c-block-32": 32}  # bytes each call reads
REGS = 32  # the registers the I2C calls cycle through (0..REGS-1; a block read: 32 from each)
SPI_LENGTH = 3
SPI_FRAMES = 251  # the loopback's frames: each call sends the next, all different
SPI_LOOPBACK = "spi-loopback"
SPI_ADC = "mcp3008"
ADC = Path("/sys/devices/platform/spi-fixture/adc")
ADC_CHANNEL = 1
I2C_FUNC_I2C = 0x1
# the raw ioctl (linux/i2c-dev.h, linux/i2c.h): the reference reads and the seeding
I2C_SLAVE, I2C_SMBUS = 0x0703, 0x0720
SMBUS_READ, SMBUS_WRITE = 1, 0
SMBUS_BYTE_DATA, SMBUS_WORD_DATA, SMBUS_I2C_BLOCK_DATA = 2, 3, 8
# what each library's row does, per call (the same bytes on the wire)
WHAT = {
    "udrv": "udrv.I2C(bus, 0x50): read_byte_data(reg), read_word_data(reg), "
            "read_i2c_block_data(reg, 32)",
    "smbus": "smbus.SMBus(bus) (python3-smbus, C): read_byte_data(0x50, reg), "
             "read_word_data(0x50, reg), read_i2c_block_data(0x50, reg, 32)",
    "smbus2": "smbus2.SMBus(bus) (python3-smbus2, pure Python): the same calls",
    "periphery": "periphery.I2C(path).transfer(0x50, [Message([reg]), Message(n, read=True)]): "
                 "plain I2C only (I2C_RDWR), the register written then n bytes read",
}
SPI_WHAT = {
    "udrv": "udrv.SPI(node).transfer(tx)",
    "spidev": "spidev.SpiDev(bus, cs).xfer2(tx) (python3-spidev, C)",
    "periphery": "periphery.SPI(node, 0, speed).transfer(tx) (python3-periphery, pure Python)",
}


class _SmbusIoctl(ctypes.Structure):
    _fields_ = [("read_write", ctypes.c_uint8), ("command", ctypes.c_uint8),
                ("size", ctypes.c_uint32), ("data", ctypes.c_void_p)]  # fmt: skip


class RawI2C:
    """The kernel's I2C_SMBUS ioctl itself, no library: what each library's
    answers are checked against, and the seeding of i2c-stub's registers."""

    def __init__(self, path: str, address: int) -> None:
        self.fd = os.open(path, os.O_RDWR)
        fcntl.ioctl(self.fd, I2C_SLAVE, address)

    def close(self) -> None:
        os.close(self.fd)

    def _xfer(self, rw: int, reg: int, size: int, data: bytes = b"") -> bytes:
        buf = ctypes.create_string_buffer(data.ljust(34, b"\0"), 34)
        arg = _SmbusIoctl(rw, reg, size, ctypes.addressof(buf))
        fcntl.ioctl(self.fd, I2C_SMBUS, arg)
        return buf.raw

    def read(self, kind: str, reg: int) -> int | bytes:
        if kind == "byte-data":
            return self._xfer(SMBUS_READ, reg, SMBUS_BYTE_DATA)[0]
        if kind == "word-data":
            return int.from_bytes(self._xfer(SMBUS_READ, reg, SMBUS_WORD_DATA)[:2], "little")
        n = I2C_CALLS[kind]
        return self._xfer(SMBUS_READ, reg, SMBUS_I2C_BLOCK_DATA, bytes([n]))[1:1 + n]

    def write_word(self, reg: int, value: int) -> None:
        self._xfer(SMBUS_WRITE, reg, SMBUS_WORD_DATA, value.to_bytes(2, "little"))


def i2c_bus_of(adapter: str) -> int:
    """The number of the I2C bus whose adapter is named @adapter (sysfs)."""
    for d in sorted(Path("/sys/bus/i2c/devices").glob("i2c-*")):
        with contextlib.suppress(OSError):
            if (d / "name").read_text().strip() == adapter:
                return int(d.name[4:])
    raise BenchError(f"no I2C adapter named {adapter!r}: load i2c-stub and i2c-dev "
                     f"(modprobe i2c-dev; modprobe i2c-stub chip_addr=0x{I2C_ADDRESS:02x})")


def spidev_of(modalias: str) -> tuple[int, int]:
    """(bus, chip select) of the spidev node of the SPI device @modalias (sysfs)."""
    for d in sorted(Path("/sys/bus/spi/devices").glob("spi*.*")):
        with contextlib.suppress(OSError, ValueError):
            if (d / "modalias").read_text().strip() in (modalias, f"spi:{modalias}"):
                for node in sorted((d / "spidev").glob("spidev*")):
                    bus, cs = node.name[6:].split(".")
                    return int(bus), int(cs)
                raise BenchError(f"SPI device {d.name} ({modalias}) has no spidev node: bind it "
                                 "(rig/kernel/spi-fixture/lab-setup.sh)")
    raise BenchError(f"no SPI device {modalias!r}: load spi-fixture (insmod spi-fixture.ko; "
                     "rig/kernel/spi-fixture/lab-setup.sh)")


def _version(module: Any, dist: str) -> str:
    import importlib.metadata as md

    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return str(getattr(module, "__version__", "") or Path(module.__file__ or "?").name)


@dataclass
class BusRow:
    ns_per_call: list[float] = field(default_factory=list)
    calls: int = 0
    wrong: int = 0  # answers that were not the reference's

    def summary(self) -> dict[str, Any]:
        return {"ns_per_call": [round(x, 1) for x in self.ns_per_call],
                "median_ns": round(statistics.median(self.ns_per_call), 1),
                "min_ns": round(min(self.ns_per_call), 1),
                "calls": self.calls, "wrong": self.wrong}  # fmt: skip


# each I2C library: {call: run(regs) -> answers}, the answers as int or bytes
I2CRunners = dict[str, Callable[[list[int]], list[Any]]]


def i2c_runners(lib: str, bus: int, funcs: int, handles: list[Any]) -> I2CRunners | str:
    """@lib's runs of the I2C calls on @bus, or why it has none (unsupported)."""
    a = I2C_ADDRESS
    if lib == "udrv":
        import udrv

        h = udrv.I2C(bus, a)
        handles.append(h)
        rb, rw, rk = h.read_byte_data, h.read_word_data, h.read_i2c_block_data
        return {"byte-data": lambda regs: [rb(r) for r in regs],
                "word-data": lambda regs: [rw(r) for r in regs],
                "i2c-block-32": lambda regs: [rk(r, 32) for r in regs]}  # fmt: skip
    if lib in ("smbus", "smbus2"):
        mod = __import__(lib)
        s = mod.SMBus(bus)
        handles.append(s)
        sb, sw, sk = s.read_byte_data, s.read_word_data, s.read_i2c_block_data
        return {"byte-data": lambda regs: [sb(a, r) for r in regs],
                "word-data": lambda regs: [sw(a, r) for r in regs],
                "i2c-block-32": lambda regs: [bytes(sk(a, r, 32)) for r in regs]}  # fmt: skip
    import periphery

    if not funcs & I2C_FUNC_I2C:
        return (f"the adapter has no plain I2C (I2C_FUNC_I2C; funcs 0x{funcs:08x}): "
                "periphery.I2C does only I2C_RDWR transfers")
    p = periphery.I2C(f"/dev/i2c-{bus}")
    handles.append(p)
    M, xfer = periphery.I2C.Message, p.transfer

    def plain(n: int, word: bool) -> Callable[[list[int]], list[Any]]:
        def run(regs: list[int]) -> list[Any]:
            out = []
            for r in regs:
                msgs = [M([r]), M([0] * n, read=True)]
                xfer(a, msgs)
                d = msgs[1].data
                out.append(d[0] | d[1] << 8 if word else d[0] if n == 1 else bytes(d))
            return out

        return run

    return {"byte-data": plain(1, False), "word-data": plain(2, True),
            "i2c-block-32": plain(32, False)}  # fmt: skip


def bench_i2c(n: int, rounds: int, adapter: str, want: tuple[str, ...]) -> dict[str, Any]:
    """The I2C calls of each library in @want on @adapter's chip at 0x50."""
    bus = i2c_bus_of(adapter)
    path = f"/dev/i2c-{bus}"
    raw = RawI2C(path, I2C_ADDRESS)
    handles: list[Any] = []
    try:
        # seed the registers (words all different; i2c-stub keeps what was written),
        # then the reference: each call's answer per register, through the raw ioctl
        saved = [raw.read("word-data", r) for r in range(REGS + 32)]
        for r in range(REGS + 32):
            raw.write_word(r, (r * 0x9e37 + 0x1234) & 0xffff)
        ref = {k: [raw.read(k, r) for r in range(REGS)] for k in I2C_CALLS}
        import udrv

        with udrv.I2C(bus) as probe:
            funcs = probe.funcs
        runners: dict[str, I2CRunners] = {}
        unsupported: dict[str, str] = {}
        unavailable: dict[str, str] = {}
        for lib in want:
            try:
                got = i2c_runners(lib, bus, funcs, handles)
            except ImportError as exc:
                unavailable[lib] = f"cannot import {lib}: {exc}"
                continue
            if isinstance(got, str):
                unsupported[lib] = got
            else:
                runners[lib] = got
        regs = [i % REGS for i in range(n)]
        calls: dict[str, Any] = {}
        order: list[str] = []
        for kind in I2C_CALLS:
            rows = {lib: BusRow() for lib in runners}
            for each in runners.values():  # warm-up
                each[kind](regs[:min(n, 100)])
            libs = list(runners)
            for r in range(rounds):
                for lib in libs if r % 2 == 0 else reversed(libs):
                    run = runners[lib][kind]
                    t0 = time.perf_counter_ns()
                    answers = run(regs)
                    t1 = time.perf_counter_ns()
                    row = rows[lib]
                    row.ns_per_call.append((t1 - t0) / n)
                    row.calls += n
                    row.wrong += sum(1 for reg, v in zip(regs, answers, strict=True)
                                     if v != ref[kind][reg])
                    if kind == "byte-data":
                        order.append(lib)
            calls[kind] = {"rows": {lib: row.summary() for lib, row in rows.items()}}
        for r, w in enumerate(saved):
            raw.write_word(r, int(w))  # type: ignore[arg-type]
    finally:
        for h in handles:
            with contextlib.suppress(Exception):
                h.close()
        raw.close()
    return {"adapter": adapter, "bus": path, "address": I2C_ADDRESS, "registers": REGS,
            "order": order, "libraries": {lib: WHAT[lib] for lib in want},
            "unsupported": unsupported, "unavailable": unavailable,
            "calls": with_ratios(calls)}  # fmt: skip


def spi_runner(lib: str, bus: int, cs: int, speed: int,
               handles: list[Any]) -> Callable[[list[list[int]]], list[Any]]:  # fmt: skip
    node = f"/dev/spidev{bus}.{cs}"
    if lib == "udrv":
        import udrv

        h = udrv.SPI(node)
        handles.append(h)
        h.mode, h.bits_per_word, h.max_speed_hz = 0, 8, speed
        t = h.transfer
    elif lib == "spidev":
        import spidev

        h = spidev.SpiDev()
        handles.append(h)
        h.open(bus, cs)
        h.mode, h.bits_per_word, h.max_speed_hz = 0, 8, speed
        t = h.xfer2
    else:
        import periphery

        h = periphery.SPI(node, 0, speed)
        handles.append(h)
        t = h.transfer
    return lambda frames: [t(f) for f in frames]


def bench_spi(n: int, rounds: int, want: tuple[str, ...]) -> dict[str, Any]:
    """A SPI_LENGTH-byte transfer through each library on the loopback: each
    reply must be what was sent (a different frame each call)."""
    bus, cs = spidev_of(SPI_LOOPBACK)
    frames = [[i & 0xff, (i * 37 + 11) & 0xff, (i * 101 + 7) & 0xff][:SPI_LENGTH]
              for i in range(SPI_FRAMES)]  # fmt: skip
    seq = [frames[i % SPI_FRAMES] for i in range(n)]
    handles: list[Any] = []
    runners: dict[str, Callable[[list[list[int]]], list[Any]]] = {}
    unavailable: dict[str, str] = {}
    import udrv

    with udrv.SPI(f"/dev/spidev{bus}.{cs}") as probe:
        speed = probe.max_speed_hz
    rows: dict[str, BusRow] = {}
    order: list[str] = []
    try:
        for lib in want:
            try:
                runners[lib] = spi_runner(lib, bus, cs, speed, handles)
            except ImportError as exc:
                unavailable[lib] = f"cannot import {lib}: {exc}"
        rows = {lib: BusRow() for lib in runners}
        for run in runners.values():
            run(seq[:min(n, 100)])
        libs = list(runners)
        for r in range(rounds):
            for lib in libs if r % 2 == 0 else reversed(libs):
                t0 = time.perf_counter_ns()
                answers = runners[lib](seq)
                t1 = time.perf_counter_ns()
                row = rows[lib]
                row.ns_per_call.append((t1 - t0) / n)
                row.calls += n
                row.wrong += sum(1 for tx, rx in zip(seq, answers, strict=True)
                                 if bytes(rx) != bytes(tx))
                order.append(lib)
    finally:
        for h in handles:
            with contextlib.suppress(Exception):
                h.close()
    calls = {f"xfer-{SPI_LENGTH}": {"rows": {lib: row.summary() for lib, row in rows.items()}}}
    return {"modalias": SPI_LOOPBACK, "device": f"/dev/spidev{bus}.{cs}", "length": SPI_LENGTH,
            "speed_hz": speed, "order": order, "libraries": {lib: SPI_WHAT[lib] for lib in want},
            "unsupported": {}, "unavailable": unavailable,
            "calls": with_ratios(calls)}  # fmt: skip


def with_ratios(calls: dict[str, Any]) -> dict[str, Any]:
    """Each call's ratios udrv / each peer (below 1: udrv faster), median and min."""
    for c in calls.values():
        rows = c["rows"]
        if "udrv" in rows:
            u = rows["udrv"]
            c["ratio"] = {lib: {"median": ratio(u["median_ns"], r["median_ns"]),
                                "min": ratio(u["min_ns"], r["min_ns"])}
                          for lib, r in rows.items() if lib != "udrv"}  # fmt: skip
    return calls


def bench_mcp3008(n: int, rounds: int, gpiozero_dir: str | None = None) -> dict[str, Any]:
    """gpiozero's MCP3008(channel).value through udrv's pin factory on the
    spi-fixture's MCP3008: reads per second, each value checked against the
    channel's input, set anew before each round (spi-fixture's adc). With
    @gpiozero_dir, the gpiozero imported must be the one there."""
    import gpiozero
    from udrv.gpiozero import UdrvFactory

    if gpiozero_dir and not Path(gpiozero.__file__ or "").resolve().is_relative_to(
            Path(gpiozero_dir).resolve()):  # fmt: skip
        raise BenchError(f"gpiozero came from {gpiozero.__file__}, not from {gpiozero_dir}")

    bus, cs = spidev_of(SPI_ADC)
    try:
        saved = ADC.read_text().split()
    except OSError as exc:
        raise BenchError(f"cannot read {ADC}: {exc} (is spi-fixture loaded?)") from exc
    factory = UdrvFactory()
    adc = gpiozero.MCP3008(channel=ADC_CHANNEL, port=bus, device=cs, pin_factory=factory)
    row = BusRow()
    values: list[int] = []
    try:
        for r in range(rounds + 1):  # round 0: the warm-up
            v = (r * 389 + 123) % 1024
            inputs = list(saved)
            inputs[ADC_CHANNEL] = str(v)
            try:
                ADC.write_text(" ".join(inputs) + "\n")
            except OSError as exc:
                raise BenchError(f"cannot write {ADC}: {exc}") from exc
            t0 = time.perf_counter_ns()
            got = [adc.value for _ in range(n if r else min(n, 100))]
            t1 = time.perf_counter_ns()
            if not r:
                continue
            values.append(v)
            row.ns_per_call.append((t1 - t0) / n)
            row.calls += n
            row.wrong += sum(1 for x in got if round(x * 1023) != v)
    finally:
        adc.close()
        factory.close()
        with contextlib.suppress(OSError):
            ADC.write_text(" ".join(saved) + "\n")
    s = row.summary()
    s["reads_per_s"] = round(1e9 / s["median_ns"], 1) if s["median_ns"] else 0.0
    return {"device": f"/dev/spidev{bus}.{cs}", "channel": ADC_CHANNEL, "values": values,
            "gpiozero": _version(gpiozero, "gpiozero"), "rows": {"udrv": s}}  # fmt: skip


def mcp3008_child(n: int, rounds: int, gpiozero_dir: str) -> dict[str, Any]:
    """bench_mcp3008() in a child udrv-pybench whose sys.path has
    @gpiozero_dir first (another gpiozero than this process imports)."""
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(p for p in (gpiozero_dir, os.environ.get("PYTHONPATH"))
                                         if p)}  # fmt: skip
    cmd = [sys.executable, str(Path(__file__).resolve()), "-n", str(n), "--rounds", str(rounds),
           "--mcp3008-child", gpiozero_dir]  # fmt: skip
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise BenchError(f"MCP3008 under the gpiozero in {gpiozero_dir}: "
                         f"{r.stderr.strip() or f'exit {r.returncode}'}")  # fmt: skip
    out = json.loads(r.stdout)
    assert isinstance(out, dict)
    return out


def bench_buses(n: int, rounds: int, adapter: str, udrv_too: bool,
                gpiozero_dirs: list[str]) -> dict[str, Any]:  # fmt: skip
    first = ("udrv",) if udrv_too else ()
    out = {"calls_per_round": n, "rounds": rounds,
           "i2c": bench_i2c(n, rounds, adapter, first + I2C_LIBS[1:]),
           "spi": bench_spi(n, rounds, first + SPI_LIBS[1:])}  # fmt: skip
    if udrv_too:
        out["mcp3008"] = bench_mcp3008(n, rounds)
        if gpiozero_dirs:
            out["mcp3008_more"] = [mcp3008_child(n, rounds, d) for d in gpiozero_dirs]
    return out


def bus_versions() -> dict[str, str]:
    """The peers' versions (those that import)."""
    out = {}
    for mod, dist in (("smbus", "smbus"), ("smbus2", "smbus2"), ("spidev", "spidev"),
                      ("periphery", "python-periphery"), ("gpiozero", "gpiozero")):  # fmt: skip
        with contextlib.suppress(ImportError):
            out[mod] = _version(__import__(mod), dist)
    return out


def bus_table(b: dict[str, Any]) -> list[str]:
    """The bus rows: ns/call median (min) per library, and udrv / each peer."""
    lines = []
    for part in ("i2c", "spi"):
        s = b[part]
        where = (f"{s['adapter']} {s['bus']} 0x{s['address']:02x}" if part == "i2c"
                 else f"{s['modalias']} {s['device']}")  # fmt: skip
        lines.append(f"{part}: {where}, {b['rounds']}x{b['calls_per_round']} calls, ns/call "
                     "median (min); udrv/peer median")
        for kind, c in s["calls"].items():
            cells = [f"{lib} {r['median_ns']:.0f} ({r['min_ns']:.0f})"
                     for lib, r in c["rows"].items()]
            rat = [f"/{lib} x{q['median']:.3f}" for lib, q in c.get("ratio", {}).items()
                   if q["median"] is not None]
            lines.append(f"  {kind:13} " + "  ".join(cells) + ("  udrv" + " ".join(rat) if rat
                                                                 else ""))
        for lib, why in {**s["unsupported"], **s["unavailable"]}.items():
            lines.append(f"  {lib}: {why}")
    for m in mcp3008_runs(b):
        r = m["rows"]["udrv"]
        lines.append(f"mcp3008: gpiozero {m['gpiozero']} MCP3008(channel={m['channel']}).value "
                     f"through udrv's factory, {m['device']}: {r['reads_per_s']:.0f} reads/s "
                     f"({r['median_ns'] / 1e3:.1f} us median, {r['min_ns'] / 1e3:.1f} min)")
    return lines


def mcp3008_runs(b: dict[str, Any]) -> list[dict[str, Any]]:
    """The MCP3008 runs of a buses section: the own gpiozero's, then --gpiozero's."""
    return ([b["mcp3008"]] if "mcp3008" in b else []) + b.get("mcp3008_more", [])


def bus_failures(b: dict[str, Any]) -> list[str]:
    bad = []
    for part in ("i2c", "spi"):
        for lib, why in b[part]["unavailable"].items():
            bad.append(f"{part} {lib}: {why}")
        for kind, c in b[part]["calls"].items():
            bad += [f"{part} {kind} {lib}: {r['wrong']} of {r['calls']} answers were not the "
                    "reference's" for lib, r in c["rows"].items() if r["wrong"]]
    for m in mcp3008_runs(b):
        r = m["rows"]["udrv"]
        if r["wrong"]:
            bad.append(f"mcp3008 (gpiozero {m['gpiozero']}): {r['wrong']} of {r['calls']} "
                       "values were not the input's")
    return bad


# --- output -------------------------------------------------------------------------
def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def results(args: argparse.Namespace, sides: list[Side], toggle: dict[str, ToggleRow],
            order: list[str], events: dict[str, EventRow],
            buses: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    t = {k: v.summary() for k, v in toggle.items()}
    e = {k: v.summary() for k, v in events.items()}
    out: dict[str, Any] = {
        "schema": SCHEMA, "kernel": os.uname().release, "chip": args.chip,
        "out_line": args.out_line, "in_line": args.in_line,
        "versions": {s.name: s.version for s in sides} | (bus_versions() if buses else {})
                    | {"python": sys.version.split()[0]},
        "histogram": type(new_hist()).__module__ + "." + type(new_hist()).__name__,
        "sched": {"policy": os.sched_getscheduler(0), "priority": args.prio,
                  "cpus": sorted(os.sched_getaffinity(0))},
        "toggle": {"calls_per_round": args.calls, "rounds": args.rounds, "order": order,
                   "rows": t},
        "events": {"count": args.events, "period_ns": args.period_ns,
                   "buffer": args.buffer, "rows": e},
    }  # fmt: skip
    if set(LIBS) <= t.keys():
        out["toggle"]["ratio"] = {
            "median": ratio(t["udrv"]["median_ns"], t["gpiod"]["median_ns"]),
            "min": ratio(t["udrv"]["min_ns"], t["gpiod"]["min_ns"])}  # fmt: skip
    if set(LIBS) <= e.keys():
        lu, lg = e["udrv"]["latency_ns"], e["gpiod"]["latency_ns"]
        out["events"]["ratio"] = {k: ratio(lu[k], lg[k]) for k in ("p50", "p99", "max")
                                  if k in lu and k in lg}  # fmt: skip
    if buses is not None:
        out["buses"] = buses
    return out


def table(res: dict[str, Any]) -> str:
    t, e = res["toggle"], res["events"]
    head = (f"{'':8} {'toggle ns/call':>15} {'(min)':>8}  {'event p50 us':>12} "
            f"{'p99 us':>8} {'max us':>8}  {'made':>6} {'recv':>6} {'lost':>5} {'unacc':>5}")
    lines = [f"python bench: {res['kernel']}, {res['chip']} {res['out_line']}->"
             f"{res['in_line']}, {t['rounds']}x{t['calls_per_round']} calls, "
             f"{e['count']} edges at {1e9 / e['period_ns']:.0f}/s", head]  # fmt: skip
    for lib in LIBS:
        if lib not in t["rows"]:
            continue
        tr, er = t["rows"][lib], e["rows"][lib]
        lat = er["latency_ns"]
        lines.append(f"{lib:8} {tr['median_ns']:15.1f} {tr['min_ns']:8.1f}  "
                     f"{lat.get('p50', 0) / 1e3:12.2f} {lat.get('p99', 0) / 1e3:8.2f} "
                     f"{lat.get('max', 0) / 1e3:8.2f}  {er['made']:6d} {er['received']:6d} "
                     f"{er['lost'] + er['dropped'] + er['masked']:5d} "
                     f"{er['unaccounted']:5d}")  # fmt: skip
    if "ratio" in t and "ratio" in e:
        r, q = t["ratio"], e["ratio"]
        x = {k: "x" + format(v or 0, ".3f") for k, v in (*r.items(), *q.items())}
        lines.append(f"{'udrv/gpiod':8} {x['median']:>15} {x['min']:>8}  "
                     f"{x.get('p50', '-'):>12} {x.get('p99', '-'):>8} {x.get('max', '-'):>8}")
    if "buses" in res:
        lines += bus_table(res["buses"])
    return "\n".join(lines)


def failures(res: dict[str, Any]) -> list[str]:
    bad = []
    for lib, tr in res["toggle"]["rows"].items():
        if tr["driven"] != tr["calls"]:
            bad.append(f"{lib} toggle: {tr['calls']} set_value calls, gpio-wire counted "
                       f"{tr['driven']} level changes")
    for lib, er in res["events"]["rows"].items():
        if er["unaccounted"]:
            bad.append(f"{lib} events: the generator made {er['made']}; received "
                       f"{er['received']} + lost {er['lost']} + dropped {er['dropped']} + "
                       f"masked {er['masked']} leaves {er['unaccounted']} unaccounted")
    if "buses" in res:
        bad += bus_failures(res["buses"])
    return bad


def write_json(res: dict[str, Any], dest: str | None) -> bool:
    """The document alone into @dest ('-': standard output); False, saying why,
    when it cannot be written."""
    text = json.dumps(res, indent=1) + "\n"
    if dest == "-":
        sys.stdout.write(text)
    elif dest:
        try:
            Path(dest).write_text(text)
        except OSError as exc:
            print(f"udrv-pybench: --json {dest}: {exc.strerror or exc}", file=sys.stderr)
            return False
    return True


# --- main ---------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="udrv-pybench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--chip", default="gpio-wire", help="the chip's label (gpio-wire)")
    p.add_argument("--out-line", type=_positive(0, 63), default=2, help="output line (2)")
    p.add_argument("--in-line", type=_positive(1, 63), default=3,
                   help="its wired input line (3)")
    p.add_argument("-n", "--calls", type=_positive(2, 10**7), default=2000,
                   help="set_value calls per round (2000)")
    p.add_argument("--rounds", type=_positive(1, 1000), default=5,
                   help="rounds per library, interleaved (5)")
    p.add_argument("--events", type=_positive(1, 10**7), default=1000,
                   help="edges the generator makes per library (1000)")
    p.add_argument("--period-ns", type=_positive(1000, 10**9), default=200_000,
                   help="generator period, ns (200000: 5000 edges/s)")
    p.add_argument("--buffer", type=_positive(0, 65536), default=0,
                   help="event buffer size of the requests (0: the kernel's default)")
    p.add_argument("--hold", type=_positive(0, 10_000), default=0, metavar="MS",
                   help="do not read for MS ms after starting the generator (overruns a "
                        "small --buffer: lost events)")
    p.add_argument("--only", choices=LIBS, help="one library only (no ratio)")
    p.add_argument("--prio", type=_positive(0, 99), default=0,
                   help="run at SCHED_FIFO PRIO (0: leave the policy)")
    p.add_argument("--cpu", type=_positive(0, 1023), default=None,
                   help="run on this CPU only (the SMP boards: 1, the isolated one)")
    p.add_argument("--buses", action="store_true",
                   help="also I2C (i2c-stub at 0x50: udrv.I2C, smbus, smbus2, periphery), SPI "
                        "(spi-fixture's loopback: udrv.SPI, spidev, periphery) and gpiozero's "
                        "MCP3008 through udrv's factory, -n calls x --rounds each")
    p.add_argument("--i2c-adapter", default=I2C_ADAPTER,
                   help=f"the I2C adapter's name for --buses ({I2C_ADAPTER!r})")
    p.add_argument("--gpiozero", action="append", default=[], metavar="DIR",
                   help="with --buses: the MCP3008 reads again under the gpiozero in DIR "
                        "(e.g. Debian's python3-gpiozero unpacked there), in a child process "
                        "with DIR first on sys.path; repeatable")
    p.add_argument("--mcp3008-child", metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--profile", action="store_true",
                   help="cProfile one round and one events run per library: calls per "
                        "set_value/event and the top functions (no table, no JSON)")
    p.add_argument("--json", metavar="FILE",
                   help="write the results as a udrv-pybench-1 document into FILE, the "
                        "document alone ('-': all of stdout, the table then on stderr)")
    return p


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt: the finally blocks put
    everything back (SIGINT too when inherited ignored, as a shell's `&` does)."""
    def raise_interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    old = {s: signal.signal(s, raise_interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def mcp3008_child_main(args: argparse.Namespace) -> int:
    """--mcp3008-child DIR (mcp3008_child()'s): bench_mcp3008()'s section on stdout."""
    try:
        with signals_raise():
            out = bench_mcp3008(args.calls, args.rounds, args.mcp3008_child)
    except (BenchError, OSError, ImportError) as exc:
        print(f"udrv-pybench: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    json.dump(out, sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.mcp3008_child:
        return mcp3008_child_main(args)
    if args.in_line % 2 == 0 and args.chip == "gpio-wire":
        parser().error(f"--in-line {args.in_line}: gpio-wire's inputs are the odd lines")
    try:
        names = [args.only] if args.only else list(LIBS)
        sides: list[Side] = []
        for n in names:
            try:
                sides.append(UdrvSide() if n == "udrv" else GpiodSide())
            except ImportError as exc:
                raise BenchError(f"cannot import {n}: {exc} (the lab's Python image has both: "
                                 "python3 -m rig.lab run --python)") from exc
        if args.cpu is not None:
            os.sched_setaffinity(0, {args.cpu})
        if args.prio:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(args.prio))
        path = find_chip(args.chip)
        if args.profile:
            with signals_raise():
                profile(sides, path, args)
            return 0
        with signals_raise():
            toggle, order = bench_toggle(sides, path, args.out_line, args.in_line, args.calls,
                                         args.rounds)  # fmt: skip
            events = bench_events(sides, path, args.out_line, args.in_line, args.events,
                                  args.period_ns, args.buffer, args.hold / 1000)  # fmt: skip
            buses = (bench_buses(args.calls, args.rounds, args.i2c_adapter, "udrv" in names,
                                 args.gpiozero)
                     if args.buses else None)  # fmt: skip
    except BenchError as exc:
        print(f"udrv-pybench: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("udrv-pybench: interrupted; the generator is stopped and its settings restored",
              file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"udrv-pybench: {exc}", file=sys.stderr)
        return 1
    res = results(args, sides, toggle, order, events, buses)
    print(table(res), file=sys.stderr if args.json == "-" else sys.stdout)
    written = write_json(res, args.json)
    bad = failures(res)
    for b in bad:
        print(f"udrv-pybench: FAILED: {b}", file=sys.stderr)
    return 1 if bad or not written else 0


if __name__ == "__main__":
    sys.exit(main())
