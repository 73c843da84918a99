# SPDX-License-Identifier: GPL-2.0-only
"""A labgrid target as a lab board (rig/lab/boards/api.py's LabBoard).

    from rig.lab.boards.labgrid_board import LabgridBoard
    with LabgridBoard("rig/lab/boards/envs/beaglebone-black.yaml") as b:   # target "main"
        print(b.run("uname -a").stdout)

The board runs the lab's own guest agent (rig/lab/image/guest/agent) over the labgrid
transport, so a command's stdout, stderr and exit status come back exactly, a
timed-out command is killed on the board, and files go both ways:

  console  the target's ShellDriver (on a SerialDriver, local or a
           NetworkSerialPort from an exporter, or a QEMUDriver): the agent is
           written to the board with the shell (base64, in chunks; skipped
           when its sha256 matches) and started as `sh AGENT $(tty)`; it
           takes the tty raw and puts it back when it quits
  ssh      the target's SSHDriver: the agent is copied with SSHDriver.put and
           runs as `sh AGENT -` on the SSH connection's stdin/stdout

How the shell is reached: a target with a strategy is moved to its "shell"
state; otherwise its ShellDriver / SSHDriver is activated, after powering a
QEMUDriver on (a QEMU board exists only while its driver runs; a real board's
power is left alone unless a strategy says otherwise).

Target options (`options:` of the target in the environment):
  udrv-target     the board's name in messages and test ids, the lab's name
                  for it (default: the labgrid target's name; udrv-flavour,
                  its name before 2026-12, is read too)
  udrv-transport  "console" or "ssh" (default: ssh when the target has an
                  SSHDriver, else console)
  udrv-dir        the agent's directory on the board (default /run/udrv-lab);
                  udrv is deployed into its bin/ when the board has none (or
                  another build), and that directory comes first on the
                  agent's PATH

The target's `features:` are the board's FEATURES (rig/lab/boards/api.py).
"""

from __future__ import annotations

import hashlib
import importlib
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from ..errors import BoardDead, BootError, LabError
from ..paths import GUEST_DIR, REPO_ROOT
from .agent import AgentClient, Channel, ChannelTimeout, ConsoleStream, PipeStream, b64
from .api import FEATURES

LG_VERSION = "26.0.1"
LG_VENV = REPO_ROOT / "build" / "lg-venv"
# uname -m -> the static build that runs there
STATIC_BUILDS = {"x86_64": "static", "aarch64": "arm64", "armv7l": "armhf"}
# what is deployed on a board without udrv: the CLI and the bench's peers
DEPLOY = {"udrv": "tools/udrv", "udrv-bench": "rig/bench/udrv-bench",
          "udrv-bench-peer": "rig/bench/peers/udrv-bench-peer",
          "udrv-bench-lgpio": "rig/bench/peers/udrv-bench-lgpio"}


class LabgridError(LabError):
    """labgrid is missing, or the environment / target cannot be used."""


def install_hint() -> str:
    return (
        f"labgrid {LG_VERSION} lives in its own venv, {LG_VENV} (`make check` makes it; by hand: "
        f"python3 -m venv {LG_VENV} && {LG_VENV}/bin/pip install labgrid=={LG_VERSION}); "
        f"run the lab with {LG_VENV}/bin/python"
    )


def import_labgrid() -> ModuleType:
    """The labgrid package, or LabgridError saying how to get it."""
    try:
        return importlib.import_module("labgrid")
    except ImportError as exc:
        raise LabgridError(
            f"labgrid is not installed for {sys.executable} ({exc}): {install_hint()}"
        ) from None


def load_environment(env_file: str | Path) -> Any:
    """labgrid.Environment(env_file), with the lab's errors."""
    lg = import_labgrid()
    path = Path(env_file)
    if not path.is_file():
        raise LabgridError(f"labgrid environment {path} does not exist (write one like "
                           "rig/lab/boards/envs/*.yaml; a QEMU board's: "
                           "python3 -m rig.lab lg-env)")
    try:
        return lg.Environment(config_file=str(path))
    except Exception as exc:  # labgrid raises InvalidConfigError, KeyError, YAML errors...
        raise LabgridError(f"labgrid environment {path} is not valid: "
                           f"{type(exc).__name__}: {exc}") from None  # fmt: skip


