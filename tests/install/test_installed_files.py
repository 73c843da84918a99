# SPDX-License-Identifier: GPL-2.0-only
"""Each install a user makes (tests/install/staged.py: the README's source
install at PREFIX=/usr/local, and the Debian packages) puts every file a
system program reads where that program reads it, asked of the programs
themselves (issue 41, item 1):
  - the bus's policy in a directory Debian's system bus configuration
    includes, the unit in a directory of `systemd-analyze unit-paths`, the
    udev rules in udev's search path (`systemd-analyze cat-config --root`),
    the groups and udrvd's user from what `systemd-sysusers --root` finds,
    the library where the loader looks, and udrvd's policy where udrvd looks
    by default (its --help) and the unit says;
  - the installed udrvd, on a private system bus whose only policy file is
    the installed one, serves `udrv gpio set --hold daemon` (the installed
    udrv) to a user its installed policy names, and refuses another.

The packages' half is marked deb: make check does not build packages;
scripts/deb-test (after make deb) runs it."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.daemon.conftest import dbus_daemon, start_udrvd, system_bus_conf
from tests.install.staged import Install
from tests.support.fakes import FakeTree

ALICE, BOB = 1, 2


@pytest.fixture(params=["source", pytest.param("deb", marks=pytest.mark.deb)])
def installed(request: pytest.FixtureRequest) -> Install:
    """The source install, and the packages' (marked deb)."""
    install: Install = request.getfixturevalue(f"{request.param}_install")
    return install


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
    assert f"ExecStart={installed.prefix}/sbin/udrvd\n" in unit
    assert installed.at(f"{installed.prefix}/sbin/udrvd").is_file()
    assert "# /etc/udrv/udrvd.conf (udrvd.conf(5))" in unit


def test_udev_reads_the_rules(installed: Install) -> None:
    res = subprocess.run(["systemd-analyze", "cat-config", f"--root={installed.dest}",
                          "udev/rules.d"], capture_output=True, text=True, check=True,
                         timeout=60)  # fmt: skip
    files = re.findall(r"^# (/\S+\.rules)$", res.stdout, re.MULTILINE)
    assert f"{installed.dest}{installed.find('60-udrv.rules')}" in files, files


def test_sysusers_creates_the_groups_and_udrvds_user(installed: Install) -> None:
    """systemd-sysusers --root finds both files by itself (its search path)."""
    installed.at("/etc").mkdir(exist_ok=True)  # where it writes group and passwd
    res = subprocess.run(["systemd-sysusers", f"--root={installed.dest}"], capture_output=True,
                         text=True, timeout=60, check=False)  # fmt: skip
    assert res.returncode == 0, res.stderr
    group = installed.at("/etc/group").read_text().splitlines()
    names = {ln.split(":")[0]: ln.split(":") for ln in group}
    # udrvd opens GPIO chips, UIO, VFIO, I2C and SPI devices for clients
    for g in ("gpio", "uio", "vfio", "i2c", "spi"):
        assert g in names, group
        assert "udrvd" in names[g][3].split(","), names[g]
    # the PWM class's group (60-udrv.rules' chgrp): udrvd hands out no PWM
    assert "pwm" in names and "udrvd" not in names["pwm"][3].split(","), group
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
    """In Debian's multiarch folder below the prefix, which ld.so.conf.d names
    (meson alone picks lib64 where dpkg-dev is missing, as on a fresh Debian 12)."""
    path = installed.find("libudrv.so.1")
    assert str(Path(path).parent) in loader_dirs(), (path, loader_dirs())


def test_udrvd_reads_its_policy_where_install_put_it(installed: Install) -> None:
    udrvd = installed.at(f"{installed.prefix}/sbin/udrvd")
    helptext = subprocess.run([str(udrvd), "--help"], capture_output=True, text=True,
                              timeout=30, check=True).stdout  # fmt: skip
    assert "the policy (default /etc/udrv/udrvd.conf," in helptext, helptext
    policy = installed.at("/etc/udrv/udrvd.conf")
    res = subprocess.run([str(udrvd), "--check", "--policy", str(policy)], capture_output=True,
                         text=True, timeout=30, check=False)  # fmt: skip
    assert res.returncode == 0 and "is good: 0 rules" in res.stdout, res.stdout + res.stderr


def test_the_installed_udrvd_serves_a_held_line(
    installed: Install, fake_cdev: Path, tree: FakeTree, tmp_path: Path
) -> None:
    """The admin's rule in the installed policy; the bus with the installed
    bus policy only; udrvd and udrv as installed (udrv with the installed
    libudrv.so.1)."""
    policy = installed.at("/etc/udrv/udrvd.conf")
    empty = policy.read_text()
    policy.write_text(empty + f"allow uid:{ALICE} drive gpio fake-a LOCK\n")
    conf = system_bus_conf(tmp_path / "bus.conf", installed.at(installed.find("io.gpiod1.conf")))
    udrv = installed.at(f"{installed.prefix}/bin/udrv")
    libdir = installed.at(installed.find("libudrv.so.1")).parent
    with dbus_daemon(conf) as address:
        udrvd = installed.at(f"{installed.prefix}/sbin/udrvd")
        d = start_udrvd(udrvd, fake_cdev, address, tree, policy)
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
