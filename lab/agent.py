# SPDX-License-Identifier: GPL-2.0-only
"""Host side of the command channel to the guest agent (lab/guest/agent).

The channel is a byte stream (QEMU's second serial port, a unix socket on the
host).  Requests are single lines; replies are frames of lines that start with
"@@UDRV" (see lab/guest/agent for the grammar).  Anything else on the wire is
ignored, so stray guest output cannot confuse the parser.
"""

from __future__ import annotations

import base64
import binascii
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import LabError

MARK = b"@@UDRV "


class ChannelTimeout(Exception):
    """No complete reply before the deadline (the caller decides what that means)."""


@dataclass
class Reply:
    status: int
    out: bytes
    err: bytes


class Channel:
    """Line/frame I/O on a connected socket.  `check` is called while waiting and
    should raise (a LabError) when the guest is gone (QEMU exited, kernel panic)."""

    def __init__(self, sock: socket.socket, check: Callable[[], None]) -> None:
        self.sock = sock
        self.check = check
        self.buf = bytearray()
        self.next_id = 1

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
            self.sock.settimeout(min(0.5, remaining))
            try:
                n = self.sock.send(view[:65536])
            except TimeoutError:
                continue
            view = view[n:]

    def read_line(self, deadline: float) -> bytes:
        """One line (without the newline and any CR); raises ChannelTimeout."""
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line = bytes(self.buf[:nl]).rstrip(b"\r")
                del self.buf[: nl + 1]
                return line
            self.check()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChannelTimeout("no reply from the guest agent")
            self.sock.settimeout(min(0.5, remaining))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                self.check()
                raise ChannelTimeout("the agent channel was closed by QEMU")
            self.buf += chunk

    def wait_ready(self, deadline: float) -> str:
        """Wait for '@@UDRV READY <release>'; returns the release."""
        while True:
            line = self.read_line(deadline)
            idx = line.find(MARK + b"READY")
            if idx >= 0:
                return line[idx + len(MARK) + 5 :].decode(errors="replace").strip()

    def wait_go(self, req_id: int, deadline: float) -> None:
        """Wait for '@@UDRV <id> GO' (the agent is ready for a PUT's payload)."""
        want = MARK + f"{req_id} GO".encode()
        while True:
            line = self.read_line(deadline)
            idx = line.find(MARK)
            if idx >= 0 and line[idx:].strip() == want:
                return
            if idx >= 0 and line[idx:].startswith(MARK + f"{req_id} END".encode()):
                raise LabError(f"the agent refused the request: {line.decode(errors='replace')}")

    def read_reply(self, req_id: int, deadline: float) -> Reply:
        """Collect the OUT/ERR/END frame of request `req_id` (other ids are skipped)."""
        parts: dict[str, list[bytes]] = {"OUT": [], "ERR": []}
        section: str | None = None
        prefix = MARK + str(req_id).encode() + b" "
        while True:
            line = self.read_line(deadline)
            idx = line.find(MARK)
            if idx >= 0:
                line = line[idx:]
                if not line.startswith(prefix):
                    section = None  # a frame of another (stale) request
                    continue
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

    def request(self, line: str, deadline: float) -> int:
        """Send one request line (with {id} filled in); returns the id."""
        req_id = self.new_id()
        self.send(line.format(id=req_id).encode() + b"\n", deadline)
        return req_id


def _decode(lines: list[bytes]) -> bytes:
    data = b"".join(lines)
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return b"<undecodable agent output: " + data[:200] + b">"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
