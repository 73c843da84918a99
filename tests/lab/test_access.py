# SPDX-License-Identifier: GPL-2.0-only
"""Access without root, on a real kernel: tools/udev/60-udrv.rules (what the
udrv package installs) applied by Debian's own udevd in the std-q35 guest
(udevadm and the rules ship in the x86 images: rig/lab/image/initramfs.py).

A user in the groups gpio, uio, vfio, i2c, spi and pwm requests GPIO lines,
waits on a UIO interrupt, reads an edu register through its VFIO group, reads
a register of rig/kernel/i2c-fixture's device through i2c-dev, makes a
transfer on spi-fixture's loopback through spidev and runs pwm-fixture's
channel 0 through the PWM class (export, period, duty cycle, enable: sysfs
files, which the rules chgrp on the chip's add and on its export's change
uevent); a user in none of them is refused each time with exit 1 and the
library's message: the device (for PWM the chip's export file), its owner,
group and mode, and `usermod -aG GROUP $USER`. Without the rule (removed,
udev reloaded, the devices changed again) the member is refused too, and the
outsider's message names no group: both tests above depend on the rule, not
on the guest's defaults. With the PWM chip's files granted but not the
channel's (the rules' channel line missing), the member's export is refused
when libudrv's wait for the channel's attributes ends.

udevd runs only for this module (started by the `udev` fixture, stopped
after it, the nodes given back to root:root 0600 and edu to
uio_pci_generic), so the other tests on the board see it as booted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from guest import CHIP, as_user, guest_users, ok, root, sh
from test_pwm import stats
from test_vfio_edu import EDU, bind, driver

from rig.lab import Board

RULES = "/usr/lib/udev/rules.d/60-udrv.rules"
MEMBER, OUTSIDER = "ada", "bob"
# the device nodes the rules cover (a shell glob)
NODES = "/dev/gpiochip* /dev/uio* /dev/vfio/[0-9]* /dev/i2c-[0-9]* /dev/spidev[0-9]*"
GROUPS = {"gpio": 900, "uio": 901, "vfio": 902, "i2c": 903, "spi": 904, "pwm": 905}
NODE_GROUPS = [g for g in GROUPS if g != "pwm"]  # the PWM class has sysfs files, no nodes
# the PWM class's files the rules cover: every chip's (the kernel's root:root
# 0200) and an exported channel's (root:root 0644), what libudrv waits for
PWM_CHIPS = "/sys/class/pwm/pwmchip*"
PWM_CHIP_FILES = ("export", "unexport")
PWM_CHANNEL_FILES = ("period", "duty_cycle", "polarity", "enable")
PWM_CHANNEL = 0  # rig/kernel/pwm-fixture's channel 0: gpio-wire's line 0
PWM_SET = f"udrv pwm set pwm-fixture {PWM_CHANNEL} --period 1ms --duty 250us --enable"
# what each user runs: (device class, its group, command)
USES = [
    ("gpio", "gpio", f"udrv gpio set -c {CHIP} 0=1"),
    ("uio", "uio", "udrv uio wait -n 1 --timeout 5s uio-ticker"),
    ("vfio", "vfio", f"udrv pci peek --bar 0 {EDU} 0x0"),
    ("i2c", "i2c", "udrv i2c get i2c-fixture 0x50 0x0"),  # the adapter by its name
    ("spi", "spi", "udrv spi transfer spi-loopback 0x5a"),  # the device by its modalias
]


def owner_modes(board: Board, paths: str) -> dict[str, str]:
    """'owner:group mode' of each of @paths (a shell glob)."""
    r = sh(board, f"stat -c '%n %U:%G %a' {paths}")
    assert r.status == 0, r
    return {ln.split()[0]: " ".join(ln.split()[1:]) for ln in r.stdout.splitlines()}


def nodes(board: Board) -> dict[str, str]:
    """'owner:group mode' of each device node the rules cover."""
    return owner_modes(board, NODES)


def pwm_files(chip: str, names: tuple[str, ...], channel: int | None = None) -> str:
    """The files @names of @chip's directory, or of its channel @channel's."""
    where = chip if channel is None else f"{chip}/pwm{channel}"
    return " ".join(f"{where}/{n}" for n in names)


def settle(board: Board, action: str = "change") -> None:
    subsystems = " ".join(f"--subsystem-match={s}"
                          for s in ("gpio", "uio", "vfio", "i2c-dev", "spidev", "pwm"))
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


@pytest.fixture
def pwm_chip(udev: Board) -> Iterator[str]:
    """pwm-fixture's chip's class directory, its channel unexported before
    and after the test (gpio-wire's line 0 free for the GPIO uses)."""
    chips = [c for c in ok(udev, "pwm list --json").json() if c.get("device") == "pwm-fixture"]
    assert len(chips) == 1, chips
    chip = f"/sys/class/pwm/{chips[0]['chip']}"
    unexport = f"test ! -e {chip}/pwm{PWM_CHANNEL} || echo {PWM_CHANNEL} > {chip}/unexport"
    root(udev, unexport)
    yield chip
    root(udev, unexport)


def test_the_rules_give_pwm_its_group(udev: Board, pwm_chip: str) -> None:
    """The chip's export and unexport from its add event; a channel's
    attributes from its export's change event on the chip (an export by
    root here: udev alone makes them the group's)."""
    chip_files = owner_modes(udev, pwm_files(pwm_chip, PWM_CHIP_FILES))
    assert set(chip_files.values()) == {"root:pwm 220"}, chip_files
    root(udev, f"echo {PWM_CHANNEL} > {pwm_chip}/export && udevadm settle -t 30")
    channel = owner_modes(udev, pwm_files(pwm_chip, PWM_CHANNEL_FILES, PWM_CHANNEL))
    assert len(channel) == len(PWM_CHANNEL_FILES), channel
    assert set(channel.values()) == {"root:pwm 664"}, channel


def test_a_member_of_pwm_runs_the_fixture(udev: Board, pwm_chip: str) -> None:
    """Exported, set, enabled without root: the fixture's timer runs it; then
    disabled and given back through the chip's unexport."""
    before = stats(udev)[PWM_CHANNEL][0]
    r = as_user(udev, MEMBER, f"{PWM_SET} --json")
    assert r.status == 0, f"{MEMBER} (in pwm): {PWM_SET}: exit {r.status}\n{r.stdout}{r.stderr}"
    st = r.json()
    assert (st["period_ns"], st["duty_ns"], st["enabled"]) == (1_000_000, 250_000, True), st
    attrs = pwm_files(pwm_chip, ("period", "duty_cycle", "enable"), PWM_CHANNEL)
    assert root(udev, f"sleep 0.01; cat {attrs}").split() == ["1000000", "250000", "1"]
    assert stats(udev)[PWM_CHANNEL][0] > before  # periods begun
    r = as_user(udev, MEMBER, f"udrv pwm set pwm-fixture {PWM_CHANNEL} --disable && "
                              f"echo {PWM_CHANNEL} > {pwm_chip}/unexport")  # fmt: skip
    assert r.status == 0, r
    assert sh(udev, f"test -e {pwm_chip}/pwm{PWM_CHANNEL}").status != 0


def test_an_outsider_is_refused_pwm(udev: Board, pwm_chip: str) -> None:
    """Refused the export, naming the chip's export file; and a channel
    someone exported, naming the attribute it writes first."""
    r = as_user(udev, OUTSIDER, PWM_SET)
    assert r.status == 1, f"{OUTSIDER} (in no group): {PWM_SET}: exit {r.status}\n{r.stderr}"
    assert f"{pwm_chip}/export: Permission denied" in r.stderr, r.stderr
    assert f"{pwm_chip}/export is owner root, group pwm, mode 0220: add your user to group " \
        "pwm (usermod -aG pwm $USER, then log in again) or run as root" in r.stderr, r.stderr
    assert sh(udev, f"test -e {pwm_chip}/pwm{PWM_CHANNEL}").status != 0
    root(udev, f"echo {PWM_CHANNEL} > {pwm_chip}/export && udevadm settle -t 30")
    r = as_user(udev, OUTSIDER, PWM_SET)
    assert r.status == 1, r
    assert re.search(rf"{pwm_chip}/pwm{PWM_CHANNEL}/\w+ is owner root, group pwm, mode 0664: "
                     r"add your user to group pwm \(usermod -aG pwm \$USER", r.stderr), r.stderr


def kernel_modes(board: Board) -> None:
    """The nodes as devtmpfs makes them (root:root 0600) and the PWM chips'
    export and unexport as the kernel does (root:root 0200), as at boot."""
    chips = " ".join(f"{PWM_CHIPS}/{n}" for n in PWM_CHIP_FILES)
    r = sh(board, f"chown root:root {NODES} && chmod 0600 {NODES} && "
                  f"chown root:root {chips} && chmod 0200 {chips}")  # fmt: skip
    assert r.status == 0, r


def test_without_the_rule_the_member_is_refused_too(udev: Board, pwm_chip: str) -> None:
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
        assert set(owner_modes(udev, pwm_files(pwm_chip, PWM_CHIP_FILES)).values()) == \
            {"root:root 200"}
        refused: dict[str, str] = {}
        for what, grp, command in [*USES, ("pwm", "pwm", PWM_SET)]:
            member = as_user(udev, MEMBER, command)
            assert member.status == 1, f"{command} as {MEMBER} without the rule: {member}"
            assert "for root alone: run as root, or give a group access with a udev rule" \
                in member.stderr, member.stderr
            refused[what] = member.stderr
            outsider = as_user(udev, OUTSIDER, command)
            assert f"group {grp}" not in outsider.stderr, outsider.stderr
        assert f"{pwm_chip}/export is owner root, group root, mode 0200, for root alone: run " \
            "as root, or give a group access with a udev rule (udrv's 60-udrv.rules: groups " \
            "gpio, uio, vfio, i2c, spi, pwm)" in refused["pwm"], refused["pwm"]
    finally:
        r = sh(udev, f"mv /tmp/60-udrv.rules {RULES} && udevadm control --reload")
        assert r.status == 0, r
        settle(udev, "add")
    assert {f"root:{g} 660" for g in NODE_GROUPS} == set(nodes(udev).values())
    assert set(owner_modes(udev, pwm_files(pwm_chip, PWM_CHIP_FILES)).values()) == {"root:pwm 220"}


def test_without_the_pwm_channel_rule_the_wait_ends_refused(udev: Board, pwm_chip: str) -> None:
    """The chip's export and unexport the group's, the channel's attributes
    left as the kernel makes them (what the rules' channel line changes):
    libudrv exports, waits its 2 s for them to become writable, then says
    which is not, and unexports what it exported."""
    r = sh(udev, f"mv {RULES} /tmp/60-udrv.rules && udevadm control --reload")
    assert r.status == 0, r
    try:
        chip_files = pwm_files(pwm_chip, PWM_CHIP_FILES)
        root(udev, f"chgrp pwm {chip_files} && chmod g+w {chip_files}")
        member = as_user(udev, MEMBER, PWM_SET)
        assert member.status == 1, member
        assert f"exported channel {PWM_CHANNEL} of " in member.stderr, member.stderr
        assert f"{pwm_chip}/pwm{PWM_CHANNEL}/period is not writable by this process 2000 ms " \
            f"later: {pwm_chip}/pwm{PWM_CHANNEL}/period is owner root, group root, mode 0644, " \
            "for root alone" in member.stderr, member.stderr
        assert sh(udev, f"test -e {pwm_chip}/pwm{PWM_CHANNEL}").status != 0  # unexported
    finally:
        r = sh(udev, f"mv /tmp/60-udrv.rules {RULES} && udevadm control --reload")
        assert r.status == 0, r
        settle(udev, "add")
