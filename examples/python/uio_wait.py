#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Wait for a UIO device's interrupts: uio_wait.py DEVICE [--count N] [--timeout S]

Prints each interrupt's count and the ones missed, re-enables the interrupt
(irqcontrol) after each, and shows the first register of map 0.

    python3 examples/python/uio_wait.py uio-ticker --count 5
"""

from __future__ import annotations

import argparse

import udrv


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("device", help='driver name ("uio_pci_generic"), "uio0" or "/dev/uio0"')
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per wait")
    ap.add_argument("--irqcontrol", action="store_true",
                    help="re-enable the interrupt after each (drivers with irqcontrol)")
    args = ap.parse_args()
    try:
        with udrv.Uio(args.device) as uio:
            print(f"{uio.devname} ({uio.name} {uio.version}): {len(uio.maps)} maps")
            regs = uio.map(0) if uio.maps else None
            for _ in range(args.count):
                irq = uio.wait(args.timeout)
                if irq is None:
                    print(f"no interrupt within {args.timeout} s")
                    return 1
                reg = f", map0[0] = {regs.read32(0):#010x}" if regs else ""
                print(f"count {irq.count} (+{irq.delta}, {irq.missed} missed){reg}")
                if args.irqcontrol:
                    uio.irq_enable(True)
            print(f"{uio.missed} missed in all")
            if regs:
                regs.unmap()
    except udrv.Error as e:
        print(f"uio_wait: {e.strerror}")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
