# SPDX-License-Identifier: GPL-2.0-only
"""The io.gpiod1 brokers in a lab guest: a system bus (dbus-daemon on Debian's
own system bus configuration) and the daemon that owns io.gpiod1 on it,
udrvd or libgpiod's gpio-manager (the guest files: rig/lab/image/dbusguest.py).

    from rig.lab.brokers import Broker, BUS, BUS2
    udrvd = Broker(board, "udrvd").start()            # on BUS
    manager = Broker(board, "gpio-manager", BUS2).start()
    ...
    udrvd.stop(); manager.stop()

Both own the name io.gpiod1, so each has a bus of its own; both may manage
the same chips (a line is held by whichever was asked for it). udrvd runs
with the policy POLICY and the state file STATE, which the caller writes
(udrvd refuses everything without a rule, root's calls too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .errors import LabError
from .image import dbusguest

BUS = "unix:path=/run/dbus/system_bus_socket"
BUS2 = "unix:path=/run/dbus/gpio_manager_socket"  # gpio-manager's, beside udrvd's
POLICY = "/etc/udrv/udrvd.conf"
STATE = "/var/lib/udrvd/state"
DEBIAN_SYSTEM_CONF = Path("/usr/share/dbus-1/system.conf")


class _Result(Protocol):
    status: int
    stdout: str
    stderr: str


class _Board(Protocol):
    def run(self, cmd: str, timeout: float = ...) -> _Result: ...

    def put_bytes(self, data: bytes, guest_path: str, mode: int = ...) -> None: ...


def system_bus_conf(listen: str, include: str | None) -> str:
    """Debian's own system bus configuration (deny by default: no name may be
    owned, no method called, but what a policy file allows), listening on
    @listen (a D-Bus address, "unix:path=..."), with @include as its only
    policy file; no user switch, pid file, syslog or service helper."""
    text = DEBIAN_SYSTEM_CONF.read_text()
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = re.sub(r"\s*<(user|pidfile|servicehelper)>[^<]*</\1>", "", text)
    text = re.sub(r"\s*<(fork|syslog|standard_system_servicedirs)/>", "", text)
    text = re.sub(r"\s*<include(dir)?\b[^>]*>[^<]*</include(dir)?>", "", text)
    text = re.sub(r"<listen>[^<]*</listen>", f"<listen>{listen}</listen>", text)
    if include:
        text = text.replace("</busconfig>", f"<include>{include}</include>\n</busconfig>")
    return text


def guest_run(board: _Board, cmd: str, timeout: float = 60) -> str:
    """@cmd's stdout on the board; LabError with what it printed unless it exits 0."""
    r = board.run(cmd, timeout=timeout)
    if r.status != 0:
        raise LabError(f"guest command {cmd!r} exited {r.status}:\n{r.stdout}{r.stderr}")
    return r.stdout


def stop_pid(board: _Board, pid: int) -> None:
    """SIGTERM @pid and wait until it is gone (a zombie counts as gone)."""
    guest_run(board, f"kill {pid} 2>/dev/null; i=0; while grep -qs '^State:.[^Z]' "
              f"/proc/{pid}/status; do i=$((i+1)); [ $i -lt 100 ] || exit 1; sleep 0.1; done")


@dataclass
class Broker:
    """A bus (at @address) and one daemon owning io.gpiod1 on it, on @board."""

    board: _Board
    daemon: str  # "udrvd" or "gpio-manager"
    address: str = BUS
    bus_pid: int = 0
    pid: int = 0

    def env(self) -> str:
        return f"DBUS_SYSTEM_BUS_ADDRESS={self.address}"

    def start(self) -> Broker:
        policy = "udrvd.conf" if self.daemon == "udrvd" else "gpio-manager.conf"
        conf = system_bus_conf(self.address, f"{dbusguest.GUEST_POLICIES}/{policy}")
        path = f"/etc/udrv-lab/{self.daemon}-bus.conf"
        self.board.put_bytes(conf.encode(), path)
        self.bus_pid = int(guest_run(self.board, f"mkdir -p /run/dbus && dbus-daemon "
                                     f"--config-file={path} --fork --print-pid 2>/dev/null"))
        return self.start_daemon()

    def start_daemon(self) -> Broker:
        cmd = (f"{dbusguest.GUEST_UDRVD} --policy {POLICY} --state {STATE}"
               if self.daemon == "udrvd" else f"{dbusguest.GUEST_GPIOD}/bin/gpio-manager")
        self.pid = int(guest_run(self.board, f"{self.env()} {cmd} >/tmp/{self.daemon}.log 2>&1 "
                                 "& echo $!"))  # fmt: skip
        # serving once the name is on the bus (gdbus: a generic client)
        guest_run(self.board, f"export {self.env()}; i=0; until gdbus call --system -d "
                  "io.gpiod1 -o /io/gpiod1 -m org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1; "
                  f"do i=$((i+1)); [ $i -lt 100 ] || {{ cat /tmp/{self.daemon}.log; exit 1; }}; "
                  "sleep 0.1; done")  # fmt: skip
        return self

    def log(self) -> str:
        return guest_run(self.board, f"cat /tmp/{self.daemon}.log")

    def stop_daemon(self) -> None:
        if self.pid:
            stop_pid(self.board, self.pid)
            self.pid = 0

    def stop(self) -> None:
        self.stop_daemon()
        if self.bus_pid:
            stop_pid(self.board, self.bus_pid)
            self.bus_pid = 0
