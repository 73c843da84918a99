#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Per-call cost of the bindings on the host (not a test: run it by hand with
the udrv package installed):  python3 tests/python/call_cost.py [N]

On a fake sysfs tree (tests/support/fakes.py) each Request.set_value() is a
pwrite() of a regular file, the same as os.pwrite() from Python: the two rows
compare udrv's whole call with Python's own. Region.read32/write32 on a mapped
regular file are the register accessors' cost (no system call). Best of 5
loops of N calls, ns per call."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.support.fakes import FakeTree, GpioExports, gpio_bus, gpio_chip


def best(n: int, loop: Callable[[], None]) -> float:
    runs = []
    for _ in range(5):
        t0 = time.perf_counter_ns()
        loop()
        runs.append((time.perf_counter_ns() - t0) / n)
    return min(runs)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    t = FakeTree(Path(tempfile.mkdtemp()) / "root")
    os.environ["UDRV_SYSROOT"] = str(t.root)
    gpio_bus(t)
    gpio_chip(t, 0, "wire", 512, 8, "fake-wire")
    exports = GpioExports(t)
    import udrv

    out = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
    req = udrv.Chip(0).request({3: out}, backend=udrv.Backend.SYSFS)
    fd = os.open(t.path("sys/class/gpio/gpio515/value"), os.O_WRONLY)
    mem = t.file("mem", bytes(4096))
    region = udrv.Region.map_file(mem, 0, 4096)
    sv, gv, pw, vals = req.set_value, req.get_value, os.pwrite, (b"0", b"1")
    r32, w32 = region.read32, region.write32

    def set_value() -> None:
        for i in range(n):
            sv(3, i & 1)

    def get_value() -> None:
        for _ in range(n):
            gv(3)

    def pwrite() -> None:
        for i in range(n):
            pw(fd, vals[i & 1], 0)

    def read32() -> None:
        for _ in range(n):
            r32(0)

    def write32() -> None:
        for i in range(n):
            w32(0, i)

    def empty() -> None:
        for _ in range(n):
            pass

    for name, loop in (("Request.set_value (sysfs)", set_value),
                       ("os.pwrite of the same file", pwrite),
                       ("Request.get_value (sysfs)", get_value),
                       ("Region.read32", read32), ("Region.write32", write32),
                       ("empty loop", empty)):
        print(f"{name:28} {best(n, loop):7.0f} ns")
    os.close(fd)
    region.unmap()
    req.release()
    exports.stop()


if __name__ == "__main__":
    main()
