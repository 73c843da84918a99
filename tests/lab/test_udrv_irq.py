# SPDX-License-Identifier: GPL-2.0-only
"""The toolkit's kernel helper udrv-irq (kernel/udrv-irq, /dev/udrv-irq) on the
real kernels, through its uapi (udrv-irq-check, tests/lab/progs/irq_check.c):

- every edge of gpio-wire's line 5 (driven on line 4) is one event, in order
  (seqno 1, 2, ...), with the level the hard irq handler read and its
  timestamp after the write that made the edge;
- what it refuses, each with its errno: a read with nothing new (O_NONBLOCK),
  a buffer too small, a second bind, a read before a bind, a line whose
  interrupt is taken (by another bind, or by a request with edge
  detection), a chip or line that does not exist, no edge or an unknown
  flag, an unknown ioctl; and the interrupt given back on close;
- the handler is not threaded, also on PREEMPT_RT (no irq/N-udrv-irq thread),
  and nothing is left behind in /proc/interrupts.
"""

from __future__ import annotations

import errno

import pytest
from guest import Board, sh

pytestmark = pytest.mark.lg_feature(["gpio-wire", "udrv-irq"])

EDGES = 20
CHECKS = {"bind": 0, "nonblock-nothing-new": errno.EAGAIN, "short-buffer": errno.EINVAL,
          "bind-twice": errno.EBUSY, "read-unbound": errno.ENOTCONN,
          "line-taken": errno.EBUSY, "no-such-chip": errno.ENODEV,
          "no-such-line": errno.EINVAL, "no-edge": errno.EINVAL,
          "unknown-flag": errno.EINVAL, "edge-detection-holds-it": errno.EBUSY,
          "unknown-ioctl": errno.ENOTTY, "bind-after-close": 0}


@pytest.fixture(scope="module")
def check(board: Board) -> list[list[str]]:
    sh(board, "udrv gpio set -c gpio-wire 4=0")
    r = sh(board, f"udrv-irq-check gpio-wire 4 5 {EDGES}")
    assert r.status == 0, r.stderr
    return [line.split() for line in r.stdout.splitlines()]


def test_every_edge_one_event(check: list[list[str]]) -> None:
    edges = [w for w in check if w[0] == "edge"]
    assert len(edges) == EDGES
    for k, w in enumerate(edges, 1):
        fields = dict(zip(w[::2], w[1::2], strict=True))
        assert int(fields["seqno"]) == k, w
        assert int(fields["level"]) == k & 1, w  # the handler read the new level
        assert 0 < int(fields["late_ns"]) < 1_000_000, w


def test_what_it_refuses(check: list[list[str]]) -> None:
    got = {w[1]: int(w[2]) for w in check if w[0] == "check"}
    assert got == CHECKS


def test_no_thread_and_nothing_left(board: Board, check: list[list[str]]) -> None:
    threads = sh(board, "cat /proc/[0-9]*/comm 2>/dev/null | grep -c udrv-irq || true")
    assert threads.stdout.strip() == "0"
    assert "udrv-irq" not in sh(board, "cat /proc/interrupts").stdout
    info = sh(board, "udrv gpio info -c gpio-wire --json").stdout
    assert "udrv-irq-check" not in info


def test_the_device_is_root_only_until_udev_gives_it(board: Board) -> None:
    """The module makes it 0600; tools/udev/60-udrv.rules gives it to gpio."""
    r = sh(board, "stat -c '%a %U' /dev/udrv-irq")
    assert r.stdout.split() == ["600", "root"], r.stdout
