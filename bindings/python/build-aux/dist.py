#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""meson dist script: copy libudrv's sources (LIBROOT/lib, LIBROOT/include,
LIBROOT/meson.build, and LIBROOT/kernel/include/uapi: the kernel helper
udrv-irq's uapi, which lib/ includes) and udrvd's client (LIBROOT/client)
into the sdist as libudrv/, where bindings/python/meson.build looks first,
so that a wheel builds from the sdist alone."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def main() -> None:
    src = Path(os.environ["MESON_SOURCE_ROOT"]) / sys.argv[1]
    dst = Path(os.environ["MESON_DIST_ROOT"]) / "libudrv"
    dst.mkdir(exist_ok=True)
    shutil.copy2(src / "meson.build", dst / "meson.build")
    for d in ("lib", "include", "client", "kernel/include/uapi"):
        shutil.copytree(src / d, dst / d, dirs_exist_ok=True)


if __name__ == "__main__":
    main()
