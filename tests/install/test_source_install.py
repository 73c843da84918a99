# SPDX-License-Identifier: GPL-2.0-only
"""The README's source install, staged: `make PREFIX=/usr/local` as a user
(uid 65534, in a build folder of its own), then `make install PREFIX=/usr/local
DESTDIR=...` as root (issue 41, item 1):
  - install builds nothing as root and leaves nothing of root's in the build;
    in a checkout that is not root's, with no build, it refuses and says what
    to run first;
  - every file a system program reads is where that program reads it, asked
    of the programs themselves: the bus's policy in a directory Debian's
    system bus configuration includes, the unit in a directory of
    `systemd-analyze unit-paths`, the udev rules in udev's search path
    (`systemd-analyze cat-config --root`), the groups and udrvd's user from
    what `systemd-sysusers --root` finds, and udrvd's policy where udrvd
    looks by default (its --help) and the unit says;
  - the installed udrvd, on a private system bus whose only policy file is
    the installed one, serves `udrv gpio set --hold daemon` (the installed
    udrv) to a user its installed policy names, and refuses another.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.daemon.conftest import dbus_daemon, start_udrvd, system_bus_conf
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO

USER = 65534  # nobody: the user who builds
PREFIX = "/usr/local"
ALICE, BOB = 1, 2
BUILD_S = 1800.0  # a guard: the release build takes 30 s on 2 cores


@dataclass
class Install:
    build: Path
    dest: Path
    built: str  # make's output
    out: str  # make install's output

    def at(self, path: str) -> Path:
        """@path (absolute, as installed) inside DESTDIR."""
        return self.dest / path.lstrip("/")

    def find(self, name: str) -> str:
        """The one installed file called @name, as an absolute path without DESTDIR."""
        found = [p for p in self.dest.rglob(name) if p.is_file()]
        assert len(found) == 1, found
        return "/" + str(found[0].relative_to(self.dest))


def make(*args: str, uid: int = 0, cwd: Path = REPO, home: Path | None = None,
         ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    cmd = ["make", "--no-print-directory", "-C", str(cwd), *args]
    env = dict(os.environ)
    if uid:
        cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *cmd]
        env["HOME"] = str(home)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_S, env=env,
                          check=False)  # fmt: skip


def owned_by_root(top: Path) -> list[str]:
    return [str(p) for p in [top, *top.rglob("*")] if p.lstat().st_uid == 0]


@pytest.fixture(scope="module")
def installed() -> Iterator[Install]:
    if os.geteuid() != 0:
        pytest.fail("the source install's tests run as root (make install, setpriv)")
    with tempfile.TemporaryDirectory(prefix="udrv-install-") as tmp:
        top = Path(tmp)
        os.chmod(top, 0o755)
        build = top / "build"
        build.mkdir()
        os.chown(build, USER, USER)
        built = make(f"BUILD={build}", f"PREFIX={PREFIX}", uid=USER, home=build)
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
        res = make("install", f"BUILD={build}", f"PREFIX={PREFIX}", f"DESTDIR={top / 'dest'}")
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
        yield Install(build, top / "dest", built.stdout, res.stdout + res.stderr)


def test_install_builds_nothing_as_root(installed: Install) -> None:
    assert "Compiling" not in installed.out and "Linking" not in installed.out, installed.out
    assert "Compiling C object" in installed.built
    assert owned_by_root(installed.build) == []


def users_checkout(tmp_path: Path) -> Path:
    """What make and make install run, in a checkout of USER's."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "daemon").mkdir()
    for rel in ("Makefile", "scripts/make-install", "daemon/udrvd.conf"):
        shutil.copy2(REPO / rel, checkout / rel)
    for p in [checkout, *checkout.rglob("*")]:
        os.chown(p, USER, USER)
    return checkout


