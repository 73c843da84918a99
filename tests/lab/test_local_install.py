# SPDX-License-Identifier: GPL-2.0-only
"""The README's source install on a real kernel with a real udevd (issue 41):
`make PREFIX=/usr/local` and `make install PREFIX=/usr/local DESTDIR=...` on
the host, the staged tree at / in the guest (local_board: std-q35 with the
"local" image variant, rig/lab/image/localguest.py), and there, as root, the
commands make install printed for a DESTDIR (systemd-sysusers with the
installed sysusers.d files, ldconfig, the rules touched and udev reloaded and
triggered) with udevd running, as on a machine that has it; then the README's
`usermod -aG gpio USER`. udevd starts with the rules in place, before the
groups exist: the worst case of a staged tree copied in.

A user in gpio drives gpio-wire's wire0-out with /usr/local/bin/udrv (its
libudrv.so.1 from /usr/local/lib/x86_64-linux-gnu, found through the loader's
cache) and reads the level back on wire0-in; a user outside gpio is refused
with the node's owner, group, mode and the fix. Only the installed rules act:
the image's own copy (/usr/lib/udev/rules.d/60-udrv.rules, where the package
puts it) is removed first. The board is this module's alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from guest import CHIP, Udrv, root, sh
from test_access import RULES, as_user, settle

from rig.lab import Board
from rig.lab.image import localguest

pytestmark = [pytest.mark.lg_feature(["gpio-wire", "local-install"])]

UDRV = f"{localguest.PREFIX}/bin/udrv"
MEMBER, OUTSIDER = "ada", "bob"


def gpio_nodes(board: Board) -> list[str]:
    """'owner:group mode' of each GPIO chip's node."""
    out = root(board, "stat -c '%U:%G %a' /dev/gpiochip*")
    assert out.strip(), "no GPIO chip"
    return out.splitlines()


@dataclass
class Installed:
    board: Board
    steps: list[str]  # what make install printed, run in the guest
    before_ldconfig: Udrv  # udrv --version before the steps
    unresolved: list[str]  # the chips' owner, group and mode after a reload without touch


@pytest.fixture(scope="module")
def installed(local_board: Board) -> Installed:
    board = local_board
    steps = localguest.post_install_steps()
    assert [s.split()[0] for s in steps] == ["systemd-sysusers", "ldconfig", "touch"], steps
    root(board, " && ".join([
        f"rm {RULES}",
        f"echo '{MEMBER}:x:1000:1000::/tmp:/bin/sh' >>/etc/passwd",
        f"echo '{OUTSIDER}:x:1001:1001::/tmp:/bin/sh' >>/etc/passwd",
        f"echo '{MEMBER}:x:1000:' >>/etc/group", f"echo '{OUTSIDER}:x:1001:' >>/etc/group",
        "mkdir -p /lib/systemd /run/udev",
        "ln -sf /usr/bin/udevadm /lib/systemd/systemd-udevd",
        "/lib/systemd/systemd-udevd --daemon"]))  # fmt: skip
    settle(board, "add")
    # the loader does not know /usr/local's library before ldconfig: the
    # step is needed (test_the_library_is_found_only_after_ldconfig)
    before = sh(board, f"{UDRV} --version")
    for step in steps[:2]:
        root(board, step)
    # udevd read the rules at its start, before the groups were made: a
    # reload alone keeps them as read (GROUP unresolved), the printed step's
    # touch makes udevd read them again (test_a_reload_alone_keeps_the_rules_as_read)
    settle(board, "change")
    unresolved = gpio_nodes(board)
    root(board, steps[2])
    root(board, "udevadm settle -t 30")
    root(board, f"usermod -aG gpio {MEMBER}")
    return Installed(board, steps, before, unresolved)


def test_the_library_is_found_only_after_ldconfig(installed: Installed) -> None:
    before = installed.before_ldconfig
    assert before.status != 0 and "libudrv.so.1" in before.stderr, before
    r = sh(installed.board, f"{UDRV} --version")
    assert r.status == 0 and r.stdout.startswith("udrv "), r


def test_sysusers_made_the_groups_and_usermod_the_member(installed: Installed) -> None:
    group = root(installed.board, "cat /etc/group")
    members = {ln.split(":")[0]: ln.split(":")[3].split(",") for ln in group.splitlines()}
    assert {"gpio", "uio", "vfio"} <= set(members), group
    assert MEMBER in members["gpio"] and OUTSIDER not in members["gpio"], group
    assert "udrvd" in members["gpio"], group


def test_the_installed_rule_gives_the_chips_to_gpio(installed: Installed) -> None:
    nodes = gpio_nodes(installed.board)
    assert set(nodes) == {"root:gpio 660"}, nodes


def test_a_reload_alone_keeps_the_rules_as_read(installed: Installed) -> None:
    """Why make install's step touches the rules: udevd had read them before
    the groups existed, and `udevadm control --reload` reads only rules files
    that changed (systemd 252): the mode applies, the group does not."""
    assert set(installed.unresolved) == {"root:root 660"}, installed.unresolved


def test_a_member_of_gpio_drives_a_line(installed: Installed) -> None:
    """wire0-out set by the member, its level read back on wire0-in (offset 1)."""
    for value in (1, 0, 1):
        r = as_user(installed.board, MEMBER, f"{UDRV} gpio set -c {CHIP} 0={value} && "
                                             f"{UDRV} gpio get -c {CHIP} 1")  # fmt: skip
        assert r.status == 0, f"{MEMBER} (in gpio): exit {r.status}\n{r.stdout}{r.stderr}"
        assert r.stdout.split() == [f"1={value}"], r.stdout


def test_an_outsider_is_refused_with_the_fix(installed: Installed) -> None:
    r = as_user(installed.board, OUTSIDER, f"{UDRV} gpio set -c {CHIP} 0=1")
    assert r.status == 1, f"{OUTSIDER} (not in gpio): exit {r.status}\n{r.stderr}"
    assert re.search(r"/dev/gpiochip\d+ is owner root, group gpio, mode 0660: add your user "
                     r"to group gpio \(usermod -aG gpio \$USER, then log in again\)",
                     r.stderr), r.stderr  # fmt: skip
