#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read an MCP3008 ADC on SPI: mcp3008.py DEVICE [FIRST [LAST]] [--vref V]

    python3 examples/python/mcp3008.py 0.0                 # channels 0 to 7
    python3 examples/python/mcp3008.py mcp3008 2 --vref 3.3

The Python twin of examples/sensors/mcp3008.c (udrv-mcp3008): the same
arguments and output, and --vref to print volts too. An MCP3008 has 8
single-ended channels of 10 bits (an MCP3004 the first four). One
conversion is one 3-byte full-duplex transfer (the data sheet's "SPI
communication with 8-bit segments"):

    sent      0x01 (the start bit)  0x80 | ch << 4 (single-ended, channel)  0x00
    received  ignored               ..., a null bit, B9 B8                  B7..B0

so the value is ((rx[1] & 3) << 8) | rx[2], 0..1023 of the reference
voltage: volts = value * VREF / 1024. Mode 0, at most 1.35 MHz at 2.7 V
(3.6 MHz at 5 V).

DEVICE is what udrv.SPI takes: "B.C" (bus and chip select: 0.0 is a
Raspberry Pi's spidev0.0 with dtparam=spi=on), a node (/dev/spidev0.0) or
the device's name as its modalias says it (mcp3008). FIRST and LAST are
channels 0..7 (default 0 and 7; FIRST alone reads that one channel).
"""

from __future__ import annotations

import argparse
import re
import sys

import udrv

MCP3008_MAX_HZ = 1_350_000  # at 2.7 V
VREF_MIN, VREF_MAX = 0.25, 5.5  # the data sheet's VREF: 0.25 V to VDD (at most 5.5 V)


def mcp3008_read(spi: udrv.SPI, ch: int) -> int:
    """One conversion of single-ended channel ch: 0..1023."""
    rx = bytearray(3)
    spi.transfer(bytes([0x01, 0x80 | ch << 4, 0x00]), rx)  # full duplex: 3 out, 3 into rx
    return (rx[1] & 0x03) << 8 | rx[2]


def number(s: str, low: int, high: int) -> int | None:
    """A whole decimal or 0x hex number within low..high, as strict as the C
    example's udrv_parse_u64() (no sign, space, _ or other base; empty is no
    number); None otherwise."""
    if re.fullmatch(r"0[xX][0-9a-fA-F]+|[0-9]+", s):
        v = int(s, 16) if s[:2] in ("0x", "0X") else int(s, 10)
        if low <= v <= high:
            return v
    return None


def volts(s: str) -> float:
    """An argparse type: the reference voltage in volts, VREF_MIN..VREF_MAX."""
    if not re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", s) or not VREF_MIN <= float(s) <= VREF_MAX:
        raise argparse.ArgumentTypeError(
            f"bad reference voltage '{s}': {VREF_MIN}..{VREF_MAX} (volts)")
    return float(s)


def device_spec(s: str) -> str:
    if not s:
        raise argparse.ArgumentTypeError(
            "bad device '': B.C (0.0), a node (/dev/spidev0.0) or its name (mcp3008)")
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("device", metavar="DEVICE", type=device_spec,
                    help='"B.C" (0.0), node (/dev/spidev0.0) or modalias name (mcp3008)')
    ap.add_argument("first", metavar="FIRST", nargs="?", help="channel 0..7 (0)")
    ap.add_argument("last", metavar="LAST", nargs="?",
                    help="channel FIRST..7 (7; FIRST alone: FIRST)")
    ap.add_argument("--vref", metavar="V", type=volts,
                    help="the reference voltage: print volts too")
    args = ap.parse_intermixed_args()  # --vref before FIRST and LAST too
    first = 0 if args.first is None else number(args.first, 0, 7)
    if first is None:
        ap.error(f"argument FIRST: bad channel '{args.first}': 0..7")
    if args.last is not None:
        last = number(args.last, first, 7)
    else:
        last = 7 if args.first is None else first  # FIRST alone: that one channel
    if last is None:
        ap.error(f"argument LAST: bad channel '{args.last}': {first}..7")
    try:
        with udrv.SPI(args.device) as spi:
            spi.mode = 0
            spi.bits_per_word = 8
            spi.max_speed_hz = MCP3008_MAX_HZ
            for ch in range(first, last + 1):
                value = mcp3008_read(spi, ch)
                v = f" ({value * args.vref / 1024:.3f} V)" if args.vref is not None else ""
                print(f"channel {ch}: {value}{v}", flush=True)
    except udrv.Error as e:  # the library's message: what, which device, the fix
        print(f"mcp3008: {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
