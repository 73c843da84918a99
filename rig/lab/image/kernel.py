# SPDX-License-Identifier: GPL-2.0-only
"""A board's Debian kernel, unpacked: fetch() takes the board's packages from
rig/lab/image/apt.py (resolve: which ones; download: their .debs in
build/lab/cache/debs/) and unpacks all of them into ONE root,
build/lab/kernels/<release>/, because the headers package holds relative
symlinks into the other two.  The data goes one way: board -> packages ->
.debs -> unpacked Kernel (what modules.py and initramfs.py build on).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..catalogue import Target, lookup
from ..errors import PackageError, ToolMissing, need_tool
from ..paths import kernels_dir, locked
from . import apt
from .apt import KernelPackages

UNPACK_STAMP = ".udrv-lab-unpacked"


@dataclass(frozen=True)
class Kernel:
    """An unpacked kernel: image, modules and headers under one root."""

    target: str
    release: str
    root: Path

    @property
    def vmlinuz(self) -> Path:
        return self.root / "boot" / f"vmlinuz-{self.release}"

    @property
    def modules_dir(self) -> Path:
        return self.root / "lib" / "modules" / self.release

    @property
    def headers_dir(self) -> Path:
        return self.root / "usr" / "src" / f"linux-headers-{self.release}"

    @property
    def config(self) -> Path:
        return self.root / "boot" / f"config-{self.release}"

    @property
    def spec(self) -> Target:
        """The catalogue's entry of this kernel's target."""
        return lookup(self.target)

    @property
    def dtb(self) -> Path | None:
        """The device tree the board boots with (None: the machine needs none)."""
        rel = self.spec.machine.dtb
        return self.root / "usr" / "lib" / f"linux-image-{self.release}" / rel if rel else None

    @property
    def busybox(self) -> Path | None:
        """The guest's busybox from the board's busybox-static package (None: the host's)."""
        return self.root / "bin" / "busybox" if self.spec.machine.busybox_package else None


def kernel_root(release: str) -> Path:
    return kernels_dir() / release


def _fix_headers_makefile(root: Path, release: str) -> None:
    """Point the headers Makefile's absolute `include /usr/src/...` into our root."""
    mk = root / "usr" / "src" / f"linux-headers-{release}" / "Makefile"
    text = mk.read_text()
    fixed = re.sub(r"^include /usr/src/", f"include {root}/usr/src/", text, flags=re.MULTILINE)
    if fixed != text:
        mk.write_text(fixed)


def unpack(pk: KernelPackages, debs: list[Path], *, quiet: bool = False) -> Kernel:
    """Unpack all debs into build/lab/kernels/<release>/ (skipped if already done)."""
    root = kernel_root(pk.release)
    stamp_text = json.dumps(sorted(d.name for d in debs)) + "\n"
    stamp = root / UNPACK_STAMP
    kernel = Kernel(pk.target, pk.release, root)
    if stamp.is_file() and stamp.read_text() == stamp_text:
        return kernel
    dpkg = need_tool("dpkg", "dpkg")
    tmp = root.with_name(root.name + ".unpacking")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for deb in debs:
        if not quiet:
            print(f"lab: unpacking {deb.name}", file=sys.stderr)
        proc = subprocess.run(
            [dpkg, "-x", str(deb), str(tmp)], capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise PackageError(f"dpkg -x {deb} failed:\n{(proc.stderr + proc.stdout).strip()}")
    kernel = Kernel(pk.target, pk.release, tmp)
    for need in (kernel.vmlinuz, kernel.dtb, kernel.busybox):
        if need is not None and not need.is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            raise PackageError(
                f"{need.relative_to(tmp)} is not in the unpacked packages "
                f"({', '.join(d.name for d in debs)})"
            )
    kernel = Kernel(pk.target, pk.release, root)
    # Keep built modules (kmod/) and initramfs images across a re-unpack? No: a new
    # package set means new headers, so everything derived from it is stale.
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    if pk.headers:
        _fix_headers_makefile(root, pk.release)
    stamp.write_text(stamp_text)
    return kernel


def fetch(target: str, *, quiet: bool = False) -> Kernel:
    """Resolve, download and unpack one target; idempotent and fast when cached."""
    pk = apt.resolve(target, quiet=quiet)
    root = kernel_root(pk.release)
    with locked(root.with_name(root.name + ".lock")):
        return unpack(pk, apt.download(pk, quiet=quiet), quiet=quiet)


def cache_state(target: str) -> dict[str, object]:
    """What `python3 -m rig.lab info` prints about one target (never raises PackageError)."""
    t = lookup(target)
    state: dict[str, object] = {"target": target, "metapackage": t.metapackage,
                                "machine": t.machine.name, "arch": t.machine.arch}  # fmt: skip
    try:
        pk = apt.resolve(target)
    except (PackageError, ToolMissing) as exc:
        state["error"] = str(exc)
        return state
    root = kernel_root(pk.release)
    # a host package (a foreign kernel's kbuild) is named with its architecture
    every = [(p if arch == pk.arch else f"{p}:{arch}", p, arch) for p, arch in pk.with_arch()]
    state.update(
        release=pk.release,
        packages={name: pk.versions.get(p, "?") for name, p, _ in every},
        debs_cached={
            name: apt.deb_for(p, pk.versions.get(p, ""), arch) is not None
            for name, p, arch in every
        },
        unpacked=(root / UNPACK_STAMP).is_file(),
        root=str(root),
    )
    return state