def test_root_builds_nothing_in_a_users_checkout(tmp_path: Path) -> None:
    """A checkout of a user's with no release build: sudo make install refuses,
    names the command to run first, and creates nothing."""
    checkout = users_checkout(tmp_path)
    res = make("install", f"PREFIX={PREFIX}", f"DESTDIR={tmp_path / 'dest'}", cwd=checkout)
    assert res.returncode != 0, res.stdout
    assert "build/release is not built for PREFIX=/usr/local; as root it builds nothing" \
        in res.stderr, res.stderr  # fmt: skip
    assert "\n  make PREFIX=/usr/local\nthen: sudo make install PREFIX=/usr/local" \
        in res.stderr, res.stderr  # fmt: skip
    assert owned_by_root(checkout) == [] and not (tmp_path / "dest").exists()


def test_make_says_what_to_do_with_roots_old_build() -> None:
    """The build/release an older sudo make install left, root's: make says
    how to get rid of it."""
    with tempfile.TemporaryDirectory(prefix="udrv-install-") as tmp:
        os.chmod(tmp, 0o755)  # USER enters it (pytest's tmp_path is root's alone)
        checkout = users_checkout(Path(tmp))
        (checkout / "build" / "release").mkdir(parents=True)
        os.chown(checkout / "build", USER, USER)
        res = make(f"PREFIX={PREFIX}", uid=USER, cwd=checkout, home=checkout)
    assert res.returncode != 0, res.stdout
    assert "make: build/release is not yours (an older 'sudo make install' built it as root): " \
        "remove it (sudo rm -rf build/release), then make PREFIX=/usr/local" in res.stderr, \
        res.stderr  # fmt: skip


def bus_includedirs() -> set[str]:
    """The policy directories of Debian's system bus (its system.conf)."""
    conf = Path("/usr/share/dbus-1/system.conf")
    dirs = {e.text or "" for e in ET.parse(conf).getroot().iter("includedir")}
    return {str(conf.parent / d) for d in dirs}


def test_the_bus_reads_the_policy(installed: Install) -> None:
    path = installed.find("io.gpiod1.conf")
    assert str(Path(path).parent) in bus_includedirs(), (path, bus_includedirs())


def test_systemd_reads_the_unit(installed: Install) -> None:
    path = installed.find("udrvd.service")
    paths = subprocess.run(["systemd-analyze", "unit-paths"], capture_output=True, text=True,
                           check=True, timeout=60).stdout.split()  # fmt: skip
    assert str(Path(path).parent) in paths, (path, paths)
    unit = installed.at(path).read_text()
    assert f"ExecStart={PREFIX}/sbin/udrvd\n" in unit
    assert installed.at(f"{PREFIX}/sbin/udrvd").is_file()
    assert "# /etc/udrv/udrvd.conf (udrvd.conf(5))" in unit


def test_udev_reads_the_rules(installed: Install) -> None:
    res = subprocess.run(["systemd-analyze", "cat-config", f"--root={installed.dest}",
                          "udev/rules.d"], capture_output=True, text=True, check=True,
                         timeout=60)  # fmt: skip
    files = re.findall(r"^# (/\S+\.rules)$", res.stdout, re.MULTILINE)
    assert f"{installed.dest}{PREFIX}/lib/udev/rules.d/60-udrv.rules" in files, files


def test_sysusers_creates_the_groups_and_udrvds_user(installed: Install) -> None:
    """systemd-sysusers --root finds both files by itself (its search path)."""
    installed.at("/etc").mkdir(exist_ok=True)  # where it writes group and passwd
    res = subprocess.run(["systemd-sysusers", f"--root={installed.dest}"], capture_output=True,
                         text=True, timeout=60, check=False)  # fmt: skip
    assert res.returncode == 0, res.stderr
    group = installed.at("/etc/group").read_text().splitlines()
    names = {ln.split(":")[0]: ln.split(":") for ln in group}
    for g in ("gpio", "uio", "vfio"):
        assert g in names, group
        assert "udrvd" in names[g][3].split(","), names[g]
    passwd = installed.at("/etc/passwd").read_text().splitlines()
    assert any(ln.startswith("udrvd:") for ln in passwd), passwd


