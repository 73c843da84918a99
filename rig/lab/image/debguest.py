# SPDX-License-Identifier: GPL-2.0-only
"""The rpi3 board with Debian packages in it (the "deb" image variant): Debian
12's arm64 python3.11 and udrv's own arm64 packages, as `apt install` would
put them there, plus gpiozero 2.0.1.

    from rig.lab import Board
    from rig.lab.image.debguest import guest_files
    with Board("rpi3", extra_files=guest_files()) as b:
        b.run("udrv --version; python3 -c 'import udrv'")

The packages are unpacked (dpkg-deb -x), not installed: no maintainer script
runs, which a busybox guest could not run anyway. What the guest gets:

- udrv's packages UDRV_PACKAGES of the board's architecture from build/deb/
  (`make deb DEB_ARCH=arm64`): /usr/bin/udrv and udrv-bench (dynamically
  linked to /usr/lib/aarch64-linux-gnu/libudrv.so.1, over the static build's),
  /usr/lib/python3/dist-packages/udrv with its .dist-info;
- from Debian's archive (the lab's private arm64 apt state, rig/lab/image/apt.py):
  the Depends closure of DEBIAN_PACKAGES (python3-minimal, the standard
  library) and of what udrv's packages depend on (libsystemd0: udrv and
  python3-udrv reach udrvd through sd-bus; not adduser, which only their
  maintainer scripts use), as `apt-get install` with nothing installed
  resolves it, minus
  what a guest never reads (PRUNE: docs, man pages, locales, time zones, the
  standard library's tests);
- gpiozero 2.0.1 and colorzero 2.0 (pyguest.pypi_wheels: pure Python, pinned
  by sha256) and gpiod 2.5.0, the peer (pyguest.gpiod_wheel, cross-built for
  the board's architecture), pip-installed into /usr/lib/python3/dist-packages;
- the rig's Python bench, /usr/libexec/udrv/udrv-pybench (as on x86).

Symbolic links in the packages become copies (the image holds regular
files), except /usr/bin/python3, a two-line sh wrapper of python3.11.
The staged tree is build/lab/deb/<arch>/stage-<key>, keyed by the packages'
files; the initramfs is named by its contents.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..errors import LabError, PackageError, ToolMissing
from ..paths import REPO_ROOT, lab_dir, locked
from . import apt, pyguest

STAGE_FORMAT = "udrv-lab-deb-3"
UDRV_PACKAGES = ("libudrv1", "udrv", "udrv-bench", "python3-udrv")
DEBIAN_PACKAGES = ("python3-minimal", "libpython3.11-stdlib")
# in the closure for maintainer scripts only (python3-minimal's postinst: dpkg,
# and dpkg's own tools), and what busybox already is (/bin/tar): left out
EXCLUDE = ("dpkg", "tar", "libmd0", "libacl1", "libselinux1", "libpcre2-8-0")
# what udrv's packages depend on for their maintainer scripts only (the groups)
MAINTAINER_ONLY = ("adduser",)
PRUNE = ("usr/share/doc", "usr/share/man", "usr/share/locale", "usr/share/zoneinfo",
         "usr/lib/aarch64-linux-gnu/gconv",
         "usr/share/lintian", "usr/share/info", "usr/lib/python3.11/test",
         "usr/lib/python3.11/idlelib", "usr/lib/python3.11/tkinter",
         "usr/lib/python3.11/ensurepip", "usr/lib/python3.11/lib2to3",
         "usr/lib/python3.11/pydoc_data", "etc/cron.daily")  # fmt: skip
GUEST_SITE = "usr/lib/python3/dist-packages"
DEB_DIR = REPO_ROOT / "build" / "deb"
_INST = re.compile(r"^Inst (\S+) ")


def _log(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"lab: deb: {msg}", file=sys.stderr)


def udrv_debs(arch: str) -> list[Path]:
    """build/deb's UDRV_PACKAGES of `arch`; raises naming the command that makes them."""
    version = _changelog_version()
    debs = [DEB_DIR / f"{p}_{version}_{arch}.deb" for p in UDRV_PACKAGES]
    missing = [d.name for d in debs if not d.is_file()]
    if missing:
        raise LabError(f"{', '.join(missing)} not in {DEB_DIR}: run `make deb DEB_ARCH={arch}` "
                       "(the board carries udrv's packages)")  # fmt: skip
    return debs


def _changelog_version() -> str:
    first = (REPO_ROOT / "debian" / "changelog").read_text().split("\n", 1)[0]
    m = re.match(r"^udrv \(([^)]+)\)", first)
    if not m:
        raise LabError(f"debian/changelog's first line names no version: {first!r}")
    return m.group(1)


def udrv_depends(debs: list[Path]) -> list[str]:
    """The Debian packages udrv's .debs depend on (their Depends fields: the
    first of each set of alternatives, without versions), but udrv's own
    and those only maintainer scripts use (adduser)."""
    names: set[str] = set()
    for deb in debs:
        proc = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True,
                              text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            raise PackageError(f"dpkg-deb -f {deb} Depends failed: {proc.stderr.strip()}")
        for dep in filter(None, (d.strip() for d in proc.stdout.split(","))):
            names.add(re.split(r"[\s(:|]", dep, maxsplit=1)[0])
    return sorted(names - set(UDRV_PACKAGES) - set(MAINTAINER_ONLY))


