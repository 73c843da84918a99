# SPDX-License-Identifier: GPL-2.0-only
"""A board's Debian packages: which ones (resolve) and their .debs (download).

For a board ("std", "rt", "rpi3": rig/lab/catalogue.py) resolve() asks
apt-cache for the current image package of its metapackage
(linux-image-amd64, linux-image-rt-amd64, linux-image-arm64), then, when the
board builds our modules, the matching headers package and its headers
dependencies (the "common" headers and linux-kbuild), and the guest's
busybox-static when the board is not the host's architecture; the answer is
cached in build/lab/cache/resolved.json for as long as the package lists stay
the same.  download() puts their .debs into build/lab/cache/debs/ with
apt-get download.  What becomes of them (one unpacked root per release) is
rig/lab/image/kernel.py's, which calls these two and nothing else here.

The host's own architecture uses the system's apt state (/var/lib/apt/lists).
Another architecture (arm64 for the rpi3 board) gets a private apt state
under build/lab/apt/<arch>/: its own package lists, cache and an empty dpkg
status, fed from the system's sources (/etc/apt/sources.list*) with
`-o APT::Architecture=<arch>`.  The system's dpkg architectures are never
changed.  The private lists are fetched with `apt-get update` the first time
and again whenever the system's lists are newer (someone ran apt-get update).
Each apt failure says what to do (update_hint).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from ..catalogue import TARGETS, Target, lookup
from ..errors import LabError, PackageError, ToolMissing, need_tool
from ..paths import cache_dir, debs_dir, lab_dir, locked, private_tmp

SYSTEM_LISTS = Path("/var/lib/apt/lists")


@cache
def host_arch() -> str:
    exe = need_tool("dpkg", "dpkg")
    proc = subprocess.run(
        [exe, "--print-architecture"], capture_output=True, text=True, check=False, timeout=30
    )
    return proc.stdout.strip() or "amd64"


# GNU triplets of the Debian architectures the lab builds for (cross
# compilers, CROSS_COMPILE, wheel platform tags)
GNU_TYPES = {"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu"}


def state_dir(arch: str) -> Path:
    return lab_dir() / "apt" / arch


def is_private(arch: str) -> bool:
    return arch != host_arch()


def lists_dir(arch: str) -> Path:
    return state_dir(arch) / "lists" if is_private(arch) else SYSTEM_LISTS


def options(arch: str) -> list[str]:
    """-o options that point apt at the private state of a foreign architecture."""
    if not is_private(arch):
        return []
    d = state_dir(arch)
    return [
        "-o", f"APT::Architecture={arch}",
        "-o", f"APT::Architectures::={arch}",
        "-o", f"Dir::State::Lists={d / 'lists'}",
        "-o", f"Dir::State::status={d / 'status'}",
        "-o", f"Dir::Cache={d / 'cache'}",
        "-o", "Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false",
        "-o", "Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false",
        "-o", "Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false",
        "-o", "Debug::NoLocking=1",
    ]  # fmt: skip


def _package_lists(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir() if p.is_file() and "_Packages" in p.name)
    except OSError:
        return []


def lists_signature(arch: str) -> str:
    """Identifies the state of the package lists of `arch`: resolving again is only
    needed when they changed (apt-cache takes ~0.5 s a call when apt keeps no pkgcache)."""
    directory = lists_dir(arch)
    try:
        files = sorted(p for p in directory.iterdir() if p.is_file() and p.name != "lock")
    except OSError:
        return ""
    h = hashlib.sha256()
    for p in files:
        st = p.stat()
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32] if files else ""


def _system_lists_changed() -> float:
    """When apt last wrote the system's lists (ctime: apt sets mtimes to the server's)."""
    try:
        return max((p.stat().st_ctime for p in SYSTEM_LISTS.iterdir() if p.is_file()), default=0.0)
    except OSError:
        return 0.0


def ensure_lists(arch: str, *, quiet: bool = False) -> str:
    """Fetch the private package lists of a foreign `arch` if they are missing or
    the system's were updated since; a failed refresh keeps the old lists
    (warning). Their lists_signature()."""
    if is_private(arch):
        _fetch_lists(arch, quiet)
    return lists_signature(arch)


def _fetch_lists(arch: str, quiet: bool) -> None:
    d = state_dir(arch)
    stamp = d / "updated"
    with locked(lab_dir() / "apt" / f"{arch}.lock"):
        have = _package_lists(d / "lists")
        if have and stamp.is_file() and stamp.stat().st_mtime >= _system_lists_changed():
            return
        for sub in ("lists/partial", "cache/archives/partial"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        (d / "status").touch()
        if not quiet:
            print(f"lab: fetching Debian's {arch} package lists into {d}", file=sys.stderr)
        proc = run_apt("apt-get", arch, "update", timeout=600)
        if proc.returncode == 0 and _package_lists(d / "lists"):
            stamp.touch()
            return
        why = (proc.stderr + proc.stdout).strip()
        if have:
            stamp.touch()  # don't retry on every call; the next system update retries
            print(f"lab: warning: refreshing the {arch} package lists failed; using the old ones:"
                  f"\n{why}", file=sys.stderr)  # fmt: skip
            return
        raise PackageError(
            f"apt-get update for {arch} (lists in {d / 'lists'}) failed (exit "
            f"{proc.returncode}):\n{why}\ncheck the network and /etc/apt/sources.list*"
        )


def run_apt(
    tool: str, arch: str, *args: str, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """apt-get or apt-cache with the options of `arch`."""
    exe = need_tool(tool, "apt")
    cmd = [exe, *options(arch)]
    if tool == "apt-get" and os.geteuid() == 0:  # _apt cannot write into our dirs
        cmd += ["-o", "APT::Sandbox::User=root"]
    return subprocess.run(
        [*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=timeout
    )


def update_hint(arch: str) -> str:
    """What to do when apt does not know a package of `arch`."""
    if is_private(arch):
        return f"remove {state_dir(arch)} (the lab fetches the {arch} lists again) and retry"
    return "run `apt-get update` (as root) and try again"


_DEPENDS_RE = re.compile(r"^\s*\|?Depends:\s*([^\s<>]+)\s*$")


def depends(package: str, arch: str) -> list[str]:
    """The plain `Depends:` of a package, in order; raises if the package is unknown."""
    proc = run_apt("apt-cache", arch, "depends", package)
    deps = [m.group(1) for line in proc.stdout.splitlines() if (m := _DEPENDS_RE.match(line))]
    if proc.returncode != 0 or not proc.stdout.strip():
        raise PackageError(
            f"Debian package {package} ({arch}) was not found by apt-cache "
            f"({(proc.stderr or proc.stdout).strip() or 'no output'}); {update_hint(arch)}"
        )
    return deps


def versions(packages: tuple[str, ...], arch: str) -> dict[str, str]:
    """package -> its candidate version; raises naming the packages apt does not know."""
    proc = run_apt("apt-cache", arch, "show", "--no-all-versions", *packages)
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
            f"Debian package(s) {', '.join(missing)} ({arch}) not found by apt-cache; "
            f"{update_hint(arch)}"
        )
    return found


def download_specs(specs: list[str], arch: str, dest: Path) -> None:
    """apt-get download `specs` (NAME or NAME=VERSION) of `arch` into `dest`."""
    proc = run_apt("apt-get", arch, "download", *specs, cwd=dest, timeout=1800)
    if proc.returncode != 0:
        raise PackageError(
            f"apt-get download {' '.join(specs)} ({arch}) failed "
            f"(exit {proc.returncode}):\n{(proc.stderr + proc.stdout).strip()}\n"
            f"check the network; {update_hint(arch)}"
        )


# what a board needs: resolved from the metapackages, cached per apt lists state
# and per RESOLVER (what a resolution holds: 2 added host_packages)
RESOLVER = 2
FLAVOURS: dict[str, str] = {name: t.metapackage for name, t in TARGETS.items()}


@dataclass(frozen=True)
class KernelPackages:
    """What a target resolves to: the kernel release and the packages it needs."""

    target: str  # the board: "std", "rt", "rpi3"
    release: str  # e.g. "6.1.0-56-amd64" (what `uname -r` prints)
    image: str  # e.g. "linux-image-6.1.0-56-amd64"
    headers: str  # e.g. "linux-headers-6.1.0-56-amd64" ("" when no modules are built)
    headers_deps: tuple[str, ...]  # common headers + kbuild
    versions: dict[str, str]  # package -> Debian version ("" if unknown)
    arch: str = "amd64"  # Debian architecture
    extras: tuple[str, ...] = ()  # more packages unpacked into the root (busybox-static)
    # of the host's architecture, unpacked into the same root: a foreign
    # kernel's kbuild (its headers' scripts/ link to linux-kbuild's programs,
    # which run on the host when modules are cross-built)
    host_packages: tuple[str, ...] = ()

    @property
    def packages(self) -> tuple[str, ...]:
        """The packages of `arch` (host_packages are not among them)."""
        return tuple(p for p in (self.image, self.headers, *self.headers_deps, *self.extras) if p)

    def with_arch(self) -> list[tuple[str, str]]:
        """Every package with its architecture: `packages` of `arch`, then
        `host_packages` of the host's."""
        return [*((p, self.arch) for p in self.packages),
                *((p, host_arch()) for p in self.host_packages)]  # fmt: skip


