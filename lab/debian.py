# SPDX-License-Identifier: GPL-2.0-only
"""Debian kernels: resolve versions from the metapackages, download and unpack them.

For a flavour ("std" or "rt") we resolve the current image package from the
metapackage (linux-image-amd64 / linux-image-rt-amd64), then the matching
headers package and its headers dependencies (the "common" headers and
linux-kbuild).  The .deb files are cached in build/lab/cache/debs/ and all of
them are unpacked into ONE root, build/lab/kernels/<release>/, because the
headers package holds relative symlinks into the other two.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import PackageError, ToolMissing
from .paths import cache_dir, debs_dir, kernels_dir, locked

FLAVOURS: dict[str, str] = {"std": "linux-image-amd64", "rt": "linux-image-rt-amd64"}
UNPACK_STAMP = ".udrv-lab-unpacked"
_DEPENDS_RE = re.compile(r"^\s*\|?Depends:\s*([^\s<>]+)\s*$")


@dataclass(frozen=True)
class KernelPackages:
    """What a flavour resolves to: the kernel release and the packages it needs."""

    flavour: str
    release: str  # e.g. "6.1.0-56-amd64" (what `uname -r` prints)
    image: str  # e.g. "linux-image-6.1.0-56-amd64"
    headers: str  # e.g. "linux-headers-6.1.0-56-amd64"
    headers_deps: tuple[str, ...]  # common headers + kbuild
    versions: dict[str, str]  # package -> Debian version ("" if unknown)

    @property
    def packages(self) -> tuple[str, ...]:
        return (self.image, self.headers, *self.headers_deps)


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


def check_flavour(flavour: str) -> str:
    if flavour not in FLAVOURS:
        raise PackageError(f"unknown kernel flavour {flavour!r}: use one of {', '.join(FLAVOURS)}")
    return flavour


def _need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise ToolMissing(f"{tool} is not installed (it comes with Debian's `{package}` package)")
    return path


def _apt_cache(*args: str) -> subprocess.CompletedProcess[str]:
    exe = _need("apt-cache", "apt")
    return subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=120)


def _depends(package: str) -> list[str]:
    """The plain `Depends:` of a package, in order; raises if the package is unknown."""
    proc = _apt_cache("depends", package)
    deps = [m.group(1) for line in proc.stdout.splitlines() if (m := _DEPENDS_RE.match(line))]
    if proc.returncode != 0 or not proc.stdout.strip():
        raise PackageError(
            f"Debian package {package} was not found by apt-cache "
            f"({(proc.stderr or proc.stdout).strip() or 'no output'}); "
            "run `apt-get update` (as root) and try again"
        )
    return deps


def _versions(packages: tuple[str, ...]) -> dict[str, str]:
    proc = _apt_cache("show", "--no-all-versions", *packages)
    found: dict[str, str] = {}
    current = ""
    for line in proc.stdout.splitlines():
        if line.startswith("Package: "):
            current = line.split(":", 1)[1].strip()
        elif line.startswith("Version: ") and current:
            found[current] = line.split(":", 1)[1].strip()
    missing = [p for p in packages if p not in found]
    if missing:
        raise PackageError(
            f"Debian package(s) {', '.join(missing)} not found by apt-cache; "
            "run `apt-get update` (as root) and try again"
        )
    return found


def _lists_signature() -> str:
    """Identifies the state of apt's package lists: resolving again is only needed
    when they changed (apt-cache takes ~0.5 s a call when apt keeps no pkgcache)."""
    lists = Path("/var/lib/apt/lists")
    try:
        files = sorted(p for p in lists.iterdir() if p.is_file() and p.name != "lock")
    except OSError:
        return ""
    h = hashlib.sha256()
    for p in files:
        st = p.stat()
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32] if files else ""


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
        )
    except (KeyError, TypeError, AttributeError):
        return None


def resolve(flavour: str, *, offline_ok: bool = True) -> KernelPackages:
    """Resolve a flavour to packages via apt-cache (falls back to the last result if offline)."""
    check_flavour(flavour)
    meta = FLAVOURS[flavour]
    lists = _lists_signature()
    same = _from_cache(flavour, lists)
    if same is not None:
        return same
    try:
        images = [d for d in _depends(meta) if d.startswith("linux-image-")]
        if not images:
            raise PackageError(f"metapackage {meta} does not depend on any linux-image-* package")
        image = images[0]
        release = image.removeprefix("linux-image-")
        headers = f"linux-headers-{release}"
        deps = tuple(
            d for d in _depends(headers) if d.startswith(("linux-headers-", "linux-kbuild-"))
        )
        pk = KernelPackages(flavour, release, image, headers, deps, {})
        pk = KernelPackages(flavour, release, image, headers, deps, _versions(pk.packages))
    except (PackageError, ToolMissing) as exc:
        cached = _from_cache(flavour) if offline_ok else None
        if cached is None:
            raise
        print(f"lab: warning: {exc}; using the last resolution ({cached.release})", file=sys.stderr)
        return cached
    _save_resolved(pk, lists)
    return pk


def _deb_for(package: str, version: str) -> Path | None:
    """The cached .deb of package (at version, if known), or None."""
    quoted = version.replace(":", "%3a")
    pattern = f"{package}_{quoted}_*.deb" if version else f"{package}_*.deb"
    hits = sorted(debs_dir().glob(pattern), key=lambda p: p.stat().st_mtime)
    return hits[-1] if hits else None


def download(pk: KernelPackages, *, quiet: bool = False) -> list[Path]:
    """Make sure every .deb of pk is in the cache; returns their paths (image first)."""
    debs_dir().mkdir(parents=True, exist_ok=True)
    with locked(cache_dir() / "download.lock"):
        missing = [p for p in pk.packages if _deb_for(p, pk.versions.get(p, "")) is None]
        if missing:
            exe = _need("apt-get", "apt")
            cmd = [exe, "download"]
            if os.geteuid() == 0:  # _apt cannot write into our cache dir: don't even try
                cmd += ["-o", "APT::Sandbox::User=root"]
            specs = [f"{p}={pk.versions[p]}" if pk.versions.get(p) else p for p in missing]
            if not quiet:
                print(f"lab: downloading {' '.join(missing)}", file=sys.stderr)
            proc = subprocess.run(
                cmd + specs,
                cwd=debs_dir(),
                capture_output=True,
                text=True,
                check=False,
                timeout=1800,
            )
            if proc.returncode != 0:
                raise PackageError(
                    f"apt-get download {' '.join(specs)} failed (exit {proc.returncode}):\n"
                    f"{(proc.stderr + proc.stdout).strip()}\n"
                    "check the network and run `apt-get update` (as root) and try again"
                )
    debs: list[Path] = []
    for p in pk.packages:
        deb = _deb_for(p, pk.versions.get(p, ""))
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
    dpkg = _need("dpkg", "dpkg")
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
    if not (tmp / "boot" / f"vmlinuz-{pk.release}").is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        raise PackageError(f"{pk.image} has no boot/vmlinuz-{pk.release}")
    # Keep built modules (kmod/) and initramfs images across a re-unpack? No: a new
    # package set means new headers, so everything derived from it is stale.
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    _fix_headers_makefile(root, pk.release)
    stamp.write_text(stamp_text)
    return kernel


def fetch(flavour: str, *, quiet: bool = False) -> Kernel:
    """Resolve, download and unpack one flavour; idempotent and fast when cached."""
    pk = resolve(flavour)
    root = kernel_root(pk.release)
    with locked(root.with_name(root.name + ".lock")):
        return unpack(pk, download(pk, quiet=quiet), quiet=quiet)


def cache_state(flavour: str) -> dict[str, object]:
    """What `python3 -m lab info` prints about one flavour (never raises PackageError)."""
    state: dict[str, object] = {"flavour": flavour, "metapackage": FLAVOURS[flavour]}
    try:
        pk = resolve(flavour)
    except (PackageError, ToolMissing) as exc:
        state["error"] = str(exc)
        return state
    root = kernel_root(pk.release)
    state.update(
        release=pk.release,
        packages={p: pk.versions.get(p, "?") for p in pk.packages},
        debs_cached={p: _deb_for(p, pk.versions.get(p, "")) is not None for p in pk.packages},
        unpacked=(root / UNPACK_STAMP).is_file(),
        root=str(root),
    )
    return state
