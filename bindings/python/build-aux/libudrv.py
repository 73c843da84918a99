#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""What bindings/python/meson.build needs from the C project, read from its own files
so that the two cannot drift apart:

    libudrv.py ROOT version   the library's version (ROOT/meson.build's project())
    libudrv.py ROOT sources   libudrv's sources (ROOT/lib/meson.build's
                              udrv_sources), one path relative to ROOT a line
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def version(root: Path) -> str:
    text = (root / "meson.build").read_text()
    m = re.search(r"project\(\s*'udrv'.*?version:\s*'([^']+)'", text, re.DOTALL)
    if not m:
        raise SystemExit(f"libudrv.py: no version: '...' in {root / 'meson.build'}'s project()")
    return m.group(1)


def sources(root: Path) -> list[str]:
    text = (root / "lib" / "meson.build").read_text()
    m = re.search(r"udrv_sources\s*=\s*files\(([^)]*)\)", text)
    if not m:
        raise SystemExit(f"libudrv.py: no udrv_sources = files(...) in {root / 'lib/meson.build'}")
    names = re.findall(r"'([^']+\.c)'", m.group(1))
    missing = [n for n in names if not (root / "lib" / n).is_file()]
    if not names or missing:
        raise SystemExit(f"libudrv.py: lib/meson.build lists missing sources: {missing}")
    return [f"lib/{n}" for n in names]


def main() -> None:
    root = Path(sys.argv[1])
    what = sys.argv[2]
    if what == "version":
        print(version(root))
    elif what == "sources":
        print("\n".join(sources(root)))
    else:
        raise SystemExit(f"libudrv.py: unknown request {what!r}")


if __name__ == "__main__":
    main()
