# SPDX-License-Identifier: GPL-2.0-only
"""udrvd on the host: a private bus (dbus-daemon, system-bus rules, on an
abstract socket that every uid can reach), udrvd on a fake tree whose GPIO
chips answer through tests/daemon/fake_cdev.c (preloaded), and clients
(busctl) run as other users and groups with setpriv.

The deadlines here are guards (30 s for what takes well under one), not
races: a passed one fails with udrvd's output."""

from __future__ import annotations

import os
import secrets
import select
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from rig.lab.brokers import system_bus_conf as bus_conf_text
from tests.support.fakes import FakeTree, chip_file, gpio_bus
from tests.support.reaper import reap, started
from tests.support.udrv_runner import REPO, find_binary, required

BUILD = REPO / "build" / "dev"
GUARD_S = 30.0

BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:abstract={name}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def binary(var: str, rel: str) -> Path:
    env = os.environ.get(var)
    return required(Path(env) if env else BUILD / rel, var)


@pytest.fixture(scope="session")
def udrvd_bin() -> Path:
    return binary("UDRVD_BIN", "daemon/udrvd")


@pytest.fixture(scope="session")
def client() -> Path:
    """tests/daemon/client.c: 'fd' (the fast path) and 'load' (many calls)."""
    return binary("UDRVD_CLIENT", "tests/daemon/client")


@pytest.fixture(scope="session")
def example() -> Path:
    """examples/udrvd-held: a held line driven through its request's fd."""
    return binary("UDRVD_EXAMPLE", "examples/udrvd-held")


@pytest.fixture(scope="session")
def udrv() -> Path:
    """The udrv CLI (build/dev, or UDRV_BIN) that test_cli_*.py run as clients."""
    return required(find_binary(), "UDRV_BIN")


@pytest.fixture(scope="session")
def fake_cdev() -> Path:
    return binary("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so")


def abstract_name() -> str:
    return f"udrvd-test-{os.getpid()}-{secrets.token_hex(6)}"


@contextmanager
def dbus_daemon(conf: Path) -> Iterator[str]:
    """dbus-daemon with @conf; yields its address."""
    proc = subprocess.Popen(["dbus-daemon", f"--config-file={conf}", "--nofork",
                             "--print-address"], stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], GUARD_S)
    address = proc.stdout.readline().strip() if ready else ""
    try:
        assert address, "dbus-daemon printed no address"
        yield address
    finally:
        proc.terminate()
        proc.wait(GUARD_S)


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[str]:
    """A private system-like bus that lets everyone do anything; yields its address."""
    conf = tmp_path / "bus.conf"
    conf.write_text(BUS_CONF.format(name=abstract_name()))
    with dbus_daemon(conf) as address:
        yield address


def system_bus_conf(out: Path, include: Path | None) -> Path:
    """The test bus's configuration (rig/lab/brokers.py) on an abstract
    socket, written to @out."""
    out.write_text(bus_conf_text(f"unix:abstract={abstract_name()}",
                                 str(include) if include else None))
    return out


@dataclass
class Line:
    used: bool
    output: bool
    level: int
    active_low: bool
    consumer: str
    edge: str = "none"  # the edge detection the request gave it


