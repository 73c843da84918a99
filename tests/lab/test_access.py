# SPDX-License-Identifier: GPL-2.0-only
"""Access without root, on a real kernel: tools/udev/60-udrv.rules (what the
udrv package installs) applied by Debian's own udevd in the std-q35 guest
(udevadm and the rules ship in the x86 images: rig/lab/image/initramfs.py).

A user in the groups gpio, uio, vfio, i2c and spi requests GPIO lines, waits
on a UIO interrupt, reads an edu register through its VFIO group, reads a
register of rig/kernel/i2c-fixture's device through i2c-dev and makes a
transfer on spi-fixture's loopback through spidev; a user in none
of them is refused each time with exit 1 and the library's message: the
device, its owner, group and mode, and `usermod -aG GROUP $USER`. Without the
rule (removed, udev reloaded, the devices changed again) the member is
refused too, and the outsider's message names no group: both tests above
depend on the rule, not on the guest's defaults.

udevd runs only for this module (started by the `udev` fixture, stopped
after it, the nodes given back to root:root 0600 and edu to
uio_pci_generic), so the other tests on the board see it as booted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from guest import CHIP, as_user, guest_users, sh
from test_vfio_edu import EDU, bind, driver

from rig.lab import Board

RULES = "/usr/lib/udev/rules.d/60-udrv.rules"
MEMBER, OUTSIDER = "ada", "bob"
# the device nodes the rules cover (a shell glob)
NODES = "/dev/gpiochip* /dev/uio* /dev/vfio/[0-9]* /dev/i2c-[0-9]* /dev/spidev[0-9]*"
GROUPS = {"gpio": 900, "uio": 901, "vfio": 902, "i2c": 903, "spi": 904}
# what each user runs: (device class, its group, command)
USES = [
    ("gpio", "gpio", f"udrv gpio set -c {CHIP} 0=1"),
    ("uio", "uio", "udrv uio wait -n 1 --timeout 5s uio-ticker"),
    ("vfio", "vfio", f"udrv pci peek --bar 0 {EDU} 0x0"),
    ("i2c", "i2c", "udrv i2c get i2c-fixture 0x50 0x0"),  # the adapter by its name
    ("spi", "spi", "udrv spi transfer spi-loopback 0x5a"),  # the device by its modalias
]


def nodes(board: Board) -> dict[str, str]:
    """'owner:group mode' of each device node the rules cover."""
    r = sh(board, f"stat -c '%n %U:%G %a' {NODES}")
    assert r.status == 0, r
    return {ln.split()[0]: " ".join(ln.split()[1:]) for ln in r.stdout.splitlines()}


def settle(board: Board, action: str = "change") -> None:
    subsystems = " ".join(f"--subsystem-match={s}"
                          for s in ("gpio", "uio", "vfio", "i2c-dev", "spidev"))
    r = sh(board, f"udevadm trigger --action={action} {subsystems} && udevadm settle -t 30")
    assert r.status == 0, r


@pytest.fixture(scope="module")
def udev(board_std_q35: Board) -> Iterator[Board]:
    board = board_std_q35
    r = sh(board, f"command -v udevadm && test -f {RULES}")
    if r.status != 0:
        pytest.fail("the guest has no udevadm or no 60-udrv.rules: install udev on the host "
                    "(scripts/install-deps), the x86 images ship it from there")  # fmt: skip
    setup = [
        "mkdir -p /lib/systemd /run/udev",
        "ln -sf /usr/bin/udevadm /lib/systemd/systemd-udevd",
        # the names in the rules resolve when udevd starts: after /etc/group
        "/lib/systemd/systemd-udevd --daemon",
    ]
    with guest_users(board, {MEMBER: 1000, OUTSIDER: 1001},
                     {g: (gid, MEMBER) for g, gid in GROUPS.items()}):  # fmt: skip
        r = sh(board, " && ".join(setup))
        assert r.status == 0, r
        bind(board, EDU, "vfio-pci")
        settle(board, "add")
        try:
            yield board
        finally:
            sh(board, "udevadm control --exit; sleep 0.2")
            kernel_modes(board)
            if driver(board, EDU) != "uio_pci_generic":
                bind(board, EDU, "uio_pci_generic")


def test_the_rules_give_the_nodes_their_groups(udev: Board) -> None:
    seen = nodes(udev)
    group = re.compile(r"/dev/(gpiochip|uio|vfio/|i2c-|spidev)\d+(\.\d+)?$")
    assert all(group.match(n) for n in seen), seen
    want = {"gpiochip": "root:gpio 660", "uio": "root:uio 660", "vfio/": "root:vfio 660",
            "i2c-": "root:i2c 660", "spidev": "root:spi 660"}
    for node, perms in seen.items():
        kind = group.match(node).group(1)  # type: ignore[union-attr]
        assert perms == want[kind], f"{node} is {perms}, 60-udrv.rules says {want[kind]}"
    assert {group.match(n).group(1) for n in seen} == set(want), seen  # type: ignore[union-attr]


@pytest.mark.parametrize(("what", "grp", "command"), USES, ids=[u[0] for u in USES])
def test_a_member_of_the_group_uses_it(udev: Board, what: str, grp: str, command: str) -> None:
    r = as_user(udev, MEMBER, command)
    assert r.status == 0, f"{MEMBER} (in {grp}): {command}: exit {r.status}\n{r.stdout}{r.stderr}"


@pytest.mark.parametrize(("what", "grp", "command"), USES, ids=[u[0] for u in USES])
def test_an_outsider_is_told_the_owner_group_and_fix(udev: Board, what: str, grp: str,
                                                      command: str) -> None:  # fmt: skip
    r = as_user(udev, OUTSIDER, command)
    assert r.status == 1, f"{OUTSIDER} (in no group): {command}: exit {r.status}\n{r.stderr}"
    assert "Permission denied" in r.stderr, r.stderr
    assert re.search(rf"/dev/\S+ is owner root, group {grp}, mode 0660: add your user to "
                     rf"group {grp} \(usermod -aG {grp} \$USER, then log in again\)",
                     r.stderr), r.stderr  # fmt: skip


def kernel_modes(board: Board) -> None:
    """The nodes as devtmpfs makes them (root:root 0600), as at boot."""
    r = sh(board, f"chown root:root {NODES} && chmod 0600 {NODES}")
    assert r.status == 0, r


def test_without_the_rule_the_member_is_refused_too(udev: Board) -> None:
    """The break on purpose: the rule removed, the nodes as the kernel makes
    them and udev's add events again (a boot without the rule): they stay
    root's, the member's uses fail and the outsider's message names no group.
    With the rule back, the same events give the groups back."""
    r = sh(udev, f"mv {RULES} /tmp/60-udrv.rules && udevadm control --reload")
    assert r.status == 0, r
    try:
        kernel_modes(udev)
        settle(udev, "add")
        assert set(nodes(udev).values()) == {"root:root 600"}, nodes(udev)
        for _what, grp, command in USES:
            member = as_user(udev, MEMBER, command)
            assert member.status == 1, f"{command} as {MEMBER} without the rule: {member}"
            assert "for root alone: run as root, or give a group access with a udev rule" \
                in member.stderr, member.stderr
            outsider = as_user(udev, OUTSIDER, command)
            assert f"group {grp}" not in outsider.stderr, outsider.stderr
    finally:
        r = sh(udev, f"mv /tmp/60-udrv.rules {RULES} && udevadm control --reload")
        assert r.status == 0, r
        settle(udev, "add")
    assert {f"root:{g} 660" for g in GROUPS} == set(nodes(udev).values())
