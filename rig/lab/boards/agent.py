# SPDX-License-Identifier: GPL-2.0-only
"""Host side of the command channel to the guest agent (rig/lab/image/guest/agent).

The channel is a byte stream (a `Stream`): QEMU's second serial port (a unix
socket on the host, SocketStream), a labgrid target's console (ConsoleStream:
a serial port, local or a NetworkSerialPort, or QEMUDriver's) or a pipe to a
process (PipeStream: `ssh ... sh agent -`).  Requests are single lines;
replies are frames of lines that start with "@@UDRV" (see rig/lab/image/guest/agent for
the grammar).  Anything else on the wire is ignored, so stray guest output
(kernel messages on a console) cannot confuse the parser; the channel keeps
the last such lines (`stray`) for failure messages.
"""

from __future__ import annotations

import base64
import binascii
import os
import select
import shlex
import socket
import subprocess
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, Protocol, Self

from ..errors import BoardDead, CommandTimeout, LabError
from .api import CommandFailed, Result

MARK = b"@@UDRV "


class ChannelTimeout(Exception):
    """No complete reply before the deadline (the caller decides what that means)."""


class StreamClosed(Exception):
    """The other end closed the stream (QEMU exited, ssh ended)."""


class Stream(Protocol):
    """A byte stream to the agent.  Both calls wait at most `timeout` seconds."""

    def send(self, data: bytes, timeout: float) -> int:
        """Write some of `data`; returns how much (0: not writable in time)."""
        ...

    def recv(self, timeout: float) -> bytes:
        """Some bytes; b"" when none came in time; StreamClosed at the end."""
        ...


class SocketStream:
    """A connected socket (the QEMU boards' agent port)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def send(self, data: bytes, timeout: float) -> int:
        self.sock.settimeout(timeout)
        try:
            return self.sock.send(data)
        except TimeoutError:
            return 0

    def recv(self, timeout: float) -> bytes:
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            return b""
        if not chunk:
            raise StreamClosed("the agent channel was closed by QEMU")
        return chunk


class ConsoleStream:
    """A labgrid ConsoleProtocol driver (SerialDriver, QEMUDriver): its write()
    and read(); read's pexpect TIMEOUT means nothing came in time."""

    CHUNK = 4096

    def __init__(self, console: Any, timeout_exc: type[BaseException]) -> None:
        self.console = console
        self.timeout_exc = timeout_exc

    def send(self, data: bytes, timeout: float) -> int:
        try:
            n = self.console.write(bytes(data[: self.CHUNK]))
        except BlockingIOError:  # QEMUDriver's socket is non-blocking
            time.sleep(min(timeout, 0.01))
            return 0
        except OSError as exc:  # pyserial's SerialException: a network console went away
            raise StreamClosed(f"the console connection ended: {exc}") from exc
        return len(data[: self.CHUNK]) if n is None else int(n)

    def recv(self, timeout: float) -> bytes:
        try:
            return bytes(self.console.read(size=1, timeout=timeout, max_size=65536))
        except self.timeout_exc:
            return b""
        except OSError as exc:  # the exporter or its ser2net stopped
            raise StreamClosed(f"the console connection ended: {exc}") from exc


