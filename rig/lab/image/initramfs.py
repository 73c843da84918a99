# SPDX-License-Identifier: GPL-2.0-only
"""Build the guest's initramfs: a gzip'd newc cpio written in pure Python.

Contents: busybox-static with its applet links (the host's, or the board's
architecture's from its busybox-static package), /init and the agent from
rig/lab/image/guest/, the board's own kernel modules (x86: uio.ko + uio_pci_generic.ko;
rpi3: bcm2835_wdt.ko) with a load list in /etc/udrv-lab/kmods.list, our
modules in /lib/modules/<release>/extra/ with a load list in
/etc/udrv-lab/modules.list, /etc/udrv-lab/board (the board's name and agent
tty), and extra host files ({guest_path: host_path}); by default the static
udrv CLI and udrv-bench of the board's build (x86: build/static, rpi3:
build/arm64; tools/udrv, rig/bench/udrv-bench -> /usr/bin/), the examples
(examples/* -> /usr/bin/) and every executable under tests/ (->
/usr/libexec/udrv/) when they exist, and on x86 the host's dynamically
linked reference tools (HOST_PROGRAMS: cyclictest, rtla) and udevadm with the
shared libraries and the ELF interpreter that `ldd` lists, at the same paths,
and udevadm's rules (UDEV_RULES: Debian's defaults, tools/udev/60-udrv.rules).

Images are named by the hash of all their inputs, so an unchanged set of
inputs reuses the image and concurrent boards with different extras coexist.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue import X86, Machine
from ..errors import LabError, ToolMissing
from ..paths import GUEST_DIR, REPO_ROOT, private_tmp
from .kernel import Kernel
from .modules import ModuleDir

FORMAT_VERSION = "udrv-lab-initramfs-2"
BUSYBOX_CANDIDATES = ("/bin/busybox", "/usr/bin/busybox")
# Host programs shipped with their libraries when installed (Debian package):
# the reference rows of `udrv-bench` run them in the guest.
# rtla (timerlat) needs the tracers that only Debian's rt kernel has; it is
# shipped on both kernels, and fails on std (udrv-bench timer says why).
# udevadm (run as systemd-udevd) applies udev rules in the guest, for the tests
# of access without root (tests/lab/test_access.py): not started at boot.
HOST_PROGRAMS = {"/usr/bin/cyclictest": "rt-tests", "/usr/bin/rtla": "rtla",
                 "/usr/bin/udevadm": "udev"}  # fmt: skip
# the rules beside udevadm: Debian's defaults, then udrv's own (tools/udev)
UDEV_RULES = (Path("/usr/lib/udev/rules.d/50-udev-default.rules"),
              REPO_ROOT / "tools" / "udev" / "60-udrv.rules")  # fmt: skip
GUEST_UDEV_RULES = "/usr/lib/udev/rules.d"
# The ASan+UBSan build of the CLI and udrv-bench (make check builds it),
# shipped on x86 with their libraries under this guest prefix (tools/udrv and
# rig/bench/udrv-bench find lib/libudrv.so.1 by their $ORIGIN run paths): the
# fault tests run them to be sanitizer-clean.
SANITIZED_BUILD = "asan"
SANITIZED_PREFIX = "/opt/udrv-asan"
KEEP_IMAGES = 6


@dataclass
class _Entry:
    mode: int
    data: bytes = b""
    rdev: tuple[int, int] = (0, 0)


@dataclass
class Tree:
    """An in-memory file tree: guest path -> entry (parents are created on demand)."""

    entries: dict[str, _Entry] = field(default_factory=dict)

    def _parents(self, path: str) -> None:
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            self.entries.setdefault(d, _Entry(stat.S_IFDIR | 0o755))

    def dir(self, path: str, perm: int = 0o755) -> None:
        self._parents(path)
        self.entries[path.strip("/")] = _Entry(stat.S_IFDIR | perm)

    def file(self, path: str, data: bytes, perm: int = 0o644) -> None:
        self._parents(path)
        self.entries[path.strip("/")] = _Entry(stat.S_IFREG | perm, data)

    def symlink(self, path: str, target: str) -> None:
        self._parents(path)
        self.entries[path.strip("/")] = _Entry(stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, path: str, major: int, minor: int, perm: int = 0o600) -> None:
        self._parents(path)
        self.entries[path.strip("/")] = _Entry(stat.S_IFCHR | perm, rdev=(major, minor))

    def digest(self) -> str:
        h = hashlib.sha256(FORMAT_VERSION.encode())
        for name in sorted(self.entries):
            e = self.entries[name]
            h.update(f"{name}\0{e.mode:o}\0{e.rdev}\0{len(e.data)}\0".encode())
            h.update(e.data)
        return h.hexdigest()

    def cpio(self) -> bytes:
        """The tree as a newc archive (deterministic: sorted, mtime 0, root-owned)."""
        out = io.BytesIO()
        ino = 1
        for name in sorted(self.entries):
            e = self.entries[name]
            out.write(_newc_header(ino, e.mode, len(e.data), name, e.rdev))
            out.write(_pad(name.encode() + b"\0", 110))
            out.write(_pad(e.data, 0))
            ino += 1
        out.write(_newc_header(0, 0, 0, "TRAILER!!!", (0, 0)))
        out.write(_pad(b"TRAILER!!!\0", 110))
        return out.getvalue()


def _pad(data: bytes, offset: int) -> bytes:
    return data + b"\0" * (-(offset + len(data)) % 4)


def _newc_header(ino: int, mode: int, size: int, name: str, rdev: tuple[int, int]) -> bytes:
    nlink = 2 if stat.S_ISDIR(mode) else 1
    fields = (ino, mode, 0, 0, nlink, 0, size, 0, 0, rdev[0], rdev[1], len(name.encode()) + 1, 0)
    return b"070701" + b"".join(b"%08X" % f for f in fields)


def find_busybox(kernel: Kernel | None = None) -> Path:
    """The guest's busybox: the board's from its busybox-static package, unpacked
    with the kernel, or the host's busybox-static binary (a dynamically linked
    busybox won't run in the guest)."""
    if kernel is not None and kernel.busybox is not None:
        if not kernel.busybox.is_file():
            raise LabError(f"{kernel.busybox} is missing: run `python3 -m rig.lab fetch`")
        return kernel.busybox
    for cand in BUSYBOX_CANDIDATES:
        p = Path(cand)
        if p.is_file() and _is_static(p):
            return p
    raise ToolMissing("busybox-static is not installed: apt-get install busybox-static")