def check_target(target: str) -> str:
    try:
        lookup(target)
    except LabError as exc:
        raise PackageError(str(exc)) from None
    return target


def _resolved_cache() -> Path:
    return cache_dir() / "resolved.json"


def _load_resolved() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_resolved_cache().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_resolved(pk: KernelPackages, lists: str) -> None:
    """Add pk to resolved.json: read, changed and replaced under its lock (the
    suite resolves its boards in threads), through a temporary file of its own."""
    entry = asdict(pk)
    entry["headers_deps"] = list(pk.headers_deps)
    entry["extras"] = list(pk.extras)
    entry["host_packages"] = list(pk.host_packages)
    entry["apt_lists"] = lists
    entry["resolver"] = RESOLVER
    path = _resolved_cache()
    with locked(path.with_suffix(".lock")):
        data = _load_resolved()
        data[pk.target] = entry
        tmp = private_tmp(path)
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        tmp.replace(path)


def _from_cache(target: str, lists: str | None = None) -> KernelPackages | None:
    """The last resolution of target (only if made from apt lists `lists`, if given)."""
    entry = _load_resolved().get(target)
    if not isinstance(entry, dict):
        return None
    if lists is not None and (not lists or entry.get("apt_lists") != lists
                              or entry.get("resolver") != RESOLVER):  # fmt: skip
        return None
    try:
        return KernelPackages(
            target=target,
            release=str(entry["release"]),
            image=str(entry["image"]),
            headers=str(entry["headers"]),
            headers_deps=tuple(str(d) for d in entry["headers_deps"]),  # type: ignore[attr-defined]
            versions={str(k): str(v) for k, v in entry["versions"].items()},  # type: ignore[attr-defined]
            arch=str(entry.get("arch", "amd64")),
            extras=tuple(str(d) for d in entry.get("extras", ())),  # type: ignore[attr-defined]
            host_packages=tuple(str(d) for d in entry.get("host_packages", ())),  # type: ignore[attr-defined]
        )
    except (KeyError, TypeError, AttributeError):
        return None


