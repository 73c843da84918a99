# SPDX-License-Identifier: GPL-2.0-only
"""D-Bus in the lab guest (x86 boards, in the Python image variant): udrvd,
the system bus, and libgpiod's own D-Bus pair to compare it with.

    from rig.lab import Board
    from rig.lab.image import dbusguest, pyguest
    files = {**pyguest.guest_files(), **dbusguest.guest_files()}
    with Board("std", extra_files=files, variant="py") as b:
        b.run("dbus-daemon --version; udrvd --version")

What the guest gets ({guest_path: host_path}), each program with the shared
libraries `ldd` lists (initramfs.host_program):

- /usr/sbin/udrvd: the dev build's (build/dev/daemon/udrvd, `make build`;
  the static build has none: sd-bus comes as a shared libsystemd only);
- /usr/libexec/udrv/udrvd-client: udrvd's test client (tests/daemon/client.c:
  takes a request's fd through io.udrv1 and drives the line with it);
- /usr/libexec/udrv/bin/udrv: the dev build's udrv tool, which has udrvd's
  client (`udrv gpio set --hold daemon`; the image's /usr/bin/udrv is the
  static build's, which cannot link sd-bus), and its libudrv in
  /usr/libexec/udrv/lib (its run path is $ORIGIN/../lib);
- /usr/libexec/udrv/bin/udrvd-held: examples/udrvd-held, a held line driven
  through its request's fd (udrv_request_adopt());
- /usr/libexec/udrv/udrv-bench-dbus: the brokers' rows of `udrv-bench toggle`
  (rig/bench/peers/udrv-bench-dbus.c; udrv-bench finds it there);
- /usr/bin/dbus-daemon and /usr/bin/gdbus: the host's (Debian 12's dbus and
  libglib2.0-bin), the bus and a generic client;
- /opt/libgpiod/{bin,lib}: gpiocli and gpio-manager from libgpiod 2.2.1's
  sources with the GLib they need (scripts/build-gpiod-dbus); their RUNPATH
  is $ORIGIN/../lib, so the tree keeps its shape;
- /usr/share/udrv/dbus/: the two bus policies for io.gpiod1, udrvd's
  (daemon/io.gpiod1.conf) and gpio-manager's (libgpiod's io.gpiod1.conf).

The guest has no bus running: a test writes the bus configuration and starts
dbus-daemon itself (tests/support/dbus_conf.py), with one of the two policies
included, and then udrvd or gpio-manager.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LabError
from ..paths import REPO_ROOT
from .initramfs import host_program

DEV = REPO_ROOT / "build" / "dev"
UDRVD = DEV / "daemon" / "udrvd"
CLIENT = DEV / "tests" / "daemon" / "client"
UDRV = DEV / "tools" / "udrv"
EXAMPLE = DEV / "examples" / "udrvd-held"
BENCH_DBUS = DEV / "rig" / "bench" / "peers" / "udrv-bench-dbus"
GPIOD_DBUS = REPO_ROOT / "build" / "gpiod-dbus" / "amd64"
HOST_PROGRAMS = {"/usr/bin/dbus-daemon": Path("/usr/bin/dbus-daemon"),
                 "/usr/bin/gdbus": Path("/usr/bin/gdbus")}  # fmt: skip
GUEST_UDRVD = "/usr/sbin/udrvd"
GUEST_CLIENT = "/usr/libexec/udrv/udrvd-client"
GUEST_UDRV = "/usr/libexec/udrv/bin/udrv"
GUEST_EXAMPLE = "/usr/libexec/udrv/bin/udrvd-held"
GUEST_BENCH_DBUS = "/usr/libexec/udrv/udrv-bench-dbus"
GUEST_GPIOD = "/opt/libgpiod"
GUEST_POLICIES = "/usr/share/udrv/dbus"
UDRVD_BUS_POLICY = REPO_ROOT / "daemon" / "io.gpiod1.conf"


def missing() -> str | None:
    """Why the guest cannot have udrvd and libgpiod's pair, or None."""
    need = {UDRVD: "`make build` (udrvd needs libsystemd-dev)",
            CLIENT: "`make build`",
            UDRV: "`make build`",
            EXAMPLE: "`make build`",
            BENCH_DBUS: "`make build`",
            GPIOD_DBUS / "bin" / "gpiocli": "scripts/build-gpiod-dbus"}  # fmt: skip
    for path, how in need.items():
        if not path.is_file():
            return f"{path.relative_to(REPO_ROOT)} is not built: run {how}"
    for path in HOST_PROGRAMS.values():
        if not path.is_file():
            return f"{path} is not installed (apt-get install dbus libglib2.0-bin)"
    return None


def _gpiod_tree() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for sub in ("bin", "lib", "share"):
        for p in sorted((GPIOD_DBUS / sub).iterdir()):
            if p.is_file():
                files[f"{GUEST_GPIOD}/{sub}/{p.name}"] = p.resolve()
    for prog in ("gpiocli", "gpio-manager"):
        for guest, host in host_program(GPIOD_DBUS / "bin" / prog).items():
            if not guest.startswith(str(GPIOD_DBUS)):  # libc, libm, the loader
                files.setdefault(guest, host)
    return files


def guest_files() -> dict[str, Path]:
    """{guest_path: host_path} of the D-Bus programs (Board(extra_files=...));
    raises LabError saying what to build when something is missing."""
    why = missing()
    if why:
        raise LabError(f"the lab's D-Bus guest files: {why}")
    files = _gpiod_tree()
    files.update(host_program(UDRVD, GUEST_UDRVD))
    files.update(host_program(CLIENT, GUEST_CLIENT))
    for prog, guest in ((UDRV, GUEST_UDRV), (EXAMPLE, GUEST_EXAMPLE)):
        files.update({g: h for g, h in host_program(prog, guest).items()
                      if not g.startswith(str(DEV))})  # fmt: skip
    files["/usr/libexec/udrv/lib/libudrv.so.1"] = (DEV / "lib" / "libudrv.so.1").resolve()
    files.update(host_program(BENCH_DBUS, GUEST_BENCH_DBUS))
    for guest, host in HOST_PROGRAMS.items():
        files.update(host_program(host, guest))
    files[f"{GUEST_POLICIES}/udrvd.conf"] = UDRVD_BUS_POLICY
    files[f"{GUEST_POLICIES}/gpio-manager.conf"] = GPIOD_DBUS / "share" / "io.gpiod1.conf"
    return files
