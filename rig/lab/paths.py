# SPDX-License-Identifier: GPL-2.0-only
"""Where the lab keeps things: everything generated lives under <repo>/build/lab/."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import LabError

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent.parent  # rig/lab/ -> the checkout
GUEST_DIR = PACKAGE_DIR / "image" / "guest"  # the initramfs's init and agent


def lab_dir() -> Path:
    """Root of the lab's build area (override with UDRV_LAB_DIR)."""
    env = os.environ.get("UDRV_LAB_DIR")
    return Path(env).resolve() if env else REPO_ROOT / "build" / "lab"


def cache_dir() -> Path:
    return lab_dir() / "cache"


def debs_dir() -> Path:
    return cache_dir() / "debs"


def kernels_dir() -> Path:
    return lab_dir() / "kernels"


def logs_dir() -> Path:
    return lab_dir() / "logs"


def kernel_src_dir() -> Path:
    """The out-of-tree kernel modules, one per subdirectory: the repository's rig/kernel/
    (override with UDRV_LAB_MODULES_SRC; set it empty to build and load none)."""
    env = os.environ.get("UDRV_LAB_MODULES_SRC")
    if env is not None:
        return Path(env).resolve() if env else REPO_ROOT / "build" / "lab" / "no-modules"
    return REPO_ROOT / "rig" / "kernel"


def kernel_src_dirs() -> list[Path]:
    """Every directory of out-of-tree modules the lab builds: the toolkit's
    kernel/ (udrv-irq, the responder's helper) and the rig's rig/kernel/
    (the fixtures); only UDRV_LAB_MODULES_SRC's when it is set."""
    if os.environ.get("UDRV_LAB_MODULES_SRC") is not None:
        return [kernel_src_dir()]
    return [REPO_ROOT / "kernel", kernel_src_dir()]


MODULE_SOURCES = ("build", "dkms")


def module_source() -> str:
    """Where the x86 boards' modules come from (UDRV_LAB_MODULES): "build" (the
    default: built here from rig/kernel/ against the lab's own headers) or
    "dkms" (the .ko files DKMS installed for the board's kernel release,
    /lib/modules/<release>/updates/dkms/: the udrv-bench-dkms package with
    Debian's linux-headers-<release>)."""
    env = os.environ.get("UDRV_LAB_MODULES", "build")
    if env not in MODULE_SOURCES:
        raise LabError(f"UDRV_LAB_MODULES={env!r}: say {' or '.join(MODULE_SOURCES)}")
    return env


def dkms_modules_dir(release: str) -> Path:
    """Where DKMS installs a package's modules for `release` on Debian."""
    return Path("/lib/modules") / release / "updates" / "dkms"


def private_tmp(path: Path) -> Path:
    """A temporary name beside `path` for this process and thread alone (the
    suite prepares boards in threads of one process: a pid is not enough)."""
    return path.with_name(f"{path.name}.tmp{os.getpid()}-{threading.get_native_id()}")


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `path` (created if needed) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
