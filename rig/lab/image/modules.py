# SPDX-License-Identifier: GPL-2.0-only
"""Build the repository's out-of-tree kernel modules for a lab kernel: the
toolkit's (kernel/<name>/: udrv-irq) and the rig's (rig/kernel/<name>/).

Each subdirectory of kernel/ and rig/kernel/ holding a `Kbuild` or `Makefile` is
one module directory.  It is copied to build/lab/kernels/<release>/kmod/<name>/kernel/<name>/,
beside one include/ made of kernel/include/ and rig/kernel/include/ (what the
modules share with each other, and in uapi/ with userspace), and built there
with `make -C <headers> M=<copy> modules`, so the source tree stays clean
(for a foreign kernel, rpi3's arm64, with CROSS_COMPILE and the host's kbuild
programs, rig/lab/image/apt.py's host_packages).
A build is skipped when the sources and the kernel are unchanged (a stamp).

An optional `rig/kernel/<name>/lab.conf` tunes how the guest loads the modules:

    # key = value, one per line
    autoload = no                # build, ship, but do not insmod at boot
    dkms = no                    # not in the DKMS package: built from source
                                 # only (UDRV_LAB_MODULES=dkms goes without it)
    params = foo=1 bar=2         # insmod parameters (all .ko of the directory)
    params.gpio_wire = lines=8   # parameters for one .ko (by file name sans .ko)

An optional `rig/kernel/<name>/lab-setup.sh` (busybox sh) is what the board
does with the module once it is loaded (spi-fixture: its devices bound to
spidev); the guest's /init runs it after all the modules, its failure is a
module failure named `<name>-setup` (Board.module_failures).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ModuleBuildError, ToolMissing
from ..paths import REPO_ROOT, dkms_modules_dir, kernel_src_dirs, locked, module_source
from .apt import GNU_TYPES, host_arch
from .kernel import Kernel

STAMP = ".udrv-lab-built"
_ARTEFACT_SUFFIXES = (".o", ".ko", ".mod", ".mod.c", ".cmd", ".a", ".order", ".symvers")


@dataclass
class ModuleDir:
    """One rig/kernel/<name>/ directory and what it built."""

    name: str
    src: Path
    autoload: bool = True
    dkms: bool = True  # in its tree's DKMS package (lab.conf: dkms = no)
    params: dict[str, str] = field(default_factory=dict)  # "" = every .ko of the dir
    kos: list[Path] = field(default_factory=list)
    setup: Path | None = None  # lab-setup.sh: run in the guest once the modules are loaded

    def params_for(self, ko: Path) -> str:
        return self.params.get(ko.stem, self.params.get("", ""))


def discover(src_root: Path | None = None) -> list[ModuleDir]:
    """Module directories under `src_root`, else under kernel/ and rig/kernel/
    (each sorted by name; none is fine)."""
    found = []
    for root in [src_root] if src_root is not None else kernel_src_dirs():
        if not root.is_dir():
            continue
        for d in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if (d / "Kbuild").is_file() or (d / "Makefile").is_file():
                found.append(_read_conf(ModuleDir(d.name, d)))
    return found


def _read_conf(mod: ModuleDir) -> ModuleDir:
    setup = mod.src / "lab-setup.sh"
    mod.setup = setup if setup.is_file() else None
    conf = mod.src / "lab.conf"
    if not conf.is_file():
        return mod
    for raw in conf.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or "=" not in line:
            continue
        key, value = (s.strip() for s in line.split("=", 1))
        if key in ("autoload", "dkms"):
            setattr(mod, key, value.lower() not in ("no", "0", "false", "off"))
        elif key == "params":
            mod.params[""] = value
        elif key.startswith("params."):
            mod.params[key.removeprefix("params.")] = value
    return mod


def _is_artefact(path: Path) -> bool:
    name = path.name
    return name.endswith(_ARTEFACT_SUFFIXES) or name.startswith(".") or name == "modules.order"


def _source_files(src: Path) -> list[Path]:
    return sorted(p for p in src.rglob("*") if p.is_file() and not _is_artefact(p))


def _kinclude_dirs(src: Path) -> list[Path]:
    """The include/ directories a module's copy gets, merged: the toolkit's
    kernel/include/ (udrv-kmod/: what the modules share, kernel-only headers
    included as <udrv-kmod/...> with -I$(src)/../include; uapi/: what
    udrv-irq shares with userspace) and its own tree's (rig/kernel/include/:
    the fixtures' uapi/, <udrv/...> with -I$(src)/../include/uapi)."""
    toolkit = REPO_ROOT / "kernel" / "include"
    return [d for d in dict.fromkeys((toolkit, src.parent / "include")) if d.is_dir()]


def _source_hash(src: Path, kernel: Kernel) -> str:
    h = hashlib.sha256(f"udrv-lab-kmod-2\0{kernel.release}\0".encode())
    stamp = kernel.root / ".udrv-lab-unpacked"
    if stamp.is_file():
        h.update(stamp.read_bytes())
    for top in (src, *_kinclude_dirs(src)):
        for p in _source_files(top) if top.is_dir() else []:
            h.update(str(p.relative_to(top.parent)).encode() + b"\0")
            h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def build_dir(kernel: Kernel, name: str) -> Path:
    return kernel.root / "kmod" / name


def cross_compile(kernel: Kernel) -> str:
    """The CROSS_COMPILE prefix for @kernel's modules ("" on its own architecture)."""
    arch = kernel.spec.machine.arch
    return "" if arch == host_arch() else f"{GNU_TYPES[arch]}-"


