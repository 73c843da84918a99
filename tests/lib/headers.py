#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Each public header compiles alone, the way a user's program includes it (TAP):
strict ISO C11 without feature macros (-std=c11 -pedantic-errors: what CMake's
C_STANDARD 11 with C_EXTENSIONS OFF passes), -std=gnu11, and C++11. The
project builds with -D_GNU_SOURCE, which hides a header that needs it: a
POSIX type like sigset_t from <signal.h>, which strict C11 does not declare.

    headers.py CC INCLUDE_DIR [CXX]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

WARN = ["-Wall", "-Wextra", "-Werror", "-fsyntax-only"]


def modes(cc: str, cxx: str | None) -> list[tuple[str, list[str]]]:
    out = [("c11", [cc, "-x", "c", "-std=c11", "-pedantic-errors", *WARN]),
           ("gnu11", [cc, "-x", "c", "-std=gnu11", *WARN])]  # fmt: skip
    if cxx:
        # not -pedantic: C++ has no anonymous structs (C11 does; g++ and clang++
        # take them), and gpio_mmio.h's struct udrv_mmio_pin has one
        out.append(("c++11", [cxx, "-x", "c++", "-std=c++11", *WARN]))
    return out


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    cc, include = sys.argv[1], Path(sys.argv[2])
    cxx = sys.argv[3] if len(sys.argv) == 4 else None
    headers = sorted((include / "udrv").glob("*.h"))
    if not headers:
        print(f"Bail out! no headers in {include / 'udrv'}")
        return 1
    cases = [(h, name, cmd) for h in headers for name, cmd in modes(cc, cxx)]
    print(f"1..{len(cases)}")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (header, mode, cmd) in enumerate(cases, 1):
            src = Path(tmp) / "one.c"
            src.write_text(f"#include <udrv/{header.name}>\n")
            r = subprocess.run([*cmd, "-I", str(include), str(src)], capture_output=True,
                               text=True, check=False)  # fmt: skip
            ok = r.returncode == 0
            failed += not ok
            print(f"{'ok' if ok else 'not ok'} {n} - udrv/{header.name} alone, {mode}")
            if not ok:
                for line in r.stderr.splitlines()[:20]:
                    print(f"# {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
