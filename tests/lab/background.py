# SPDX-License-Identifier: GPL-2.0-only
"""Commands left running in a lab guest, for the fault and signal tests.

    job = Background(board, "mon", "udrv gpio mon -c gpio-wire 1")
    job.wait_for(f"grep -q uio_read /proc/{job.pid}/wchan")   # a guest shell test
    t = guest_uptime(board)
    job.signal("INT")
    end = job.ended()          # Ended(status, stdout, stderr, at): `at` in guest seconds

The command runs under `setsid sh` with its stdout and stderr in files; when it
exits, its status and the guest's uptime are written next to them, so the
exit time is the guest's own (CLOCK_BOOTTIME, 10 ms resolution), not the
host's, which runs about twice as slow under TCG.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from guest import Board, sh


@dataclass
class Ended:
    status: int
    stdout: str
    stderr: str
    at: float  # guest uptime when it exited, seconds


def guest_uptime(board: Board) -> float:
    r = board.run("cut -d' ' -f1 /proc/uptime", timeout=60)
    assert r.status == 0, r.stderr
    return float(r.stdout)


def guest_ok(board: Board, command: str, timeout: float = 60) -> str:
    """Run a guest shell command that must succeed; its stdout."""
    r = sh(board, command, timeout)
    assert r.status == 0, f"{command}: exit {r.status}\n{r.stdout}\n{r.stderr}"
    return r.stdout


class Background:
    """@command (a shell command line) started in the background in the guest."""

    def __init__(self, board: Board, name: str, command: str) -> None:
        self.board = board
        self.name = name
        self.command = command
        self.files = f"/tmp/bg-{name}"
        job = (f"{command} >{self.files}.out 2>{self.files}.err & echo $! >{self.files}.pid; "
               f"wait $!; echo $? >{self.files}.rc.new; "
               f"cut -d' ' -f1 /proc/uptime >{self.files}.at; "
               f"mv {self.files}.rc.new {self.files}.rc")
        guest_ok(board, f"rm -f {self.files}.*; "
                        f"setsid sh -c {shlex.quote(job)} </dev/null >/dev/null 2>&1 &")
        self.wait_for(f"test -s {self.files}.pid", what="the job's pid")
        self.pid = int(guest_ok(board, f"cat {self.files}.pid"))

    def wait_for(self, test: str, timeout_s: float = 60, what: str = "") -> None:
        """Until the guest shell @test succeeds (polled in the guest every 20 ms
        of guest time), or fail naming @what, with what the job said so far."""
        loops = int(timeout_s / 0.02)
        r = self.board.run(f"i=0; until {test}; do i=$((i + 1)); "
                           f"[ $i -ge {loops} ] && exit 1; sleep 0.02; done",
                           timeout=timeout_s * 4 + 60)
        if r.status != 0:
            raise AssertionError(f"{self.name}: {what or test}: not within {timeout_s} s "
                                 f"(guest time); {self.command!r} said:\n{self.output()}")

    def alive(self) -> bool:
        r = self.board.run(f"test ! -e {self.files}.rc && kill -0 {self.pid}", timeout=60)
        return r.status == 0

    def finished(self) -> bool:
        return self.board.run(f"test -e {self.files}.rc", timeout=60).status == 0

    def signal(self, sig: str) -> None:
        guest_ok(self.board, f"kill -{sig} {self.pid}")

    def output(self) -> str:
        r = self.board.run(f"cat {self.files}.out; echo '-- stderr:'; cat {self.files}.err",
                           timeout=60)
        return r.stdout

    def ended(self, timeout_s: float = 30) -> Ended:
        """How the job ended; fails if it is still running after @timeout_s
        guest seconds (and kills it, so that it does not linger)."""
        try:
            self.wait_for(f"test -e {self.files}.rc", timeout_s, "exit")
        except AssertionError:
            self.kill()
            raise
        out = guest_ok(self.board, f"cat {self.files}.rc {self.files}.at").split()
        text = self.board.run(f"cat {self.files}.out", timeout=60).stdout
        err = self.board.run(f"cat {self.files}.err", timeout=60).stdout
        return Ended(int(out[0]), text, err, float(out[1]))

    def kill(self) -> None:
        """SIGKILL to the job, unless it has ended: its pid is then free, and a
        load that forks (udrv-bench --load fork) reuses pids within seconds."""
        self.board.run(f"test -e {self.files}.rc || kill -KILL {self.pid} 2>/dev/null",
                       timeout=60)
