# SPDX-License-Identifier: GPL-2.0-only
"""A labgrid farm on localhost: `python3 -m rig.lab farm up|run`.

    with Farm(["std"]) as farm:        # boots, starts, places, env files
        farm.env_file("std")           # RemotePlace + SerialDriver + ShellDriver
        farm.address                   # the coordinator, 127.0.0.1:PORT

What it starts, all listening on 127.0.0.1 only, all stopped on exit (also on
Ctrl-C / SIGTERM; and killed with us: PR_SET_PDEATHSIG):

  QEMU         each board (rig/lab/catalogue.py: std, rt, rpi3...) in the guest's
               shell mode (udrv-lab.mode=shell, prompt rig.lab.boards.labgrid_env.PROMPT)
               with that shell's serial port on a pty
  coordinator  labgrid-coordinator --listen 127.0.0.1:PORT (PORT 0: a free one)
  exporter     labgrid-exporter "udrv-farm": one RawSerialPort per board (its
               pty), which the coordinator lists as a NetworkSerialPort; the
               exporter serves it with ser2net once a client acquires the place
  places       "udrv-<board>" matching that port, tags board=, kernel=, udrv=1
  env files    <board>.yaml: target "main" = RemotePlace + SerialDriver +
               ShellDriver, the board's features and udrv-target; what
               `python3 -m rig.lab suite --lg-env` and `pytest --lg-env` open

The exporter runs ser2net with `accepter: telnet(rfc2217,mode=server),tcp,PORT`
(older ones: `-C PORT:telnet:...`), which listens on every address; the farm
puts a wrapper named ser2net first on the exporter's PATH that rewrites the
accepter to tcp,127.0.0.1,PORT (the -C line to 127.0.0.1,PORT:...) and refuses
what it does not understand (SER2NET_WRAPPER).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from .boards.labgrid_board import LG_VENV, install_hint
from .boards.labgrid_env import PROMPT, _q
from .boards.lg_place import acquire, client_env, on_signals_stop
from .boards.qemu import board_command, die_with_parent
from .catalogue import TARGETS, features, lookup, missing_udrv, qemu_binary
from .errors import BootError, LabError, ToolMissing
from .image.prepare import prepare
from .paths import logs_dir

EXPORTER = "udrv-farm"
HOST = "127.0.0.1"
SER2NET = "ser2net"
COORDINATOR_UP_S = 30.0
EXPORTER_UP_S = 30.0
CLIENT_S = 60.0
STOP_S = 5.0

# Put first on the exporter's PATH as "ser2net": labgrid's exporter (26.x)
# starts `ser2net -d -n -Y 'connection: &con01#  accepter:
# telnet(rfc2217,mode=server),tcp,PORT' -Y '  connector: serialdev...'`;
# a bare tcp,PORT listens on every address, tcp,127.0.0.1,PORT on loopback.
# Older exporters give ser2net 3's form, `-C PORT:telnet:0:DEV:OPTIONS`, whose
# bare PORT listens on every address too: it becomes 127.0.0.1,PORT:...
SER2NET_WRAPPER = '''\
#!{python}
# udrv farm (rig/lab/farm.py): ser2net on 127.0.0.1 only
import ctypes, os, re, signal, sys
REAL = {real!r}
args = sys.argv[1:]
out = []

def refuse(what, a):
    sys.exit(f"udrv farm: ser2net {{what}} not understood, refusing to listen "
             f"beyond loopback: {{a!r}} (rig/lab/farm.py SER2NET_WRAPPER)")

def port_line(a):
    """-C's [ADDR,]PORT:STATE:...: on 127.0.0.1"""
    if re.match(r"127\\.0\\.0\\.1,[0-9]+:", a):
        return a
    if not re.match(r"[0-9]+:", a):
        refuse("-C port line", a)
    return "127.0.0.1," + a

