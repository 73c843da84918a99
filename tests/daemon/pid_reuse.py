# SPDX-License-Identifier: GPL-2.0-only
"""The pid-reuse attack on udrvd's group rules, run by test_credentials.py
inside a new pid namespace (unshare --pid --fork --mount-proc), where this
script is pid 1 and places a process at a chosen pid reliably:

  - udrvd, with the rule `allow gid:2001 read,drive gpio gpiochip0 LED`, on a
    private bus, both in the namespace;
  - the attacker (uid 1, no groups): a process A connects to the bus, hands
    the socket to B (SCM_RIGHTS) and exits, so the pid the bus recorded for
    the connection is free;
  - this script puts a process holding gid 2001 at that pid (ns_last_pid
    set to the pid before it, then fork), as an attacker cycling pids
    would;
  - B speaks on the socket (tests/daemon/client.c, CLIENT_BUS_FD): its
    first call, RequestLines of LED as an output.

It prints one JSON object: the pid freed and the pid placed, the attack's
and a real gid-2001 client's exit and stderr, udrvd's log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.daemon.conftest import (
    BUS_CONF,
    GUARD_S,
    abstract_name,
    chip_file,
    dbus_daemon,
    start_udrvd,
)
from tests.support.fakes import FakeTree, gpio_bus

CHIP0 = "/io/gpiod1/chips/gpiochip0"
LED = 4  # fake-a's line named LED
GROUP = 2001

# B: forks A, which connects and hands the socket over, waits for A's end,
# says A's pid, and on "go" runs the client on the socket
ATTACKER = """
import os, socket, sys
addr, client = sys.argv[1], sys.argv[2:]
mine, theirs = socket.socketpair()
pid = os.fork()
if pid == 0:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(chr(0) + addr)
    socket.send_fds(theirs, [b"x"], [s.fileno()])
    os._exit(0)
_, fds, _, _ = socket.recv_fds(mine, 1, 1)
os.waitpid(pid, 0)
print(pid, flush=True)
if sys.stdin.readline().strip() != "go":
    sys.exit(3)
os.set_inheritable(fds[0], True)
os.execve(client[0], client, {**os.environ, "CLIENT_BUS_FD": str(fds[0])})
"""


def place(pid: int) -> tuple[int, int]:
    """A process of uid 2 holding gid GROUP at @pid (the next pid made is
    ns_last_pid + 1); its pid and the write end that ends it."""
    Path("/proc/sys/kernel/ns_last_pid").write_text(str(pid - 1))
    ready_r, ready_w = os.pipe()
    hold_r, hold_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(hold_w)
        os.close(ready_r)
        os.setgroups([])
        os.setgid(GROUP)
        os.setuid(2)
        os.write(ready_w, b"1")
        os.read(hold_r, 1)
        os._exit(0)
    os.close(hold_r)
    os.close(ready_w)
    os.read(ready_r, 1)
    os.close(ready_r)
    return child, hold_w


def attack(d_address: str, client: Path) -> dict[str, object]:
    addr = d_address.split("abstract=")[1].split(",")[0]  # its name, without the NUL
    b = subprocess.Popen(["setpriv", "--reuid=1", "--regid=1", "--clear-groups", sys.executable,
                          "-c", ATTACKER, addr, str(client), "load", CHIP0, str(LED), "1"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    assert b.stdin is not None and b.stdout is not None
    freed = int(b.stdout.readline())
    placed, hold = place(freed)
    status = Path(f"/proc/{placed}/status").read_text()
    b.stdin.write("go\n")
    b.stdin.flush()
    out, err = b.communicate(timeout=GUARD_S)
    os.close(hold)
    os.waitpid(placed, 0)
    gid_line = next(ln for ln in status.splitlines() if ln.startswith("Gid:"))
    return {"freed": freed, "placed": placed, "placed_gid": gid_line,
            "rc": b.returncode, "stdout": out, "stderr": err}  # fmt: skip


def main() -> int:
    udrvd_bin, fake_cdev, client = (Path(a) for a in sys.argv[1:4])
    with tempfile.TemporaryDirectory(prefix="udrvd-pid-") as tmp:
        os.chmod(tmp, 0o755)
        work = Path(tmp)
        t = FakeTree(work / "root")
        gpio_bus(t)
        chip_file(t, 0, "fake-a", ["LOCK", "DOOR", "", "", "LED", "", "", ""])
        os.chmod(t.root, 0o755)
        os.chmod(t.path("dev"), 0o777)
        conf = work / "bus.conf"
        conf.write_text(BUS_CONF.format(name=abstract_name()))
        policy = work / "udrvd.conf"
        policy.write_text(f"allow gid:{GROUP} read,drive gpio gpiochip0 LED\n")
        with dbus_daemon(conf) as address:
            d = start_udrvd(udrvd_bin, fake_cdev, address, t, policy)
            try:
                result = attack(address, client)
                control = d.run_as([str(client), "load", CHIP0, str(LED), "1"], uid=3,
                                   groups=(GROUP,))  # fmt: skip
                result |= {"control_rc": control.returncode, "control_stderr": control.stderr}
            finally:
                d.stop()
            result["log"] = d.log
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
