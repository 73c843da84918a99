# SPDX-License-Identifier: GPL-2.0-only
"""Drive one of the lab's QEMU boards (TCG, -icount) booted from a prepared image.

    image = rig.lab.image.prepare.prepare("std")  # kernel, modules, initramfs
    with QemuBoard(image, "std") as b:            # boots; rig.lab.Board does both steps
        r = b.run("uname -a", timeout=60)         # r.stdout, r.stderr, r.status
        b.put("/host/file", "/tmp/file"); data = b.get("/tmp/x.json")

A board only boots and drives: what it boots is made by rig/lab/image/, and
rig/lab/strategy.py combines the two (labgrid's driver/strategy split).
The console (first serial port) goes to build/lab/logs/<target>-<timestamp>.log;
the agent speaks on the second one, a unix socket on the host.  QEMU is
always terminated on close, on error and at interpreter exit (and dies with
us via PDEATHSIG).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import NoReturn

from ..catalogue import features, lookup, memory_for, qemu_binary, qemu_command
from ..errors import BoardDead, BootError, GuestPanic, LabError
from ..paths import logs_dir
from .agent import AgentClient, Channel, ChannelTimeout
from .api import BootImage

KEEP_LOGS = 60
_LIVE: weakref.WeakSet[QemuBoard] = weakref.WeakSet()


def board_command(image: BootImage, *, memory: str | None, append: str,
                  serials: list[str], console: str | None = None) -> list[str]:  # fmt: skip
    """QEMU's command line for a prepared image (console=: the machine's by default)."""
    t = image.kernel.spec
    return qemu_command(
        t.machine, kernel=image.kernel.vmlinuz, initrd=image.initramfs, dtb=image.kernel.dtb,
        memory=memory_for(t.machine, memory), append=f"{t.append} {append}".strip(),
        serials=serials, console=console, cpus=t.cpus, icount=t.icount,
    )  # fmt: skip


def die_with_parent() -> None:
    """preexec_fn: QEMU gets SIGKILL if the Python process dies (PR_SET_PDEATHSIG);
    the farm's boards (rig/lab/farm.py) start theirs with it too."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


