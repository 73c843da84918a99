# SPDX-License-Identifier: GPL-2.0-only
"""The labgrid path's host side, with no board: the agent over a pipe (its
stdio mode, as over ssh) and over a pty (its tty mode, as on a labgrid
console), the Channel on those streams, and LabgridBoard's errors (labgrid
missing, a bad environment, an unknown target, a target without a shell).

The agent is rig/lab/image/guest/agent itself, run by the host's sh with coreutils.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rig.lab.boards import agent as agent_module
from rig.lab.boards.agent import Channel, ChannelTimeout, ConsoleStream, PipeStream, b64
from rig.lab.boards.labgrid_board import (
    LabgridBoard,
    LabgridError,
    import_labgrid,
    load_environment,
)
from rig.lab.errors import LabError
from rig.lab.paths import GUEST_DIR, REPO_ROOT
from rig.lab.suite.labgrid import target_plan

AGENT = GUEST_DIR / "agent"
ENVS = REPO_ROOT / "rig" / "lab" / "boards" / "envs"


def nothing() -> None:
    pass


class AgentProcess:
    """The agent run by the host's sh with -x, its trace in a file: when a
    deadline passes anyway (they are guards of 60 s, not races), the failure
    shows whether the agent read the line (a lost line) or not yet (a starved
    machine), and its processes."""

    def __init__(self, tmp_path: Path, args: list[str], env: dict[str, str] | None = None,
                 **popen: Any) -> None:  # fmt: skip
        self.tmp_path = tmp_path
        self.trace = tmp_path / "agent.xtrace"
        self.t0 = time.monotonic()
        env = {**os.environ, "UDRV_AGENT_DIR": str(tmp_path / "work"), **(env or {})}
        with self.trace.open("wb") as err:
            self.proc = subprocess.Popen(["sh", "-x", str(AGENT), *args], stderr=err, env=env,
                                         **popen)  # fmt: skip

    def diagnosis(self, what: str) -> str:
        procs = subprocess.run(["ps", "-eo", "pid,ppid,pgid,stat,etimes,args"],
                               capture_output=True, text=True).stdout.splitlines()  # fmt: skip
        mine = [ln for ln in procs if str(self.tmp_path) in ln]
        trace = [ln[:200] for ln in self.trace.read_text(errors="replace").splitlines()[-60:]]
        return "\n".join([f"{time.monotonic() - self.t0:.2f} s after the agent started: {what}",
                          "agent processes:", *mine, "agent xtrace (last 60 lines):", *trace])

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


class AgentChannel(Channel):
    """A Channel that knows its agent process, for run()'s diagnosis."""

    agent: AgentProcess | None = None


def run(chan: Channel, cmd: str, timeout: float = 60.0) -> tuple[int, bytes, bytes]:
    try:
        req = chan.request("RUN {id} " + b64(cmd.encode()), time.monotonic() + timeout)
        reply = chan.read_reply(req, time.monotonic() + timeout)
    except ChannelTimeout as exc:
        agent = getattr(chan, "agent", None)
        if agent is None:
            raise
        pytest.fail(agent.diagnosis(f"no reply to RUN {cmd[:60]!r} in {timeout:g} s ({exc})"))
    return reply.status, reply.out, reply.err


