#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Answer an input's edges on an output: responder.py CHIP IN OUT [--priority P] [--count N]

    python3 examples/python/responder.py gpiochip1 5 6 --priority 80

Each edge of IN writes its new level to OUT. Request.respond() raises the
input's irq thread above this thread before this thread goes to SCHED_FIFO
P (never a priority inversion) and puts everything back when it returns.
"""

from __future__ import annotations

import argparse

import udrv


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chip", help="path, name, number or label of the chip")
    ap.add_argument("inp", metavar="in", help="offset or name of the input line")
    ap.add_argument("out", help="offset or name of the output line")
    ap.add_argument("--priority", type=int, default=0, help="SCHED_FIFO priority (0: SCHED_OTHER)")
    ap.add_argument("--count", type=int, default=0, help="edges to answer (0: until Ctrl-C)")
    args = ap.parse_args()
    inp: int | str = int(args.inp) if args.inp.isdigit() else args.inp
    out: int | str = int(args.out) if args.out.isdigit() else args.out
    seen = 0
    count: int = args.count

    def answer(req: udrv.Request, ev: udrv.EdgeEvent) -> bool:
        nonlocal seen
        req.set_value(out, 1 if ev.edge == udrv.Edge.RISING else 0)
        seen += 1
        return count > 0 and seen >= count

    edges = udrv.LineSettings(edge=udrv.Edge.BOTH)
    output = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
    try:
        with udrv.Chip(args.chip) as chip, chip.request({inp: edges, out: output},
                                                        consumer="responder") as req:
            req.respond(answer, line=inp, priority=args.priority)
    except udrv.Error as e:
        print(f"responder: {e.strerror}")
        return 1
    except KeyboardInterrupt:
        pass
    print(f"answered {seen} edges")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
