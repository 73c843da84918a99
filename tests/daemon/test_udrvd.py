# SPDX-License-Identifier: GPL-2.0-only
"""udrvd on a private bus with fake GPIO chips (conftest.py): io.gpiod1 as
libgpiod's description has it, lines held after the client exits, and the
policy on every call: the line granted works, the line beside it and a user
without a rule are refused with the rule named, another user cannot drive or
release a request, groups count as the bus read them from the caller's
socket when it connected.

Each refusal is seen to depend on its check: the same call is granted once
the policy or the caller changes (the allowed line, the group added, the
owner calling), so a refusal that came from anything else fails a test."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import Udrvd, serving, start_udrvd
from tests.support.fakes import FakeTree

CHIP0 = "/io/gpiod1/chips/gpiochip0"
REQ = "io.gpiod1.Request"
# users every Debian has (base-passwd: daemon, bin, sys): the bus daemon
# refuses a connection from a uid without a passwd entry
ALICE, BOB, CAROL, DOOR = 1, 2, 3, 2001

POLICY = """# udrvd's host test
allow uid:1 drive gpio fake-a LOCK
allow uid:1 read gpio fake-a 1
allow uid:2 drive,read gpio fake-a 0-3
allow gid:2001 drive gpio gpiochip0 LED
allow uid:2 all gpio fake-b *
"""


def request(d: Udrvd, offsets: list[int], settings: str, values: list[int] | None = None,
            uid: int = 0, groups: tuple[int, ...] = (), consumer: str | None = None,
            chip: str = CHIP0) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """RequestLines on @chip: one mapping of @offsets to @settings (a{sv} text)."""
    offs = "[" + ", ".join(f"uint32 {o}" for o in offsets) + "]"
    vals = "[" + ", ".join(f"int32 {v}" for v in values or []) + "]"
    vals = vals if values else "@ai []"
    reqcfg = f"{{'consumer': <'{consumer}'>}}" if consumer else "@a{sv} {}"
    return d.call(chip, "io.gpiod1.Chip.RequestLines", f"([({offs}, {settings})], {vals})",
                  reqcfg, uid=uid, groups=groups)  # fmt: skip


OUTPUT = "{'direction': <'output'>}"
INPUT = "{'direction': <'input'>}"


def path_of(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 0, res.stderr
    out = res.stdout.strip()
    assert out.startswith("(objectpath '"), out
    return out.split("'")[1]


def get(d: Udrvd, path: str, iface: str, prop: str) -> str:
    res = d.call(path, "org.freedesktop.DBus.Properties.Get", iface, prop)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


MANAGED = "org.freedesktop.DBus.ObjectManager.GetManagedObjects"


def test_chips_and_lines_on_the_bus(udrvd: Udrvd) -> None:
    """Each manager lists its objects with udrvd's interfaces and their
    properties, and no standard interface (as gpio-manager: a GDBus client
    makes a proxy for each interface it is told of)."""
    res = udrvd.call("/io/gpiod1/chips", MANAGED)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"({{objectpath '{CHIP0}': {{'io.gpiod1.Chip': {{'Name': "
                                 "<'gpiochip0'>, 'Label': <'fake-a'>, 'NumLines': <uint32 8>, "
                                 "'Path': <b'"), res.stdout  # fmt: skip
    assert "'/io/gpiod1/chips/gpiochip1'" in res.stdout and "/line" not in res.stdout
    lines = udrvd.call(CHIP0, MANAGED).stdout
    assert lines.count("{'io.gpiod1.Line': {'Offset': <uint32 ") == 8, lines
    assert "'Name': <'LED'>" in lines and "'RequestPath': <objectpath '/'>" in lines
    path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    reqs = udrvd.call("/io/gpiod1/requests", MANAGED).stdout
    assert "{'io.gpiod1.Request': {'ChipPath': <objectpath '/io/gpiod1/chips/gpiochip0'>, " \
           "'LinePaths': <[objectpath '/io/gpiod1/chips/gpiochip0/line0']>}, " \
           "'io.udrv1.Request': {'Owner': <uint32 1>}}" in reqs, reqs
    for out in (res.stdout, lines, reqs):
        assert "org.freedesktop.DBus" not in out, out
    assert get(udrvd, CHIP0, "io.gpiod1.Chip", "Label") == "(<'fake-a'>,)"
    assert get(udrvd, CHIP0, "io.gpiod1.Chip", "NumLines") == "(<uint32 8>,)"
    assert get(udrvd, f"{CHIP0}/line4", "io.gpiod1.Line", "Name") == "(<'LED'>,)"
    assert get(udrvd, f"{CHIP0}/line4", "io.gpiod1.Line", "Managed") == "(<false>,)"


def test_a_line_stays_set_after_the_client_exits(udrvd: Udrvd) -> None:
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE, consumer="door-lock"))
    # busctl, the client, has exited: the line is still held, at 1
    lock = udrvd.lines()[0]
    assert (lock.used, lock.output, lock.level, lock.consumer) == (True, True, 1, "door-lock")
    res = udrvd.call(path, f"{REQ}.SetValues", "{uint32 0: int32 0}", uid=ALICE)
    assert res.returncode == 0, res.stderr
    assert udrvd.lines()[0].level == 0
    assert get(udrvd, path, REQ, "LinePaths") == f"(<[objectpath '{CHIP0}/line0']>,)"
    assert get(udrvd, f"{CHIP0}/line0", "io.gpiod1.Line", "RequestPath") == \
        f"(<objectpath '{path}'>,)"
    assert get(udrvd, f"{CHIP0}/line0", "io.gpiod1.Line", "Consumer") == "(<'door-lock'>,)"
    assert udrvd.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
    assert not udrvd.lines()[0].used


def test_the_line_beside_is_refused_naming_the_rule(udrvd: Udrvd) -> None:
    assert request(udrvd, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    res = request(udrvd, [2], OUTPUT, [1], uid=ALICE)
    assert res.returncode != 0
    assert "the policy refuses uid 1 " in res.stderr and "'drive' on line 2" in res.stderr
    assert "udrvd.conf:2 (allow uid:1 drive gpio fake-a LOCK)" in res.stderr, res.stderr
    assert not udrvd.lines()[2].used
    # reading line 1 is granted, driving it is not
    assert request(udrvd, [1], INPUT, uid=ALICE).returncode == 0
    res = request(udrvd, [1], OUTPUT, uid=ALICE)
    assert "no rule grants drive" in res.stderr, res.stderr


def test_no_rule_no_access(udrvd: Udrvd) -> None:
    res = request(udrvd, [0], OUTPUT, [1], uid=CAROL)
    assert res.returncode != 0
    assert "no rule in" in res.stderr and "names the caller on this chip" in res.stderr
    # root has no rule either
    res = request(udrvd, [0], OUTPUT, [1])
    assert "the policy refuses uid 0 " in res.stderr, res.stderr
    assert not udrvd.lines()[0].used


def test_a_group_counts_from_the_callers_process(udrvd: Udrvd) -> None:
    res = request(udrvd, [4], OUTPUT, [1], uid=CAROL)
    assert "the policy refuses uid 3 " in res.stderr
    assert request(udrvd, [4], OUTPUT, [1], uid=CAROL, groups=(DOOR,)).returncode == 0
    assert udrvd.lines()[4].level == 1


def test_a_group_counts_at_every_call_of_a_connection(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                      tree: FakeTree, tmp_path: Path,
                                                      client: Path) -> None:  # fmt: skip
    """The groups the bus reports at a connection's first call are kept for
    its next calls (daemon/bus/caller.c): a client of group door makes 12 calls on one
    connection, each checked (RequestLines, 10 SetValues, GetValues)."""
    load = [str(client), "load", "/io/gpiod1/chips/gpiochip0", "4", "10"]
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path,
                 "allow gid:2001 drive,read gpio gpiochip0 LED\n") as d:  # fmt: skip
        res = d.run_as(load, uid=CAROL)
        assert res.returncode == 1 and "the policy refuses uid 3 " in res.stderr, res.stderr
        res = d.run_as(load, uid=CAROL, groups=(DOOR,))
        assert (res.returncode, res.stdout) == (0, "ok 10 0\n"), res.stderr


def test_another_user_cannot_drive_or_release(udrvd: Udrvd) -> None:
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    # bob's rules cover line 0 too: the owner check refuses him
    for method, *args in (("SetValues", "{uint32 0: int32 0}"), ("GetValues", "[uint32 0]"),
                          ("ReconfigureLines", f"([([uint32 0], {OUTPUT})], @ai [])"),
                          ("Release",)):  # fmt: skip
        res = udrvd.call(path, f"{REQ}.{method}", *args, uid=BOB)
        assert res.returncode != 0, method
        assert "belongs to uid 1, not to the caller (uid 2)" in res.stderr, res.stderr
    assert udrvd.lines()[0].level == 1 and udrvd.lines()[0].used
    assert udrvd.call(path, f"{REQ}.SetValues", "{uint32 0: int32 0}", uid=ALICE).returncode == 0


CHIP1 = "/io/gpiod1/chips/gpiochip1"


def reconfigure(d: Udrvd, path: str, mappings: str, values: str = "@ai []",
                uid: int = BOB) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return d.call(path, f"{REQ}.ReconfigureLines", f"([{mappings}], {values})", uid=uid)


def test_reconfigure_keeps_the_lines_held(udrvd: Udrvd) -> None:
    path = path_of(request(udrvd, [0, 1], OUTPUT, [1, 0], uid=BOB, chip=CHIP1))
    low = "{'direction': <'output'>, 'active-low': <true>}"
    res = reconfigure(udrvd, path, f"([uint32 1, uint32 0], {low})")
    assert res.returncode == 0, res.stderr
    # held throughout; no values given: each output keeps its logical value
    a, b = udrvd.lines(1)[:2]
    assert (a.used, a.active_low, a.level, b.active_low, b.level) == (True, True, 0, True, 1)
    assert get(udrvd, f"{CHIP1}/line0", "io.gpiod1.Line", "ActiveLow") == "(<true>,)"
    res = reconfigure(udrvd, path, f"([uint32 0], {INPUT}), ([uint32 1], {OUTPUT})", "[0, 1]")
    assert res.returncode == 0, res.stderr
    a, b = udrvd.lines(1)[:2]
    assert (a.output, b.output, b.level, b.active_low) == (False, True, 1, False)


def test_reconfigure_refusals(udrvd: Udrvd) -> None:
    path = path_of(request(udrvd, [0, 1], OUTPUT, [1, 0], uid=BOB, chip=CHIP1))
    res = reconfigure(udrvd, path, f"([uint32 0], {OUTPUT})")
    assert "holds 2 lines and line_config names 1" in res.stderr, res.stderr
    res = reconfigure(udrvd, path, f"([uint32 0, uint32 2], {OUTPUT})")
    assert "line 2 is not in " + path in res.stderr, res.stderr
    res = reconfigure(udrvd, path, "([uint32 0, uint32 1], {'bias': <'sideways'>})")
    assert "line setting 'bias' cannot be 'sideways'" in res.stderr, res.stderr
    # alice may drive LOCK, not configure it: open-drain is refused
    lock = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    res = reconfigure(udrvd, lock, "([uint32 0], {'direction': <'output'>, "
                      "'drive': <'open-drain'>})", uid=ALICE)  # fmt: skip
    assert "no rule grants configure" in res.stderr, res.stderr
    assert reconfigure(udrvd, lock, f"([uint32 0], {OUTPUT})", uid=ALICE).returncode == 0
    assert udrvd.lines()[0].level == 1


def test_set_values_needs_drive(udrvd: Udrvd) -> None:
    path = path_of(request(udrvd, [1], INPUT, uid=ALICE))
    res = udrvd.call(path, f"{REQ}.SetValues", "{uint32 1: int32 1}", uid=ALICE)
    assert res.returncode != 0 and "no rule grants drive" in res.stderr, res.stderr


def test_get_values_needs_read(udrvd: Udrvd) -> None:
    """Reading a request's values needs read in the policy in force, not
    only the request: alice may drive LOCK, not read it."""
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    res = udrvd.call(path, f"{REQ}.GetValues", "[uint32 0]", uid=ALICE)
    assert res.returncode != 0 and "no rule grants read" in res.stderr, res.stderr
    assert "the policy refuses uid 1 " in res.stderr and "'read' on line 0 (LOCK)" in res.stderr
    # bob may drive and read line 2: the same call answers
    path = path_of(request(udrvd, [2], OUTPUT, [1], uid=BOB))
    res = udrvd.call(path, f"{REQ}.GetValues", "[uint32 2]", uid=BOB)
    assert (res.returncode, res.stdout.strip()) == (0, "([1],)"), res.stderr


def test_a_revoked_grant_releases_the_request(udrvd: Udrvd, tmp_path: Path) -> None:
    """SIGHUP: a request whose owner the new policy no longer grants what
    its settings need is released, and the log says which, whose, which
    line and why; one it still grants stays."""
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    kept = path_of(request(udrvd, [2], OUTPUT, [1], uid=BOB))
    policy = tmp_path / "udrvd.conf"
    policy.write_text(POLICY.replace("allow uid:1 drive gpio fake-a LOCK\n", ""))
    udrvd.proc.send_signal(signal.SIGHUP)
    assert udrvd.wait_log("udrvd: policy reloaded: 4 rules")
    said = udrvd.wait_log(f"udrvd: released {path} of uid 1: ")
    assert "no longer grants its owner line 0 of gpiochip0" in said, said
    assert "the policy refuses uid 1 (gid 1) 'drive' on line 0 (LOCK)" in said, said
    assert not udrvd.lines()[0].used and udrvd.lines()[2].used
    assert not [ln for ln in udrvd.log if kept in ln], udrvd.log
    res = udrvd.call(path, f"{REQ}.SetValues", "{uint32 0: int32 0}", uid=ALICE)
    assert res.returncode != 0 and "UnknownObject" in res.stderr, res.stderr
    res = request(udrvd, [0], OUTPUT, [1], uid=ALICE)
    assert res.returncode != 0 and "no rule grants drive" in res.stderr, res.stderr
    # a policy with a mistake leaves the rules in force
    policy.write_text(POLICY + "allow uid:1 sing gpio * *\n")
    udrvd.proc.send_signal(signal.SIGHUP)
    assert "udrvd.conf:7: unknown permission 'sing'" in udrvd.wait_log("udrvd: the policy stays")
    assert udrvd.lines()[2].used
    res = request(udrvd, [0], OUTPUT, [1], uid=ALICE)
    assert res.returncode != 0 and "no rule grants drive" in res.stderr, res.stderr


ADMIN = POLICY + "allow uid:3 admin gpio fake-a LOCK\n"


def test_an_administrator_releases_any_request(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                               tree: FakeTree, tmp_path: Path) -> None:  # fmt: skip
    """Root, or a caller granted admin on each line of a request, releases
    it whoever owns it (said in the log); another user, even one granted
    the line, does not."""
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, ADMIN) as d:
        path = path_of(request(d, [0], OUTPUT, [1], uid=ALICE))
        res = d.call(path, f"{REQ}.Release", uid=BOB)
        assert res.returncode != 0, res.stdout
        assert "belongs to uid 1, not to the caller (uid 2); an administrator" in res.stderr
        assert d.lines()[0].used
        res = d.call(path, f"{REQ}.Release", uid=CAROL)
        assert res.returncode == 0, res.stderr
        assert d.wait_log(f"udrvd: uid 3 (an administrator) released {path} of uid 1")
        assert not d.lines()[0].used
        # carol's admin names LOCK alone: bob's request of line 2 is not hers
        other = path_of(request(d, [2], OUTPUT, [1], uid=BOB))
        res = d.call(other, f"{REQ}.Release", uid=CAROL)
        assert res.returncode != 0 and "belongs to uid 2, not to the caller (uid 3)" in res.stderr
        assert d.lines()[2].used
        # root needs no rule for it
        assert d.call(other, f"{REQ}.Release").returncode == 0
        assert d.wait_log(f"udrvd: uid 0 (an administrator) released {other} of uid 2")
        assert not d.lines()[2].used


READER = """allow uid:1 drive,read gpio fake-a LOCK
allow uid:2 read gpio fake-a LOCK
"""


def test_read_cannot_make_an_output_an_input(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                             tree: FakeTree, tmp_path: Path) -> None:  # fmt: skip
    """An output line released stays an output (the kernel keeps it): a
    user granted read alone may not request it as an input (which would
    make it float), only one granted drive may; once it is an input, read
    takes it as it is."""
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, READER) as d:
        path = path_of(request(d, [0], OUTPUT, [1], uid=ALICE))
        assert d.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
        lock = d.lines()[0]
        assert (lock.used, lock.output, lock.level) == (False, True, 1)
        res = request(d, [0], INPUT, uid=BOB)
        assert res.returncode != 0, res.stdout
        assert "the policy refuses uid 2 (gid 2) 'read,drive' on line 0 (LOCK)" in res.stderr
        assert "no rule grants drive" in res.stderr, res.stderr
        assert d.lines()[0].output and not d.lines()[0].used
        # the driver still can: as an output, and as an input
        path = path_of(request(d, [0], OUTPUT, [0], uid=ALICE))
        assert d.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
        path = path_of(request(d, [0], INPUT, uid=ALICE))
        assert d.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
        assert not d.lines()[0].output
        # an input, as it is: read's
        path_of(request(d, [0], INPUT, uid=BOB))
        assert d.lines()[0].used and not d.lines()[0].output


def test_line_state_only_to_callers_with_a_rule(udrvd: Udrvd) -> None:
    """The chip and line list (paths, names, offsets) to everyone; a line's
    state (consumer, direction, request) and a request (its owner) only to
    root and the callers with a rule for the line: carol has none on fake-a."""
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE, consumer="door-lock"))
    lines = udrvd.call(CHIP0, MANAGED, uid=CAROL)
    assert lines.returncode == 0, lines.stderr
    assert lines.stdout.count("{'io.gpiod1.Line': {'Offset': <uint32 ") == 8, lines.stdout
    assert "'Name': <'LOCK'>" in lines.stdout and "'Name': <'LED'>" in lines.stdout
    for secret in ("door-lock", path, "'Used': <true>", "'Direction': <'output'>",
                   "'Managed': <true>"):  # fmt: skip
        assert secret not in lines.stdout, (secret, lines.stdout)
    line0 = f"{CHIP0}/line0"
    props = udrvd.call(line0, "org.freedesktop.DBus.Properties.GetAll", "io.gpiod1.Line",
                       uid=CAROL)  # fmt: skip
    assert props.returncode == 0 and "'Name': <'LOCK'>" in props.stdout, props.stderr
    assert "door-lock" not in props.stdout and path not in props.stdout, props.stdout
    res = udrvd.call(line0, "org.freedesktop.DBus.Properties.Get", "io.gpiod1.Line", "Consumer",
                     uid=CAROL)  # fmt: skip
    assert res.stdout.strip() == "(<''>,)", res.stdout + res.stderr
    reqs = udrvd.call("/io/gpiod1/requests", MANAGED, uid=CAROL)
    assert reqs.returncode == 0 and path not in reqs.stdout, reqs.stdout
    res = udrvd.call(path, "org.freedesktop.DBus.Properties.Get", "io.udrv1.Request", "Owner",
                     uid=CAROL)  # fmt: skip
    assert res.returncode != 0 and f"udrvd shows {path} only to its owner" in res.stderr
    # a rule for the line (bob's drive,read on 0-3), the owner, root: shown
    for uid in (BOB, ALICE, 0):
        res = udrvd.call(line0, "org.freedesktop.DBus.Properties.Get", "io.gpiod1.Line",
                         "Consumer", uid=uid)  # fmt: skip
        assert res.stdout.strip() == "(<'door-lock'>,)", (uid, res.stdout + res.stderr)
        assert path in udrvd.call("/io/gpiod1/requests", MANAGED, uid=uid).stdout, uid
        assert get(udrvd, line0, "io.gpiod1.Line", "RequestPath") == f"(<objectpath '{path}'>,)"
    lines = udrvd.call(CHIP0, MANAGED, uid=BOB).stdout
    assert "door-lock" in lines and "'Direction': <'output'>" in lines, lines


def test_bad_line_configs(udrvd: Udrvd) -> None:
    cases = [
        ("{'direction': <'sideways'>}", "line setting 'direction' cannot be 'sideways'"),
        ("{'colour': <'red'>}", "unknown line setting 'colour'"),
        ("{'active-low': <'yes'>}", "line setting 'active-low' takes a boolean"),
        ("{'debounce-period': <int64 -1>}", "'debounce-period' is out of range"),
        ("{'direction': <'input'>, 'direction': <'output'>}", "'direction' given twice"),
    ]
    for settings, says in cases:
        res = request(udrvd, [0], settings, uid=ALICE)
        assert res.returncode != 0 and says in res.stderr, (settings, res.stderr)
    res = request(udrvd, [0], OUTPUT, [1, 0], uid=ALICE)
    assert "2 output values for 1 lines" in res.stderr, res.stderr
    res = request(udrvd, [0], OUTPUT, [2], uid=ALICE)
    assert "output value 2 for offset 0" in res.stderr, res.stderr
    res = request(udrvd, [9], INPUT, uid=ALICE)
    assert "gpiochip0 has no line 9 (it has 8)" in res.stderr, res.stderr
    assert not any(ln.used for ln in udrvd.lines())


def test_a_busy_line_says_who_holds_it(udrvd: Udrvd) -> None:
    assert request(udrvd, [1], INPUT, uid=BOB, consumer="first").returncode == 0
    res = request(udrvd, [1], INPUT, uid=BOB)
    assert res.returncode != 0 and "first" in res.stderr, res.stderr


def test_stop_releases_the_lines(udrvd: Udrvd) -> None:
    assert request(udrvd, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    assert udrvd.stop() == 0
    assert not udrvd.lines()[0].used


def test_a_bad_policy_stops_udrvd(udrvd_bin: Path, tmp_path: Path) -> None:
    policy = tmp_path / "bad.conf"
    policy.write_text("allow uid:1 drive gpio fake-a LOCK\nallow uid:1 wrte gpio * *\n")
    res = subprocess.run([str(udrvd_bin), "--policy", str(policy)], capture_output=True,
                         text=True, timeout=30, check=False)  # fmt: skip
    assert res.returncode == 2
    assert f"udrvd: {policy}:2: unknown permission 'wrte'" in res.stderr, res.stderr


CHIP1 = "/io/gpiod1/chips/gpiochip1"


def test_the_fast_path_hands_over_the_fd(udrvd: Udrvd, client: Path) -> None:
    """io.udrv1.Request.GetFd: the owner, granted all on the lines, drives
    them through the kernel; the line stays held after the client exits."""
    path = path_of(request(udrvd, [2], OUTPUT, [1], uid=BOB, chip=CHIP1))
    assert get(udrvd, path, "io.udrv1.Request", "Owner") == "(<uint32 2>,)"
    res = udrvd.run_as([str(client), "fd", path, "0", "3"], uid=BOB, preload=True)
    assert res.returncode == 0, res.stderr
    line = udrvd.lines(1)[2]
    assert (line.used, line.level, line.consumer) == (True, 0, "udrvd")  # 0, 1, 0
    res = udrvd.call(path, f"{REQ}.GetValues", "[uint32 2]", uid=BOB)
    assert res.stdout.strip() == "([0],)", res.stdout


def test_the_fd_needs_all_on_every_line_and_the_owner(udrvd: Udrvd, client: Path) -> None:
    # alice may drive LOCK, no more: the fd would let her reconfigure it
    path = path_of(request(udrvd, [0], OUTPUT, [1], uid=ALICE))
    res = udrvd.run_as([str(client), "fd", path, "0"], uid=ALICE, preload=True)
    assert res.returncode == 1
    assert "AccessDenied" in res.stderr and "no rule grants read,watch,configure" in res.stderr
    assert udrvd.lines()[0].level == 1
    # bob has all on fake-b, but the request is not his
    path = path_of(request(udrvd, [1], OUTPUT, [1], uid=BOB, chip=CHIP1))
    res = udrvd.run_as([str(client), "fd", path, "0"], uid=CAROL, preload=True)
    assert res.returncode == 1 and "belongs to uid 2, not to the caller (uid 3)" in res.stderr
    assert udrvd.lines(1)[1].level == 1


def test_the_example_drives_a_held_line(udrvd: Udrvd, example: Path) -> None:
    """examples/udrvd-held: GetFd, then udrv_request_adopt() with all
    the request's lines; offset 3 is its second line. The line stays held by
    udrvd, at the level the example set last, and udrvd reads it there."""
    path = path_of(request(udrvd, [2, 3], OUTPUT, [1, 0], uid=BOB, chip=CHIP1))
    res = udrvd.run_as([str(example), "gpiochip1", "3", "5"], uid=BOB, preload=True)
    assert res.returncode == 0, res.stderr
    assert "5 sets of offset 3" in res.stdout and "left at 1" in res.stdout, res.stdout
    lines = udrvd.lines(1)
    assert [(li.used, li.level, li.consumer) for li in lines[2:4]] == [(True, 1, "udrvd")] * 2
    res = udrvd.call(path, f"{REQ}.GetValues", "[uint32 3, 2]", uid=BOB)
    assert res.stdout.strip() == "([1, 1],)", res.stdout
    # carol has no rule for the line: udrvd does not even show her its request
    res = udrvd.run_as([str(example), "gpiochip1", "3"], uid=CAROL, preload=True)
    assert res.returncode == 1 and "udrvd does not hold" in res.stderr, res.stderr
    res = udrvd.run_as([str(example), "gpiochip1", "1"], uid=BOB, preload=True)
    assert res.returncode == 1 and "udrvd does not hold" in res.stderr, res.stderr
    res = udrvd.run_as([str(example), "gpiochip1", "x"], uid=BOB)
    assert res.returncode == 2 and "usage: udrvd-held" in res.stderr


RESTORE = POLICY + "restore gpio fake-a LOCK\n"


def restart(d: Udrvd, udrvd_bin: Path, fake_cdev: Path, tmp_path: Path, policy: str) -> Udrvd:
    """Stop @d (SIGTERM) and start udrvd again on its bus and tree with @policy."""
    assert d.stop() == 0
    conf = tmp_path / "udrvd.conf"
    conf.write_text(policy)
    return start_udrvd(udrvd_bin, fake_cdev, d.address, d.tree, conf)


def test_a_restore_rule_brings_the_line_back(udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path,
                                             tmp_path: Path) -> None:  # fmt: skip
    first = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    assert request(first, [0], OUTPUT, [1], uid=ALICE, consumer="door-lock").returncode == 0
    assert first.stop() == 0
    assert not first.lines()[0].used  # between stop and start the kernel has it
    again = restart(first, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    try:
        assert any(ln.startswith("udrvd: restored /io/gpiod1/requests/request0: 1 lines of "
                                 "gpiochip0 for uid 1") for ln in again.log), again.log  # fmt: skip
        lock = again.lines()[0]
        assert (lock.used, lock.level, lock.consumer) == (True, 1, "door-lock")
        path = "/io/gpiod1/requests/request0"
        assert get(again, path, "io.udrv1.Request", "Owner") == "(<uint32 1>,)"
        res = again.call(path, f"{REQ}.SetValues", "{uint32 0: int32 0}", uid=ALICE)
        assert res.returncode == 0, res.stderr
        assert again.lines()[0].level == 0
    finally:
        again.stop()


def test_a_revoked_grant_is_not_restored(udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path,
                                         tmp_path: Path) -> None:  # fmt: skip
    """The state file keeps alice's LOCK (a restore rule covers it); her
    rule gone when udrvd starts again, the line is not requested for her,
    and the log says which line, whose, and why."""
    first = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    assert request(first, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    first.wait_state(lambda text: text.startswith("udrvd-state 1\nrequest 1 gpiochip0 "))
    again = restart(first, udrvd_bin, fake_cdev, tmp_path,
                    RESTORE.replace("allow uid:1 drive gpio fake-a LOCK\n", ""))  # fmt: skip
    try:
        assert not [ln for ln in again.log if ln.startswith("udrvd: restored")], again.log
        not_restored = "udrvd: not restored: line 0 of gpiochip0 for uid 1: "
        said = [ln for ln in again.log if ln.startswith(not_restored)]
        assert said and "no rule grants drive" in said[0], again.log
        assert not again.lines()[0].used
        assert "request" not in again.state()
        # bob, whose rule covers LOCK, takes it (udrvd used to hold it for alice)
        assert request(again, [0], OUTPUT, [0], uid=BOB).returncode == 0
    finally:
        again.stop()


def test_without_a_restore_rule_the_kernel_keeps_it(
        udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path, tmp_path: Path) -> None:
    assert request(udrvd, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    again = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, POLICY)
    try:
        assert not again.lines()[0].used
        assert "request" not in again.state()
    finally:
        again.stop()


def test_values_set_through_the_fd_are_saved_at_stop(udrvd: Udrvd, udrvd_bin: Path,
                                                     fake_cdev: Path, client: Path,
                                                     tmp_path: Path) -> None:  # fmt: skip
    policy = POLICY + "restore gpio fake-b *\n"
    first = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, policy)
    path = path_of(request(first, [2], OUTPUT, [1], uid=BOB, chip=CHIP1))
    assert first.run_as([str(client), "fd", path, "0"], uid=BOB, preload=True).returncode == 0
    again = restart(first, udrvd_bin, fake_cdev, tmp_path, policy)
    try:
        line = again.lines(1)[2]
        assert (line.used, line.level) == (True, 0)
    finally:
        again.stop()


def test_a_state_file_it_cannot_read_restores_nothing(
        udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path, tmp_path: Path) -> None:
    first = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    assert request(first, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    assert first.stop() == 0
    state = first.tree.path("../state")
    assert "end\n" in state.read_text()
    state.write_text(state.read_text().replace("end\n", ""))  # cut short
    again = restart(first, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    try:
        assert any("the last request has no 'end': cut short: nothing restored" in ln
                   for ln in again.log), again.log  # fmt: skip
        assert not again.lines()[0].used
        assert request(again, [0], OUTPUT, [1], uid=ALICE).returncode == 0
    finally:
        again.stop()


def test_the_state_is_written_only_when_what_it_keeps_changes(
        udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path, tmp_path: Path) -> None:
    """The state file keeps the lines restore rules cover: requests and
    values of other lines (carol's reads, bob's outputs) never write it,
    however many; a line it keeps is written at once, then at most once a
    second (each write is an fsync), and whole at stop. udrvd counts its
    writes and says the count at stop."""
    policy = RESTORE + "allow uid:3 read gpio fake-b *\n"
    first = d = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, policy)
    for _ in range(10):
        path = path_of(request(d, [0], INPUT, uid=CAROL, chip=CHIP1))
        assert d.call(path, f"{REQ}.Release", uid=CAROL).returncode == 0
    path = path_of(request(d, [2], OUTPUT, [1], uid=BOB))
    for k in range(10):
        res = d.call(path, f"{REQ}.SetValues", f"{{uint32 2: int32 {k % 2}}}", uid=BOB)
        assert res.returncode == 0, res.stderr
    assert d.call(path, f"{REQ}.Release", uid=BOB).returncode == 0
    d = restart(first, udrvd_bin, fake_cdev, tmp_path, policy)
    assert first.writes() == 0, first.log
    start = time.monotonic()
    path = path_of(request(d, [0], OUTPUT, [1], uid=ALICE))
    assert d.state().startswith("udrvd-state 1\nrequest 1 gpiochip0 fake-a "), d.state()
    for k in range(10):
        res = d.call(path, f"{REQ}.SetValues", f"{{uint32 0: int32 {k % 2}}}", uid=ALICE)
        assert res.returncode == 0, res.stderr
    assert d.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
    # each a change of what the file keeps: without the limit, 30 writes
    for k in range(15):
        path = path_of(request(d, [0], OUTPUT, [k % 2], uid=ALICE))
        assert d.call(path, f"{REQ}.Release", uid=ALICE).returncode == 0
    assert d.stop() == 0
    elapsed = time.monotonic() - start
    # the first at once, then one a second at most, and the last at stop
    assert 2 <= d.writes() <= 2 + int(elapsed), (d.writes(), elapsed, d.log)
    assert "request" not in d.state()


def test_killed_at_any_moment_the_state_is_whole(udrvd: Udrvd, udrvd_bin: Path, fake_cdev: Path,
                                                 tmp_path: Path) -> None:  # fmt: skip
    """SIGKILL while clients set values (each a state write): the file is
    always one udrvd wrote whole, and the line comes back. The moment of
    the kill varies from run to run; what is checked holds at any moment."""
    d = restart(udrvd, udrvd_bin, fake_cdev, tmp_path, RESTORE)
    path = path_of(request(d, [0], OUTPUT, [1], uid=ALICE))
    d.wait_state(lambda text: "request 1 " in text)  # within a second of the last write
    for i in range(6):
        setters = [subprocess.Popen(
            ["setpriv", "--reuid=1", "--regid=1", "--clear-groups", "gdbus", "call",
             f"--address={d.address}", "--dest=io.gpiod1", f"--object-path={path}",
             f"--method={REQ}.SetValues", "--", f"{{uint32 0: int32 {k % 2}}}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in range(8)]  # fmt: skip
        d.proc.kill()
        d.proc.wait(30)
        for s in setters:
            s.wait(30)
        text = d.tree.path("../state").read_text()
        assert text.startswith("udrvd-state 1\nrequest 1 gpiochip0 fake-a ") and \
            text.endswith("end\n"), text  # fmt: skip
        d = start_udrvd(udrvd_bin, fake_cdev, d.address, d.tree, tmp_path / "udrvd.conf")
        assert any(ln.startswith("udrvd: restored") for ln in d.log), (i, d.log)
        assert d.lines()[0].used
    d.stop()
