# SPDX-License-Identifier: GPL-2.0-only
"""`udrv gpio set --interactive`, libgpiod 2's `gpioset -i`: once the values
are set, commands from standard input (get, set, toggle, sleep, help, exit)
on the lines set holds, until exit, the end of the input or SIGTERM; a bad
command is said on stderr and the session goes on.

The chip is the character device tests/daemon/fake_cdev.c answers
(preloaded, tests/support/fake_gpio.py): its state file has each line's
holder (a pid), direction and level, which is what these tests read for
what the line does, not only udrv's output. No sleeps and no clocks: a test
that looks at the chip mid-session first waits for the reply of a `get`
sent after the commands it checks (udrv runs them in order), with a guard."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.fake_gpio import fake_chip, fake_env, line_state
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import TIMEOUT_S

NAMES = ["ID_SDA", "ID_SCL", "GPIO2", "GPIO3", "GPIO17", "GPIO27", "LED", "GPIO5"]
G17, G27 = 4, 5  # their offsets
PREFIX = "udrv gpio set: interactive: "


@pytest.fixture
def chip(tree: FakeTree) -> FakeTree:
    fake_chip(tree, "pinctrl-bcm2835", len(NAMES), NAMES)
    return tree


def level(t: FakeTree, offset: int) -> tuple[bool, bool, int]:
    """(held by someone, an output, the level) of gpiochip0's line @offset."""
    holder, direction, value, *_ = line_state(t, offset)
    return holder != "0", direction == "out", int(value)


