# SPDX-License-Identifier: GPL-2.0-only
"""Helpers for the lab tests: run udrv and udrv-bench in the guest and parse
what they say."""

from __future__ import annotations

import json
import shlex
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

CHIP = "gpio-wire"  # label of rig/kernel/gpio-wire's chip (lines wired 2k -> 2k+1)


class Result(Protocol):
    stdout: str
    stderr: str
    status: int


class Board(Protocol):
    def run(self, command: str, timeout: float = ...) -> Result: ...


@dataclass
class Udrv:
    status: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)

    def json_lines(self) -> list[Any]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


def sh(board: Board, command: str, timeout: float = 120) -> Udrv:
    r = board.run(command, timeout=timeout)
    return Udrv(r.status, r.stdout, r.stderr)


def root(board: Board, cmd: str) -> str:
    """A shell command as root that must succeed: its stdout."""
    r = sh(board, cmd)
    assert r.status == 0, f"{cmd!r} exited {r.status}:\n{r.stdout}{r.stderr}"
    return r.stdout


def udrv(board: Board, args: str, timeout: float = 120) -> Udrv:
    return sh(board, f"udrv {args}", timeout)


def udrv_bench(board: Board, args: str, timeout: float = 120) -> Udrv:
    return sh(board, f"udrv-bench {args}", timeout)


def ok(board: Board, args: str, timeout: float = 120, prog: str = "udrv") -> Udrv:
    """PROG ARGS (udrv ARGS), which must succeed."""
    r = sh(board, f"{prog} {args}", timeout)
    assert r.status == 0, f"{prog} {args}: exit {r.status}\n{r.stdout}\n{r.stderr}"
    return r


def bench_ok(board: Board, args: str, timeout: float = 120) -> Udrv:
    """udrv-bench ARGS, which must succeed."""
    return ok(board, args, timeout, "udrv-bench")


def sysfs_base(board: Board) -> int:
    chips = ok(board, f"gpio info -c {CHIP} --json").json()
    base = chips[0]["sysfs_base"]
    assert isinstance(base, int)
    return base


PEER = "/usr/libexec/udrv/udrv-bench-peer"  # the bench's libgpiod 2.3 peer


def peer_without_mlock(board: Board) -> str:
    """A wrapper of the peer that drops its --mlock, so that it does not run
    as the bench does; its path in the guest."""
    path = "/tmp/peer-no-mlock"
    r = board.run(f"printf '%s\\n' '#!/bin/sh' 'for a; do shift; "
                  f"[ \"$a\" = --mlock ] || set -- \"$@\" \"$a\"; done' "
                  f"'exec {PEER} \"$@\"' > {path}; chmod +x {path}")
    assert r.status == 0, r.stderr
    return path


def python(board: Board, code: str, timeout: float = 120) -> Udrv:
    """Run Python @code (dedented) with the guest's python3: the boards of
    the Python image variant (conftest's py_board, rig/lab/image/pyguest.py)."""
    return sh(board, "python3 - <<'PYEOF'\n" + textwrap.dedent(code).strip() + "\nPYEOF",
              timeout)  # fmt: skip


def python_json(board: Board, code: str, timeout: float = 120) -> Any:
    """python(), which must succeed; its last stdout line as JSON."""
    r = python(board, code, timeout)
    assert r.status == 0, f"python3 exit {r.status}\n{r.stdout}\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


@contextmanager
def guest_users(board: Board, uids: dict[str, int],
                groups: dict[str, tuple[int, str]] | None = None) -> Iterator[None]:  # fmt: skip
    """Users @uids (name: uid, each with a group of its own of that gid, home
    /tmp) and @groups (name: (gid, comma-separated members)) in the guest's
    /etc/passwd and /etc/group for the block; both files put back after."""
    saved = sh(board, "cp /etc/passwd /tmp/passwd.saved && cp /etc/group /tmp/group.saved")
    assert saved.status == 0, saved
    lines = [*(f"echo '{u}:x:{i}:{i}::/tmp:/bin/sh' >>/etc/passwd && "
               f"echo '{u}:x:{i}:' >>/etc/group" for u, i in uids.items()),
             *(f"echo '{g}:x:{gid}:{members}' >>/etc/group"
               for g, (gid, members) in (groups or {}).items())]  # fmt: skip
    try:
        r = sh(board, " && ".join(lines))
        assert r.status == 0, r
        yield
    finally:
        sh(board, "mv /tmp/passwd.saved /etc/passwd; mv /tmp/group.saved /etc/group")


def as_user(board: Board, user: str, command: str, env: str = "") -> Udrv:
    """@command run by @user (busybox su: the user's groups from /etc/group),
    after `export @env` where @env is given (e.g. a D-Bus bus's address)."""
    script = f"export {env}; {command}" if env else command
    return sh(board, f"su -s /bin/sh {user} -c {shlex.quote(script)}")