@dataclass
class Udrvd:
    proc: subprocess.Popen[str]
    address: str
    tree: FakeTree
    log: list[str]
    preload: str = ""
    seen: int = 0  # lines of log that wait_log() has looked at
    partial: bytes = b""

    def lines(self, chip: int = 0) -> list[Line]:
        """The fake chip's lines as the 'hardware' has them."""
        out = []
        state = self.tree.path(f"dev/gpiochip{chip}.state")
        if not state.exists():  # nothing requested yet: free inputs, low
            n = int(self.tree.read(f"dev/gpiochip{chip}").splitlines()[1])
            return [Line(False, False, 0, False, "") for _ in range(n)]
        text = state.read_text()
        for ln in text.splitlines():
            holder, d, level, low, consumer, edge = ln.split()
            used = holder != "0" and Path(f"/proc/{holder}").exists()
            out.append(Line(used, d == "out", int(level), low == "1",
                            "" if consumer == "-" else consumer, edge))  # fmt: skip
        return out

    def call(self, path: str, method: str, *args: str, uid: int = 0,
             groups: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:  # fmt: skip
        """gdbus call of io.gpiod1's @path @method (INTERFACE.METHOD) with
        @args in GVariant's text, as @uid (with @groups). gdbus, not busctl:
        busctl shows every AccessDenied as "Access denied", not its message."""
        return self.run_as(["gdbus", "call", f"--address={self.address}", "--dest=io.gpiod1",
                            f"--object-path={path}", f"--method={method}", "--", *args],
                           uid, groups)  # fmt: skip

    def run_as(self, cmd: list[str], uid: int = 0, groups: tuple[int, ...] = (),
               preload: bool = False) -> subprocess.CompletedProcess[str]:  # fmt: skip
        """@cmd on this bus as @uid (with @groups); @preload: with the fake
        character device and its tree, to use a request's fd."""
        if uid:
            gids = ",".join(str(g) for g in groups)
            cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}",
                   f"--groups={gids}" if gids else "--clear-groups", *cmd]  # fmt: skip
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.address}
        if preload:
            env |= {"LD_PRELOAD": self.preload, "UDRV_SYSROOT": str(self.tree.root)}
        return subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD_S,
                              check=False, env=env)  # fmt: skip

    def wait_log(self, start: str) -> str:
        """Read udrvd's stderr until a line starting with @start; returns it.
        Raw reads: a buffered readline() could take later lines along, and
        select() would then wait for what is already read."""
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        deadline = time.monotonic() + GUARD_S
        while True:
            for i, line in enumerate(self.log[self.seen:]):
                if line.startswith(start):
                    self.seen += i + 1
                    return line
            self.seen = len(self.log)
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            chunk = os.read(fd, 4096) if ready else b""
            if not chunk:
                self.proc.kill()
                pytest.fail(f"no '{start}' from udrvd:\n" + "\n".join(self.log))
            self.partial += chunk
            *lines, rest = self.partial.split(b"\n")
            self.partial = rest
            self.log += [ln.decode(errors="replace") for ln in lines]

    def state(self) -> str:
        """udrvd's state file ("" before udrvd first wrote it)."""
        path = self.tree.root.parent / "state"
        return path.read_text() if path.exists() else ""

    def wait_state(self, holds: Callable[[str], bool]) -> str:
        """The state file once @holds(its text): udrvd writes it at most once a
        second (daemon/model/restore.c), so a change shows within that."""
        deadline = time.monotonic() + GUARD_S
        while not holds(text := self.state()):
            if time.monotonic() > deadline:
                pytest.fail(f"the state file never came to hold it:\n{text}\n" +
                            "\n".join(self.log))  # fmt: skip
            time.sleep(0.05)
        return text

    def writes(self) -> int:
        """The state file's writes udrvd counted, from its last words (after stop())."""
        said = [ln for ln in self.log if ln.startswith("udrvd: stopped: ")]
        assert said, "\n".join(self.log)
        return int(said[-1].split()[2])

    def stop(self) -> int:
        self.proc.terminate()
        try:
            return self.proc.wait(GUARD_S)
        finally:
            assert self.proc.stderr is not None
            rest = self.partial + self.proc.stderr.buffer.read()
            self.log += rest.decode(errors="replace").splitlines()


def start_udrvd(udrvd_bin: Path, fake_cdev: Path, address: str, tree: FakeTree,
                policy: Path, wait: str = "udrvd: serving", uid: int = 0,
                fakes: tuple[Path, ...] = ()) -> Udrvd:  # fmt: skip
    """udrvd on @address and @tree's chips (as @uid), once it said @wait;
    @fakes preloaded after fake_cdev (tests/cli's fake i2c-dev and spidev)."""
    preload = " ".join(str(p) for p in (fake_cdev, *fakes))
    env = {**os.environ, "UDRV_SYSROOT": str(tree.root), "LD_PRELOAD": preload,
           "DBUS_SYSTEM_BUS_ADDRESS": address}  # fmt: skip
    cmd = [str(udrvd_bin), "--policy", str(policy), "--state", str(tree.root.parent / "state")]
    if uid:
        cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *cmd]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    started(proc)
    d = Udrvd(proc, address, tree, [], str(fake_cdev))
    d.wait_log(wait)
    return d


@pytest.fixture(autouse=True)
def no_udrvd_left() -> Iterator[None]:
    """Every udrvd that start_udrvd() started is gone after the test."""
    yield
    reap(GUARD_S)


@contextmanager
def serving(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree, tmp_path: Path,
            policy: str, fakes: tuple[Path, ...] = ()) -> Iterator[Udrvd]:  # fmt: skip
    """udrvd with @policy (written to tmp_path/udrvd.conf), stopped afterwards."""
    conf = tmp_path / "udrvd.conf"
    conf.write_text(policy)
    d = start_udrvd(udrvd_bin, fake_cdev, bus, tree, conf, fakes=fakes)
    try:
        yield d
    finally:
        d.stop()


@pytest.fixture
def tree() -> Iterator[FakeTree]:
    """A fake root: gpiochip0 'fake-a' (8 lines, some named) and gpiochip1
    'fake-b' (4). Outside pytest's tmp_path, which only root may enter: a
    client given a request's fd (as another user) reads and writes the fake
    chip's state too."""
    with tempfile.TemporaryDirectory(prefix="udrvd-test-") as tmp:
        os.chmod(tmp, 0o755)
        t = FakeTree(Path(tmp) / "root")
        gpio_bus(t)
        chip_file(t, 0, "fake-a", ["LOCK", "DOOR", "", "", "LED", "", "", ""])
        chip_file(t, 1, "fake-b", ["", "", "", ""])
        os.chmod(t.root, 0o755)
        os.chmod(t.path("dev"), 0o777)  # no sticky bit: a client renames over the state
        yield t
