# SPDX-License-Identifier: GPL-2.0-only
"""The toolkit's kernel helper udrv-irq (kernel/udrv-irq, /dev/udrv-irq) on the
real kernels, through its uapi (udrv-irq-check, tests/lab/progs/irq_check.c):

- the bind requests the line for the file (its consumer "udrv-irq[PID]"), and
  every edge of gpio-wire's line 5 (driven on line 4) is one event, in order
  (seqno 1, 2, ...), with the level the hard irq handler read (gpio-wire is on
  the PREEMPT_RT allow-list: no LEVEL_LATE flag) and its timestamp after the
  write that made the edge;
- a line someone else holds is refused with EBUSY and the holder's label:
  another file's bind, another process's character-device request, this
  process's request with edge detection; libudrv's responder
  (UDRV_RESPOND_IRQ_LINE) says so naming the holder;
- what else it refuses, each with its errno: a read with nothing new
  (O_NONBLOCK), a buffer too small, a second reader while one waits, a
  second bind, a read before a bind, a
  chip or line that does not exist, no edge or an unknown flag, edges asked
  of an output, a struct of another version (its own version written back),
  the 1.5 interface's bind, an unknown ioctl; and the line and its interrupt
  given back on close;
- the handler is not threaded, also on PREEMPT_RT (no irq/N-udrv-irq thread),
  and nothing is left behind in /proc/interrupts;
- the chip's driver unbound through sysfs while a file is bound and its reader
  blocked: the reader gets ENODEV, close is safe, no BUG/WARNING/Oops;
- output lines (udrv-irq-check ... reply): held by the file at their first
  level, written by UDRV_IRQ_SET only when the file holds them (what else it
  refuses: a line of another chip, a held line naming its holder, an unknown
  flag, a bit past the file's outputs, a struct of another size, a wait
  without an input); a responder answering each edge of B with C = !B in the
  call that waits for the next edge: every reply on the wire, each written
  and seen on the wire after the responder's own time taken when its wait
  returned, before it decided.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Iterator

import pytest
from background import Background
from guest import Board, sh

pytestmark = pytest.mark.lg_feature(["gpio-wire", "udrv-irq"])

EDGES = 20
CHECKS = {"bind": 0, "nonblock-nothing-new": errno.EAGAIN, "short-buffer": errno.EINVAL,
          "second-waiter": errno.EBUSY,
          "bind-twice": errno.EBUSY, "read-unbound": errno.ENOTCONN,
          "held-by-another-file": errno.EBUSY, "held-by-another-process": errno.EBUSY,
          "edge-detection-holds-it": errno.EBUSY, "no-such-chip": errno.ENODEV,
          "no-such-line": errno.EINVAL, "no-edge": errno.EINVAL, "not-input": errno.EINVAL,
          "unknown-flag": errno.EINVAL, "output-of-an-input": errno.EINVAL,
          "other-version": errno.EPROTONOSUPPORT, "bind-v1-gone": errno.EPROTONOSUPPORT,
          "unknown-ioctl": errno.ENOTTY, "bind-after-close": 0, "request-after-close": 0,
          "responder-held": errno.EBUSY}
GPIO_DRIVER = "/sys/bus/platform/drivers/gpio-wire"
KERNEL_TROUBLE = re.compile(r"BUG|WARNING|Oops|refcount_t|REMOVING GPIOCHIP|general protection")


@pytest.fixture(scope="module")
def check(board: Board) -> list[list[str]]:
    sh(board, "udrv gpio set -c gpio-wire 4=0")
    r = sh(board, f"udrv-irq-check gpio-wire 4 5 {EDGES}")
    assert r.status == 0, r.stderr
    return [line.split() for line in r.stdout.splitlines()]


REPLY_CHECKS = {"output-high-bind": 0, "bind": 0, "output-bind": 0,
                "output-of-another-chip": errno.EXDEV, "output-held": errno.EBUSY,
                "output-unknown-flag": errno.EINVAL, "set-a-line-not-held": errno.EINVAL,
                "set-all-bits": errno.EINVAL, "set-unknown-flag": errno.EINVAL,
                "set-reserved": errno.EINVAL, "set-other-size": errno.EPROTONOSUPPORT,
                "set-unbound": errno.ENOTCONN, "other-output-bind": 0,
                "set-wait-without-input": errno.ENOTCONN, "set-without-wait": 0}
REPLIES = 12


@pytest.fixture(scope="module")
def reply(board: Board) -> list[list[str]]:
    sh(board, "udrv gpio set -c gpio-wire 4=0")
    r = sh(board, "udrv-irq-check gpio-wire 4 5 reply")
    assert r.status == 0, f"{r.stdout}\n{r.stderr}"
    return [line.split() for line in r.stdout.splitlines()]


def fields(w: list[str]) -> dict[str, str]:
    return dict(zip(w[1::2], w[2::2], strict=False))


def test_outputs_and_what_set_refuses(reply: list[list[str]]) -> None:
    got = {w[1]: int(w[2]) for w in reply if w[0] == "check"}
    assert got == REPLY_CHECKS
    assert ["output-high", "1"] in reply  # the first level the bind asked
    assert ["set-size", "64"] in reply  # the module's size written back
    holders = {w[1]: w[2] for w in reply if w[0] == "holder"}
    assert holders == {"output-held": "udrv-irq-check"}, holders


def test_each_reply_after_the_decision(reply: list[list[str]]) -> None:
    """C = !B for every edge of B, written by the call that then waits: the
    helper's write and the wire's edge both after the responder's time taken
    when its wait returned (a reply armed before, e.g. in the interrupt
    handler, would be on the wire first)."""
    replies = [w for w in reply if w[0] == "reply"]
    wire = [w for w in reply if w[0] == "wire"]
    assert len(replies) == REPLIES and len(wire) == REPLIES, reply
    for k, (r, w) in enumerate(zip(replies, wire, strict=True), 1):
        rf, wf = fields(r[1:]), fields(w[1:])
        assert int(rf["seqno"]) == k and int(rf["level"]) == k & 1, r
        assert int(wf["level"]) == 1 - int(rf["level"]), (r, w)  # C = !B
        assert 0 < int(rf["write_after_wake_ns"]) < 100_000, r
        assert 0 < int(wf["wire_after_wake_ns"]) < 100_000, w


def test_every_edge_one_event(check: list[list[str]]) -> None:
    edges = [w for w in check if w[0] == "edge"]
    assert len(edges) == EDGES
    for k, w in enumerate(edges, 1):
        fields = dict(zip(w[::2], w[1::2], strict=True))
        assert int(fields["seqno"]) == k, w
        assert int(fields["level"]) == k & 1, w  # the handler read the new level
        assert int(fields["flags"]) == 0, w  # in the handler: gpio-wire is RT-safe
        assert 0 < int(fields["late_ns"]) < 1_000_000, w


def test_the_level_read_late(board: Board) -> None:
    """level_in_read=Y (what a chip off the PREEMPT_RT allow-list gets there):
    the level is read in read(), in process context, each event flagged
    UDRV_IRQ_EV_LEVEL_LATE (1), and with one edge in flight still right."""
    param = "/sys/module/udrv_irq/parameters/level_in_read"
    assert sh(board, f"echo Y >{param}").status == 0
    try:
        r = sh(board, "udrv-irq-check gpio-wire 4 5 6")
    finally:
        sh(board, f"echo N >{param}")
    assert r.status == 0, r.stderr
    edges = [dict(zip(w[::2], w[1::2], strict=True))
             for w in (line.split() for line in r.stdout.splitlines()) if w[0] == "edge"]
    assert len(edges) == 6
    for k, e in enumerate(edges, 1):
        assert (int(e["seqno"]), int(e["level"]), int(e["flags"])) == (k, k & 1, 1), e


def test_the_file_holds_its_line(check: list[list[str]]) -> None:
    consumer = [w[1] for w in check if w[0] == "consumer"]
    assert len(consumer) == 1 and re.fullmatch(r"udrv-irq\[\d+\]", consumer[0]), consumer


def test_what_it_refuses(check: list[list[str]]) -> None:
    got = {w[1]: int(w[2]) for w in check if w[0] == "check"}
    assert got == CHECKS


def test_a_held_line_is_refused_naming_its_holder(check: list[list[str]]) -> None:
    holders = {w[1]: w[2] for w in check if w[0] == "holder"}
    assert re.fullmatch(r"udrv-irq\[\d+\]", holders["held-by-another-file"]), holders
    assert holders["held-by-another-process"] == "irq-check-other", holders
    assert holders["edge-detection-holds-it"] == "udrv-irq-check", holders


def test_libudrv_names_the_holder(check: list[list[str]]) -> None:
    """libudrv's responder (UDRV_RESPOND_IRQ_LINE) on a line another process
    holds: its message names the holder and says udrvd's lines cannot take
    this path."""
    [msg] = [" ".join(w[1:]) for w in check if w[0] == "message"]
    assert re.search(r'udrv-irq cannot take line 7 of gpiochip\d+ \(gpio-wire\): the line '
                     r'is held by "irq-check-other"', msg), msg
    assert "a line udrvd holds cannot take this path" in msg, msg


def test_another_version_gets_the_modules(check: list[list[str]]) -> None:
    version = [w for w in check if w[0] == "version"]
    assert version == [["version", "2", "size", "96"]], version


def test_no_thread_and_nothing_left(board: Board, check: list[list[str]]) -> None:
    threads = sh(board, "cat /proc/[0-9]*/comm 2>/dev/null | grep -c udrv-irq || true")
    assert threads.stdout.strip() == "0"
    assert "udrv-irq" not in sh(board, "cat /proc/interrupts").stdout
    info = sh(board, "udrv gpio info -c gpio-wire --json").stdout
    assert "udrv-irq" not in info


@pytest.fixture
def unbound_after(board: Board) -> Iterator[None]:
    """gpio-wire is unbound by the test: the board is booted again afterwards,
    so that the other lab tests find the machine as it was (test_faults.py's
    gpio_wire fixture says why a fresh boot rather than a rebind)."""
    yield
    board.close()


def test_unbinding_the_chip_while_bound(board: Board, unbound_after: None) -> None:
    """The reader blocked in read() gets ENODEV when gpio-wire's driver is
    unbound; the file's close after that touches nothing of the chip's; the
    kernel log has no BUG, WARNING or Oops."""
    sh(board, "dmesg -c >/dev/null")
    job = Background(board, "irq-unbind", "udrv-irq-check gpio-wire 4 5 unbind")
    try:
        out = "/tmp/bg-irq-unbind.out"
        job.wait_for(f"grep -q bound {out} && "
                     f"grep -qE 'udrv_irq_(read|wait)' "
                     f"/proc/$(sed -n 's/^bound //p' {out})/wchan",
                     what="the reader blocked in udrv-irq's read()")
        # while bound the chip's module and the helper's stay (a module
        # reference each): the unbind is the way the chip goes
        for module in ("gpio_wire", "udrv_irq"):
            r = sh(board, f"rmmod {module}; grep -c '^{module} ' /proc/modules")
            assert r.stdout.split()[-1] == "1", f"rmmod {module} unloaded it under a bound file"
        r = sh(board, f"echo gpio-wire >{GPIO_DRIVER}/unbind")
        assert r.status == 0, r.stderr
        end = job.ended()
    finally:
        job.kill()
    assert end.status == 0, end.stdout + end.stderr
    got = {w[1]: int(w[2]) for w in (line.split() for line in end.stdout.splitlines())
           if w[0] == "check"}
    assert got == {"read-after-gone": errno.ENODEV, "read-again": errno.ENODEV,
                   "bind-again": errno.EBUSY}, end.stdout
    assert end.stdout.splitlines()[-1] == "closed", end.stdout
    log = sh(board, "dmesg").stdout
    assert "udrv-irq: udrv-irq:gpio-wire:5: its chip is going away" in log, log
    assert not KERNEL_TROUBLE.search(log), log
    assert "udrv-irq" not in sh(board, "cat /proc/interrupts").stdout


def test_the_device_is_root_only_until_udev_gives_it(board: Board) -> None:
    """The module makes it 0600; tools/udev/60-udrv.rules gives it to gpio."""
    r = sh(board, "stat -c '%a %U' /dev/udrv-irq")
    assert r.stdout.split() == ["600", "root"], r.stdout
