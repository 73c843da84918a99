# SPDX-License-Identifier: GPL-2.0-only
"""apt-cache and apt-get for the host's architecture or for another one.

The host's own architecture uses the system's apt state (/var/lib/apt/lists).
Another architecture (arm64 for the rpi3 board) gets a private apt state
under build/lab/apt/<arch>/: its own package lists, cache and an empty dpkg
status, fed from the system's sources (/etc/apt/sources.list*) with
`-o APT::Architecture=<arch>`.  The system's dpkg architectures are never
changed.  The private lists are fetched with `apt-get update` the first time
and again whenever the system's lists are newer (someone ran apt-get update).

What rig/lab/image/debian.py asks of apt, each in one call: the lists ready and their
signature (ensure_lists), a package's Depends (depends), versions (versions),
the .debs (download); each failure says what to do (update_hint).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

from ..errors import PackageError, ToolMissing
from ..paths import lab_dir, locked

SYSTEM_LISTS = Path("/var/lib/apt/lists")


def need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise ToolMissing(f"{tool} is not installed (it comes with Debian's `{package}` package)")
    return path


@cache
def host_arch() -> str:
    exe = need("dpkg", "dpkg")
    proc = subprocess.run(
        [exe, "--print-architecture"], capture_output=True, text=True, check=False, timeout=30
    )
    return proc.stdout.strip() or "amd64"


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
    exe = need(tool, "apt")
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


def download(specs: list[str], arch: str, dest: Path) -> None:
    """apt-get download `specs` (NAME or NAME=VERSION) of `arch` into `dest`."""
    proc = run_apt("apt-get", arch, "download", *specs, cwd=dest, timeout=1800)
    if proc.returncode != 0:
        raise PackageError(
            f"apt-get download {' '.join(specs)} ({arch}) failed "
            f"(exit {proc.returncode}):\n{(proc.stderr + proc.stdout).strip()}\n"
            f"check the network; {update_hint(arch)}"
        )
