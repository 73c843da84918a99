#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""udrv and libudrv link no libgpiod (TAP).

udrv's libgpiod rows come from udrv-bench-peer (rig/bench/peers/), libgpiod 2.3
in a program of its own; libgpiod 1.6 (Debian 12's, the v1 API) was linked
into udrv until it was dropped, and 1.x and 2.x define the same gpiod_*
names. Every file named is read with nm (its symbol table, and for a shared
object its dynamic one): a symbol gpiod_* defined or referenced fails it.
With --has PEER, PEER must define gpiod_ symbols: the check can see them.

    no_gpiod.py NM FILE... [--has PEER]
"""

from __future__ import annotations

import re
import subprocess
import sys

GPIOD = re.compile(r"^\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z?])\s+(gpiod_\w+)", re.MULTILINE)


def gpiod_symbols(nm: str, path: str) -> list[str]:
    found: list[str] = []
    for args in (["-a"], ["-D"]):
        run = subprocess.run([nm, *args, path], capture_output=True, text=True)
        # nm -D on a static executable: "no symbols" (status 1), fine
        if run.returncode and args == ["-a"]:
            raise SystemExit(f"Bail out! {nm} {path}: {run.stderr.strip()}")
        found += [f"{kind} {name}" for kind, name in GPIOD.findall(run.stdout)]
    return sorted(set(found))


def main(argv: list[str]) -> int:
    nm, rest = argv[1], argv[2:]
    has: list[str] = []
    if "--has" in rest:
        i = rest.index("--has")
        has, rest = rest[i + 1:], rest[:i]
    print(f"1..{len(rest) + len(has)}")
    failed = 0
    n = 0
    for path in rest:
        n += 1
        syms = gpiod_symbols(nm, path)
        ok = not syms
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {path} has no gpiod_ symbols"
              + ("" if ok else f": {', '.join(syms[:5])}"))
    for path in has:
        n += 1
        ok = any(s.startswith("T gpiod_line_request_set_value") for s in
                 gpiod_symbols(nm, path))
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {path} defines gpiod_line_request_set_value"
              " (the check sees libgpiod where it is)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
