#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""libudrv.so exports its public API and nothing else (TAP).

The public API is every udrv_* function declared in include/udrv/*.h that is
neither a static inline nor a macro; the library's version script (lib/libudrv.map) must
export exactly those. An internal helper that leaks out, or a public function
that was forgotten in the map, fails this test.

    exports.py NM LIBUDRV_SO INCLUDE_DIR
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
INLINE = re.compile(r"static\s+inline\s[^;{(]*?\b(udrv_\w+)\s*\(")
MACRO = re.compile(r"#\s*define\s+(udrv_\w+)\(")
NAME = re.compile(r"\b(udrv_[a-z0-9_]+)\s*\(")


def declared(include: Path) -> set[str]:
    names: set[str] = set()
    inline: set[str] = set()
    for header in sorted(include.glob("udrv/*.h")):
        text = COMMENT.sub("", header.read_text())
        names |= set(NAME.findall(text))
        inline |= set(INLINE.findall(text)) | set(MACRO.findall(text))
    return names - inline


def exported(nm: str, lib: Path) -> dict[str, str]:
    out = subprocess.run([nm, "-D", "--defined-only", "--with-symbol-versions", str(lib)],
                         check=True, capture_output=True, text=True).stdout
    syms: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[1] not in "TDBRVW":
            continue
        name, _, version = parts[2].partition("@")
        syms[name] = version.lstrip("@")
    return syms


def main() -> int:
    nm, lib, include = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    public = declared(include)
    syms = exported(nm, lib)
    names = {s for s in syms if not s.startswith("UDRV_")}
    checks = [
        ("no internal symbol is exported", sorted(names - public)),
        ("every public function is exported", sorted(public - names)),
        ("every export carries the version node",
         sorted(s for s in names if not syms[s].startswith("UDRV_"))),
    ]
    print(f"1..{len(checks)}")
    bad = 0
    for i, (what, wrong) in enumerate(checks, 1):
        print(f"{'not ok' if wrong else 'ok'} {i} - {what}")
        for w in wrong:
            print(f"# {w}")
        bad += bool(wrong)
    print(f"# {len(names)} symbols exported, {len(public)} public functions declared")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
