# SPDX-License-Identifier: GPL-2.0-only
"""io.gpiod1.Line.EdgeEvent from udrvd: the edges of a line it holds with edge
detection reach the clients that read the line's properties and may watch it
(its policy's "watch"), each sent to that client alone; a client that may
only read the line gets none, even with a match for them on the bus; a
SIGHUP that takes the rule away stops them. libgpiod's `gpiocli monitor`
prints them unchanged.

The edges come from the fake chip's FIFO (fake_cdev.c: gpiochipN.events,
struct gpio_v2_line_event records). "Gets none" is not a timeout: the
client asks udrvd for a Ping once an allowed watcher has all the events
(udrvd sends each event to every watcher before it reads the next), and
udrvd's messages to one client arrive in order (tests/daemon/client.c
watch), so an event sent to it would come before the Ping's reply."""

from __future__ import annotations

import os
import re
import select
import signal
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import GUARD_S, Udrvd, serving
from tests.daemon.test_gpiocli import GPIOCLI
from tests.daemon.test_udrvd import request
from tests.support.fakes import FakeTree

LINE = "/io/gpiod1/chips/gpiochip0/line1"  # fake-a's DOOR
ALICE, BOB, CAROL = 1, 2, 3

POLICY = """allow uid:1 read,watch gpio fake-a DOOR
allow uid:2 read gpio fake-a DOOR
allow uid:3 read,watch gpio fake-a DOOR
"""
BOTH = "{'direction': <'input'>, 'edge': <'both'>}"
RISING, FALLING = 1, 2  # GPIO_V2_LINE_EVENT_*


def event(seq: int, offset: int = 1) -> bytes:
    """struct gpio_v2_line_event: rising at odd seqnos, its timestamp 1000 * seq."""
    edge = RISING if seq % 2 else FALLING
    return struct.pack("<QIIII6I", 1000 * seq, edge, offset, seq, seq, *[0] * 6)


class Watcher:
    """tests/daemon/client.c watch, as @uid: a client of the line's events
    (kind "edge ") or of its PropertiesChanged (kind "changed ")."""

    def __init__(self, d: Udrvd, client: Path, uid: int, line: str = LINE,
                 kind: str = "edge ") -> None:  # fmt: skip
        self.kind = kind  # the lines of sync() kept: "edge " or "changed "
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": d.address}
        self.proc = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}",
                                      "--clear-groups", str(client), "watch", line],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env)  # fmt: skip
        assert self.read_line() == "watching"

    def read_line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        assert line, f"the watch client ended: exit {self.proc.wait(GUARD_S)}"
        return line

    def sync(self) -> list[str]:
        """The events that came before udrvd answered a Ping."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("sync\n")
        self.proc.stdin.flush()
        got = []
        while (line := self.read_line()) != "synced":
            got.append(line)
        return [g for g in got if g.startswith(self.kind)]

    def wait_for(self, n: int) -> list[str]:
        """Sync until @n events came: udrvd reads the FIFO in its own time
        (a Ping may come first), and sends each event to every watcher
        before it reads the next."""
        got: list[str] = []
        deadline = time.monotonic() + GUARD_S
        while len(got) < n and time.monotonic() < deadline:
            got += self.sync()
            if len(got) < n:
                time.sleep(0.01)
        return got

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(GUARD_S) == 0


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    os.mkfifo(tree.path("dev/gpiochip0.events"))
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        res = request(d, [1], BOTH, uid=ALICE)
        assert res.returncode == 0, res.stderr
        assert d.lines()[1].edge == "both"
        yield d


def edges(d: Udrvd, seqs: range) -> None:
    fd = os.open(d.tree.path("dev/gpiochip0.events"), os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, b"".join(event(s) for s in seqs))
    finally:
        os.close(fd)


def expected(seqs: range) -> list[str]:
    return [f"edge {s % 2} {1000 * s} {s} {s}" for s in seqs]


def test_edges_go_only_to_watchers_the_policy_allows(udrvd: Udrvd, client: Path) -> None:
    alice, bob = Watcher(udrvd, client, ALICE), Watcher(udrvd, client, BOB)
    edges(udrvd, range(1, 5))
    assert alice.wait_for(4) == expected(range(1, 5))
    # bob read the properties too and listens on the bus: nothing for him
    assert bob.sync() == []
    edges(udrvd, range(5, 7))
    assert alice.wait_for(2) == expected(range(5, 7))
    assert bob.sync() == []
    alice.close()
    bob.close()
    assert not [ln for ln in udrvd.log if "not sent" in ln], udrvd.log


def test_a_revoked_watch_rule_stops_the_events(udrvd: Udrvd, client: Path,
                                               tmp_path: Path) -> None:  # fmt: skip
    alice, carol = Watcher(udrvd, client, ALICE), Watcher(udrvd, client, CAROL)
    edges(udrvd, range(1, 3))
    assert alice.wait_for(2) == expected(range(1, 3))
    assert carol.sync() == expected(range(1, 3))
    (tmp_path / "udrvd.conf").write_text(POLICY.replace("uid:3 read,watch", "uid:3 read"))
    udrvd.proc.send_signal(1)  # SIGHUP
    udrvd.wait_log("udrvd: policy reloaded")
    edges(udrvd, range(3, 5))
    assert alice.wait_for(2) == expected(range(3, 5))
    assert carol.sync() == []
    alice.close()
    carol.close()


def match_rules(d: Udrvd) -> int:
    """udrvd's match rules on the bus, as the bus counts them (Debug.Stats)."""
    res = subprocess.run(["gdbus", "call", f"--address={d.address}",
                          "--dest=org.freedesktop.DBus", "--object-path=/org/freedesktop/DBus",
                          "--method=org.freedesktop.DBus.Debug.Stats.GetConnectionStats",
                          "io.gpiod1"], capture_output=True, text=True, timeout=GUARD_S,
                         check=False)  # fmt: skip
    m = re.search(r"'MatchRules': <uint32 (\d+)>", res.stdout)
    assert m, res.stdout + res.stderr
    return int(m.group(1))


