#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read an LM75 temperature sensor on I2C: lm75.py BUS [ADDRESS [PERIOD_MS [COUNT]]]

    python3 examples/python/lm75.py 1                 # 0x48, every second until Ctrl-C
    python3 examples/python/lm75.py 'SMBus stub driver' 0x48 0 1    # once

The Python twin of examples/sensors/lm75.c (udrv-lm75): the same arguments
and output. An LM75 (or a compatible: TMP75, DS75, MAX7500...) keeps the
temperature in its register 0x00: 16 bits, most significant byte first on
the wire, the temperature in the top 9 bits, two's complement, 0.5 °C a
step (0x1980: 25.5 °C; 0xff80: -0.5 °C). SMBus read word data brings the
low byte first, so the word's two bytes are swapped back before reading
them as a signed number.

BUS is what udrv.I2C takes: a number, a node (/dev/i2c-1) or the adapter's
name. ADDRESS 0x03..0x77 (default 0x48), PERIOD_MS 0..3600000 (default
1000), COUNT 0..4294967295 (default 0: until Ctrl-C); decimal or 0x hex,
nothing else. A sensor that a kernel driver (lm75, hwmon) already drives is
refused with the driver's name: read it through hwmon, or unbind the driver
if this program is to own the device.

On the lab's x86 boards, Debian's i2c-stub plays the sensor:
    modprobe i2c-dev; modprobe i2c-stub chip_addr=0x48
    udrv i2c set --word 'SMBus stub driver' 0x48 0 0x8019   # 25.5 °C
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import time
from collections.abc import Callable

import udrv

LM75_TEMP = 0x00  # the temperature register


def lm75_celsius(i2c: udrv.I2C) -> float:
    """The temperature register in degrees Celsius (a multiple of 0.5)."""
    word = i2c.read_word_data(LM75_TEMP)  # SMBus: the wire's first byte is the low byte
    wire = word.to_bytes(2, "little")  # the two bytes as they came: MSB, LSB
    raw = int.from_bytes(wire, "big", signed=True)  # 16 bits of two's complement
    return (raw >> 7) / 2  # the top 9 bits: half degrees


def number(what: str, low: int, high: int, fmt: str = "d") -> Callable[[str], int]:
    """An argparse type: a whole decimal or 0x hex number within low..high,
    as strict as the C example's udrv_parse_u64() (no sign, space, _ or
    other base; empty is no number)."""

    def parse(s: str) -> int:
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|[0-9]+", s):
            v = int(s, 16) if s[:2] in ("0x", "0X") else int(s, 10)
            if low <= v <= high:
                return v
        raise argparse.ArgumentTypeError(
            f"bad {what} '{s}': {low:{fmt}}..{high:{fmt}} (decimal or 0x hex)")

    return parse


def bus_spec(s: str) -> str:
    if not s:
        raise argparse.ArgumentTypeError(
            "bad bus '': a number, a node (/dev/i2c-1) or an adapter's name")
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bus", metavar="BUS", type=bus_spec,
                    help="number, node (/dev/i2c-1) or adapter name")
    ap.add_argument("address", metavar="ADDRESS", nargs="?", default=0x48,
                    type=number("address", 0x03, 0x77, "#04x"),
                    help="the sensor's 7-bit address, 0x03..0x77 (0x48)")
    ap.add_argument("period_ms", metavar="PERIOD_MS", nargs="?", default=1000,
                    type=number("period", 0, 3_600_000),
                    help="milliseconds between reads, 0..3600000 (1000)")
    ap.add_argument("count", metavar="COUNT", nargs="?", default=0,
                    type=number("count", 0, 2**32 - 1),
                    help="reads, 0..4294967295 (0: until Ctrl-C)")
    args = ap.parse_args()
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C or kill: stop, exit 0
        signal.signal(sig, signal.default_int_handler)  # (also where SIGINT came ignored)
    try:
        with udrv.I2C(args.bus, args.address) as i2c:
            n = 0
            while args.count == 0 or n < args.count:
                if n:
                    time.sleep(args.period_ms / 1000)
                print(f"{lm75_celsius(i2c):.1f} °C", flush=True)
                n += 1
    except udrv.Error as e:  # the library's message: what, which bus and address, the fix
        print(f"lm75: {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
