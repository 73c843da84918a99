#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""libudrv.so exports its public API and nothing else (TAP).

The public API is every udrv_* function declared in include/udrv/*.h that is
neither a static inline nor a macro; the library's version script (lib/libudrv.map) must
export exactly those. An internal helper that leaks out, or a public function
that was forgotten in the map, fails this test.

And the rules of docs/abi.md that a reading of the headers can hold:
every export carries a version node of the map (UDRV_1.0, ...); every public
struct either grows by its size (listed with UDRV_ABI_STRUCT() in lib/abi.c)
or is frozen (FROZEN below); every function that takes a struct that grows
takes the caller's size too (a size_t ..._size parameter after the pointer,
or after the count for an array), is named ..._sz, and the natural name is a
macro in the header.

And the rig's helpers add no symbol (docs/abi.md, *The rig's helpers*):
every function of udrv/hist.h and udrv/json.h (lib/measure/) is exported
in UDRV_1.0, as released; a new one in a later node fails.

    exports.py NM LIBUDRV_SO INCLUDE_DIR [LIB_DIR]
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
PROTO = re.compile(r"\b(udrv_[a-z0-9_]+)\s*\(([^()]*)\)\s*;")
STRUCT_DEF = re.compile(r"^struct\s+(udrv_\w+)\s*\{", re.MULTILINE)
GROWS = re.compile(r"UDRV_ABI_STRUCT(?:_SINCE)?\(\s*(udrv_\w+)\s*,")
NODE = re.compile(r"^(UDRV_[0-9.]+)\s*\{", re.MULTILINE)
# Public structs that never grow while the soname is libudrv.so.1: read by
# inline functions compiled into callers, or embedded in an array inside
# another struct, or passed as an array (docs/abi.md)
FROZEN = {"udrv_mmio", "udrv_mmio_pin", "udrv_rt_finding", "udrv_i2c_msg", "udrv_spi_xfer",
          "udrv_pwm_waveform"}


# the headers of lib/measure/: kept for the ABI, they serve udrv's rig; their
# functions are UDRV_1.0's and no new one comes
MEASURE_HEADERS = ("hist.h", "json.h")
MEASURE_NODE = "UDRV_1.0"


def declared(include: Path, only: tuple[str, ...] = ()) -> set[str]:
    names: set[str] = set()
    inline: set[str] = set()
    for header in sorted(include.glob("udrv/*.h")):
        if only and header.name not in only:
            continue
        text = COMMENT.sub("", header.read_text())
        names |= set(NAME.findall(text))
        inline |= set(INLINE.findall(text)) | set(MACRO.findall(text))
    return names - inline


def headers_text(include: Path) -> str:
    return "\n".join(COMMENT.sub("", h.read_text()) for h in sorted(include.glob("udrv/*.h")))


def unsized(text: str, grows: set[str]) -> list[str]:
    """Functions that take a struct that grows without the caller's size."""
    bad = []
    macros = set(MACRO.findall(text))
    for name, params in PROTO.findall(text):
        args = [a.strip() for a in params.split(",")]
        for i, arg in enumerate(args):
            m = re.match(r"(?:const\s+)?struct\s+(udrv_\w+)\s*\*\s*\w+$", arg)
            if not m or m.group(1) not in grows:
                continue
            after = args[i + 1:i + 3]
            if not any(re.fullmatch(r"size_t\s+\w+_size", a) for a in after):
                bad.append(f"{name}: struct {m.group(1)} without a size_t ..._size after it")
            elif not name.endswith("_sz"):
                bad.append(f"{name}: takes a size but is not named ..._sz")
            elif name.removesuffix("_sz") not in macros:
                bad.append(f"{name}: no macro {name.removesuffix('_sz')}() passing sizeof")
    return bad


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
    libdir = Path(sys.argv[4]) if len(sys.argv) > 4 else include.parent / "lib"
    public = declared(include)
    syms = exported(nm, lib)
    names = {s for s in syms if not s.startswith("UDRV_")}
    nodes = set(NODE.findall((libdir / "libudrv.map").read_text()))
    grows = set(GROWS.findall((libdir / "abi.c").read_text()))
    text = headers_text(include)
    structs = set(STRUCT_DEF.findall(text))
    checks = [
        ("no internal symbol is exported", sorted(names - public)),
        ("every public function is exported", sorted(public - names)),
        ("every export carries a version node of lib/libudrv.map",
         sorted(f"{s}@{syms[s] or '(none)'}" for s in names if syms[s] not in nodes)),
        ("the map's first node is UDRV_1.0 (soname libudrv.so.1)",
         [] if "UDRV_1.0" in nodes else [f"nodes: {sorted(nodes)}"]),
        ("every public struct grows by its size (lib/abi.c) or is frozen",
         sorted(structs - grows - FROZEN)),
        ("lib/abi.c and FROZEN name only public structs",
         sorted((grows | FROZEN) - structs)),
        ("a struct that grows is passed with the caller's size", unsized(text, grows)),
        (f"the rig's helpers ({', '.join(MEASURE_HEADERS)}) add no symbol: all in {MEASURE_NODE}",
         sorted(f"{s}@{syms.get(s) or '(not exported)'}"
                for s in declared(include, MEASURE_HEADERS) if syms.get(s) != MEASURE_NODE)),
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
