#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Blink a line: blink.py CHIP LINE [--period S] [--count N] [--backend cdev|sysfs|mmio]

    python3 examples/python/blink.py gpiochip0 17 --period 0.5 --count 10
"""

from __future__ import annotations

import argparse
import time

import udrv


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chip", help="path, name, number or label of the chip")
    ap.add_argument("line", help="offset or name of the line")
    ap.add_argument("--period", type=float, default=1.0, help="seconds per on/off cycle")
    ap.add_argument("--count", type=int, default=5, help="cycles (0: until Ctrl-C)")
    ap.add_argument("--backend", choices=[b.name.lower() for b in udrv.Backend],
                    default="cdev")
    args = ap.parse_args()
    line: int | str = int(args.line) if args.line.isdigit() else args.line
    out = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
    try:
        with udrv.Chip(args.chip) as chip, chip.request(
                {line: out}, consumer="blink",
                backend=udrv.Backend[args.backend.upper()]) as req:
            n = 0
            while args.count == 0 or n < args.count:
                req.set_value(line, 1)
                time.sleep(args.period / 2)
                req.set_value(line, 0)
                time.sleep(args.period / 2)
                n += 1
    except udrv.Error as e:
        print(f"blink: {e.strerror}")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