def rules_become(d: Udrvd, n: int) -> int:
    """udrvd's match rules once they are @n (it drops a match without waiting
    for the bus), or as they are after GUARD_S."""
    deadline = time.monotonic() + GUARD_S
    while (got := match_rules(d)) != n and time.monotonic() < deadline:
        time.sleep(0.01)
    return got


def test_watchers_cost_udrvd_one_match(udrvd: Udrvd, client: Path) -> None:
    """The bus tells udrvd when a watching connection ends through one match
    (NameOwnerChanged to no owner), in place while some connection watches
    lines and removed when none does: a plain call (every gpiocli set)
    brings udrvd nothing, and watchers cost it no match each (the bus
    allows a connection 512)."""
    assert match_rules(udrvd) == 0
    assert udrvd.call(LINE, "org.freedesktop.DBus.Properties.Get", "io.gpiod1.Line",
                      "Used", uid=BOB).returncode == 0  # read only: no watcher
    assert match_rules(udrvd) == 0
    alice, carol = Watcher(udrvd, client, ALICE), Watcher(udrvd, client, CAROL)
    assert rules_become(udrvd, 1) == 1
    alice.close()
    edges(udrvd, range(1, 3))
    assert carol.wait_for(2) == expected(range(1, 3))  # the other watcher still gets them
    assert match_rules(udrvd) == 1
    carol.close()
    assert rules_become(udrvd, 0) == 0


CHIP0 = "/io/gpiod1/chips/gpiochip0"
ALL_LINES = [f"{CHIP0}/line{i}" for i in range(8)]


def hang_up(d: Udrvd, client: Path, count: int, *paths: str) -> None:
    """@count connections of alice's that read @paths' properties and hang
    up right after sending the last read (client.c hangup)."""
    res = d.run_as([str(client), "hangup", str(count), *paths], uid=ALICE)
    assert (res.returncode, res.stdout) == (0, f"hung up {count}\n"), res.stderr


