# SPDX-License-Identifier: GPL-2.0-only
"""The README's source install in the lab guest (x86 boards, the "local" image
variant): `make PREFIX=/usr/local` and `make install PREFIX=/usr/local
DESTDIR=...` on the host, the staged tree in the image at /, and the tools the
post-install steps make install prints need, so a test can run them there as
an administrator would.

    from rig.lab import Board
    from rig.lab.image import localguest
    with Board("std-q35", extra_files=localguest.guest_files(), variant="local") as b:
        b.run(" && ".join(localguest.post_install_steps()))

What the guest gets ({guest_path: host_path}):

- every file of the staged install but the man pages, headers and symbolic
  links (no guest reads them; ldconfig makes libudrv.so.1): /usr/local/bin/udrv,
  /usr/local/sbin/udrvd, /usr/local/lib/x86_64-linux-gnu/libudrv.so.1.*, the
  udev rules, sysusers.d files, bus policy and unit where make install put
  them, /etc/udrv/udrvd.conf;
- the libraries the installed udrv and udrvd need (libsystemd: their D-Bus
  client), the host's;
- the host's systemd-sysusers and usermod with the libraries ldd lists
  (initramfs.host_program), ldconfig (static) and the loader's configuration
  (/etc/ld.so.conf and ld.so.conf.d), /etc/login.defs (usermod reads it).

The release build is build/lab/local-install/release (make's BUILD), rebuilt
by make when the sources changed; make install's output is kept beside it
(INSTALL_LOG): post_install_steps() reads the steps from there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from ..errors import LabError
from ..paths import REPO_ROOT
from .initramfs import host_program, shared_libraries

PREFIX = "/usr/local"
BUILD = REPO_ROOT / "build" / "lab" / "local-install"
DEST = BUILD / "dest"
INSTALL_LOG = BUILD / "install.log"
# what no guest reads
SKIP = (f"{PREFIX}/share/man/", f"{PREFIX}/include/", f"{PREFIX}/lib/x86_64-linux-gnu/pkgconfig/")
TOOLS = (Path("/usr/bin/systemd-sysusers"), Path("/usr/sbin/usermod"))
HOST_FILES = (Path("/sbin/ldconfig"), Path("/etc/ld.so.conf"), Path("/etc/login.defs"))
MAKE_S = 1800.0  # a guard: the release build takes about 30 s on 2 cores


def make(*args: str) -> str:
    res = subprocess.run(["make", "--no-print-directory", "-C", str(REPO_ROOT), *args,
                          f"BUILD={BUILD}", f"PREFIX={PREFIX}"],
                         capture_output=True, text=True, timeout=MAKE_S, check=False)  # fmt: skip
    if res.returncode != 0:
        raise LabError(f"make {' '.join(args)} (the lab's source install) failed:\n"
                       f"{res.stdout[-2000:]}{res.stderr[-2000:]}")  # fmt: skip
    return res.stdout + res.stderr


def stage() -> Path:
    """Build and install into DEST (emptied first); make install's output in
    INSTALL_LOG. The staged root."""
    make()
    shutil.rmtree(DEST, ignore_errors=True)
    INSTALL_LOG.write_text(make("install", f"DESTDIR={DEST}"))
    return DEST


def post_install_steps() -> list[str]:
    """The commands make install printed for the machine a DESTDIR is for,
    their comments cut (stage() ran)."""
    lines = INSTALL_LOG.read_text().splitlines()
    marks = [i for i, ln in enumerate(lines) if "on the machine it is for, as root:" in ln]
    if not marks:
        raise LabError(f"{INSTALL_LOG}: make install printed no steps for a DESTDIR")
    steps = []
    for ln in lines[marks[0] + 1 :]:
        m = re.match(r"make install:   (\S.*)$", ln)
        if not m:
            break
        steps.append(m.group(1).split("  #")[0].strip())
    return steps


def guest_files() -> dict[str, Path]:
    """The "local" variant's files (stages the install)."""
    dest = stage()
    files: dict[str, Path] = {}
    for path in sorted(dest.rglob("*")):
        guest = "/" + str(path.relative_to(dest))
        # links are ldconfig's to make (libudrv.so.1), or a developer's
        if path.is_file() and not path.is_symlink() and not guest.startswith(SKIP):
            files[guest] = path.resolve()
    # the installed programs' libraries but libudrv (the install's own)
    for program in (BUILD / "release" / "tools" / "udrv", BUILD / "release" / "daemon" / "udrvd"):
        for lib in shared_libraries(program):
            if BUILD.resolve() not in lib.resolve().parents:
                files[str(lib)] = lib.resolve()
    for tool in TOOLS:
        if not tool.is_file():
            raise LabError(f"{tool} is not installed (the lab's source install runs it in the "
                           "guest): scripts/install-deps --lab")  # fmt: skip
        files.update(host_program(tool))
    for conf in (*HOST_FILES, *sorted(Path("/etc/ld.so.conf.d").glob("*.conf"))):
        files[str(conf)] = conf
    return files