@pytest.fixture
def pipe_agent(tmp_path: Path) -> Iterator[Channel]:
    """The agent in stdio mode on a pipe, as `ssh board sh agent -` runs it."""
    agent = AgentProcess(tmp_path, ["-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    chan = AgentChannel(PipeStream(agent.proc), nothing)
    chan.agent = agent
    try:
        assert chan.wait_ready(time.monotonic() + 60) == os.uname().release
        yield chan
    finally:
        agent.stop()


def test_pipe_stream_run_stderr_status(pipe_agent: Channel) -> None:
    status, out, err = run(pipe_agent, "echo out; echo err >&2; printf 'no nl'; exit 7")
    assert (status, out, err) == (7, b"out\nno nl", b"err\n")


def test_pipe_stream_put_all_bytes_and_get(pipe_agent: Channel, tmp_path: Path) -> None:
    data = bytes(range(256)) * 64
    dest = tmp_path / "sub" / "f.bin"
    payload = b64(data).encode()
    deadline = time.monotonic() + 60
    req = pipe_agent.request(f"PUT {{id}} {b64(str(dest).encode())} 600 {len(payload)}", deadline)
    pipe_agent.wait_go(req, deadline)
    pipe_agent.send(payload, deadline)
    assert pipe_agent.read_reply(req, deadline).status == 0
    assert dest.read_bytes() == data
    assert dest.stat().st_mode & 0o777 == 0o600
    assert run(pipe_agent, f"cat {dest}")[1] == data


def test_pipe_stream_kill_ends_the_command(pipe_agent: Channel, tmp_path: Path) -> None:
    flag = tmp_path / "still-running"
    req = pipe_agent.request("RUN {id} " + b64(f"while :; do touch {flag}; sleep 0.05; done"
                                                .encode()), time.monotonic() + 5)  # fmt: skip
    # the loop runs (however late it starts on a busy host: a KILL before
    # that is test_kill_right_behind_its_run's case), and has not ended
    deadline = time.monotonic() + 60
    while not flag.exists():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    with pytest.raises(ChannelTimeout):
        pipe_agent.read_reply(req, time.monotonic() + 0.2)
    pipe_agent.send(f"KILL {req}\n".encode(), time.monotonic() + 5)
    # the board's channel waits KILL_REPLY_S for a killed command's END; a
    # timeout shows whether the agent read the KILL and what still runs
    # (the fresh make check of d355d9a: no END in 60 s, beside two shards)
    wait = agent_module.KILL_REPLY_S
    try:
        status = pipe_agent.read_reply(req, time.monotonic() + wait).status
    except ChannelTimeout as exc:
        assert isinstance(pipe_agent, AgentChannel) and pipe_agent.agent is not None
        pytest.fail(pipe_agent.agent.diagnosis(f"no END {wait:g} s after KILL {req} ({exc})"))
    assert status == 137
    flag.unlink()
    time.sleep(0.3)
    assert not flag.exists(), "the killed loop still runs"


@pytest.mark.parametrize("late", [0, 6], ids=["on time", "setsid 6 s late"])
def test_kill_right_behind_its_run(tmp_path: Path, late: int) -> None:
    """A KILL that reaches the agent with its RUN (one write: what a host sees
    when the agent was slow to read the RUN, under load), and the KILL of a
    RUN whose process has not started yet (a setsid 6 s late, longer than the
    agent's old 5 s of retries): neither is lost. END 137 comes, the script
    no longer runs, the loop goes on. On 17cdc6f both timed out: `head -n 1`
    took the KILL line with the RUN's, and the late start outlasted the
    retries. The late RUN's script never started (the mark was there first);
    the one on time may have started before the agent read the KILL (its
    session looked for the mark before it was made), and is killed: in 1 of
    311 runs beside a lab board it had touched its flag once.

    Only the killed RUN's setsid is late (the shim reads its delay from a
    file, emptied after the END): the next RUN shows that the loop goes on,
    not how long a second late start takes. The deadlines are guards, not
    races (60 s for what takes 6 s and 0.1 s idle); when one passes anyway,
    the failure shows the timeline, the agent's xtrace (did it read the
    line?) and its processes, to tell a lost line from a starved machine."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real = subprocess.run(["sh", "-c", "command -v setsid"], capture_output=True, text=True,
                          check=True).stdout.strip()
    delay = tmp_path / "setsid-delay"
    delay.write_text(str(late))
    shim = bin_dir / "setsid"
    shim.write_text(f"#!/bin/sh\nsleep $(cat {delay})\nexec {real} \"$@\"\n")
    shim.chmod(0o755)
    agent = AgentProcess(tmp_path, ["-"], {"PATH": f"{bin_dir}:{os.environ['PATH']}"},
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    chan = AgentChannel(PipeStream(agent.proc), nothing)
    chan.agent = agent
    flag = tmp_path / "ran"
    timeline: list[str] = []

    def mark(what: str) -> None:
        timeline.append(f"{time.monotonic() - agent.t0:.2f} s {what}")

    try:
        assert chan.wait_ready(time.monotonic() + 60) == os.uname().release
        req = chan.new_id()
        script = b64(f"while :; do touch {flag}; sleep 0.05; done".encode())
        chan.send(f"RUN {req} {script}\nKILL {req}\n".encode(), time.monotonic() + 5)
        mark("RUN+KILL sent")
        assert chan.read_reply(req, time.monotonic() + 60).status == 137
        mark("END 137")
        delay.write_text("0")
        if late:
            assert not flag.exists(), "the killed RUN's script ran"
        flag.unlink(missing_ok=True)
        time.sleep(0.3)
        assert not flag.exists(), "the killed RUN's script still runs"
        assert run(chan, "echo alive", timeout=60)[:2] == (0, b"alive\n")
    except ChannelTimeout as exc:
        pytest.fail("\n".join(["timeline:", *timeline, agent.diagnosis(str(exc))]))
    finally:
        agent.stop()


def test_stray_lines_are_kept_not_parsed(pipe_agent: Channel) -> None:
    status, out, _ = run(pipe_agent, "echo inside")
    assert (status, out) == (0, b"inside\n")
    pipe_agent.buf += b"[  12.5] some kernel message\n"
    assert run(pipe_agent, "echo again")[1] == b"again\n"
    assert b"[  12.5] some kernel message" in list(pipe_agent.stray)


class Clock:
    """A fake time.monotonic: the scripted stream moves it, so the deadline
    tests below do not race the host's clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class ScriptedStream:
    """A Stream whose chunks arrive after scripted gaps (seconds on @clock)."""

    def __init__(self, clock: Clock, chunks: list[tuple[float, bytes]]) -> None:
        self.clock = clock
        self.chunks = chunks

    def send(self, data: bytes, timeout: float) -> int:
        return len(data)

    def recv(self, timeout: float) -> bytes:
        if not self.chunks:
            self.clock.now += timeout
            return b""
        gap, data = self.chunks[0]
        if gap > timeout:  # not yet
            self.clock.now += timeout
            self.chunks[0] = (gap - timeout, data)
            return b""
        self.clock.now += gap
        self.chunks.pop(0)
        return data


def frame(req: int, out: list[bytes], gap: float) -> list[tuple[float, bytes]]:
    """Request @req's reply: one OUT line per item of @out, @gap seconds apart."""
    lines = [f"@@UDRV {req} OUT\n".encode(), *(b64(o).encode() + b"\n" for o in out),
             f"@@UDRV {req} ERR\n".encode(), f"@@UDRV {req} END 0\n".encode()]
    return [(gap, line) for line in lines]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(agent_module, "time", c)
    return c


def test_a_long_reply_completes_while_its_lines_keep_coming(clock: Clock) -> None:
    # 605 KB of bench JSON took 9-11 s over the rt-smp board's UART on a loaded
    # host, and more than the 60 s `cat` deadline once beside two other boards
    # (test_smp): the deadline is the command's, the transfer's is progress
    out = [bytes([65 + i % 26]) * 57 for i in range(100)]
    chan = Channel(ScriptedStream(clock, frame(7, out, 5.0)), nothing)
    t0 = clock.now
    reply = chan.read_reply(7, t0 + 60)
    assert reply.out == b"".join(out)
    assert clock.now - t0 == pytest.approx(5.0 * 103)


def test_a_reply_that_stops_times_out_after_its_silence(clock: Clock) -> None:
    chunks = [*frame(7, [b"x" * 57] * 3, 1.0)[:4], (61.0, b"@@UDRV 7 END 0\n")]
    chan = Channel(ScriptedStream(clock, chunks), nothing)
    t0 = clock.now
    with pytest.raises(ChannelTimeout):
        chan.read_reply(7, t0 + 3600)
    assert clock.now - t0 == pytest.approx(4.0 + 60.0)  # the last line, then 60 s


def test_no_reply_times_out_at_the_deadline(clock: Clock) -> None:
    chan = Channel(ScriptedStream(clock, frame(7, [b"late"], 70.0)), nothing)
    t0 = clock.now
    with pytest.raises(ChannelTimeout):
        chan.read_reply(7, t0 + 60)
    assert clock.now - t0 == pytest.approx(60.0)


def test_another_requests_frame_does_not_extend_the_deadline(clock: Clock) -> None:
    chunks = frame(6, [b"stale"] * 30, 5.0) + frame(7, [b"mine"], 1.0)
    chan = Channel(ScriptedStream(clock, chunks), nothing)
    t0 = clock.now
    with pytest.raises(ChannelTimeout):
        chan.read_reply(7, t0 + 60)
    assert clock.now - t0 == pytest.approx(60.0)


class FakeTimeout(Exception):
    pass


class PtyConsole:
    """What ConsoleStream needs of a labgrid console (write, read with
    size/timeout/max_size raising a TIMEOUT), on a pty's master side."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> int:
        return os.write(self.fd, data)

    def read(self, size: int = 1, timeout: float = 0.0, max_size: int | None = None) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            raise FakeTimeout
        return os.read(self.fd, max_size or 4096)


def test_console_stream_agent_on_a_tty_restores_it(tmp_path: Path) -> None:
    """The agent started on a console's tty takes it raw, serves, and on QUIT
    puts the tty's settings back (the shell on that console needs them)."""
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        agent = AgentProcess(tmp_path, [os.ttyname(slave)], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL)  # fmt: skip
        proc = agent.proc
        chan = AgentChannel(ConsoleStream(PtyConsole(master), FakeTimeout), nothing)
        chan.agent = agent
        assert chan.wait_ready(time.monotonic() + 60)
        assert termios.tcgetattr(slave) != before, "the agent did not take the tty raw"
        # a request longer than a canonical tty line (4095): the tty is raw
        long = "x" * 6000
        assert run(chan, f"echo {long} | wc -c") == (0, b"6001\n", b"")
        req = chan.request("QUIT {id}", time.monotonic() + 5)
        assert chan.read_reply(req, time.monotonic() + 60).status == 0
        assert proc.wait(10) == 0
        assert termios.tcgetattr(slave) == before, "the agent left the tty raw"
    finally:
        os.close(master)
        os.close(slave)


# -- LabgridBoard's errors ----------------------------------------------------------------
def test_labgrid_missing_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "labgrid", None)  # import labgrid -> ImportError
    with pytest.raises(LabgridError, match=r"labgrid is not installed.*build/lg-venv.*"
                       r"pip install labgrid==26\.0\.1"):  # fmt: skip
        import_labgrid()
    with pytest.raises(LabgridError, match="labgrid is not installed"):
        LabgridBoard(ENVS / "beaglebone-black.yaml")


def test_missing_env_file(tmp_path: Path) -> None:
    pytest.importorskip("labgrid")
    with pytest.raises(LabgridError, match=r"nothing\.yaml does not exist.*lg-env"):
        load_environment(tmp_path / "nothing.yaml")


def test_bad_env_file(tmp_path: Path) -> None:
    pytest.importorskip("labgrid")
    bad = tmp_path / "bad.yaml"
    bad.write_text("targets: [unclosed\n")
    with pytest.raises(LabgridError, match=r"bad\.yaml is not valid: InvalidConfigError"):
        load_environment(bad)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    with pytest.raises(LabgridError, match=r"empty\.yaml is not valid.*empty"):
        load_environment(empty)


def test_unknown_target_lists_the_targets(tmp_path: Path) -> None:
    pytest.importorskip("labgrid")
    env = tmp_path / "env.yaml"
    env.write_text("targets:\n  main:\n    drivers: {}\n  other:\n    drivers: {}\n")
    with pytest.raises(LabgridError, match=r"has no target 'bbb' \(it has: main, other\)"):
        LabgridBoard(env, "bbb")


def test_target_without_a_shell(tmp_path: Path) -> None:
    pytest.importorskip("labgrid")
    env = tmp_path / "env.yaml"
    env.write_text("targets:\n  main:\n    drivers: {}\n")
    with pytest.raises(LabgridError, match="has no ShellDriver or SSHDriver"):
        LabgridBoard(env)


def test_transport_option_must_be_possible(tmp_path: Path) -> None:
    pytest.importorskip("labgrid")
    env = tmp_path / "env.yaml"
    env.write_text(
        "targets:\n  main:\n    resources:\n      NetworkService:\n        address: 192.0.2.1\n"
        "        username: root\n    drivers:\n      SSHDriver: {}\n"
        "    options:\n      udrv-transport: console\n"
    )
    with pytest.raises(LabgridError, match="udrv-transport 'console' is not possible"):
        LabgridBoard(env)


# -- the example environments ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["beaglebone-black", "raspberrypi3", "raspberrypi5"])
def test_example_board_envs_load(name: str) -> None:
    """labgrid's own loader takes them and makes their targets (drivers and
    resources are made, nothing is opened); the features are udrv's."""
    pytest.importorskip("labgrid")
    from rig.lab.boards.api import FEATURES
    from rig.lab.boards.labgrid_board import target_features

    env = load_environment(ENVS / f"{name}.yaml")
    for t in env.config.get_targets():
        assert env.get_target(t) is not None
        feats = target_features(env, t)
        assert feats <= set(FEATURES), feats - set(FEATURES)
        assert "qemu" not in feats
        # the suite's plan from its wiring: the loopback's benches and the
        # responder on reply's jumpers (user and lib: no gpio-reply.ko)
        p, _, reply = target_plan(env, t, feats)
        assert {"toggle", "irq", "reply"} <= set(p.opts), p.skipped
        lines = " ".join(p.opts["reply"])
        assert lines.startswith(f"-c {reply.split()[0]} --trigger ") and \
            lines.endswith("--responder user,lib"), lines


def test_example_remote_place_env_loads() -> None:
    pytest.importorskip("labgrid")
    env = load_environment(ENVS / "remote-place.yaml")
    [target] = env.config.get_targets()
    conf = env.config.get_targets()[target]
    assert "RemotePlace" in conf["resources"]
    assert "ShellDriver" in conf["drivers"]


def test_lg_env_of_a_qemu_board() -> None:
    """The QEMUDriver's keys for each machine (no image is built here)."""
    from rig.lab.boards.labgrid_env import qemu_driver, render

    k, i, d = Path("/k"), Path("/i"), Path("/d")
    x86 = qemu_driver("std", k, i, None)
    assert x86["machine"] == "pc" and "-device edu" in x86["extra_args"]
    assert "-icount shift=0,sleep=off" in x86["extra_args"] and "-initrd /i" in x86["extra_args"]
    assert x86["boot_args"].startswith("console=ttyS0,115200 ")
    assert "udrv-lab.mode=shell" in x86["boot_args"] and "dtb" not in x86
    rpi = qemu_driver("rpi3", k, i, d)
    assert rpi["machine"] == "raspi3b" and rpi["extra_args"].startswith("-serial null ")
    assert "-M" not in rpi["extra_args"].split() and rpi["boot_args"].startswith("console=ttyS1")
    text = render("rt", k, i, None, "/usr/bin/qemu-system-x86_64")
    assert '"rt"' in text and '"qemu"' not in text.split("features:")[1].split("\n")[0]
    if importable("yaml"):
        import yaml

        doc = yaml.safe_load(text)
        drv = doc["targets"]["main"]["drivers"]
        assert drv["QEMUDriver"]["kernel"] == "kernel" and doc["images"]["kernel"] == "/k"
        assert set(doc["targets"]["main"]["features"]) == {
            "edu", "gpio-wire", "gpio-reply", "irqlat", "uio-ticker", "udrv-irq", "rt",
            "i2c-fixture", "spi-fixture", "pwm-fixture", "i2c-stub"}


def importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_a_labgrid_error_is_a_lab_error() -> None:
    assert issubclass(LabgridError, LabError)


# -- conftest's --lg-env fixtures and skips -------------------------------------------------
def test_lg_env_skips_name_the_missing_feature(tmp_path: Path) -> None:
    """A nested pytest --lg-env on a target that has a feature but no shell:
    the tests whose fixtures or lg_feature markers need what it lacks are
    skipped saying which feature and what it means, before any board is
    reached; a test the target qualifies for reaches for the board (and fails
    here: no shell driver), so the skips are not blanket ones."""
    pytest.importorskip("labgrid")
    env = tmp_path / "env.yaml"
    env.write_text("targets:\n  main:\n    drivers: {}\n    options:\n      udrv-flavour: fake\n"
                   "    features: [bcm2835]\n")  # fmt: skip
    tests = ["test_rt_kernel_is_preempt_rt", "test_std_kernel_is_not_rt",
             "test_runs_the_resolved_kernel", "test_edu_is_bound_to_uio_pci_generic",
             "test_exit_status_propagates"]  # fmt: skip
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider", "--lg-env",
         str(env), str(REPO_ROOT / "tests/lab/test_lab_smoke.py"), "-k", " or ".join(tests)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    out = r.stdout
    assert "4 skipped" in out and "1 error" in out, out
    assert "board_rt needs rt (a PREEMPT_RT kernel), which the labgrid target does not " \
        "have" in out, out
    assert "board_std needs gpio-wire (rig/kernel/gpio-wire is loaded" in out, out
    assert "the labgrid target lacks qemu (the board is one of the lab's own QEMU" in out, out
    assert "board needs gpio-wire" in out, out
    assert "test_exit_status_propagates[fake]" in out, \
        "udrv-flavour (udrv-target's old name) is the test id"
    assert "has no ShellDriver or SSHDriver" in out, out


# -- the SSH transport, with ssh and scp that run here --------------------------------------
FAKE_SSH = """#!/bin/sh
# ssh as labgrid's SSHDriver calls it, run here: a control master is a file,
# -O is a no-op, anything else runs the remote command with sh -c
ctl= master=0
while [ $# -gt 0 ]; do
	case $1 in
	-o | -p | -l | -i | -F) shift 2 ;;
	-S) ctl=$2; shift 2 ;;
	-O) exit 0 ;;
	-MN | -M | -N) master=1; shift ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift  # the host
if [ $master = 1 ]; then : >"$ctl"; exit 0; fi
exec sh -c "$*"
"""
FAKE_SCP = """#!/bin/sh
# scp ... SRC USER@HOST:DST, copied here
while [ $# -gt 2 ]; do shift; done
exec cp "$1" "${2#*:}"
"""


def test_ssh_transport_end_to_end(tmp_path: Path) -> None:
    """A target with only an SSHDriver: the agent is copied with scp (put),
    runs as `sh agent -` on the ssh process's pipes, and the board works as
    on a console (stdout/stderr/status, put/get, a killed timeout); udrv is
    deployed into udrv-dir/bin. Only the network hop is not real: ssh and
    scp are the env's tools, which run the command on this host."""
    pytest.importorskip("labgrid")
    if not (REPO_ROOT / "build" / "static" / "tools" / "udrv").is_file():
        pytest.skip("build/static has no udrv: make static")
    ssh, scp = tmp_path / "ssh", tmp_path / "scp"
    ssh.write_text(FAKE_SSH)
    scp.write_text(FAKE_SCP)
    ssh.chmod(0o755)
    scp.chmod(0o755)
    board_dir = tmp_path / "board"
    env = tmp_path / "env.yaml"
    env.write_text(
        "targets:\n  main:\n    resources:\n      NetworkService:\n        address: 192.0.2.1\n"
        "        username: root\n    drivers:\n      SSHDriver: {}\n    options:\n"
        f"      udrv-target: here\n      udrv-dir: {board_dir}\n"
        f"tools:\n  ssh: {ssh}\n  scp: {scp}\n"
    )  # fmt: skip
    with LabgridBoard(env, quiet=True) as b:
        assert (b.transport, b.target, b.release) == ("ssh", "here", os.uname().release)
        assert (board_dir / "agent").read_bytes() == AGENT.read_bytes()
        r = b.run("echo out; echo err >&2; exit 4")
        assert (r.status, r.stdout, r.stderr) == (4, "out\n", "err\n")
        data = bytes(range(256)) * 8
        b.put_bytes(data, str(tmp_path / "x.bin"), 0o640)
        assert b.get(str(tmp_path / "x.bin")) == data
        with pytest.raises(LabError, match="timed out after 1s and was killed"):
            b.run("while :; do :; done", timeout=1)
        assert b.run("command -v udrv").stdout.strip() == f"{board_dir}/bin/udrv"
        assert b.run("udrv --version").stdout.startswith("udrv ")
    assert b.dead == "closed" and b._proc is None


@pytest.mark.parametrize(("args", "want"), [
    (["-d", "-n", "-Y", "connection: &con01#  accepter: telnet(rfc2217,mode=server),tcp,4000",
      "-Y", "  connector: serialdev,/dev/pts/3,115200n81,local"],
     ["-d", "-n", "-Y",
      "connection: &con01#  accepter: telnet(rfc2217,mode=server),tcp,127.0.0.1,4000",
      "-Y", "  connector: serialdev,/dev/pts/3,115200n81,local"]),
    (["-d", "-n", "-C", "4000:telnet:0:/dev/pts/3:115200 NONE 1STOPBIT 8DATABITS LOCAL"],
     ["-d", "-n", "-C", "127.0.0.1,4000:telnet:0:/dev/pts/3:115200 NONE 1STOPBIT 8DATABITS LOCAL"]),
    (["-C4000:telnet:0:/dev/pts/3:115200"], ["-C127.0.0.1,4000:telnet:0:/dev/pts/3:115200"]),
    (["-C", "127.0.0.1,4000:raw:0:/dev/pts/3:115200"],
     ["-C", "127.0.0.1,4000:raw:0:/dev/pts/3:115200"]),
], ids=["accepter", "-C PORT", "-CPORT", "-C on loopback"])
def test_farm_ser2net_wrapper_pins_loopback(tmp_path: Path, args: list[str],
                                            want: list[str]) -> None:
    """rig/lab/farm.py's ser2net wrapper, with a stand-in for the real ser2net that
    prints the arguments it got: both forms an exporter may use end up on
    127.0.0.1 (the old -C PORT:telnet:... passed unchanged: every address)."""
    from rig.lab.farm import SER2NET_WRAPPER

    real = tmp_path / "real"
    real.write_text("#!/bin/sh\nprintf '%s\\n' \"$@\"\n")
    real.chmod(0o755)
    wrapper = tmp_path / "ser2net"
    wrapper.write_text(SER2NET_WRAPPER.format(python=sys.executable, real=str(real)))
    wrapper.chmod(0o755)
    r = subprocess.run([str(wrapper), *args], capture_output=True, text=True, timeout=30,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == want


@pytest.mark.parametrize("args", [["-C", "0.0.0.0,4000:telnet:0:/dev/pts/3:115200"],
                                  ["-C", "[::],4000:telnet:0:/dev/pts/3:115200"], ["-C"],
                                  ["-Y", "connection: &c#  accepter: tcp,2000"]])
def test_farm_ser2net_wrapper_refuses_what_it_does_not_know(tmp_path: Path,
                                                            args: list[str]) -> None:
    from rig.lab.farm import SER2NET_WRAPPER

    wrapper = tmp_path / "ser2net"
    wrapper.write_text(SER2NET_WRAPPER.format(python=sys.executable, real="/bin/true"))
    wrapper.chmod(0o755)
    r = subprocess.run([str(wrapper), *args], capture_output=True, text=True, timeout=30,
                       check=False)
    assert r.returncode != 0 and "refusing to listen beyond loopback" in r.stderr, r