def name_gone(d: Udrvd, name: str) -> bool:
    """@name has no owner on the bus any more (the bus saw it go), or
    GUARD_S passed."""
    deadline = time.monotonic() + GUARD_S
    while time.monotonic() < deadline:
        res = subprocess.run(["gdbus", "call", f"--address={d.address}",
                              "--dest=org.freedesktop.DBus",
                              "--object-path=/org/freedesktop/DBus",
                              "--method=org.freedesktop.DBus.GetNameOwner", name],
                             capture_output=True, text=True, timeout=GUARD_S,
                             check=False)  # fmt: skip
        if "NameHasNoOwner" in res.stderr:
            return True
        time.sleep(0.01)
    return False


def hang_up_unread(d: Udrvd, client: Path, first: str, line: str) -> None:
    """A connection of alice's reads @first's properties (udrvd keeps its
    credentials; @first must be no line alice may watch), then sends a read
    of @line's and hangs up while udrvd is stopped (SIGSTOP), and the bus
    sees it go before udrvd reads that read: with no watcher, udrvd had no
    match to hear it, so only its question to the bus drops the watcher."""
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": d.address}
    p = subprocess.Popen(["setpriv", f"--reuid={ALICE}", f"--regid={ALICE}", "--clear-groups",
                          str(client), "stall", first, line], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert p.stdin is not None and p.stdout is not None
    ready, name = p.stdout.readline().split()
    assert ready == "ready"
    assert match_rules(d) == 0, "a watcher already: udrvd would hear the connection go"
    d.proc.send_signal(signal.SIGSTOP)
    try:
        p.stdin.write("go\n")
        p.stdin.close()
        assert p.wait(GUARD_S) == 0
        assert name_gone(d, name)
    finally:
        d.proc.send_signal(signal.SIGCONT)


def test_connections_that_hang_up_do_not_fill_a_line(udrvd: Udrvd, client: Path) -> None:
    """70 connections (more than the 64 a line takes) hang up right after
    reading the line's properties, in four ways: with that read their first
    call (udrvd may not be able to tell who they are any more), after a read
    of the chip's properties (the review's case) or of line 0 (then they
    watch line 0 already), and after the reply (then reading line 0). They
    all leave: udrvd's match goes (no watcher left), and a later watcher of
    the same user gets the line's edges. One more hangs up before udrvd
    reads its call (udrvd stopped meanwhile), which no match can hear."""
    hang_up_unread(udrvd, client, ALL_LINES[0], LINE)
    hang_up(udrvd, client, 70, LINE)
    hang_up(udrvd, client, 70, CHIP0, LINE)
    hang_up(udrvd, client, 70, ALL_LINES[0], LINE)
    hang_up(udrvd, client, 70, LINE, ALL_LINES[0])
    assert rules_become(udrvd, 0) == 0, "watchers that hung up are still watching"
    alice = Watcher(udrvd, client, ALICE)
    edges(udrvd, range(1, 3))
    assert alice.wait_for(2) == expected(range(1, 3))
    alice.close()


def test_many_lines_and_vanished_watchers_exhaust_nothing(
        udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree, tmp_path: Path,
        client: Path) -> None:  # fmt: skip
    """75 connections for each of fake-a's 8 lines read the chip's
    properties, then the line's, and hang up right after sending that read
    (the review's case): 600 in all, more than the bus's 512 match rules
    for udrvd's connection, than a line's 64 watchers and than the per-user
    watcher quota, and one that hangs up before udrvd reads its call. None
    is left watching, each line takes new watchers, whose edges come, and
    they leave in turn."""
    os.mkfifo(tree.path("dev/gpiochip0.events"))
    policy = "allow uid:1 read,watch gpio fake-a *\nallow uid:3 read,watch gpio fake-a *\n"
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, policy) as d:
        assert request(d, [1], BOTH, uid=ALICE).returncode == 0
        hang_up_unread(d, client, "/io/gpiod1/chips/gpiochip1/line0", LINE)
        for line in ALL_LINES:
            hang_up(d, client, 75, CHIP0, line)
        assert rules_become(d, 0) == 0, "watchers that hung up are still watching"
        res = d.run_as([str(client), "watchmany", "1", *ALL_LINES], uid=ALICE)
        assert (res.returncode, res.stdout) == (0, "watching 1\n"), res.stderr
        carol = Watcher(d, client, CAROL)
        edges(d, range(1, 3))
        assert carol.wait_for(2) == expected(range(1, 3))
        carol.close()
        assert rules_become(d, 0) == 0, "watchers that ended are still watching"