def _resolve_now(t: Target) -> KernelPackages:
    """Ask apt-cache: metapackage -> image -> (headers -> their deps), extras."""
    arch, meta = t.machine.arch, t.metapackage
    images = [d for d in depends(meta, arch) if d.startswith("linux-image-")]
    if not images:
        raise PackageError(f"metapackage {meta} ({arch}) does not depend on any linux-image-*")
    image = images[0]
    release = image.removeprefix("linux-image-")
    headers, deps, host = "", (), ()
    if t.machine.build_modules or t.machine.module_variants:
        headers = f"linux-headers-{release}"
        deps = tuple(d for d in depends(headers, arch)
                     if d.startswith(("linux-headers-", "linux-kbuild-")))
        if arch != host_arch():  # kbuild's programs run on the host
            host = tuple(d for d in deps if d.startswith("linux-kbuild-"))
            deps = tuple(d for d in deps if d not in host)
    extras = (t.machine.busybox_package,) if t.machine.busybox_package else ()
    pk = KernelPackages(t.name, release, image, headers, deps, {}, arch, extras, host)
    found = versions(pk.packages, arch)
    if host:
        found |= versions(host, host_arch())
        want = versions(tuple(d for d in depends(headers, arch) if d in host), arch)
        for d in host:
            check_host_kbuild(headers, arch, d, want[d], found[d])
    return KernelPackages(t.name, release, image, headers, deps, found, arch, extras, host)