def _mtime(path: Path) -> float:
    """A file's mtime; 0 when another board's pruning removed it meanwhile."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _prune_logs(directory: Path) -> None:
    # boards booting at once (make lab's threads, two pytest shards) prune the
    # same directory: a log listed by glob may be gone before its stat
    logs = sorted(directory.glob("*.log"), key=_mtime, reverse=True)
    for old in logs[KEEP_LOGS:]:
        old.unlink(missing_ok=True)
        old.with_suffix(".qemu.txt").unlink(missing_ok=True)


class QemuBoard(AgentClient):
    """One booted guest.  Boots `image` in the constructor.

    `target` names the board: "std", "rt" (x86) or "rpi3" (rig/lab/catalogue.py),
    and must be the image's; `variant` the image variant it was prepared as
    ("py", "deb": its features); `memory` defaults to the machine's (512M on
    x86; rpi3 has exactly 1G)."""

    def __init__(
        self,
        image: BootImage,
        target: str = "std",
        *,
        variant: str = "",
        memory: str | None = None,
        append: str = "",
        boot_timeout: float = 300.0,
        strict_modules: bool = False,
        quiet: bool = False,
    ) -> None:
        self.spec = lookup(target)
        if image.kernel.spec != self.spec:
            raise LabError(f"the {target} board cannot boot an image prepared for "
                           f"{image.kernel.spec.name}")  # fmt: skip
        self.machine = self.spec.machine
        qemu_binary(self.machine)
        memory_for(self.machine, memory)
        self.target = target
        self.kernel = self.spec.kernel  # "std" or "rt" (rig/lab/boards/api.py)
        self.features = features(target, variant)
        self.quiet = quiet
        self.image = image
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: Channel | None = None
        self.dead: str | None = None
        self.modules: dict[str, str] = {}  # module -> "ok" or the failure message
        self.boot_seconds = 0.0
        self._sock: socket.socket | None = None
        self._console_pos = 0
        self._console_tail = b""
        self._booted = False
        stamp = time.strftime("%Y%m%d-%H%M%S")
        logs_dir().mkdir(parents=True, exist_ok=True)
        _prune_logs(logs_dir())
        self.log_path = logs_dir() / f"{target}-{stamp}-{os.getpid()}-{id(self) % 10000:04d}.log"
        self.release = image.kernel.release
        self._tmp = Path(tempfile.mkdtemp(prefix="udrv-lab-"))  # the agent's socket
        _LIVE.add(self)
        try:
            self._boot(memory, f"quiet {append}".strip(), boot_timeout)
            self._load_module_status(strict_modules)
        except BaseException:
            self.close()
            raise

    # -- boot ----------------------------------------------------------------------
    def _boot(self, memory: str | None, append: str, timeout: float) -> None:
        sock_path = self._tmp / "agent.sock"
        cmd = board_command(
            self.image,
            memory=memory,
            append=append,
            serials=[f"file:{self.log_path}", "chardev:agent"],
        )
        cmd[1:1] = ["-chardev", f"socket,id=agent,path={sock_path},server=on,wait=on"]
        self.log_path.write_bytes(b"")
        qerr = open(self.log_path.with_suffix(".qemu.txt"), "wb")  # noqa: SIM115
        t0 = time.monotonic()
        deadline = t0 + timeout
        try:
            # PDEATHSIG fires when the creating *thread* exits: only use it from the main thread
            main = threading.current_thread() is threading.main_thread()
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=qerr,
                stderr=qerr,
                preexec_fn=die_with_parent if main else None,
            )
        finally:
            qerr.close()
        self._sock = self._connect(sock_path, min(deadline, t0 + 30))
        self.channel = Channel(self._sock, self._check)
        try:
            got = self.channel.wait_ready(deadline)
        except ChannelTimeout as exc:
            self._fail(BootError, f"the guest agent did not come up within {timeout:.0f}s ({exc})")
        self.boot_seconds = time.monotonic() - t0
        self._booted = True
        if got != self.release:
            self._fail(BootError, f"guest runs kernel {got!r}, expected {self.release!r}")
        if not self.quiet:
            print(f"lab: {self.target} kernel {self.release} up in {self.boot_seconds:.1f}s "
                  f"(console: {self.log_path})", file=sys.stderr)  # fmt: skip

    def _connect(self, path: Path, deadline: float) -> socket.socket:
        while True:
            self._check()
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(str(path))
                return s
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
            if time.monotonic() > deadline:
                self._fail(BootError, "QEMU did not open the agent socket")
            time.sleep(0.05)

    def _load_module_status(self, strict: bool) -> None:
        r = self.run("cat /run/udrv-lab/modules", timeout=60)
        for line in r.stdout.splitlines():
            word, _, rest = line.partition(" ")
            name, _, msg = rest.partition(":")
            if word == "ok":
                self.modules[rest.strip()] = "ok"
            elif word == "fail":
                self.modules[name.strip()] = msg.strip() or "failed"
        bad = self.module_failures
        if bad:
            text = "; ".join(f"{k}: {v}" for k, v in bad.items())
            if strict:
                self._fail(BootError, f"module(s) failed to load in the guest: {text}")
            print(f"lab: WARNING: module(s) failed to load in the guest: {text}", file=sys.stderr)

    @property
    def module_failures(self) -> dict[str, str]:
        return {k: v for k, v in self.modules.items() if v != "ok"}

    # -- health ----------------------------------------------------------------------
    def console(self) -> str:
        """The whole console log so far."""
        try:
            return self.log_path.read_bytes().decode(errors="replace")
        except OSError:
            return ""

    def console_tail(self, lines: int = 40) -> str:
        return "\n".join(self.console().replace("\r", "").splitlines()[-lines:])

    def _scan_console(self) -> None:
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(self._console_pos)
                new = fh.read()
        except OSError:
            return
        self._console_pos += len(new)
        window = self._console_tail + new
        self._console_tail = window[-256:]
        if b"Kernel panic" in window:
            time.sleep(0.3)  # let the rest of the panic message reach the log
            lines = [ln for ln in self.console().splitlines() if "Kernel panic" in ln]
            line = lines[0].strip() if lines else "Kernel panic"
            self._fail(GuestPanic, f"the guest kernel panicked: {line}")

    def _check(self) -> None:
        """Raise if the guest is gone; called while waiting on the channel."""
        if self.dead:
            raise BoardDead(f"board is dead: {self.dead}")
        self._scan_console()
        if self.proc is not None and self.proc.poll() is not None:
            what = "while booting" if not self._booted else "unexpectedly"
            self._fail(BootError if not self._booted else BoardDead,
                       f"QEMU exited {what} (status {self.proc.returncode})")  # fmt: skip

    def _fail(self, kind: type[LabError], what: str) -> NoReturn:
        """Mark the board dead, stop QEMU and raise `kind` with the console tail."""
        if not self.dead:
            self.dead = what
        self._kill()
        qemu_err = ""
        try:
            text = self.log_path.with_suffix(".qemu.txt").read_text(errors="replace")
            noise = ("QEMU waiting for connection", "terminating on signal")
            qemu_err = "\n".join(ln for ln in text.splitlines() if not any(n in ln for n in noise))
        except OSError:
            pass
        msg = f"{self.target} board ({self.release}): {what}"
        if qemu_err:
            msg += f"\n--- QEMU said ---\n{qemu_err[-2000:]}"
        msg += f"\n--- last console lines ({self.log_path}) ---\n{self.console_tail(40)}"
        raise kind(msg)

    # -- shutdown ----------------------------------------------------------------------
    def _kill(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    def close(self) -> None:
        """Power the guest off (QUIT -> poweroff -f), killing QEMU after a grace period."""
        proc = self.proc
        if proc is not None and proc.poll() is None and not self.dead and self._sock is not None:
            try:
                chan = self._chan()
                req = chan.request("QUIT {id}", time.monotonic() + 5)
                chan.read_reply(req, time.monotonic() + 10)
                proc.wait(20)
            except (LabError, ChannelTimeout, OSError, subprocess.TimeoutExpired):
                pass
        self.dead = self.dead or "closed"
        self._kill()
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        shutil.rmtree(self._tmp, ignore_errors=True)
        _LIVE.discard(self)

    def __del__(self) -> None:
        if getattr(self, "proc", None) is not None and self.proc.poll() is None:  # type: ignore[union-attr]
            self._kill()


@atexit.register
def _close_all() -> None:
    for board in list(_LIVE):
        board.close()