def _check_tools(cross: str) -> None:
    if shutil.which("make") is None:
        raise ToolMissing("make is not installed: apt-get install make")
    gcc = f"{cross}gcc-12"
    if shutil.which(gcc) is None:
        raise ToolMissing(
            f"{gcc} is not installed (Debian 6.1 kernels need gcc 12): apt-get install "
            f"{'gcc-12-' + cross.rstrip('-') if cross else 'gcc-12'}"
        )


def build_one(kernel: Kernel, mod: ModuleDir, *, quiet: bool = False) -> ModuleDir:
    """Build one module directory for one kernel; fills mod.kos."""
    out = build_dir(kernel, mod.name)
    digest = _source_hash(mod.src, kernel)
    stamp = out / STAMP
    if stamp.is_file() and stamp.read_text().strip() == digest:
        mod.kos = sorted(out.rglob("*.ko"))
        if mod.kos:
            return mod
    cross = cross_compile(kernel)
    _check_tools(cross)
    if not kernel.headers_dir.is_dir():
        raise ModuleBuildError(
            f"kernel headers missing at {kernel.headers_dir}: run `python3 -m rig.lab fetch`"
        )
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    # the copy keeps the layout of the DKMS trees, so that the module finds
    # include/ beside its directory
    copy = out / "kernel" / mod.name
    shutil.copytree(
        mod.src, copy, ignore=lambda d, names: [n for n in names if _is_artefact(Path(d) / n)]
    )
    for inc in _kinclude_dirs(mod.src):
        shutil.copytree(inc, out / "kernel" / "include", dirs_exist_ok=True)
    if not quiet:
        print(f"lab: building module {mod.name} for {kernel.release}", file=sys.stderr)
    env = dict(os.environ, LC_ALL="C")
    env.pop("DEBIAN_KERNEL_USE_CCACHE", None)
    jobs = str(min(2, os.cpu_count() or 1))
    cmd = ["make", "-j", jobs, "-C", str(kernel.headers_dir), f"M={copy}", "modules"]
    if cross:  # the headers' Makefile sets ARCH; CC is $(CROSS_COMPILE)gcc-12
        cmd.append(f"CROSS_COMPILE={cross}")
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, env=env, check=False, timeout=900
        )
    except subprocess.TimeoutExpired as exc:
        raise ModuleBuildError(
            f"building kernel module {mod.src} for {kernel.release} timed out"
        ) from exc
    output = (proc.stdout + proc.stderr).strip()
    mod.kos = sorted(out.rglob("*.ko"))
    if proc.returncode != 0 or not mod.kos:
        tail = "\n".join(output.splitlines()[-150:])
        why = f"exit {proc.returncode}" if proc.returncode != 0 else "no .ko produced"
        raise ModuleBuildError(
            f"building kernel module {mod.src} for {kernel.release} failed ({why}).\n"
            f"(built from a copy in {copy})\n"
            f"command: {' '.join(cmd)}\n--- compiler output ---\n{tail}"
        )
    stamp.write_text(digest + "\n")
    return mod


def kbuild_objects(src: Path) -> list[str]:
    """The modules a directory's Kbuild makes (its `obj-m += NAME.o` lines)."""
    kbuild = src / "Kbuild"
    text = kbuild.read_text() if kbuild.is_file() else ""
    return re.findall(r"^\s*obj-m\s*[+:]?=\s*([\w-]+)\.o\s*$", text, re.MULTILINE)


def from_dkms(kernel: Kernel, mod: ModuleDir, *, quiet: bool = False) -> ModuleDir:
    """The .ko files of `mod` that DKMS built and installed for `kernel`; fills mod.kos."""
    where = dkms_modules_dir(kernel.release)
    names = kbuild_objects(mod.src)
    if not names:
        raise ModuleBuildError(f"{mod.src / 'Kbuild'} names no module (obj-m += NAME.o)")
    # the toolkit's kernel/ is udrv-irq-dkms, the rig's rig/kernel/ udrv-bench-dkms
    package = "udrv-irq" if mod.src.parent == REPO_ROOT / "kernel" else "udrv-bench"
    mod.kos = [where / f"{name}.ko" for name in names]
    missing = [ko for ko in mod.kos if not ko.is_file()]
    if missing:
        raise ModuleBuildError(
            f"{missing[0]} does not exist: DKMS has not built {mod.name} for {kernel.release}"
            f" (UDRV_LAB_MODULES=dkms). Install the modules' package and the kernel's headers:"
            f" apt install {package}-dkms linux-headers-{kernel.release}"
            f" (or: dkms install {package}/VERSION -k {kernel.release})"
        )
    if not quiet:
        print(f"lab: module {mod.name} for {kernel.release} from DKMS ({where})", file=sys.stderr)
    return mod


def build_all(
    kernel: Kernel, *, src_root: Path | None = None, quiet: bool = False
) -> list[ModuleDir]:
    """Build every module directory under kernel/ and rig/kernel/ for `kernel`
    (none is fine), or take DKMS's builds of them (UDRV_LAB_MODULES=dkms)."""
    mods = discover(src_root)
    if module_source() == "dkms":
        return [from_dkms(kernel, m, quiet=quiet) for m in mods if m.dkms]
    with locked(kernel.root / "kmod.lock"):
        return [build_one(kernel, m, quiet=quiet) for m in mods]
