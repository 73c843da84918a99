# SPDX-License-Identifier: GPL-2.0-only
"""daemon/io.gpiod1.conf on Debian's own system bus configuration (deny by
default): root (and the udrvd user) may own io.gpiod1, another user may not
and udrvd says why; every user may call udrvd, which then applies its own
policy. Without the file the bus refuses the same call: the file is what
opens it."""

from __future__ import annotations

from pathlib import Path

from tests.daemon.conftest import dbus_daemon, start_udrvd, system_bus_conf
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO

CONF = REPO / "daemon" / "io.gpiod1.conf"
CALL = ("/io/gpiod1/chips/gpiochip0", "org.freedesktop.DBus.Properties.Get",
        "io.gpiod1.Chip", "Label")  # fmt: skip


def test_root_owns_the_name_and_users_call(udrvd_bin: Path, fake_cdev: Path, tree: FakeTree,
                                           tmp_path: Path) -> None:  # fmt: skip
    policy = tmp_path / "udrvd.conf"
    policy.write_text("")
    with dbus_daemon(system_bus_conf(tmp_path / "bus.conf", CONF)) as address:
        d = start_udrvd(udrvd_bin, fake_cdev, address, tree, policy)
        res = d.call(*CALL, uid=1)
        assert res.returncode == 0 and "fake-a" in res.stdout, res.stderr
        # udrvd's own policy (empty) still refuses a request
        res = d.call("/io/gpiod1/chips/gpiochip0", "io.gpiod1.Chip.RequestLines",
                     "([([uint32 0], {'direction': <'input'>})], @ai [])", "@a{sv} {}",
                     uid=1)  # fmt: skip
        assert "the policy refuses uid 1 " in res.stderr, res.stderr
        assert d.stop() == 0


def test_another_user_cannot_own_the_name(udrvd_bin: Path, fake_cdev: Path, tree: FakeTree,
                                          tmp_path: Path) -> None:  # fmt: skip
    policy = tree.root.parent / "udrvd.conf"  # where uid 2 can read it
    policy.write_text("")
    with dbus_daemon(system_bus_conf(tmp_path / "bus.conf", CONF)) as address:
        d = start_udrvd(udrvd_bin, fake_cdev, address, tree, policy,
                        wait="udrvd: cannot own the bus name", uid=2)  # fmt: skip
        assert "the bus policy does not let this user own it" in d.log[-1], d.log
        assert d.proc.wait(30) == 1


def test_without_the_file_the_bus_refuses_callers(
        udrvd_bin: Path, fake_cdev: Path, tree: FakeTree, tmp_path: Path) -> None:
    # root may own any name on Debian's bus only through a policy file: give
    # it one that says nothing about calls
    own = tmp_path / "own.conf"
    own.write_text(CONF.read_text().replace('<allow send_destination="io.gpiod1"/>', "")
                   .replace('<allow receive_sender="io.gpiod1"/>', ""))  # fmt: skip
    policy = tmp_path / "udrvd.conf"
    policy.write_text("")
    with dbus_daemon(system_bus_conf(tmp_path / "bus.conf", own)) as address:
        d = start_udrvd(udrvd_bin, fake_cdev, address, tree, policy)
        res = d.call(*CALL, uid=1)
        assert res.returncode != 0 and "AccessDenied" in res.stderr, res.stdout
        assert "Rejected send message" in res.stderr and "policy refuses" not in res.stderr
        assert d.stop() == 0