def closure(arch: str) -> list[str]:
    """The packages `apt-get install` of DEBIAN_PACKAGES and of what udrv's
    packages depend on installs on an empty `arch` system (the lab's private
    apt state has an empty dpkg status)."""
    if not apt.is_private(arch):
        raise LabError(f"the deb image is for a foreign architecture, not {arch}")
    apt.ensure_lists(arch)
    wanted = sorted({*DEBIAN_PACKAGES, *udrv_depends(udrv_debs(arch))})
    proc = apt.run_apt("apt-get", arch, "install", "-s", "--no-install-recommends",
                       *wanted)  # fmt: skip
    names = [m.group(1) for line in proc.stdout.splitlines() if (m := _INST.match(line))]
    if proc.returncode != 0 or not names:
        raise PackageError(f"apt-get -s install {' '.join(wanted)} ({arch}) failed: "
                           f"{(proc.stderr + proc.stdout).strip()[-800:]}")  # fmt: skip
    return sorted(set(names) - set(EXCLUDE))


def debian_debs(arch: str, quiet: bool) -> list[Path]:
    """The closure's .debs, downloaded once into build/lab/deb/<arch>/debs."""
    dest = lab_dir() / "deb" / arch / "debs"
    dest.mkdir(parents=True, exist_ok=True)
    names = closure(arch)
    versions = apt.versions(tuple(names), arch)
    want = {n: f"{n}_{versions[n].replace(':', '%3a')}_" for n in names}
    have = {n: sorted(dest.glob(f"{prefix}*.deb")) for n, prefix in want.items()}
    missing = [f"{n}={versions[n]}" for n, found in have.items() if not found]
    if missing:
        _log(f"downloading {len(missing)} Debian {arch} packages", quiet)
        apt.download_specs(missing, arch, dest)
        have = {n: sorted(dest.glob(f"{prefix}*.deb")) for n, prefix in want.items()}
    lost = [n for n, found in have.items() if not found]
    if lost:
        raise PackageError(f"apt-get download left out {', '.join(lost)} ({arch})")
    return [found[0] for found in have.values()]


def _pruned(rel: str) -> bool:
    return any(rel == p or rel.startswith(p + "/") for p in PRUNE)


def _unpack(debs: list[Path], dest: Path) -> None:
    dpkg_deb = shutil.which("dpkg-deb")
    if dpkg_deb is None:
        raise ToolMissing("dpkg-deb is not installed: apt-get install dpkg")
    for deb in debs:
        proc = subprocess.run([dpkg_deb, "-x", str(deb), str(dest)], capture_output=True,
                              text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            raise LabError(f"dpkg-deb -x {deb} failed: {proc.stderr.strip()}")


def _key(debs: list[Path], wheels: list[Path]) -> str:
    h = hashlib.sha256(f"{STAGE_FORMAT}\0{PRUNE}\0{EXCLUDE}\0".encode())
    for p in [*debs, *wheels]:
        h.update(f"{p.name}\0{pyguest.sha256_file(p)}\0".encode())
    return h.hexdigest()[:16]


def stage(arch: str = "arm64", quiet: bool = False) -> Path:
    """The staged tree for `arch`, made once per set of packages."""
    root = lab_dir() / "deb" / arch
    root.mkdir(parents=True, exist_ok=True)
    with locked(root / "deb.lock"):
        ours = udrv_debs(arch)
        theirs = debian_debs(arch, quiet)
        wheels_dir = pyguest.python_dir() / "wheels"
        wheels_dir.mkdir(parents=True, exist_ok=True)
        wheels = [pyguest.gpiod_wheel(wheels_dir, quiet, arch),
                  *pyguest.pypi_wheels(wheels_dir, quiet)]  # fmt: skip
        out = root / f"stage-{_key(ours + theirs, wheels)}"
        if (out / ".staged").is_file():
            return out
        _log(f"staging {len(theirs)} Debian packages and {', '.join(UDRV_PACKAGES)} ({arch})",
             quiet)  # fmt: skip
        tmp = root / f"stage.tmp{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        _unpack(theirs + ours, tmp)
        pyguest.install_wheels(tmp / GUEST_SITE, wheels, arch)
        # the bytecode is the architecture's too: unchecked-hash .pycs (the
        # image's mtimes are 0), or the guest compiles every module it imports
        pyguest.compile_tree(tmp / "usr")
        pyguest.python_wrapper(tmp / "usr" / "bin" / "python3", "/usr/bin/python3.11")
        (tmp / ".staged").write_text("\n".join(p.name for p in theirs + ours + wheels) + "\n")
        return pyguest.publish_stage(tmp, out)


def guest_files(arch: str = "arm64", quiet: bool = False) -> dict[str, Path]:
    """{guest_path: host_path} of the staged tree (Board(extra_files=...)):
    regular files, and symbolic links resolved inside the tree."""
    st = stage(arch, quiet)
    files: dict[str, Path] = {}
    for p in sorted(st.rglob("*")):
        rel = p.relative_to(st).as_posix()
        if rel == ".staged" or _pruned(rel) or p.is_dir():
            continue
        target = _resolve_in(st, p)
        if target is not None:
            files["/" + rel] = target
    if pyguest.BENCH_SCRIPT.is_file():  # the rig's, not packaged: as on the x86 Python image
        files[pyguest.GUEST_BENCH] = pyguest.BENCH_SCRIPT
    return files


def _resolve_in(root: Path, path: Path) -> Path | None:
    """`path`, or the file its symbolic links lead to, read inside `root`
    (an absolute link target is the guest's: under `root`); None if dangling."""
    for _ in range(40):
        if not path.is_symlink():
            return path if path.is_file() else None
        link = os.readlink(path)
        path = root / link.lstrip("/") if link.startswith("/") else path.parent / link
    return None


def main() -> int:
    """python3 -m rig.lab.image.debguest [ARCH]: stage the tree, say what it holds."""
    arch = sys.argv[1] if len(sys.argv) > 1 else "arm64"
    files = guest_files(arch)
    size = sum(p.stat().st_size for p in files.values())
    print(f"{len(files)} files, {size / 1e6:.1f} MB uncompressed; stage {stage(arch, quiet=True)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