def upstream_version(version: str) -> str:
    """A Debian version without its epoch and Debian revision: 1:6.1.192-3 -> 6.1.192."""
    return version.split(":", 1)[-1].rsplit("-", 1)[0]


def check_host_kbuild(headers: str, arch: str, kbuild: str, want: str, have: str) -> None:
    """The host's kbuild may stand in for the one a foreign kernel's headers name
    when both are built from the same kernel source (same upstream version).

    Debian publishes a kernel update architecture by architecture: for some
    hours one may carry 6.1.192-3 while the other still has 6.1.192-2.  A Debian
    revision of the same upstream release changes kernel code, not kbuild's
    programs (fixdep, modpost, genksyms), so the lab goes on with the host's
    and says so; another upstream release is refused."""
    if have == want:
        return
    if upstream_version(have) != upstream_version(want):
        raise PackageError(
            f"{headers} ({arch}) needs {kbuild} {want}, the host's ({host_arch()}) is {have}, "
            f"another kernel release: the archive's two architectures are out of step; "
            f"{update_hint(host_arch())}")
    print(f"lab: {headers} ({arch}) names {kbuild} {want}; using the host's "
          f"({host_arch()}) {have}, built from the same kernel {upstream_version(want)} "
          f"(the archive's two architectures are out of step for now)", file=sys.stderr)


def resolve(target: str, *, offline_ok: bool = True, quiet: bool = False) -> KernelPackages:
    """Resolve a board to packages via apt-cache (falls back to the last result if offline)."""
    check_target(target)
    t = lookup(target)
    arch = t.machine.arch
    try:
        lists = ensure_lists(arch, quiet=quiet)
    except PackageError:
        if not offline_ok or _from_cache(target) is None:
            raise
        lists = ""  # no lists: the last resolution, below
    same = _from_cache(target, lists)
    if same is not None and same.arch == arch:
        return same
    try:
        pk = _resolve_now(t)
    except (PackageError, ToolMissing) as exc:
        cached = _from_cache(target) if offline_ok else None
        if cached is None:
            raise
        print(f"lab: warning: {exc}; using the last resolution ({cached.release})", file=sys.stderr)
        return cached
    _save_resolved(pk, lists)
    return pk


def deb_for(package: str, version: str, arch: str = "amd64") -> Path | None:
    """The cached .deb of package (at version, if known) for arch (or all), or None."""
    quoted = version.replace(":", "%3a") if version else "*"
    hits = [*debs_dir().glob(f"{package}_{quoted}_{arch}.deb"),
            *debs_dir().glob(f"{package}_{quoted}_all.deb")]  # fmt: skip
    hits.sort(key=lambda p: p.stat().st_mtime)
    return hits[-1] if hits else None


def download(pk: KernelPackages, *, quiet: bool = False) -> list[Path]:
    """Make sure every .deb of pk is in the cache; returns their paths (image first)."""
    debs_dir().mkdir(parents=True, exist_ok=True)
    every = pk.with_arch()
    with locked(cache_dir() / "download.lock"):
        for arch in dict.fromkeys(a for _p, a in every):
            missing = [p for p, a in every
                       if a == arch and deb_for(p, pk.versions.get(p, ""), a) is None]  # fmt: skip
            if missing:
                specs = [f"{p}={pk.versions[p]}" if pk.versions.get(p) else p for p in missing]
                if not quiet:
                    print(f"lab: downloading {' '.join(missing)} ({arch})", file=sys.stderr)
                download_specs(specs, arch, debs_dir())
    debs: list[Path] = []
    for p, arch in every:
        deb = deb_for(p, pk.versions.get(p, ""), arch)
        if deb is None:
            raise PackageError(f"apt-get download reported success but no .deb for {p} appeared")
        debs.append(deb)
    return debs