def loader_dirs() -> set[str]:
    """The folders the dynamic loader searches (/etc/ld.so.conf and its includes)."""
    dirs = set()
    for conf in [Path("/etc/ld.so.conf"), *sorted(Path("/etc/ld.so.conf.d").glob("*.conf"))]:
        if conf.exists():
            dirs |= {ln.strip() for ln in conf.read_text().splitlines()
                     if ln.strip().startswith("/")}  # fmt: skip
    return dirs


def test_the_loader_finds_the_library(installed: Install) -> None:
    """In Debian's multiarch folder below PREFIX, which ld.so.conf.d names
    (meson alone picks lib64 where dpkg-dev is missing, as on a fresh Debian 12)."""
    path = installed.find("libudrv.so.1")
    assert str(Path(path).parent) in loader_dirs(), (path, loader_dirs())


def test_a_policy_there_is_kept(installed: Install) -> None:
    """make install again: the administrator's policy stays, and it says so."""
    policy = installed.at("/etc/udrv/udrvd.conf")
    empty = policy.read_text()
    mine = empty + f"allow uid:{ALICE} read gpio fake-a LOCK\n"
    policy.write_text(mine)
    try:
        res = make("install", f"BUILD={installed.build}", f"PREFIX={PREFIX}",
                   f"DESTDIR={installed.dest}")  # fmt: skip
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
        assert policy.read_text() == mine
        assert f"make install: {policy}: kept yours" in res.stdout, res.stdout[-3000:]
    finally:
        policy.write_text(empty)
    assert owned_by_root(installed.build) == []


def test_udrvd_reads_its_policy_where_install_put_it(installed: Install) -> None:
    udrvd = installed.at(f"{PREFIX}/sbin/udrvd")
    helptext = subprocess.run([str(udrvd), "--help"], capture_output=True, text=True,
                              timeout=30, check=True).stdout  # fmt: skip
    assert "the policy (default /etc/udrv/udrvd.conf," in helptext, helptext
    policy = installed.at("/etc/udrv/udrvd.conf")
    res = subprocess.run([str(udrvd), "--check", "--policy", str(policy)], capture_output=True,
                         text=True, timeout=30, check=False)  # fmt: skip
    assert res.returncode == 0 and "is good: 0 rules" in res.stdout, res.stdout + res.stderr


def test_the_installed_udrvd_serves_a_held_line(installed: Install, fake_cdev: Path,
                                                tree: FakeTree, tmp_path: Path) -> None:
    """The admin's rule in the installed policy; the bus with the installed
    bus policy only; udrvd and udrv as installed (udrv with the installed
    libudrv.so.1)."""
    policy = installed.at("/etc/udrv/udrvd.conf")
    empty = policy.read_text()
    policy.write_text(empty + f"allow uid:{ALICE} drive gpio fake-a LOCK\n")
    conf = system_bus_conf(tmp_path / "bus.conf", installed.at(installed.find("io.gpiod1.conf")))
    udrv = installed.at(f"{PREFIX}/bin/udrv")
    libdir = installed.at(installed.find("libudrv.so.1")).parent
    with dbus_daemon(conf) as address:
        d = start_udrvd(installed.at(f"{PREFIX}/sbin/udrvd"), fake_cdev, address, tree, policy)
        try:
            env = ["env", f"LD_LIBRARY_PATH={libdir}"]
            res = d.run_as([*env, str(udrv), "gpio", "set", "--hold", "daemon", "LOCK=1"],
                           ALICE)  # fmt: skip
            assert res.returncode == 0, res.stderr
            line = d.lines()[0]
            assert (line.used, line.output, line.level) == (True, True, 1)
            res = d.run_as([*env, str(udrv), "gpio", "set", "--hold", "daemon", "LOCK=0"], BOB)
            assert res.returncode == 1 and "the policy refuses uid 2" in res.stderr, res.stderr
            assert d.lines()[0].level == 1
        finally:
            d.stop()
            policy.write_text(empty)
