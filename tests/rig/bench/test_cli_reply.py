# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply's command line: help, usage errors (exit 2), failures (exit 1).

The measurement itself runs on real kernels: tests/lab/test_bench_reply.py."""

from __future__ import annotations

import pytest

from tests.support.udrv_runner import Runner

OPTIONS = ["--role", "--responder", "--wait", "--trigger", "--in", "--reply", "--watch",
           "--target-prio",
           "--target-cpu", "--chip", "--prio", "--irq-prio", "--cpu", "--samples",
           "--duration", "--load", "--json"]


def test_help_teaches_the_wiring_and_lists_the_options(bench: Runner) -> None:
    r = bench("reply", "--help")
    assert r.returncode == 0, r
    assert r.stdout.startswith("Usage: udrv-bench reply"), r
    for opt in OPTIONS:
        assert opt in r.stdout, f"--help does not mention {opt}"
    for word in ("log host", "C = !B", "trigger_to_reply", "--role target", "isr", "kthread"):
        assert word in r.stdout, word


def test_listed_by_udrv_bench(bench: Runner) -> None:
    r = bench("--help")
    assert r.returncode == 0, r
    assert "reply" in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--role", "server"], "bad --role 'server': both, target or loghost"),
    (["--responder", "fpga"], "bad --responder 'fpga'"),
    (["--responder", ""], "bad --responder ''"),
    (["--responder", "user,user"], "bad --responder 'user,user': isr, kthread, user, lib "
                                   "(comma-separated, each once) or all"),
    (["--responder", "user,"], "bad --responder 'user,'"),
    (["--responder", "user,all"], "bad --responder 'user,all'"),
    (["--wait", "read,,busy"], "bad --wait 'read,,busy': read, poll, epoll, busy"),
    (["--wait", "select"], "bad --wait 'select'"),
    (["--in", "-1"], "bad --in '-1'"),
    (["--in", "5x"], "bad --in '5x'"),
    (["--trigger", " 4"], "bad --trigger ' 4'"),
    (["--reply", "65536"], "bad --reply '65536'"),
    (["--watch", ""], "bad --watch ''"),
    (["--target-cpu", "one"], "bad --target-cpu 'one'"),
    (["--target-prio", "100"], "bad --target-prio '100': a SCHED_FIFO priority 1..99, 0 for "
                               "SCHED_OTHER"),
    (["--target-prio", "-1"], "bad --target-prio '-1'"),
    (["--target-prio", ""], "bad --target-prio ''"),
    (["--watch", "5"], "must differ"),
    (["--trigger", "6"], "must differ"),
    (["--responder", "isr", "--wait", "read"], "--wait is the user and lib responders'"),
    (["--responder", "lib", "--wait", "epoll"],
     "the lib responder waits by read, busy, irq or irq-reply"),
    (["--responder", "user,lib", "--wait", "poll"],
     "the lib responder waits by read, busy, irq or irq-reply"),
    (["--responder", "user", "--wait", "irq"], "--wait irq and irq-reply are the lib responder's"),
    (["--responder", "user", "--wait", "irq-reply"],
     "--wait irq and irq-reply are the lib responder's"),
    (["--wait", "irq-replies"], "bad --wait 'irq-replies': read, poll, epoll, busy, irq, "
                                "irq-reply"),
    (["--role", "target", "--responder", "user,lib", "--wait", "read"],
     "--role target runs one responder"),
    (["--role", "loghost", "--responder", "isr,kthread"], "--role loghost: --responder names"),
    (["--role", "target"], "--role target runs one responder"),
    (["--role", "target", "--responder", "user"], "--role target runs one user or lib responder"),
    (["--role", "target", "--responder", "lib"], "--role target runs one user or lib responder"),
    (["--samples", "0"], "bad --samples '0'"),
    (["extra"], "unexpected argument 'extra'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_command_line_exits_2(bench: Runner, args: list[str], message: str) -> None:
    r = bench("reply", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "Try 'udrv-bench reply --help'" in r.stderr, r


def test_no_such_chip_exits_1(bench: Runner) -> None:
    r = bench("reply", "-c", "no-such-chip", "--samples", "10")
    assert r.returncode == 1, r
    assert "no-such-chip" in r.stderr, r