after_c = False
for a in args:
    if after_c:
        a, after_c = port_line(a), False
    elif a == "-C":
        after_c = True
    elif a.startswith("-C"):
        a = "-C" + port_line(a[2:])
    elif "accepter:" in a:
        new = re.sub(r"(accepter: *telnet\\([^)]*\\),tcp,)([0-9]+)$", r"\\g<1>127.0.0.1,\\2", a)
        if new == a:
            refuse("accepter", a)
        a = new
    out.append(a)
if after_c:
    refuse("-C", "-C")
ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)  # die with the exporter
os.execv(REAL, [REAL, *out])
'''


class FarmError(LabError):
    """The farm could not start (a port taken, a daemon that did not come up)."""


def lg_tool(name: str) -> Path:
    """A labgrid program of the project's venv (build/lg-venv/bin/NAME)."""
    path = LG_VENV / "bin" / name
    if not path.is_file():
        raise ToolMissing(f"{path} does not exist (the farm runs labgrid's {name}): "
                          f"{install_hint()}")  # fmt: skip
    return path


def find_ser2net() -> str:
    """ser2net's path (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    path = shutil.which(SER2NET) or shutil.which(SER2NET, path="/usr/sbin:/usr/local/sbin")
    if path is None:
        raise ToolMissing("ser2net is not installed (the farm's labgrid exporter serves each "
                          "board's serial port with it): apt-get install ser2net")  # fmt: skip
    return path


def _tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.replace("\r", "").splitlines()[-lines:])


def _stop_group(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM the process group `proc` leads (it and its children: the
    exporter's ser2net), SIGKILL after STOP_S."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_S)
    with contextlib.suppress(ProcessLookupError):  # the leader or a child still there
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(STOP_S)


def _spawn(cmd: list[str | Path], log: Path, **kw: object) -> subprocess.Popen[bytes]:
    """A daemon of the farm: its own process group, output in `log`, and
    killed when we die (PDEATHSIG works from the main thread only)."""
    main = threading.current_thread() is threading.main_thread()
    with open(log, "wb") as out:
        return subprocess.Popen([str(c) for c in cmd], stdin=subprocess.DEVNULL, stdout=out,  # type: ignore[call-overload, no-any-return]
                                stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=die_with_parent if main else None, **kw)  # fmt: skip


@dataclass
class FarmBoard:
    """One QEMU board of the farm, its shell's serial port on a pty."""

    target: str
    proc: subprocess.Popen[bytes]
    log: Path  # QEMU's own output (the pty's name)
    console: Path  # what the console printed until the shell's prompt
    pty: str = ""
    fd: int = -1  # the pty, open from boot to prompt: nothing the guest prints is lost
    boot_seconds: float = 0.0

    def let_go(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                termios.tcflush(self.fd, termios.TCIOFLUSH)
            os.close(self.fd)
            self.fd = -1

    @property
    def place(self) -> str:
        return f"udrv-{self.target}"


@dataclass
class Farm:
    """A coordinator, an exporter and QEMU boards on localhost (module docstring).

    `port`: the coordinator's (0: a free one); `env_dir`: where the env files
    go (default: the farm's temporary directory, removed on stop)."""

    targets: list[str]
    port: int = 0
    env_dir: Path | None = None
    boot_timeout: float = 300.0
    quiet: bool = False
    ser2net: str | None = None
    address: str = ""
    boards: dict[str, FarmBoard] = field(default_factory=dict)
    workdir: Path = Path()
    coordinator: subprocess.Popen[bytes] | None = None
    exporter: subprocess.Popen[bytes] | None = None

    # -- start ----------------------------------------------------------------------------
    def start(self) -> Farm:
        """Everything up, or FarmError/ToolMissing/BootError with everything stopped."""
        real = self.ser2net or find_ser2net()
        if not os.access(real, os.X_OK):
            raise ToolMissing(f"{real} is not an executable ser2net: apt-get install ser2net")
        for tool in ("labgrid-coordinator", "labgrid-exporter", "labgrid-client"):
            lg_tool(tool)
        for fl in self.targets:
            qemu_binary(lookup(fl).machine)
            why = missing_udrv(lookup(fl).machine)
            if why is not None:
                raise ToolMissing(f"the {fl} board would have no udrv: {why}")
        self.workdir = Path(tempfile.mkdtemp(prefix="udrv-farm-"))
        try:
            self._wrap_ser2net(real)
            self._start_coordinator()
            for fl in self.targets:  # boot them all at once, then wait for each
                self._boot(fl)
            for b in self.boards.values():
                self._wait_shell(b)
            self.start_exporter()
            for b in self.boards.values():
                self._make_place(b)
            for fl in self.targets:
                self._write_env(fl)
        except BaseException:
            self.stop()
            raise
        return self

    def _say(self, text: str) -> None:
        if not self.quiet:
            print(f"lab: farm: {text}", file=sys.stderr, flush=True)

    def _wrap_ser2net(self, real: str) -> None:
        bin_dir = self.workdir / "bin"
        bin_dir.mkdir()
        wrapper = bin_dir / SER2NET
        wrapper.write_text(SER2NET_WRAPPER.format(python=sys.executable, real=real))
        wrapper.chmod(0o755)

    def _start_coordinator(self) -> None:
        cdir = self.workdir / "coordinator"  # its places.yaml and resources.yaml
        cdir.mkdir()
        log = self.workdir / "coordinator.log"
        self.coordinator = _spawn([lg_tool("labgrid-coordinator"), "--listen",
                                   f"{HOST}:{self.port}"], log, cwd=cdir)  # fmt: skip
        deadline = time.monotonic() + COORDINATOR_UP_S
        while time.monotonic() < deadline:
            m = re.search(rf"listening on {re.escape(HOST)}:([0-9]+)", _tail(log, 200))
            if m:
                self.address = f"{HOST}:{m[1]}"
                self._say(f"coordinator on {self.address}")
                return
            if self.coordinator.poll() is not None:
                text = _tail(log)
                if "Address already in use" in text or "Failed to bind" in text:
                    raise FarmError(f"labgrid-coordinator cannot listen on {HOST}:{self.port}: "
                                    "the port is taken (another coordinator?); choose another "
                                    "--port, or 0 for a free one")  # fmt: skip
                raise FarmError(f"labgrid-coordinator exited ({self.coordinator.returncode}) "
                                f"before listening:\n{text}")  # fmt: skip
            time.sleep(0.1)
        raise FarmError(f"labgrid-coordinator did not come up within {COORDINATOR_UP_S:.0f}s "
                        f"(no 'listening on' in {log}):\n{_tail(log)}")  # fmt: skip

    def _boot(self, target: str) -> None:
        t = lookup(target)
        m = t.machine
        prep = prepare(target, quiet=self.quiet)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        logs_dir().mkdir(parents=True, exist_ok=True)
        console = logs_dir() / f"farm-{target}-{stamp}-{os.getpid()}.log"
        serials = ["null"] * 2
        serials[m.shell_port] = "pty"
        if m.shell_port != 0:  # rpi3: the kernel's console (ttyAMA0) to a file
            serials[0] = f"file:{console.with_suffix('.ttyAMA0.log')}"
        cmd = board_command(prep, memory=None, serials=serials, console=m.shell_console,
                            append="quiet udrv-lab.mode=shell")  # fmt: skip
        log = self.workdir / f"qemu-{target}.log"
        board = self.boards[target] = FarmBoard(target, _spawn(cmd, log), log, console)
        deadline = time.monotonic() + 30
        while not board.pty:  # "char device redirected to /dev/pts/N (label serial0)"
            hit = re.search(r"redirected to (/dev/pts/[0-9]+)", _tail(log))
            if hit:  # hold it at once: QEMU drops what a pty nobody holds is sent
                board.pty = hit[1]
                board.fd = os.open(board.pty, os.O_RDWR | os.O_NOCTTY)
                tty.setraw(board.fd)
            elif board.proc.poll() is not None or time.monotonic() > deadline:
                raise BootError(f"{target} board: QEMU gave no pty (status "
                                f"{board.proc.poll()}):\n{_tail(log)}")  # fmt: skip
            else:
                time.sleep(0.05)

    def _wait_shell(self, board: FarmBoard) -> None:
        """Read the console until the guest's shell prints its prompt (the
        boot's output kept in board.console), then let go of the pty."""
        t0 = time.monotonic()
        deadline = t0 + self.boot_timeout
        fd = board.fd
        seen = b""
        try:
            with open(board.console, "wb") as log:
                while PROMPT.encode() not in seen[-4096:]:
                    if board.proc.poll() is not None:
                        raise BootError(f"{board.target} board: QEMU exited while booting "
                                        f"({board.proc.returncode}); console {board.console}:\n"
                                        f"{_tail(board.console)}\n{_tail(board.log)}")  # fmt: skip
                    if time.monotonic() > deadline:
                        raise BootError(f"{board.target} board: no shell prompt "
                                        f"{PROMPT!r} within {self.boot_timeout:.0f}s; console "
                                        f"{board.console}:\n{_tail(board.console)}")  # fmt: skip
                    if select.select([fd], [], [], 0.5)[0]:
                        chunk = os.read(fd, 4096)
                        log.write(chunk)
                        log.flush()
                        seen = (seen + chunk)[-8192:]
        finally:
            board.let_go()
        board.boot_seconds = time.monotonic() - t0
        self._say(f"{board.target} board: shell on {board.pty} after "
                  f"{board.boot_seconds:.1f}s (console {board.console})")  # fmt: skip

    def exporter_config(self) -> str:
        """The exporter's resources: one group per board, its pty as a RawSerialPort."""
        lines = []
        for b in self.boards.values():
            lines += [f"{b.place}:", "  RawSerialPort:", f"    port: {_q(b.pty)}",
                      "    speed: 115200"]  # fmt: skip
        return "\n".join(lines) + "\n"

    def start_exporter(self) -> None:
        """(Re)start the exporter and wait until the coordinator lists its ports."""
        conf = self.workdir / "exporter.yaml"
        conf.write_text(self.exporter_config())
        env = {**os.environ, "PATH": f"{self.workdir / 'bin'}{os.pathsep}{os.environ['PATH']}"}
        log = self.workdir / "exporter.log"
        self.exporter = _spawn([lg_tool("labgrid-exporter"), "--coordinator", self.address,
                                "--name", EXPORTER, "--hostname", HOST, conf], log,
                               cwd=self.workdir, env=env)  # fmt: skip
        want = {f"{EXPORTER}/{b.place}/NetworkSerialPort" for b in self.boards.values()}
        deadline = time.monotonic() + EXPORTER_UP_S
        while True:
            have = set(self.client("resources").split())
            if want <= {"/".join(r.split("/")[:3]) for r in have}:
                self._say(f"exporter {EXPORTER}: {', '.join(sorted(want))}")
                return
            if self.exporter.poll() is not None:
                raise FarmError(f"labgrid-exporter exited ({self.exporter.returncode}):\n"
                                f"{_tail(log)}")  # fmt: skip
            if time.monotonic() > deadline:
                raise FarmError(f"the exporter's ports did not reach the coordinator within "
                                f"{EXPORTER_UP_S:.0f}s (have: {sorted(have)}):\n{_tail(log)}")
            time.sleep(0.5)

    def stop_exporter(self) -> None:
        """Stop the exporter (and its ser2net): the places lose their ports."""
        _stop_group(self.exporter)

    def client(self, *args: str, env: dict[str, str] | None = None) -> str:
        """labgrid-client -x ADDRESS ARGS...; its stdout, or FarmError with its words."""
        cmd = [str(lg_tool("labgrid-client")), "-x", self.address, *args]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=CLIENT_S,
                               env={**client_env(), **(env or {})}, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            raise FarmError(f"{' '.join(cmd)} took over {CLIENT_S:.0f}s") from None
        if r.returncode != 0:
            raise FarmError(f"{' '.join(cmd)} failed ({r.returncode}): "
                            f"{(r.stderr or r.stdout).strip()}")  # fmt: skip
        return r.stdout

    def acquire(self, place: str, env: dict[str, str] | None = None) -> None:
        """labgrid-client -p PLACE acquire (lg_place.acquire's retry); a refusal
        says what the exporter logged."""
        try:
            acquire(lambda: self.client("-p", place, "acquire", env=env), self._say)
        except FarmError as exc:
            raise FarmError(f"{exc}\n--- exporter log ---\n"
                            f"{_tail(self.workdir / 'exporter.log')}") from None  # fmt: skip

    def _make_place(self, b: FarmBoard) -> None:
        self.client("-p", b.place, "create")
        self.client("-p", b.place, "add-match", f"{EXPORTER}/{b.place}/*")
        self.client("-p", b.place, "set-tags", f"board={b.target}",
                    f"kernel={lookup(b.target).kernel}", "udrv=1")  # fmt: skip
        self._say(f"place {b.place} (labgrid-client -x {self.address} -p {b.place} show)")

    # -- env files --------------------------------------------------------------------------
    def env_text(self, target: str) -> str:
        """A labgrid environment for the board's place: RemotePlace + SerialDriver +
        ShellDriver, the board's features (rig.lab.catalogue.features, without "qemu")."""
        b = self.boards[target]
        feats = sorted(features(target) - {"qemu"})
        return "\n".join([
            f"# the lab's {target} board through the localhost farm's place {b.place} "
            "(python3 -m rig.lab farm; rig/lab/farm.py)",
            "targets:",
            "  main:",
            "    resources:",
            "      RemotePlace:",
            f"        name: {_q(b.place)}",
            "    drivers:",
            "      SerialDriver: {}",
            "      ShellDriver:",
            f"        prompt: {_q(PROMPT)}",
            f"        login_prompt: {_q(' login: ')}",
            f"        username: {_q('root')}",
            "        login_timeout: 120",
            "    options:",
            f"      udrv-target: {_q(target)}",
            f"    features: [{', '.join(_q(f) for f in feats)}]",
            "options:",
            f"  coordinator_address: {_q(self.address)}",
        ]) + "\n"  # fmt: skip

    def env_file(self, target: str) -> Path:
        return (self.env_dir or self.workdir / "env") / f"{target}.yaml"

    def _write_env(self, target: str) -> None:
        path = self.env_file(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.env_text(target))

    # -- health, stop -------------------------------------------------------------------------
    def dead(self) -> str | None:
        """What of the farm has died, or None."""
        procs = {"labgrid-coordinator": self.coordinator, "labgrid-exporter": self.exporter}
        procs |= {f"{fl} board's QEMU": b.proc for fl, b in self.boards.items()}
        for name, proc in procs.items():
            if proc is not None and proc.poll() is not None:
                return f"{name} exited ({proc.returncode})"
        return None

    def stop(self) -> None:
        """Stop the exporter (ser2net with it), the coordinator and the boards;
        remove the farm's directory (and the env files it wrote)."""
        _stop_group(self.exporter)
        _stop_group(self.coordinator)
        for b in self.boards.values():
            b.let_go()
            _stop_group(b.proc)
        if self.env_dir is not None:
            for fl in self.boards:
                self.env_file(fl).unlink(missing_ok=True)
        if self.workdir != Path() and self.workdir.is_dir():
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Farm:
        return self.start()

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.stop()


def up(farm: Farm) -> int:
    """Start the farm, say how to use it, serve until Ctrl-C or a part dies."""
    on_signals_stop()
    with farm:
        print(f"coordinator: {farm.address}   (LG_COORDINATOR={farm.address})")
        print(f"the farm's logs and state: {farm.workdir} (removed when it stops)")
        for fl, b in farm.boards.items():
            print(f"place {b.place}: {fl} board on {b.pty}; env {farm.env_file(fl)}")
        print(f"the suite through a place: build/lg-venv/bin/python -m rig.lab suite --lg-env "
              f"{farm.env_file(farm.targets[0])}\nCtrl-C stops the farm", flush=True)  # fmt: skip
        while True:
            why = farm.dead()
            if why is not None:
                print(f"lab: farm: {why}; stopping", file=sys.stderr)
                return 1
            time.sleep(1)


def run(farm: Farm, command: str) -> int:
    """Start the farm, run `command` (sh -c, in a process group of its own) with
    LG_COORDINATOR and LG_ENV (the first board's env file; UDRV_FARM_ENVS: all
    of them), stop the command's group and the farm; the command's exit status."""
    on_signals_stop()
    with farm:
        env = {**os.environ, "LG_COORDINATOR": farm.address,
               "LG_ENV": str(farm.env_file(farm.targets[0])),
               "UDRV_FARM_ENVS": " ".join(str(farm.env_file(f)) for f in farm.targets)}
        # its own process group, stopped whole when we are (SIGTERM, Ctrl-C):
        # what the command started in the background goes with it
        proc = subprocess.Popen(["sh", "-c", command], env=env, process_group=0)
        try:
            return proc.wait()
        finally:
            _stop_group(proc)


def _port(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,5}", text) or int(text) > 65535:
        raise ValueError(text)
    return int(text)


def cmd_farm(args: argparse.Namespace) -> int:
    farm = Farm(args.board or ["std"], port=args.port,
                env_dir=Path(args.env_dir) if args.env_dir else None)  # fmt: skip
    if args.farm_cmd == "up":
        return up(farm)
    command = " ".join(args.command[1:] if args.command[:1] == ["--"] else args.command)
    if not command.strip():
        raise LabError("no command given: python3 -m rig.lab farm run [--board std] -- CMD...")
    return run(farm, command)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`python3 -m rig.lab farm up|run`."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--board", action="append", choices=list(TARGETS), metavar="NAME",
                        help="a lab board to serve (repeatable; default std): "
                        f"{', '.join(TARGETS)}")  # fmt: skip
    common.add_argument("--port", type=_port, default=0,
                        help="the coordinator's port on 127.0.0.1 (default 0: a free one)")
    common.add_argument("--env-dir", metavar="DIR",
                        help="write the env files here (BOARD.yaml; removed when the farm "
                        "stops; default: the farm's temporary directory)")  # fmt: skip
    f = sub.add_parser(
        "farm", help="a labgrid coordinator, exporter and QEMU boards on localhost",
        description="A labgrid farm on this machine, listening on 127.0.0.1 only: "
        "labgrid-coordinator, labgrid-exporter (its serial ports served by ser2net) and "
        "the QEMU boards in their shell mode, each board's console a NetworkSerialPort "
        "in a place udrv-BOARD (tags board=, kernel=, udrv=1), and an environment file "
        "per board (RemotePlace + SerialDriver + ShellDriver + the board's features) for "
        "`python3 -m rig.lab suite --lg-env` and `pytest --lg-env`. Everything is stopped "
        "when the command ends, on Ctrl-C and on SIGTERM. Needs ser2net (apt-get "
        "install ser2net) and labgrid in build/lg-venv (docs/rig/lab.md).",
        epilog="examples:\n"
        "  python3 -m rig.lab farm up --board std --board rt        serve until Ctrl-C\n"
        "  python3 -m rig.lab farm run -- \\\n"
        "      'python3 -m rig.lab suite --lg-env \"$LG_ENV\" --quick'\n"
        "  python3 -m rig.lab farm run -- \\\n"
        "      'python3 -m rig.lab lg-reserve --lg-env \"$LG_ENV\" -- \\\n"
        "      build/lg-venv/bin/python -m pytest --lg-env \"$LG_ENV\" tests/lab -k smoke'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    how = f.add_subparsers(dest="farm_cmd", required=True, metavar="up|run")
    u = how.add_parser("up", parents=[common],
                       help="serve until Ctrl-C or SIGTERM (exit 1 when a part of it dies)")
    u.set_defaults(func=cmd_farm)
    r = how.add_parser("run", parents=[common],
                       help="start, run CMD with sh -c (LG_COORDINATOR; LG_ENV: the first "
                       "board's env file; UDRV_FARM_ENVS: all of them), stop; exit with "
                       "CMD's status")  # fmt: skip
    r.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD...")
    r.set_defaults(func=cmd_farm)
