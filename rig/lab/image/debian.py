# SPDX-License-Identifier: GPL-2.0-only
"""Debian kernels: resolve versions from the metapackages, download and unpack them.

For a board ("std", "rt", "rpi3": rig/lab/boards/targets.py) we resolve the current image
package from its metapackage (linux-image-amd64, linux-image-rt-amd64,
linux-image-arm64), then, when the board builds our modules, the matching
headers package and its headers dependencies (the "common" headers and
linux-kbuild), and the guest's busybox-static when the board is not the
host's architecture.  The .deb files are cached in build/lab/cache/debs/ and
all of them are unpacked into ONE root, build/lab/kernels/<release>/, because
the headers package holds relative symlinks into the other two.  A foreign
architecture's packages come from a private apt state (rig/lab/image/apt.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from ..boards.targets import TARGETS, Target, target
from ..errors import LabError, PackageError, ToolMissing
from ..paths import cache_dir, debs_dir, kernels_dir, locked
from . import apt

FLAVOURS: dict[str, str] = {name: t.metapackage for name, t in TARGETS.items()}
UNPACK_STAMP = ".udrv-lab-unpacked"


@dataclass(frozen=True)
class KernelPackages:
    """What a flavour resolves to: the kernel release and the packages it needs."""

    flavour: str  # the board: "std", "rt", "rpi3"
    release: str  # e.g. "6.1.0-56-amd64" (what `uname -r` prints)
    image: str  # e.g. "linux-image-6.1.0-56-amd64"
    headers: str  # e.g. "linux-headers-6.1.0-56-amd64" ("" when no modules are built)
    headers_deps: tuple[str, ...]  # common headers + kbuild
    versions: dict[str, str]  # package -> Debian version ("" if unknown)
    arch: str = "amd64"  # Debian architecture
    extras: tuple[str, ...] = ()  # more packages unpacked into the root (busybox-static)

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(p for p in (self.image, self.headers, *self.headers_deps, *self.extras) if p)


@dataclass(frozen=True)
class Kernel:
    """An unpacked kernel: image, modules and headers under one root."""

    flavour: str
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
    def target(self) -> Target:
        return target(self.flavour)

    @property
    def dtb(self) -> Path | None:
        """The device tree the board boots with (None: the machine needs none)."""
        rel = self.target.machine.dtb
        return self.root / "usr" / "lib" / f"linux-image-{self.release}" / rel if rel else None

    @property
    def busybox(self) -> Path | None:
        """The guest's busybox from the board's busybox-static package (None: the host's)."""
        return self.root / "bin" / "busybox" if self.target.machine.busybox_package else None


def check_flavour(flavour: str) -> str:
    try:
        target(flavour)
    except LabError as exc:
        raise PackageError(str(exc)) from None
    return flavour


def _resolved_cache() -> Path:
    return cache_dir() / "resolved.json"


def _load_resolved() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_resolved_cache().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_resolved(pk: KernelPackages, lists: str) -> None:
    data = _load_resolved()
    entry = asdict(pk)
    entry["headers_deps"] = list(pk.headers_deps)
    entry["extras"] = list(pk.extras)
    entry["apt_lists"] = lists
    data[pk.flavour] = entry
    path = _resolved_cache()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    tmp.replace(path)


def _from_cache(flavour: str, lists: str | None = None) -> KernelPackages | None:
    """The last resolution of flavour (only if made from apt lists `lists`, if given)."""
    entry = _load_resolved().get(flavour)
    if not isinstance(entry, dict):
        return None
    if lists is not None and (not lists or entry.get("apt_lists") != lists):
        return None
    try:
        return KernelPackages(
            flavour=flavour,
            release=str(entry["release"]),
            image=str(entry["image"]),
            headers=str(entry["headers"]),
            headers_deps=tuple(str(d) for d in entry["headers_deps"]),  # type: ignore[attr-defined]
            versions={str(k): str(v) for k, v in entry["versions"].items()},  # type: ignore[attr-defined]
            arch=str(entry.get("arch", "amd64")),
            extras=tuple(str(d) for d in entry.get("extras", ())),  # type: ignore[attr-defined]
        )
    except (KeyError, TypeError, AttributeError):
        return None


def _resolve_now(t: Target) -> KernelPackages:
    """Ask apt-cache: metapackage -> image -> (headers -> their deps), extras."""
    arch, meta = t.machine.arch, t.metapackage
    images = [d for d in apt.depends(meta, arch) if d.startswith("linux-image-")]
    if not images:
        raise PackageError(f"metapackage {meta} ({arch}) does not depend on any linux-image-*")
    image = images[0]
    release = image.removeprefix("linux-image-")
    headers, deps = "", ()
    if t.machine.build_modules:
        headers = f"linux-headers-{release}"
        deps = tuple(d for d in apt.depends(headers, arch)
                     if d.startswith(("linux-headers-", "linux-kbuild-")))
    extras = (t.machine.busybox_package,) if t.machine.busybox_package else ()
    pk = KernelPackages(t.name, release, image, headers, deps, {}, arch, extras)
    return KernelPackages(
        t.name, release, image, headers, deps, apt.versions(pk.packages, arch), arch, extras
    )


def resolve(flavour: str, *, offline_ok: bool = True, quiet: bool = False) -> KernelPackages:
    """Resolve a board to packages via apt-cache (falls back to the last result if offline)."""
    check_flavour(flavour)
    t = target(flavour)
    arch = t.machine.arch
    try:
        lists = apt.ensure_lists(arch, quiet=quiet)
    except PackageError:
        if not offline_ok or _from_cache(flavour) is None:
            raise
        lists = ""  # no lists: the last resolution, below
    same = _from_cache(flavour, lists)
    if same is not None and same.arch == arch:
        return same
    try:
        pk = _resolve_now(t)
    except (PackageError, ToolMissing) as exc:
        cached = _from_cache(flavour) if offline_ok else None
        if cached is None:
            raise
        print(f"lab: warning: {exc}; using the last resolution ({cached.release})", file=sys.stderr)
        return cached
    _save_resolved(pk, lists)
    return pk


def _deb_for(package: str, version: str, arch: str = "amd64") -> Path | None:
    """The cached .deb of package (at version, if known) for arch (or all), or None."""
    quoted = version.replace(":", "%3a") if version else "*"
    hits = [*debs_dir().glob(f"{package}_{quoted}_{arch}.deb"),
            *debs_dir().glob(f"{package}_{quoted}_all.deb")]  # fmt: skip
    hits.sort(key=lambda p: p.stat().st_mtime)
    return hits[-1] if hits else None


def download(pk: KernelPackages, *, quiet: bool = False) -> list[Path]:
    """Make sure every .deb of pk is in the cache; returns their paths (image first)."""
    debs_dir().mkdir(parents=True, exist_ok=True)
    with locked(cache_dir() / "download.lock"):
        missing = [p for p in pk.packages if _deb_for(p, pk.versions.get(p, ""), pk.arch) is None]
        if missing:
            specs = [f"{p}={pk.versions[p]}" if pk.versions.get(p) else p for p in missing]
            if not quiet:
                print(f"lab: downloading {' '.join(missing)} ({pk.arch})", file=sys.stderr)
            apt.download(specs, pk.arch, debs_dir())
    debs: list[Path] = []
    for p in pk.packages:
        deb = _deb_for(p, pk.versions.get(p, ""), pk.arch)
        if deb is None:
            raise PackageError(f"apt-get download reported success but no .deb for {p} appeared")
        debs.append(deb)
    return debs


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
    kernel = Kernel(pk.flavour, pk.release, root)
    if stamp.is_file() and stamp.read_text() == stamp_text:
        return kernel
    dpkg = apt.need("dpkg", "dpkg")
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
    kernel = Kernel(pk.flavour, pk.release, tmp)
    for need in (kernel.vmlinuz, kernel.dtb, kernel.busybox):
        if need is not None and not need.is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            raise PackageError(
                f"{need.relative_to(tmp)} is not in the unpacked packages "
                f"({', '.join(d.name for d in debs)})"
            )
    kernel = Kernel(pk.flavour, pk.release, root)
    # Keep built modules (kmod/) and initramfs images across a re-unpack? No: a new
    # package set means new headers, so everything derived from it is stale.
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    if pk.headers:
        _fix_headers_makefile(root, pk.release)
    stamp.write_text(stamp_text)
    return kernel


def fetch(flavour: str, *, quiet: bool = False) -> Kernel:
    """Resolve, download and unpack one flavour; idempotent and fast when cached."""
    pk = resolve(flavour, quiet=quiet)
    root = kernel_root(pk.release)
    with locked(root.with_name(root.name + ".lock")):
        return unpack(pk, download(pk, quiet=quiet), quiet=quiet)


def cache_state(flavour: str) -> dict[str, object]:
    """What `python3 -m rig.lab info` prints about one flavour (never raises PackageError)."""
    t = target(flavour)
    state: dict[str, object] = {"flavour": flavour, "metapackage": t.metapackage,
                                "machine": t.machine.name, "arch": t.machine.arch}  # fmt: skip
    try:
        pk = resolve(flavour)
    except (PackageError, ToolMissing) as exc:
        state["error"] = str(exc)
        return state
    root = kernel_root(pk.release)
    state.update(
        release=pk.release,
        packages={p: pk.versions.get(p, "?") for p in pk.packages},
        debs_cached={
            p: _deb_for(p, pk.versions.get(p, ""), pk.arch) is not None for p in pk.packages
        },
        unpacked=(root / UNPACK_STAMP).is_file(),
        root=str(root),
    )
    return state