def _is_static(path: Path) -> bool:
    data = path.read_bytes()[:65536]
    return (
        data[:4] == b"\x7fELF" and b"/lib64/ld-linux" not in data and b"ld-linux-x86-64" not in data
    )


def _user_emulator(arch: str) -> list[str]:
    """How to run a static program of another architecture here: qemu-user."""
    name = {"arm64": "aarch64", "armhf": "arm"}.get(arch, arch)
    for exe in (f"qemu-{name}-static", f"qemu-{name}"):
        if path := shutil.which(exe):
            return [path]
    raise ToolMissing(f"qemu-{name}-static is not installed (the lab runs the {arch} busybox "
                      "with it to list its applets): apt-get install qemu-user-static")  # fmt: skip


def busybox_applets(busybox: Path, arch: str | None = None) -> list[tuple[str, str]]:
    """(guest_path, applet) for every applet of busybox (`busybox --list-full`;
    a busybox of another architecture `arch` runs under qemu-user)."""
    runner = _user_emulator(arch) if arch and arch != X86.arch else []
    proc = subprocess.run(
        [*runner, str(busybox), "--list-full"],
        capture_output=True, text=True, check=False, timeout=30,
    )  # fmt: skip
    if proc.returncode != 0 or not proc.stdout.strip():
        raise LabError(f"`{busybox} --list-full` failed: {proc.stderr.strip()}")
    return [
        (line.strip(), Path(line.strip()).name) for line in proc.stdout.splitlines() if line.strip()
    ]


def _executables(root: Path, recursive: bool) -> list[Path]:
    if not root.is_dir():
        return []
    found = root.rglob("*") if recursive else root.iterdir()
    return sorted(
        p for p in found
        if p.is_file() and os.access(p, os.X_OK) and not any(d.endswith(".p") for d in p.parts)
    )  # fmt: skip