class PipeStream:
    """A subprocess's stdin and stdout (the agent in stdio mode, over ssh)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.stdin is None or proc.stdout is None:
            raise ValueError("PipeStream needs a process with stdin and stdout pipes")
        self.proc = proc
        self.wfd = proc.stdin.fileno()
        self.rfd = proc.stdout.fileno()
        os.set_blocking(self.wfd, False)

    def send(self, data: bytes, timeout: float) -> int:
        _, ready, _ = select.select([], [self.wfd], [], timeout)
        if not ready:
            return 0
        try:
            return os.write(self.wfd, data)
        except BlockingIOError:
            return 0
        except BrokenPipeError as exc:
            raise StreamClosed(f"the agent's process exited ({self.proc.poll()})") from exc

    def recv(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.rfd], [], [], timeout)
        if not ready:
            return b""
        chunk = os.read(self.rfd, 65536)
        if not chunk:
            raise StreamClosed(f"the agent's process ended its output ({self.proc.poll()})")
        return chunk


REPLY_PROGRESS_S = 60.0  # a started reply's longest silence (Channel.read_reply)


@dataclass
class Reply:
    status: int
    out: bytes
    err: bytes


class Channel:
    """Line/frame I/O on a stream (a connected socket is wrapped in a
    SocketStream).  `check` is called while waiting and should raise (a
    LabError) when the guest is gone (QEMU exited, kernel panic)."""

    STRAY_LINES = 200

    def __init__(self, stream: Stream | socket.socket, check: Callable[[], None]) -> None:
        self.stream: Stream = SocketStream(stream) if isinstance(stream, socket.socket) else stream
        self.check = check
        self.buf = bytearray()
        self.next_id = 1
        self.stray: deque[bytes] = deque(maxlen=self.STRAY_LINES)  # lines outside any frame

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            self.check()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChannelTimeout("sending to the guest timed out")
            try:
                n = self.stream.send(view[:65536], min(0.5, remaining))
            except StreamClosed as exc:
                self.check()
                raise ChannelTimeout(str(exc)) from exc
            view = view[n:]

    def read_line(self, deadline: float) -> bytes:
        """One line (without the newline and any CR); raises ChannelTimeout.
        The guest's health is checked only when nothing came: what the agent
        wrote before its end (a reply, then QUIT's exit) is read first."""
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line = bytes(self.buf[:nl]).rstrip(b"\r")
                del self.buf[: nl + 1]
                return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.check()
                raise ChannelTimeout("no reply from the guest agent")
            try:
                chunk = self.stream.recv(min(0.5, remaining))
            except StreamClosed as exc:
                self.check()
                raise ChannelTimeout(str(exc)) from exc
            if not chunk:
                self.check()
            self.buf += chunk

    def wait_ready(self, deadline: float) -> str:
        """Wait for '@@UDRV READY <release>'; returns the release."""
        while True:
            line = self.read_line(deadline)
            idx = line.find(MARK + b"READY")
            if idx >= 0:
                self._stray(line[:idx])
                return line[idx + len(MARK) + 5 :].decode(errors="replace").strip()
            self._stray(line)

    def wait_go(self, req_id: int, deadline: float) -> None:
        """Wait for '@@UDRV <id> GO' (the agent is ready for a PUT's payload)."""
        want = MARK + f"{req_id} GO".encode()
        while True:
            line = self.read_line(deadline)
            idx = line.find(MARK)
            self._stray(line[:idx] if idx >= 0 else line)
            if idx >= 0 and line[idx:].strip() == want:
                return
            if idx >= 0 and line[idx:].startswith(MARK + f"{req_id} END".encode()):
                raise LabError(f"the agent refused the request: {line.decode(errors='replace')}")

    def read_reply(self, req_id: int, deadline: float,
                   progress_s: float = REPLY_PROGRESS_S) -> Reply:  # fmt: skip
        """Collect the OUT/ERR/END frame of request `req_id` (other ids are skipped).

        @deadline bounds the wait for the frame's first line: the agent
        starts a reply when the command has ended, so it is the command's
        time.  The frame then takes what its size needs over the link
        (605 KB of bench JSON over an emulated UART: 9 to 11 s on a loaded
        host, more beside other boards), as long as its lines keep coming:
        it times out only when none came for @progress_s."""
        parts: dict[str, list[bytes]] = {"OUT": [], "ERR": []}
        section: str | None = None
        started = False
        prefix = MARK + str(req_id).encode() + b" "
        while True:
            line = self.read_line(time.monotonic() + progress_s if started else deadline)
            idx = line.find(MARK)
            if idx >= 0:
                self._stray(line[:idx])
                line = line[idx:]
                if not line.startswith(prefix):
                    section = None  # a frame of another (stale) request
                    continue
                started = True
                word, _, rest = line[len(prefix) :].decode(errors="replace").partition(" ")
                if word in parts:
                    section = word
                elif word == "END":
                    try:
                        status = int(rest.strip() or "0")
                    except ValueError:
                        status = 255
                    return Reply(status, _decode(parts["OUT"]), _decode(parts["ERR"]))
                continue
            if section is not None:
                parts[section].append(line.strip())
            else:
                self._stray(line)

    def _stray(self, line: bytes) -> None:
        if line.strip():
            self.stray.append(line)

    def request(self, line: str, deadline: float) -> int:
        """Send one request line (with {id} filled in); returns the id."""
        req_id = self.new_id()
        self.send(line.format(id=req_id).encode() + b"\n", deadline)
        return req_id


KILL_REPLY_S = 120.0  # wait for the agent to report a killed command


class AgentClient:
    """A board's commands over its agent channel (rig.lab.strategy.Board and
    rig.lab.boards.labgrid_board.LabgridBoard): run, put, put_bytes, get.  The board
    provides `channel`, `_check()` (raise when the board is gone) and
    `_fail(kind, what)` (mark it dead and raise) and `close()` (what `with` calls)."""

    PUT_BYTES_PER_S = 10_000  # of base64: what a put's deadline allows for
    channel: Channel | None

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.close()

    def _check(self) -> None:
        raise NotImplementedError

    def _fail(self, kind: type[LabError], what: str) -> NoReturn:
        raise NotImplementedError

    def _chan(self) -> Channel:
        self._check()
        if self.channel is None:
            raise BoardDead("the board has no agent channel (not started, or stopped)")
        return self.channel

    def run(self, cmd: str, timeout: float = 60.0, *, check: bool = False) -> Result:
        """Run a shell command on the board; timeout is host wall seconds until
        its reply begins (the command's run: the reply itself then takes what
        its size needs, Channel.read_reply).

        On timeout the command's process group is killed on the board and
        CommandTimeout is raised (the board stays usable)."""
        t0 = time.monotonic()
        req = self._request("RUN {id} " + b64(cmd.encode()), t0 + 60)
        try:
            reply = self._chan().read_reply(req, t0 + timeout)
        except ChannelTimeout as exc:
            if isinstance(exc.__cause__, StreamClosed):  # not a timeout: the link is gone
                self._fail(BoardDead, f"{exc} (running {cmd!r})")
            self._kill_command(req, cmd, timeout)
        result = Result(reply.status, reply.out, reply.err, time.monotonic() - t0)
        if check and result.status != 0:
            raise CommandFailed(cmd, result)
        return result

    def _request(self, line: str, deadline: float) -> int:
        chan = self._chan()
        try:
            return chan.request(line, deadline)
        except (ChannelTimeout, OSError) as exc:
            self._fail(BoardDead, f"cannot send to the guest agent: {exc}")

    def _kill_command(self, req: int, cmd: str, timeout: float) -> NoReturn:
        chan = self._chan()
        try:
            chan.send(f"KILL {req}\n".encode(), time.monotonic() + 10)
            # generous: a guest full of CPU hogs on a busy host (emulated
            # rpi3, several boards at once) can take tens of seconds
            reply = chan.read_reply(req, time.monotonic() + KILL_REPLY_S)
        except (ChannelTimeout, OSError):
            pass
        else:
            # 137: the kill ended it; anything else: it had ended by itself,
            # and its reply had not begun within the timeout (a starved agent)
            how = ("and was killed" if reply.status == 137 else
                   f"(exit {reply.status}: it had ended, but its reply began only after "
                   "the kill was sent: the agent was slow to answer)")  # fmt: skip
            raise CommandTimeout(
                f"guest command {cmd!r} timed out after {timeout:g}s {how}",
                Result(reply.status, reply.out, reply.err, timeout),
            )
        self._fail(BoardDead, f"guest command {cmd!r} timed out after {timeout:g}s "
                   "and the agent did not answer the kill")  # fmt: skip

    def put(self, host_path: str | Path, guest_path: str, mode: int | None = None) -> None:
        """Copy a host file onto the board (parent dirs are created)."""
        src = Path(host_path)
        data = src.read_bytes()
        perm = mode if mode is not None else (src.stat().st_mode & 0o777)
        self.put_bytes(data, guest_path, perm)

    def put_bytes(self, data: bytes, guest_path: str, mode: int = 0o644) -> None:
        payload = b64(data).encode()
        deadline = time.monotonic() + 60 + len(payload) / self.PUT_BYTES_PER_S
        line = f"PUT {{id}} {b64(guest_path.encode())} {mode:o} {len(payload)}"
        req = self._request(line, deadline)
        chan = self._chan()
        try:
            chan.wait_go(req, deadline)
            chan.send(payload, deadline)
            reply = chan.read_reply(req, deadline)
        except ChannelTimeout as exc:
            self._fail(BoardDead, f"put {guest_path}: {exc}")
        if reply.status != 0:
            raise LabError(f"put {guest_path} failed: {reply.err.decode(errors='replace').strip()}")

    def get(self, guest_path: str, timeout: float = 120.0) -> bytes:
        """A board file's contents."""
        r = self.run(f"cat < {shlex.quote(guest_path)}", timeout=timeout)
        if r.status != 0:
            raise LabError(f"get {guest_path} failed: {r.stderr.strip()}")
        return r.stdout_bytes


def _decode(lines: list[bytes]) -> bytes:
    data = b"".join(lines)
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return b"<undecodable agent output: " + data[:200] + b">"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
