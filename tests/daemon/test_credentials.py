# SPDX-License-Identifier: GPL-2.0-only
"""Whom udrvd checks a call against: the uid and the groups the bus read from
the client's socket when it connected (GetConnectionCredentials'
UnixUserID and UnixGroupIDs), never what a process at the connection's pid
holds now. daemon/bus/creds.c's reading of the reply, with and without
UnixGroupIDs (the user database's groups then), is tests/daemon/test_creds.c.

The pid-reuse attack (pid_reuse.py, in a pid namespace of its own where it
places a process at a chosen pid): a client of uid 1 without groups
connects, hands its socket on and exits; a process holding gid 2001 is put
at the freed pid; the client's first call, on a line that only gid 2001
may drive, is refused, while a client that holds gid 2001 itself is
granted. The test fails, never skips, where the process cannot be placed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.daemon.conftest import GUARD_S
from tests.support.udrv_runner import REPO


def test_a_group_is_not_taken_from_a_process_at_the_callers_pid(
        udrvd_bin: Path, fake_cdev: Path, client: Path) -> None:  # fmt: skip
    unshare = shutil.which("unshare")
    assert unshare, "no unshare(1) (util-linux): the pid-reuse attack cannot be run"
    # a mount namespace for the pid namespace's own /proc, whose propagation
    # is left as it is: unshare's --mount-proc makes / private, which fails
    # (EINVAL) where / is no mount point (a chroot); only /proc is made
    # private, so that the new proc is not seen outside
    res = subprocess.run([unshare, "--pid", "--fork", "--mount", "--propagation", "unchanged",
                          "sh", "-c", 'mount --make-private /proc && '
                          'mount -t proc proc /proc && exec "$@"', "pid-reuse",
                          sys.executable, "-m", "tests.daemon.pid_reuse", str(udrvd_bin),
                          str(fake_cdev), str(client)], cwd=REPO, capture_output=True,
                         text=True, timeout=4 * GUARD_S, check=False)  # fmt: skip
    assert res.returncode == 0, f"the attack could not be run:\n{res.stdout}\n{res.stderr}"
    r = json.loads(res.stdout.splitlines()[-1])
    log = "\n".join(r["log"])
    # the attack as an attacker would make it: a gid-2001 process at the pid
    # the bus recorded for the attacker's connection
    assert r["placed"] == r["freed"], f"no process placed at pid {r['freed']}: {r}"
    assert r["placed_gid"].split()[1:] == ["2001"] * 4, r["placed_gid"]
    assert r["rc"] == 1 and "AccessDenied" in r["stderr"] \
        and "the policy refuses uid 1 " in r["stderr"], f"the attack was not refused: {r}"
    # the rule works for a client that holds the group itself
    assert r["control_rc"] == 0, r["control_stderr"]
    assert "udrvd: callers' groups from the bus (UnixGroupIDs)" in log, log