def shared_libraries(program: Path, library_path: Path | None = None) -> list[Path]:
    """What the dynamic loader maps for @program, as `ldd` lists it: the shared
    libraries ("libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)") and the
    ELF interpreter ("/lib64/ld-linux-x86-64.so.2 (0x...)"); not the vDSO, which
    the kernel provides. [] for a static program. @library_path: a directory
    searched first (LD_LIBRARY_PATH: libraries staged for the guest)."""
    env = {**os.environ, "LD_LIBRARY_PATH": str(library_path)} if library_path else None
    proc = subprocess.run(
        ["ldd", str(program)], capture_output=True, text=True, check=False, timeout=30, env=env
    )
    if proc.returncode != 0:
        if "not a dynamic executable" in proc.stdout + proc.stderr:
            return []
        raise LabError(f"`ldd {program}` failed: {proc.stderr.strip() or proc.stdout.strip()}")
    libs: list[Path] = []
    for line in proc.stdout.splitlines():
        words = line.split()
        if "=>" in words:
            target = words[words.index("=>") + 1]
            if target == "not":
                raise LabError(f"{program} needs {words[0]}, which is not found: {line.strip()}")
        elif words and words[0].startswith("/"):
            target = words[0]  # the interpreter
        else:
            continue  # linux-vdso.so.1 (0x...)
        libs.append(Path(target))
    return libs


def host_program(program: Path, guest_path: str | None = None) -> dict[str, Path]:
    """{guest_path: host_path} for a dynamically linked host program and every
    library `ldd` lists, each at its own path in the guest (the loader finds
    them there: /lib64/ld-linux-x86-64.so.2, /lib/x86_64-linux-gnu/...). Symlinks
    are followed: the guest gets the files' contents under the listed names."""
    files = {guest_path or str(program): program}
    for lib in shared_libraries(program):
        files[str(lib)] = lib.resolve()
    return files


def sanitized_cli(build: Path) -> dict[str, Path]:
    """{guest_path: host_path} for the sanitized CLI of @build (build/asan):
    tools/udrv, rig/bench/udrv-bench and lib/libudrv.so.1 under SANITIZED_PREFIX
    (the programs' run paths find the library there), the system libraries
    (libasan, libubsan, libc...) at their own paths; {} when the build has no
    CLI."""
    cli = build / "tools" / "udrv"
    if not cli.is_file():
        return {}
    files: dict[str, Path] = {}
    for rel in ("tools/udrv", "rig/bench/udrv-bench"):
        program = build / rel
        if not program.is_file():
            continue
        files[f"{SANITIZED_PREFIX}/{rel}"] = program
        for lib in shared_libraries(program):
            if build.resolve() in lib.resolve().parents:
                files[f"{SANITIZED_PREFIX}/lib/{lib.name}"] = lib.resolve()
            else:
                files[str(lib)] = lib.resolve()
    return files


def default_extra_files(machine: Machine = X86) -> dict[str, Path]:
    """What the board's static build made (x86: build/static, rpi3: build/arm64),
    when it exists: tools/udrv -> /usr/bin/udrv, rig/bench/udrv-bench ->
    /usr/bin/udrv-bench, the examples (examples/*) ->
    /usr/bin/, the test programs (tests/**) and the bench's peers
    (rig/bench/peers/udrv-bench-peer, udrv-bench-lgpio) -> /usr/libexec/udrv/ (on
    the guest's PATH);
    and on x86 the HOST_PROGRAMS that are installed, with their libraries
    (host_program()), and the sanitized CLI when it was built (sanitized_cli())."""
    extra: dict[str, Path] = {}
    if machine.host_programs:
        for program in HOST_PROGRAMS:
            if Path(program).is_file():
                extra.update(host_program(Path(program)))
        if "/usr/bin/udevadm" in extra:
            for rules in UDEV_RULES:
                if rules.is_file():
                    extra[f"{GUEST_UDEV_RULES}/{rules.name}"] = rules
        extra.update(sanitized_cli(machine.static_dir().parent / SANITIZED_BUILD))
    root = machine.static_dir()
    for program in (root / "tools" / "udrv", root / "rig" / "bench" / "udrv-bench"):
        if program.is_file():
            extra[f"/usr/bin/{program.name}"] = program
    for p in _executables(root / "examples", recursive=False):
        extra[f"/usr/bin/{p.name}"] = p
    for p in _executables(root / "tests", recursive=True):
        extra[f"/usr/libexec/udrv/{p.name}"] = p
    # the bench's peers (rig/bench/peers/, not installed by meson): libgpiod
    # 2.3's, lgpio's
    for name in ("udrv-bench-peer", "udrv-bench-lgpio"):
        peer = root / "rig" / "bench" / "peers" / name
        if peer.is_file():
            extra[f"/usr/libexec/udrv/{name}"] = peer
    return extra


