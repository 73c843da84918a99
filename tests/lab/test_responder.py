# SPDX-License-Identifier: GPL-2.0-only
"""libudrv's responder (udrv_responder_run()) on the real kernels, through
examples/responder (udrv-responder, on the guest's PATH).

gpio-wire: 4 -> 5 and 6 -> 7 are wired. The responder answers each edge on
5 by writing its level to 6, at SCHED_FIFO 80. Checked from outside, in
/proc: while it runs, the irq thread of line 5's interrupt
(irq/N-udrv-responder, N found in /sys/kernel/irq by its handler's name and
hwirq 5) is at SCHED_FIFO 81 on PREEMPT_RT, above the responder (the
kernel's default, 50, would be an inversion there), and left at 50 on the
standard kernel (raised it would finish its work before the responder
runs); line 7 follows line 4; after SIGINT the program says
the thread is back at FIFO 50 (the library's read-back from /proc, before
the request is released; the kernel then frees the thread: tests/lib's
test_responder checks the restore itself, on a fake scheduler).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from background import Background, guest_ok
from guest import CHIP, Board

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

PRIO = 80
CONSUMER = "udrv-responder"  # examples/responder's consumer name


def sched_of(board: Board, pid: int) -> tuple[int, int]:
    """(policy, rt_priority) of a thread: /proc/PID/stat fields 41 and 40."""
    fields = guest_ok(board, f"cat /proc/{pid}/stat").rsplit(")", 1)[1].split()
    return int(fields[41 - 3]), int(fields[40 - 3])


def irq_of_line(board: Board, offset: int) -> int:
    """The interrupt whose handler is the responder's, for line @offset."""
    out = guest_ok(board, "cd /sys/kernel/irq && for i in *; do "
                          f"grep -qx '{CONSUMER}' $i/actions 2>/dev/null && "
                          "echo $i $(cat $i/hwirq); done; true")  # fmt: skip
    irqs = [int(irq) for irq, hw in (ln.split() for ln in out.splitlines()) if int(hw) == offset]
    assert len(irqs) == 1, out
    return irqs[0]


def threads_of(board: Board, irq: int) -> list[int]:
    """The pids of irq/IRQ-* threads."""
    out = guest_ok(board, f"grep -l '^irq/{irq}-' /proc/[0-9]*/comm || true")
    return sorted(int(p.split("/")[2]) for p in out.split())


def follow(board: Board, level: int) -> None:
    """Drive 4 (wired to 5, the responder's input); 7 (wired to its output 6)
    must follow."""
    guest_ok(board, f"udrv gpio set -c {CHIP} 4={level}")
    guest_ok(board, f"i=0; until [ \"$(udrv gpio get -c {CHIP} 7)\" = 7={level} ]; do "
                    "i=$((i + 1)); [ $i -ge 250 ] && exit 1; sleep 0.02; done")  # fmt: skip


@pytest.fixture
def responder(board: Board) -> Iterator[Background]:
    guest_ok(board, f"udrv gpio set -c {CHIP} 4=0")
    job = Background(board, "responder", f"udrv-responder {CHIP} 5 6 {PRIO}")
    job.wait_for(f"grep -qx '{CONSUMER}' /sys/kernel/irq/*/actions", what="the line's irq")
    try:
        yield job
    finally:
        if job.alive():
            job.signal("KILL")


def test_irq_thread_above_the_responder_and_put_back(board: Board,
                                                     responder: Background) -> None:  # fmt: skip
    irq = irq_of_line(board, 5)
    pids = threads_of(board, irq)
    assert pids, f"no irq/{irq}- thread: gpiolib-cdev's edge handler is threaded"
    # the first edge runs the thread (it may set itself to FIFO 50 then: the
    # responder raises it again after its first wake-up)
    follow(board, 1)
    follow(board, 0)
    own = sched_of(board, responder.pid)
    assert own == (1, PRIO), own  # SCHED_FIFO 80
    rt = guest_ok(board, "cat /sys/kernel/realtime 2>/dev/null || echo 0").strip() == "1"
    for pid in pids:
        policy, prio = sched_of(board, pid)
        assert policy == 1 and prio == (PRIO + 1 if rt else 50), (pid, policy, prio)
    for level in (1, 0, 1, 0):
        follow(board, level)
    responder.signal("INT")
    end = responder.ended()
    assert end.status == 0, end
    assert "answered 6 edges" in end.stdout, end.stdout
    # the library reads the threads back from /proc after putting them back
    # and before the request goes; with the request the kernel frees them
    for pid in pids:
        assert f"(pid {pid}): back at SCHED_FIFO 50" in end.stdout, end.stdout
    assert threads_of(board, irq) == [], "the released line's irq threads are still there"


def test_an_inverted_setting_is_refused(board: Board) -> None:
    """The library refuses to be the inversion: an irq_priority below the
    responder's (here through the example's priority 99: no room above)."""
    r = board.run(f"udrv-responder {CHIP} 5 6 99 1", timeout=60)
    assert r.status == 1, r.stdout + r.stderr
    assert "priority 99 leaves no SCHED_FIFO priority above it" in r.stderr, r.stderr
    assert "udrv-responder" not in guest_ok(board, "cat /sys/kernel/irq/*/actions || true")


@pytest.mark.lg_feature(["udrv-irq"])
def test_every_line_the_helpers(board: Board) -> None:
    """udrv-responder --irq: no request, both lines udrv-irq's (the input 5 and the
    reply line 6, udrv_responder_new_chip()); line 7 follows line 4 by the
    helper's writes; the lines are given back when the run ends."""
    guest_ok(board, f"udrv gpio set -c {CHIP} 4=0")
    job = Background(board, "responder-irq", f"udrv-responder --irq {CHIP} 5 6 {PRIO} 4")
    job.wait_for(f"udrv gpio info -c {CHIP} 5 | grep -q 'udrv-irq'", what="the helper's line")
    for level in (1, 0, 1, 0):
        follow(board, level)
    end = job.ended()
    assert end.status == 0, end
    assert "answered 4 edges" in end.stdout, end.stdout
    info = guest_ok(board, f"udrv gpio info -c {CHIP} 5 6")
    assert "udrv-irq" not in info, info