def run(
    udrv_bin: Path, t: FakeTree, script: str | bytes, *args: str
) -> subprocess.CompletedProcess[bytes]:
    """udrv gpio set ARGS with @script on a pipe as its standard input."""
    data = script.encode() if isinstance(script, str) else script
    return subprocess.run(
        [str(udrv_bin), "gpio", "set", *args],
        input=data,
        env=fake_env(t),
        capture_output=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def read_until(fd: int, end: bytes, have: bytes = b"") -> tuple[bytes, bytes]:
    """What @fd gives up to and with @end (and what came after it), read
    as it comes (raw reads, a guard, no sleep)."""
    deadline = time.monotonic() + TIMEOUT_S
    while end not in have:
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        got = os.read(fd, 4096) if ready else b""
        assert got, f"udrv printed {have!r} and no more"
        have += got
    cut = have.index(end) + len(end)
    return have[:cut], have[cut:]


class Session:
    """udrv gpio set -i ARGS, its commands written as the test goes."""

    def __init__(self, udrv_bin: Path, t: FakeTree, *args: str) -> None:
        self.proc = subprocess.Popen(
            [str(udrv_bin), "gpio", "set", "-i", *args],
            env=fake_env(t),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.rest = b""

    def ask(self, commands: str) -> str:
        """Send @commands (ending with one that prints a line), that line."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(commands.encode())
        self.proc.stdin.flush()
        line, self.rest = read_until(self.proc.stdout.fileno(), b"\n", self.rest)
        return line.decode()

    def end(self) -> tuple[int, str]:
        """The end of the input: the exit status and stderr."""
        assert self.proc.stdin and self.proc.stderr
        self.proc.stdin.close()
        code = self.proc.wait(TIMEOUT_S)
        return code, self.proc.stderr.read().decode()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(TIMEOUT_S)


def test_commands_drive_the_lines(udrv_bin: Path, chip: FakeTree) -> None:
    s = Session(udrv_bin, chip, "GPIO17=0", "GPIO27=1")
    try:
        assert s.ask("get\n") == "GPIO17=0 GPIO27=1\n"
        assert level(chip, G17) == (True, True, 0) and level(chip, G27) == (True, True, 1)
        assert s.ask("set GPIO17=1\nget GPIO17\n") == "GPIO17=1\n"
        assert level(chip, G17) == (True, True, 1)  # the chip's line, not only udrv's word
        assert s.ask("toggle\nget\n") == "GPIO17=0 GPIO27=0\n"
        assert (level(chip, G17)[2], level(chip, G27)[2]) == (0, 0)
        assert s.ask("toggle GPIO27\nget GPIO27 GPIO17\n") == "GPIO27=1 GPIO17=0\n"
        assert (level(chip, G17)[2], level(chip, G27)[2]) == (0, 1)
        assert s.ask("set GPIO17=on GPIO27=inactive\nget\n") == "GPIO17=1 GPIO27=0\n"
        assert s.ask("set GPIO17=low GPIO27=high\nsleep 1ms\nget\n") == "GPIO17=0 GPIO27=1\n"
        assert level(chip, G27) == (True, True, 1)
        assert s.end() == (0, "")
    finally:
        s.kill()
    # the end of the input released them (the fake keeps the last level)
    assert level(chip, G17) == (False, True, 0) and level(chip, G27) == (False, True, 1)


def test_exit_ends_the_session(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "set GPIO17=1\nexit\nset GPIO17=0\nget\n", "-i", "GPIO17=0")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
    assert level(chip, G17) == (False, True, 1)  # released; nothing after exit ran
    r = run(udrv_bin, chip, "quit\nget\n", "-i", "GPIO17=0")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_the_last_line_needs_no_newline(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "\n  \n\tget\t GPIO17 \r\nset GPIO17=1", "-i", "GPIO17=0")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"GPIO17=0\n", b"")
    assert level(chip, G17) == (False, True, 1)


def test_offsets_as_given(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(
        udrv_bin,
        chip,
        f"toggle {G17}\nget {G27} {G17}\nget GPIO17\n",
        "-c",
        "0",
        "-i",
        f"{G17}=1",
        f"{G27}=0",
    )
    assert r.returncode == 0
    assert r.stdout == f"{G27}=0 {G17}=0\n".encode()
    assert r.stderr.decode() == (
        f"{PREFIX}'get GPIO17': GPIO17 is not one of the requested lines ({G17} {G27})\n"
    )
    assert level(chip, G17)[2] == 0


def test_json_get(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "toggle\nget GPIO27\n", "--json", "-i", "GPIO17=1", "GPIO27=1")
    assert r.returncode == 0, r.stderr
    text, docs, dec = r.stdout.decode(), [], json.JSONDecoder()
    while text.strip():
        doc, end = dec.raw_decode(text.lstrip())
        docs.append(doc)
        text = text.lstrip()[end:]
    assert docs == [
        {
            "chip": "gpiochip0",
            "backend": "cdev",
            "lines": [
                {"line": "GPIO17", "offset": G17, "value": 1},
                {"line": "GPIO27", "offset": G27, "value": 1},
            ],
        },
        {
            "chip": "gpiochip0",
            "backend": "cdev",
            "lines": [{"line": "GPIO27", "offset": G27, "value": 0}],
        },
    ]


BAD = [
    ("set GPIO99=1", "GPIO99 is not one of the requested lines (GPIO17 GPIO27)"),
    ("get gpio17", "gpio17 is not one of the requested lines (GPIO17 GPIO27)"),
    ("toggle GPIO17 GPIO17", "GPIO17 is given twice"),
    ("set GPIO17=2", "'GPIO17=2' is not LINE=VALUE (VALUE: 0, 1, on, off, active, inactive)"),
    ("set GPIO17", "'GPIO17' is not LINE=VALUE (VALUE: 0, 1, on, off, active, inactive)"),
    ("set =1", "'=1' is not LINE=VALUE (VALUE: 0, 1, on, off, active, inactive)"),
    ("set", "set takes LINE=VALUE..."),
    ("sleep", "sleep takes one DURATION (500ms, 1s)"),
    ("sleep 1ms 2ms", "sleep takes one DURATION (500ms, 1s)"),
    ("sleep 5x", "bad duration '5x': e.g. 500ms, 1s (at most 7 days)"),
    ("sleep 10081m", "bad duration '10081m': e.g. 500ms, 1s (at most 7 days)"),
    ("frobnicate", "unknown command 'frobnicate': try 'help'"),
    (
        "tgogle GPIO17",
        "unknown command 'tgogle': did you mean 'toggle'? ('help' lists the commands)",
    ),
    ("exit now", "exit takes no arguments"),
]


@pytest.mark.parametrize(("command", "why"), BAD, ids=[c for c, _ in BAD])
def test_a_bad_command_is_said_and_the_session_goes_on(
    udrv_bin: Path, chip: FakeTree, command: str, why: str
) -> None:
    r = run(udrv_bin, chip, f"{command}\nset GPIO27=0\nget\n", "-i", "GPIO17=1", "GPIO27=1")
    assert r.stderr.decode() == f"{PREFIX}'{command}': {why}\n"
    assert (r.returncode, r.stdout) == (0, b"GPIO17=1 GPIO27=0\n")  # nothing of it ran
    assert level(chip, G27)[2] == 0


def test_bad_commands_in_a_row(udrv_bin: Path, chip: FakeTree) -> None:
    script = "".join(f"{c}\n" for c, _ in BAD) + "get\n"
    r = run(udrv_bin, chip, script, "-i", "GPIO17=1", "GPIO27=1")
    assert (r.returncode, r.stdout) == (0, b"GPIO17=1 GPIO27=1\n")
    assert r.stderr.decode().splitlines() == [f"{PREFIX}'{c}': {w}" for c, w in BAD]


def test_long_lines_and_nul_bytes(udrv_bin: Path, chip: FakeTree) -> None:
    at_limit = "get" + " " * (4096 - 3 - len(" GPIO17")) + " GPIO17"  # 4096 bytes
    script = (
        f"{at_limit}\n"
        + "get"
        + " GPIO27" * 1000
        + "\nset GPIO17=1\n"
        + f"{at_limit} \nget\0 GPIO27\nget\n"
    )
    r = run(udrv_bin, chip, script, "-i", "GPIO17=0", "GPIO27=1")
    assert r.returncode == 0
    assert r.stdout == b"GPIO17=0\nGPIO17=1 GPIO27=1\n"
    assert r.stderr.decode().splitlines() == [
        f"{PREFIX}a command longer than 4096 bytes: ignored",
        f"{PREFIX}a command longer than 4096 bytes: ignored",
        f"{PREFIX}a command with a NUL byte: ignored",
    ]


def test_a_last_line_at_the_limit(udrv_bin: Path, chip: FakeTree) -> None:
    """No newline after it: what the reader holds at the end of the input."""
    at_limit = "get" + " " * (4096 - 3 - len(" GPIO17")) + " GPIO17"
    r = run(udrv_bin, chip, at_limit, "-i", "GPIO17=1")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"GPIO17=1\n", b"")
    r = run(udrv_bin, chip, " " + at_limit, "-i", "GPIO17=1")
    assert (r.returncode, r.stdout) == (0, b"")
    assert r.stderr.decode() == f"{PREFIX}a command longer than 4096 bytes: ignored\n"


def test_a_long_last_line(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "set GPIO17=1\n" + "x" * 10000, "-i", "GPIO17=0")
    assert (r.returncode, r.stdout) == (0, b"")
    assert r.stderr.decode() == f"{PREFIX}a command longer than 4096 bytes: ignored\n"
    assert level(chip, G17) == (False, True, 1)


def test_the_kernel_refusing_is_said_and_the_session_goes_on(
    udrv_bin: Path, chip: FakeTree
) -> None:
    s = Session(udrv_bin, chip, "GPIO17=0", "GPIO27=0")
    try:
        assert s.ask("get\n") == "GPIO17=0 GPIO27=0\n"
        # GPIO17 turns into an input under udrv: the fake refuses to drive it, as Linux does
        lines = chip.read("dev/gpiochip0.state").splitlines()
        fields = lines[G17].split()
        fields[1] = "in"
        lines[G17] = " ".join(fields)
        tmp = chip.path("dev/gpiochip0.state.test")
        tmp.write_text("\n".join(lines) + "\n")
        tmp.rename(chip.path("dev/gpiochip0.state"))
        assert s.ask("set GPIO17=1\nset GPIO27=1\nget GPIO27\n") == "GPIO27=1\n"
        code, err = s.end()
    finally:
        s.kill()
    assert code == 0
    assert err.startswith(f"{PREFIX}'set GPIO17=1': ") and "not permitted" in err, err
    assert len(err.splitlines()) == 1
    assert level(chip, G27) == (False, True, 1)


def test_help(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "help\n", "-i", "GPIO17=0")
    assert (r.returncode, r.stderr) == (0, b"")
    out = r.stdout.decode().splitlines()
    assert out[0].startswith("Commands")
    assert [ln.split()[0] for ln in out[1:]] == ["get", "set", "toggle", "sleep", "help", "exit"]


def sleeping(pid: int) -> None:
    """Wait until @pid sleeps in ppoll() with no file (the sleep command,
    not the wait for input: /proc/PID/syscall's first two arguments 0)."""
    deadline = time.monotonic() + TIMEOUT_S
    while Path(f"/proc/{pid}/syscall").read_text().split()[1:3] != ["0x0", "0x0"]:
        assert time.monotonic() < deadline, f"pid {pid} is not in the sleep"
        time.sleep(0.01)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_a_sleep(udrv_bin: Path, chip: FakeTree, sig: signal.Signals) -> None:
    s = Session(udrv_bin, chip, "GPIO17=1")
    try:
        assert s.ask("get\n") == "GPIO17=1\n"
        assert level(chip, G17) == (True, True, 1)
        assert s.proc.stdin
        s.proc.stdin.write(b"sleep 10080m\nset GPIO17=0\n")
        s.proc.stdin.flush()
        sleeping(s.proc.pid)
        s.proc.send_signal(sig)
        assert s.proc.wait(TIMEOUT_S) == 0
    finally:
        s.kill()
    assert level(chip, G17) == (False, True, 1)  # released, the set after it not run


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_wait_for_input(
    udrv_bin: Path, chip: FakeTree, sig: signal.Signals
) -> None:
    s = Session(udrv_bin, chip, "GPIO17=1")
    try:
        assert s.ask("get\n") == "GPIO17=1\n"
        s.proc.send_signal(sig)
        assert s.proc.wait(TIMEOUT_S) == 0
        assert s.proc.stderr and s.proc.stderr.read() == b""
    finally:
        s.kill()
    assert level(chip, G17) == (False, True, 1)


def test_the_prompt_is_for_a_terminal(udrv_bin: Path, chip: FakeTree) -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [str(udrv_bin), "gpio", "set", "-i", "GPIO17=1"],
        env=fake_env(chip),
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    try:
        assert proc.stdout
        out, rest = read_until(proc.stdout.fileno(), b"> ")
        assert (out, rest) == (b"udrv gpio> ", b"")
        os.write(master, b"get\n")
        out, rest = read_until(proc.stdout.fileno(), b"> ")
        assert (out, rest) == (b"GPIO17=1\nudrv gpio> ", b"")
        os.write(master, b"\x04")  # ^D: the end of the input
        assert proc.wait(TIMEOUT_S) == 0
        assert proc.stdout.read() == b"\n"  # the shell's prompt on a line of its own
    finally:
        proc.kill()
        proc.wait(TIMEOUT_S)
        os.close(master)
    assert level(chip, G17)[0] is False


def test_no_prompt_on_a_pipe(udrv_bin: Path, chip: FakeTree) -> None:
    r = run(udrv_bin, chip, "get\n", "-i", "GPIO17=1")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"GPIO17=1\n", b"")


CONFLICTS = [
    (
        ["--hold", "daemon"],
        "--interactive drives the lines from udrv itself; with --hold "
        "daemon udrvd holds them and udrv exits",
    ),
    (
        ["--daemonize"],
        "--interactive reads commands from the terminal (standard input), which "
        "--daemonize leaves for /dev/null",
    ),
    (
        ["-z", "--hold", "1s"],
        "--interactive reads commands from the terminal (standard input), "
        "which --daemonize leaves for /dev/null",
    ),
    (
        ["--hold", "1s"],
        "--interactive holds the lines until 'exit' or the end of the input: leave out --hold",
    ),
    (
        ["--hold", "forever"],
        "--interactive holds the lines until 'exit' or the end of the input: leave out --hold",
    ),
]


@pytest.mark.parametrize(("opts", "why"), CONFLICTS, ids=[" ".join(o) for o, _ in CONFLICTS])
def test_conflicts_are_usage_errors(
    udrv_bin: Path, chip: FakeTree, opts: list[str], why: str
) -> None:
    r = run(udrv_bin, chip, "set GPIO17=1\n", "--interactive", *opts, "GPIO17=0")
    assert r.returncode == 2
    assert r.stderr.decode() == f"udrv gpio set: {why}\nTry 'udrv gpio set --help'.\n"
    assert r.stdout == b""
    assert not chip.path("dev/gpiochip0.state").exists()  # nothing requested