def make_tree(
    kernel: Kernel, modules: list[ModuleDir], extra_files: dict[str, Path] | None = None
) -> Tree:
    """Assemble the guest's file tree (nothing is written to disk)."""
    t = Tree()
    dirs = ("bin", "sbin", "usr/bin", "usr/sbin", "proc", "sys", "dev", "run", "root", "out", "etc")
    for d in dirs:
        t.dir(d)
    t.dir("tmp", 0o1777)
    t.chardev("dev/console", 5, 1)
    t.chardev("dev/null", 1, 3, 0o666)
    machine = kernel.spec.machine
    busybox = find_busybox(kernel)
    t.file("bin/busybox", busybox.read_bytes(), 0o755)
    for guest_path, _applet in busybox_applets(busybox, machine.arch):
        if guest_path.strip("/") != "bin/busybox":
            t.symlink(guest_path, "/bin/busybox")
    t.file("init", (GUEST_DIR / "init").read_bytes(), 0o755)
    t.file("usr/libexec/udrv-lab/agent", (GUEST_DIR / "agent").read_bytes(), 0o755)
    t.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    t.file("etc/group", b"root:x:0:\n")
    t.file("etc/hostname", b"udrv-lab\n")
    t.file("etc/udrv-lab/board", f"BOARD={machine.name}\nAGENT_TTY={machine.agent_tty}\n".encode())
    mod_root = f"lib/modules/{kernel.release}"
    for rel in machine.kernel_modules:
        src = kernel.modules_dir / rel
        if not src.is_file():
            raise LabError(f"{src} is missing from {kernel.release}'s image package")
        t.file(f"{mod_root}/{rel}", src.read_bytes())
    kmods = "".join(f"/{mod_root}/{rel} {machine.kernel_module_args(rel)}".rstrip() + "\n"
                    for rel in machine.kernel_modules)
    t.file("etc/udrv-lab/kmods.list", kmods.encode())
    if machine.kernel_config:
        t.file(f"boot/config-{kernel.release}", kernel.config.read_bytes())
    lines = []
    for mod in modules:
        for ko in mod.kos:
            guest = f"{mod_root}/extra/{mod.name}/{ko.name}"
            t.file(guest, ko.read_bytes())
            if mod.autoload:
                lines.append(f"/{guest} {mod.params_for(ko)}".rstrip())
        if mod.setup is not None and mod.autoload:
            t.file(f"etc/udrv-lab/setup.d/{mod.name}.sh", mod.setup.read_bytes(), 0o755)
    t.file("etc/udrv-lab/modules.list", ("\n".join(lines) + "\n" if lines else "").encode())
    t.file("etc/udrv-lab/release", f"{kernel.release}\n{kernel.target}\n".encode())
    for guest_path, host_path in sorted((extra_files or {}).items()):
        host = Path(host_path)
        if not host.is_file():
            raise LabError(f"extra file {host} (for {guest_path}) does not exist")
        perm = stat.S_IMODE(host.stat().st_mode) | 0o444
        t.file(guest_path, host.read_bytes(), perm)
    return t


def build(
    kernel: Kernel,
    modules: list[ModuleDir],
    extra_files: dict[str, Path] | None = None,
) -> Path:
    """Write (or reuse) build/lab/kernels/<release>/initramfs/<hash>.cpio.gz."""
    tree = make_tree(kernel, modules, extra_files)
    out_dir = kernel.root / "initramfs"
    out = out_dir / f"{tree.digest()[:20]}.cpio.gz"
    if out.is_file():
        os.utime(out)  # most recently used: survives pruning
        return out
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = private_tmp(out)
    with (
        open(tmp, "wb") as fh,
        gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=6, mtime=0) as gz,
    ):
        gz.write(tree.cpio())
    tmp.replace(out)
    _prune(out_dir, keep=out)
    return out


def _prune(out_dir: Path, keep: Path) -> None:
    images = sorted(out_dir.glob("*.cpio.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in images[KEEP_IMAGES:]:
        if old != keep:
            old.unlink(missing_ok=True)
    for stale in out_dir.glob("*.tmp*"):
        if stale.stat().st_mtime < keep.stat().st_mtime - 3600:
            stale.unlink(missing_ok=True)