def udrv_target(env: Any, lg_target: str) -> str:
    """The lab's name of a labgrid target: its udrv-target option (udrv-flavour,
    the older spelling, too), else the labgrid target's name."""
    conf = env.config
    return str(conf.get_target_option(lg_target, "udrv-target",
                                      conf.get_target_option(lg_target, "udrv-flavour", lg_target)))


def target_features(env: Any, lg_target: str) -> frozenset[str]:
    """The env's features plus the target's (labgrid's `features:` keys)."""
    conf = env.config.get_targets().get(lg_target) or {}
    return frozenset(str(f) for f in (*env.get_features(), *(conf.get("features") or ())))


def describe_missing(missing: set[str] | frozenset[str]) -> str:
    return "; ".join(f"{f} ({FEATURES.get(f, 'not a udrv feature')})" for f in sorted(missing))


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Wait for the ssh process that carried the agent; kill it after 10 s."""
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


class LabgridBoard(AgentClient):
    """A labgrid target driven through the lab's guest agent (LabBoard)."""

    PUT_BYTES_PER_S = 5_000  # a 115200-baud console moves 11.5 kB/s at most

    def __init__(
        self,
        env_file: str | Path | None = None,
        lg_target: str = "main",
        *,
        env: Any = None,
        boot_timeout: float = 300.0,
        quiet: bool = False,
    ) -> None:
        self._lg = import_labgrid()
        self._lgx = importlib.import_module("labgrid.exceptions")
        if env is None:
            if env_file is None:
                raise LabgridError("LabgridBoard needs an environment file (or env=)")
            env = load_environment(env_file)
        self.env = env
        self.name = lg_target
        self.quiet = quiet
        self.dead: str | None = None
        self._console: deque[str] = deque(maxlen=400)
        self._proc: subprocess.Popen[bytes] | None = None
        self._qemu: Any = None
        self.channel: Channel | None = None
        t = env.get_target(lg_target)
        if t is None:
            names = ", ".join(env.config.get_targets()) or "none"
            raise LabgridError(f"labgrid environment {env.config_file} has no target {lg_target!r} "
                               f"(it has: {names})")  # fmt: skip
        self.lg_target = t
        self.target = udrv_target(env, lg_target)
        self.features = target_features(env, lg_target)
        self.dir = str(self._option("udrv-dir", "/run/udrv-lab"))
        self.kernel = "std"
        self.release = ""
        self.transport = ""  # "console" or "ssh"
        self.shell: Any = None  # the ShellDriver (console transport)
        self._ssh: Any = None
        try:
            self._start(boot_timeout)
            self.kernel = self._kernel()
            self._ensure_udrv()
        except BaseException:
            self.close()
            raise

    def _option(self, name: str, default: object) -> object:
        return self.env.config.get_target_option(self.name, name, default)

    # -- reaching a shell, starting the agent ---------------------------------------------
    def _driver(self, cls: str, activate: bool = False) -> Any:
        try:
            return self.lg_target.get_driver(cls, activate=activate)
        except self._lgx.NoDriverFoundError:
            return None

    def _start(self, timeout: float) -> None:
        t0 = time.monotonic()
        try:
            strategy = self.lg_target.get_strategy()
        except self._lgx.NoStrategyFoundError:
            strategy = None
        ssh = self._driver("SSHDriver")
        shell = self._driver("ShellDriver")
        if ssh is None and shell is None:
            raise LabgridError(f"labgrid target {self.name!r} has no ShellDriver or SSHDriver: "
                               "the lab needs a shell on the board (a serial console with a "
                               "ShellDriver, or SSH)")  # fmt: skip
        want = str(self._option("udrv-transport", "ssh" if ssh is not None else "console"))
        if want not in ("ssh", "console") or (want == "ssh" and ssh is None) or (
                want == "console" and shell is None):  # fmt: skip
            raise LabgridError(f"target {self.name!r}: udrv-transport {want!r} is not possible "
                               "(console needs a ShellDriver, ssh an SSHDriver)")  # fmt: skip
        try:
            if strategy is not None:
                strategy.transition("shell")
            else:
                self._qemu = self._driver("QEMUDriver")
                if self._qemu is not None:
                    self.lg_target.activate(self._qemu)
                    self._qemu.on()
            self.transport = want
            if want == "ssh":
                self.lg_target.activate(ssh)
                self._ssh = ssh
                self._start_ssh(ssh, t0 + timeout)
            else:
                self.lg_target.activate(shell)
                self.shell = shell
                self._start_console(shell, t0 + timeout)
        except LabError:
            raise
        except Exception as exc:  # labgrid's own: pexpect TIMEOUT, ExecutionError...
            raise BootError(f"labgrid target {self.name!r}: no shell on the board: "
                            f"{type(exc).__name__}: {exc}\n{self._tail()}") from None  # fmt: skip
        self.boot_seconds = time.monotonic() - t0
        if not self.quiet:
            print(f"lab: labgrid target {self.name} ({self.target}): kernel {self.release}, "
                  f"agent up in {self.boot_seconds:.1f}s", file=sys.stderr)  # fmt: skip

    def _agent_path(self) -> str:
        return f"{self.dir}/agent"

    def _start_console(self, shell: Any, deadline: float) -> None:
        agent = (GUEST_DIR / "agent").read_bytes()
        path = self._agent_path()

        def sh(cmd: str) -> tuple[int, str]:
            out, _, status = shell.run(cmd, timeout=60)
            return int(status), "\n".join(out)

        status, out = sh(f"sha256sum {path} 2>/dev/null")
        if out.split()[:1] != [hashlib.sha256(agent).hexdigest()]:
            text = b64(agent)
            sh(f"mkdir -p {self.dir}/bin && : > {path}.b64")
            for i in range(0, len(text), 512):
                status, out = sh(f"printf %s '{text[i : i + 512]}' >> {path}.b64")
                if status != 0:
                    raise BootError(f"cannot write the agent to {path}.b64 on the board: {out}")
            status, out = sh(f"base64 -d {path}.b64 > {path} && rm {path}.b64")
            if status != 0:
                raise BootError(f"cannot decode the agent on the board ({path}): {out}")
        console = shell.console
        self.channel = Channel(ConsoleStream(console, self._lg_timeout()), self._check)
        line = f"PATH={self.dir}/bin:$PATH UDRV_AGENT_DIR={self.dir}/work sh {path} $(tty)\n"
        console.write(line.encode())
        self._wait_ready(deadline)

    def _lg_timeout(self) -> type[BaseException]:
        pexpect = importlib.import_module("pexpect")
        return pexpect.TIMEOUT  # type: ignore[no-any-return]

    def _start_ssh(self, ssh: Any, deadline: float) -> None:
        agent = GUEST_DIR / "agent"
        path = self._agent_path()
        out, err, status = ssh.run(f"mkdir -p {self.dir}/bin")
        if status != 0:
            raise BootError(f"ssh: cannot make {self.dir} on the board: {' '.join(err or out)}")
        ssh.put(str(agent), path)
        ns = ssh.networkservice
        cmd = [ssh._ssh, "-x", *ssh.ssh_prefix, "-p", str(ns.port), "-l", ssh._get_username(),
               ns.address, f"PATH={self.dir}/bin:$PATH UDRV_AGENT_DIR={self.dir}/work "
               f"exec sh {path} -"]  # fmt: skip
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL)  # fmt: skip
        self.channel = Channel(PipeStream(self._proc), self._check)
        self._wait_ready(deadline)

    def _wait_ready(self, deadline: float) -> None:
        assert self.channel is not None
        try:
            self.release = self.channel.wait_ready(deadline)
        except ChannelTimeout as exc:
            raise BootError(f"labgrid target {self.name!r}: the udrv agent never answered "
                            f"({exc})\n{self._tail()}") from None  # fmt: skip

    def _kernel(self) -> str:
        r = self.run("cat /sys/kernel/realtime 2>/dev/null; uname -v", timeout=60)
        first = r.stdout.split("\n", 1)[0].strip()
        return "rt" if first == "1" or "PREEMPT_RT" in r.stdout else "std"

    def _ensure_udrv(self) -> None:
        """Deploy the matching static build when the board's udrv or udrv-bench
        is not ours."""
        r = self.run("uname -m; sha256sum $(command -v udrv) $(command -v udrv-bench) "
                     "2>/dev/null", timeout=60)
        lines = r.stdout.split("\n")
        arch = lines[0].strip()
        build = STATIC_BUILDS.get(arch)
        if build is None:
            self._note(f"no udrv build for {arch!r}; the board's own udrv (if any) is used")
            return
        root = REPO_ROOT / "build" / build
        cli = root / DEPLOY["udrv"]
        if not cli.is_file():
            raise LabError(f"the {self.target} board ({arch}) needs {cli}: run `make {build}`")
        have = [line.split()[0] for line in lines[1:] if line.strip()]
        ours = [root / DEPLOY[name] for name in ("udrv", "udrv-bench")]
        if have == [hashlib.sha256(p.read_bytes()).hexdigest() for p in ours if p.is_file()]:
            return
        for name, rel in DEPLOY.items():
            src = root / rel
            if src.is_file():
                self._note(f"deploying {src} to {self.dir}/bin/{name}")
                self.put(src, f"{self.dir}/bin/{name}", 0o755)

    def _note(self, text: str) -> None:
        self._console.append(f"[lab] {text}")
        if not self.quiet:
            print(f"lab: {self.target}: {text}", file=sys.stderr)

    # -- health ---------------------------------------------------------------------------
    def _check(self) -> None:
        if self.dead:
            raise BoardDead(f"board is dead: {self.dead}")
        child = getattr(self._qemu, "_child", None)
        if child is not None and child.poll() is not None:
            self._fail(BoardDead, f"QEMU exited (status {child.returncode})")
        if self._proc is not None and self._proc.poll() is not None:
            self._fail(BoardDead, f"the agent's ssh connection ended ({self._proc.returncode})")
        if self.channel is not None:
            panic = [ln for ln in self.channel.stray if b"Kernel panic" in ln]
            if panic:
                self._fail(BoardDead, "the kernel panicked: "
                           + panic[0].decode(errors="replace").strip())  # fmt: skip

    def _fail(self, kind: type[LabError], what: str) -> NoReturn:
        self.dead = self.dead or what
        raise kind(f"{self.target} board ({self.release}): {what}\n{self._tail()}")

    def console_tail(self, lines: int = 40) -> str:
        seen = list(self._console)
        if self.channel is not None:
            seen += [ln.decode(errors="replace") for ln in self.channel.stray]
        return "\n".join(seen[-lines:])

    def _tail(self) -> str:
        return f"--- last console lines (labgrid target {self.name}) ---\n{self.console_tail(40)}"

    # -- release ----------------------------------------------------------------------------
    def stop_agent(self) -> bool:
        """QUIT the agent; on a console the shell has its tty back after it.
        False when the agent did not confirm."""
        chan = self.channel
        if chan is None:
            return False
        try:
            req = chan.request("QUIT {id}", time.monotonic() + 5)
            chan.read_reply(req, time.monotonic() + 15)
        except (LabError, ChannelTimeout, OSError):
            return False
        finally:
            self.channel = None
            if self._proc is not None:  # ssh: the agent's end ends the connection
                _reap(self._proc)
                self._proc = None
        return True

    def start_agent(self, timeout: float = 120.0) -> None:
        """Start the agent again on the target's shell (after stop_agent)."""
        if self.channel is not None:
            return
        if self.transport == "ssh":
            self._start_ssh(self._ssh, time.monotonic() + timeout)
        else:
            self._start_console(self.shell, time.monotonic() + timeout)

    def close(self) -> None:
        """QUIT the agent (the console goes back to the shell), power a QEMU
        board off, deactivate the target's drivers."""
        if not self.dead:
            self.stop_agent()
        self.channel = None
        self.dead = self.dead or "closed"
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            _reap(self._proc)
            self._proc = None
        try:
            if self._qemu is not None and getattr(self._qemu, "status", 0):
                self._qemu.off()
        except Exception as exc:  # QEMU already gone: labgrid raises IOError
            self._note(f"QEMUDriver.off: {type(exc).__name__}: {exc}")
        self._qemu = None
        try:
            self.lg_target.deactivate_all_drivers()
        except Exception as exc:
            self._note(f"deactivating the target's drivers: {type(exc).__name__}: {exc}")

