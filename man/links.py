#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The libudrv(3) link pages: one page per public function, holding
".so man3/libudrv.3", so that `man udrv_uio_open_fd` opens libudrv(3).

The public functions are the library's exported symbols (lib/libudrv.map),
the names that call them through a macro (udrv_chip_request() for the
exported udrv_chip_request_sz()), the static inline functions of the public
headers (include/udrv/*.h: udrv_read32(), udrv_mmio_pin_write()) and the
function-like macros that libudrv(3) documents (udrv_wmb(); not a helper
of the inline functions such as udrv_mmio_check()).

    links.py names MAP LIBUDRV.3 INCLUDEDIR             the names, one per line
    links.py inputs MAP LIBUDRV.3 INCLUDEDIR            the files they come from
    links.py write MAP LIBUDRV.3 INCLUDEDIR -- PAGE...  write each PAGE (NAME.3)

(INCLUDEDIR: include/udrv, its *.h.) man/meson.build lists the pages when it
configures, and configures again when an input changes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

TARGET = ".so man3/libudrv.3\n"
EXPORT = re.compile(r"^\s*(udrv_\w+)\s*;", re.MULTILINE)
MACRO = re.compile(r"^#\s*define\s+(\w+)\(([^)]*)\)(.*)$", re.MULTILINE)
INLINE = re.compile(r"static\s+inline\b[^;{(]*?\b(udrv_\w+)\s*\(")


def exported(map_text: str) -> set[str]:
    """The symbols of the map's global: sections."""
    text = re.sub(r"/\*.*?\*/", "", map_text, flags=re.DOTALL)
    return set(EXPORT.findall(text))


def joined(header: str) -> str:
    """@header with its line continuations joined (a macro on one line)."""
    return re.sub(r"\\\n", " ", header)


def expand_templates(text: str) -> str:
    """The bodies of the macros that paste a udrv_ name from their parameter
    (udrv_read##bits), expanded for each top-level use of the macro
    (UDRV_MMIO_ACCESSORS(32)): the functions they define, as text."""
    out = []
    for name, param, body in MACRO.findall(text):
        param = param.strip()
        if not param or f"##{param}" not in body:
            continue
        for arg in re.findall(rf"^{name}\((\w+)\)", text, re.MULTILINE):
            out.append(re.sub(rf"\s*##\s*{param}\s*##\s*|\s*##\s*{param}\b", arg, body))
    return "\n".join(out)


def names(map_text: str, headers: list[str], documented: str) -> list[str]:
    """The public functions (the module's docstring), sorted. @documented:
    libudrv(3)'s text, for the macros it names."""
    symbols = exported(map_text)
    out = set(symbols)
    for header in map(joined, headers):
        for name, _param, _body in MACRO.findall(header):
            if name.startswith("udrv_") and (f"{name}_sz" in symbols
                                             or re.search(rf"\b{name}\b", documented)):
                out.add(name)
        out.update(INLINE.findall(header + "\n" + expand_templates(header)))
    return sorted(out)


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[1] not in ("names", "inputs", "write"):
        print(__doc__, file=sys.stderr)
        return 2
    args = argv[2:]
    pages = []
    if argv[1] == "write":
        if "--" not in args:
            print("links.py write: no -- before the pages", file=sys.stderr)
            return 2
        args, pages = args[:args.index("--")], args[args.index("--") + 1:]
    map_path, man3, incdir = (Path(a) for a in args)
    headers = sorted(incdir.glob("*.h"))
    if argv[1] == "inputs":
        print("\n".join(str(p) for p in (map_path, man3, *headers)))
        return 0
    got = names(map_path.read_text(), [h.read_text() for h in headers], man3.read_text())
    if argv[1] == "names":
        print("\n".join(got))
        return 0
    unknown = [p for p in pages if Path(p).name.removesuffix(".3") not in got]
    if unknown:  # meson's list is older than the map: reconfigure
        print(f"links.py: no public function {', '.join(unknown)}", file=sys.stderr)
        return 1
    for page in pages:
        Path(page).write_text(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