def test_watchers_over_the_quota_or_a_full_line_are_refused(
        udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree, tmp_path: Path,
        client: Path) -> None:  # fmt: skip
    """A user's connections make at most 256 watchers together (the per-user
    watcher quota) and a line takes 64: a read over either is refused with
    LimitsExceeded naming it; another user still watches, and once the
    watchers leave the user watches again."""
    policy = "allow uid:1 read,watch gpio fake-a *\nallow uid:3 read,watch gpio fake-a *\n"
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": ""}
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, policy) as d:
        env["DBUS_SYSTEM_BUS_ADDRESS"] = d.address
        many = subprocess.Popen(["setpriv", "--reuid=1", "--regid=1", "--clear-groups",
                                 str(client), "watchmany", "64", *ALL_LINES[:4]],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=env)  # fmt: skip
        assert many.stdout is not None and many.stdin is not None
        assert many.stdout.readline() == "watching 64\n"  # 4 lines x 64: 256
        get = ["org.freedesktop.DBus.Properties.GetAll", "io.gpiod1.Line"]
        res = d.call(ALL_LINES[5], *get, uid=ALICE)
        assert "LimitsExceeded: uid 1 watches 256 lines' edges already" in res.stderr \
            and "the per-user watcher quota (256)" in res.stderr, res.stderr
        res = d.call(ALL_LINES[0], *get, uid=CAROL)
        assert "LimitsExceeded: /io/gpiod1/chips/gpiochip0/line0 has 64 watchers, the most " \
            "a line takes" in res.stderr, res.stderr
        assert d.call(ALL_LINES[5], *get, uid=CAROL).returncode == 0
        many.stdin.close()
        assert many.wait(GUARD_S) == 0
        assert rules_become(d, 0) == 0
        assert d.call(ALL_LINES[5], *get, uid=ALICE).returncode == 0


def test_gpiocli_monitor_prints_them(udrvd: Udrvd) -> None:
    """libgpiod's client, unchanged (line-buffered by stdbuf: it prints with
    stdio). It says nothing when it is ready, so edges are made until its
    first line (a guard, not a race: every edge after that one is checked,
    in order)."""
    if not GPIOCLI.is_file():
        pytest.fail(f"no gpiocli at {GPIOCLI}: build it with scripts/build-gpiod-dbus",
                    pytrace=False)  # fmt: skip
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": udrvd.address}
    mon = subprocess.Popen(["setpriv", f"--reuid={ALICE}", f"--regid={ALICE}", "--clear-groups",
                            "stdbuf", "-oL", str(GPIOCLI), "monitor", "DOOR"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env)  # fmt: skip
    assert mon.stdout is not None
    try:
        deadline, seq, ready = time.monotonic() + GUARD_S, 0, False
        while not ready and time.monotonic() < deadline:
            seq += 1
            edges(udrvd, range(seq, seq + 1))
            ready = bool(select.select([mon.stdout], [], [], 0.1)[0])
        assert ready, f"gpiocli monitor printed nothing: {mon.poll()}"
        edges(udrvd, range(seq + 1, seq + 5))
        got = [mon.stdout.readline().strip()]
        first = int(got[0].split()[0]) // 1000
        got += [mon.stdout.readline().strip() for _ in range(first, seq + 4)]
    finally:
        mon.kill()
        mon.wait(GUARD_S)
    want = [f'{1000 * s} {"rising " if s % 2 else "falling"} "DOOR"'
            for s in range(first, seq + 5)]  # fmt: skip
    assert got == want
