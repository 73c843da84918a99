# SPDX-License-Identifier: GPL-2.0-only
"""`udrv gpio get`, `mon` and `info` through udrvd on a real kernel (issue 41
item 6), for a user whom the chip's node refuses (devtmpfs's root:root 0600,
no udev rule here) and udrvd's policy grants gpio-wire's wire0-in: the
value another process left on the wire, the edges it makes, the chip's
lines, each said on stderr to go through udrvd; a line without a rule is
refused with the rule that would grant it. The board, bus and udrvd are
test_udrvd_lab.py's (py_board, rig/lab/brokers.py).

gpio-wire wires output 2k to input 2k+1: root drives wire0-out (offset 0)
directly, the user reads wire0-in (offset 1) through udrvd."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from guest import Board, Udrv, root, sh

from rig.lab.brokers import BUS, POLICY, STATE, Broker
from rig.lab.image import dbusguest

pytestmark = [pytest.mark.skipif(dbusguest.missing() is not None,
                                 reason=str(dbusguest.missing())),
              pytest.mark.lg_feature(["udrvd", "gpio-wire"])]  # fmt: skip

USER, UID = "carol", 1100
RULES = f"allow uid:0 all gpio gpio-wire *\nallow uid:{UID} read,watch gpio gpio-wire wire0-in\n"
UDRV = dbusguest.GUEST_UDRV  # built with udrvd's client
THROUGH = "udrv: through udrvd: "


def as_user_cmd(cmd: str) -> str:
    """@cmd as carol (busybox su: the image's setpriv is busybox's, without
    --reuid), on udrvd's bus: a command line for root's shell."""
    inner = shlex.quote(f"export DBUS_SYSTEM_BUS_ADDRESS={BUS}; {cmd}")
    return f"su -s /bin/sh {USER} -c {inner}"


def as_user(board: Board, cmd: str) -> Udrv:
    return sh(board, as_user_cmd(cmd))


@pytest.fixture
def udrvd(py_board: Board) -> Iterator[Broker]:
    py_board.put_bytes(RULES.encode(), POLICY)
    root(py_board, f"mkdir -p /var/lib/udrvd && rm -f {STATE}; "
                   f"grep -q '^{USER}:' /etc/passwd || "
                   f"echo '{USER}:x:{UID}:{UID}::/tmp:/bin/sh' >>/etc/passwd")  # fmt: skip
    b = Broker(py_board, "udrvd").start()
    try:
        yield b
    finally:
        b.stop()


def test_a_user_without_the_chip_reads_watches_and_lists(udrvd: Broker) -> None:
    b = udrvd.board
    r = as_user(b, f"{UDRV} gpio get --via chip -c gpio-wire 1")
    assert r.status == 1 and "Permission denied" in r.stderr, r  # the node refuses carol
    root(b, "udrv gpio set -c gpio-wire 0=1")  # gpio-wire keeps the level
    r = as_user(b, f"{UDRV} gpio get wire0-in")
    assert (r.status, r.stdout) == (0, "wire0-in=1\n"), r
    assert THROUGH in r.stderr, r
    # mon: two edges root makes after carol's mon is in place. Nothing says
    # when it is: the guest's clock follows its instruction count (icount,
    # sleep=off), so the second passes only once every process waits.
    r = sh(b, f"( {as_user_cmd(f'{UDRV} gpio mon -n 2 wire0-in')} ) >/tmp/mon.out 2>&1 & "
              "echo $! >/tmp/mon.pid; sleep 1")  # fmt: skip
    assert r.status == 0, r
    root(b, "udrv gpio set -c gpio-wire 0=0; udrv gpio set -c gpio-wire 0=1")
    root(b, "pid=$(cat /tmp/mon.pid); i=0; while kill -0 $pid 2>/dev/null; do "
            "i=$((i+1)); [ $i -lt 300 ] || exit 1; sleep 0.1; done")  # fmt: skip
    out = root(b, "cat /tmp/mon.out")
    edges = [ln.split()[1:3] for ln in out.splitlines() if " seqno=" in ln]
    assert edges == [["wire0-in", "falling"], ["wire0-in", "rising"]], out
    assert "2 events, 0 lost" in out and THROUGH in out, out
    # udrvd released mon's request: the kernel shows the line free
    (chip,) = json.loads(root(b, "udrv gpio info -c gpio-wire --json"))
    assert not chip["lines"][1]["used"], chip["lines"][1]
    r = as_user(b, f"{UDRV} gpio info -c gpio-wire")
    assert r.status == 0 and "wire0-in" in r.stdout and THROUGH in r.stderr, r
    r = as_user(b, f"{UDRV} gpio get wire1-in")
    assert r.status == 1 and "no rule grants read" in r.stderr, r
    assert "read gpio gpio-wire wire1-in" in r.stderr, r

