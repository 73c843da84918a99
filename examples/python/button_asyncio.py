#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Print a button's edges with asyncio: button_asyncio.py CHIP LINE [--seconds S]

The request's events come through the event loop (add_reader on its file
descriptor): other tasks run meanwhile, here a heartbeat every second.

    python3 examples/python/button_asyncio.py gpiochip0 27 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

import udrv


async def heartbeat() -> None:
    while True:
        await asyncio.sleep(1)
        print("...")


async def watch(req: udrv.Request) -> None:
    async for ev in req:
        print(f"{ev.timestamp_ns / 1e9:.6f} line {ev.offset} {ev.edge.name.lower()}"
              + (f" ({ev.lost} lost before)" if ev.lost else ""))


async def run(req: udrv.Request, seconds: float) -> None:
    beat = asyncio.ensure_future(heartbeat())
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(watch(req), seconds if seconds > 0 else None)
    beat.cancel()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chip")
    ap.add_argument("line")
    ap.add_argument("--seconds", type=float, default=0, help="stop after S s (0: Ctrl-C)")
    ap.add_argument("--debounce-us", type=int, default=0)
    ap.add_argument("--bias", choices=[b.name.lower() for b in udrv.Bias], default="pull_up",
                    help="the button's pull resistor (sysfs: as_is)")
    ap.add_argument("--backend", choices=[b.name.lower() for b in udrv.Backend],
                    default="cdev")
    args = ap.parse_args()
    line: int | str = int(args.line) if args.line.isdigit() else args.line
    button = udrv.LineSettings(edge=udrv.Edge.BOTH, bias=udrv.Bias[args.bias.upper()],
                               debounce_us=args.debounce_us)
    try:
        with udrv.Chip(args.chip) as chip, chip.request(
                {line: button}, consumer="button",
                backend=udrv.Backend[args.backend.upper()]) as req:
            asyncio.run(run(req, args.seconds))
            print(f"{req.lost_events} events lost")
    except udrv.Error as e:
        print(f"button: {e.strerror}")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
