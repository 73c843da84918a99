# SPDX-License-Identifier: GPL-2.0-only
"""udrv.Request.respond(): libudrv's responder with a Python callback.

The blocking read of edge events needs a character device: those tests run
a Python with tests/daemon's fake one preloaded (fake_cdev.c; its edges come
from the chip's FIFO gpiochip0.events, which the test writes while the
responder waits: FAKE_CDEV_BLOCKING_READ makes its read block). The busy
loop runs here, on the fake sysfs chip of conftest. No fake irq thread:
the responder would raise a real pid (the C unit tests,
tests/lib/test_responder.c, fake the scheduler for that)."""

from __future__ import annotations

import errno
import json
import os
import struct
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import udrv
from conftest import BASE, CtrlC

from tests.daemon.conftest import GUARD_S, binary, chip_file
from tests.support.fakes import FakeTree, GpioExports, gpio_bus

IN, OUT = 5, 6
RISING, FALLING = 1, 2  # GPIO_V2_LINE_EVENT_*


def can_fifo() -> bool:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except PermissionError:
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


needs_fifo = pytest.mark.skipif(not can_fifo(), reason="this process may not use SCHED_FIFO")


def event(seq: int, offset: int = IN) -> bytes:
    """struct gpio_v2_line_event: rising at odd seqnos."""
    return struct.pack("<QIIII6I", 1000 * seq, RISING if seq % 2 else FALLING, offset, seq, seq,
                       *[0] * 6)  # fmt: skip


@pytest.fixture
def cdev(tree: FakeTree) -> FakeTree:
    """gpiochip0 "fake-a" (8 lines) answered by fake_cdev, with its events FIFO."""
    gpio_bus(tree)
    chip_file(tree, 0, "fake-a", [""] * 8)
    os.mkfifo(tree.path("dev/gpiochip0.events"))
    return tree


def feed(tree: FakeTree, seqs: range) -> threading.Thread:
    """Edges of line IN, written to the FIFO once the request opened it (a
    FIFO keeps what is written only while someone has it open): a thread."""
    def write() -> None:
        deadline = time.monotonic() + GUARD_S
        while time.monotonic() < deadline:
            try:
                fd = os.open(tree.path("dev/gpiochip0.events"), os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:  # ENXIO: no reader yet
                assert e.errno == errno.ENXIO, e
                time.sleep(0.01)
                continue
            os.write(fd, b"".join(event(s) for s in seqs))
            os.close(fd)
            return

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


PROLOGUE = """
import json, os, signal, udrv
BOTH = udrv.LineSettings(edge=udrv.Edge.BOTH)
OUTPUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)

def sched():
    return [os.sched_getscheduler(0), os.sched_getparam(0).sched_priority]

def request(chip):
    return chip.request({5: BOTH, 6: OUTPUT}, consumer="resp")
"""
EPILOGUE = """
try:
    out = {"result": main()}
except (OSError, ValueError, KeyboardInterrupt) as e:
    out = {"error": type(e).__name__, "errno": getattr(e, "errno", None), "msg": str(e)}
out["after"] = sched()
print(json.dumps(out))
"""


def fake_env(tree: FakeTree) -> dict[str, str]:
    """The environment of a Python with the fake character device."""
    fake = binary("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so")
    preload = " ".join(p for p in (os.environ.get("LD_PRELOAD", ""), str(fake)) if p)
    return {**os.environ, "UDRV_SYSROOT": str(tree.root), "LD_PRELOAD": preload,
            "FAKE_CDEV_BLOCKING_READ": "1"}


def run_fake(tree: FakeTree, code: str, seqs: range) -> dict[str, object]:
    """@code's main() in a Python with the fake character device: what it
    returned or raised, and the scheduling it ended with."""
    script = PROLOGUE + textwrap.dedent(code) + EPILOGUE
    feeder = feed(tree, seqs)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=GUARD_S, env=fake_env(tree), check=False)  # fmt: skip
    feeder.join(GUARD_S)
    assert res.returncode == 0 and res.stdout.strip(), res.stdout + res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert isinstance(out, dict)
    return out


def level(tree: FakeTree, offset: int) -> int:
    """The fake chip's level of a line (fake_cdev.c's state file)."""
    return int(tree.read("dev/gpiochip0.state").splitlines()[offset].split()[2])


RESPOND = """
def main():
    seen = []
    with udrv.Chip("gpiochip0") as chip, request(chip) as req:
        def answer(r, ev):
            seen.append([ev.seqno, ev.edge.name, ev.offset, ev.index] + sched())
            r.set_value(6, 1 if ev.edge == udrv.Edge.RISING else 0)
            return len(seen) == 2
        threads = req.respond(answer, line={line}, priority={prio})
    return {{"seen": seen, "threads": threads}}
"""


@needs_fifo
def test_respond_answers_at_fifo_and_puts_it_back(cdev: FakeTree) -> None:
    out = run_fake(cdev, RESPOND.format(line=IN, prio=80), range(1, 4))
    assert "result" in out, out
    assert out["result"] == {"seen": [[1, "RISING", IN, 0, os.SCHED_FIFO, 80],
                                      [2, "FALLING", IN, 0, os.SCHED_FIFO, 80]],
                             "threads": []}, out  # fmt: skip
    assert out["after"] == [os.SCHED_OTHER, 0]
    assert level(cdev, OUT) == 0  # the second answer


def test_respond_at_sched_other_by_name_of_offset(cdev: FakeTree) -> None:
    out = run_fake(cdev, RESPOND.format(line=IN, prio=0), range(1, 3))
    assert out["result"] == {"seen": [[1, "RISING", IN, 0, os.SCHED_OTHER, 0],
                                      [2, "FALLING", IN, 0, os.SCHED_OTHER, 0]],
                             "threads": []}, out  # fmt: skip


@needs_fifo
@pytest.mark.parametrize(("raised", "error"), [("raise ValueError('boom')", "ValueError"),
                                               ("os.kill(os.getpid(), signal.SIGINT)",
                                                "KeyboardInterrupt")])  # fmt: skip
def test_an_exception_in_the_callback_stops_it_and_propagates(cdev: FakeTree, raised: str,
                                                              error: str) -> None:  # fmt: skip
    out = run_fake(cdev, f"""
        def main():
            calls = []
            def answer(r, ev):
                calls.append(sched())
                {raised}
            signal.signal(signal.SIGINT, signal.default_int_handler)
            with udrv.Chip("gpiochip0") as chip, request(chip) as req:
                try:
                    req.respond(answer, line=5, priority=70, lock_memory=False)
                finally:
                    print(json.dumps({{"calls": calls}}))
        """, range(1, 4))
    assert out["error"] == error, out
    assert out["after"] == [os.SCHED_OTHER, 0]


def test_refusals(cdev: FakeTree) -> None:
    out = run_fake(cdev, """
        def main():
            got = []
            with udrv.Chip("gpiochip0") as chip, request(chip) as req:
                for kw in ({"line": 6}, {"line": 5, "priority": 80, "irq_priority": 80},
                           {"line": 5, "priority": 100}):
                    try:
                        req.respond(lambda r, ev: True, **kw)
                    except udrv.Error as e:
                        got.append([type(e).__name__, e.strerror])
            return got
        """, range(0))
    got = out["result"]
    assert isinstance(got, list) and len(got) == 3, out
    assert got[0][0] == "InvalidError" and "line 6 of gpiochip0 (index 1) is an output" in got[0][1]
    assert "irq_priority 80 is not above priority 80: an inversion" in got[1][1]
    assert "SCHED_FIFO priorities are 1..99" in got[2][1]


# ---- the busy loop, on the fake sysfs chip ----


SYSFS = udrv.Backend.SYSFS


def put(value: Path, level: bytes) -> None:
    """A level written in place, one byte: never a file that a read finds
    empty."""
    with value.open("r+b", buffering=0) as f:
        f.write(level)


def test_busy_sees_the_level_change(exports: GpioExports, tree: FakeTree) -> None:
    seen: list[tuple[udrv.Edge, int]] = []
    with udrv.Chip(0) as chip, chip.request(
            {IN: None, OUT: udrv.LineSettings(direction=udrv.Direction.OUTPUT)},
            backend=SYSFS) as req:  # fmt: skip
        def answer(r: udrv.Request, ev: udrv.EdgeEvent) -> bool:
            seen.append((udrv.Edge(ev.edge), ev.seqno))
            r.set_value(OUT, 1)
            return True

        value = tree.path(f"sys/class/gpio/gpio{BASE + IN}/value")
        put(value, b"0")
        timer = threading.Timer(0.1, put, (value, b"1"))
        timer.start()
        try:
            threads = req.respond(answer, line=IN, wait="busy", busy_pause_us=100)
        finally:
            timer.cancel()
        assert threads == []
        assert tree.read(f"sys/class/gpio/gpio{BASE + OUT}/value").startswith("1")
    assert seen == [(udrv.Edge.RISING, 1)]


def test_busy_stops_on_ctrl_c(exports: GpioExports, ctrl_c: CtrlC) -> None:
    with udrv.Chip(0) as chip, chip.request({IN: None}, backend=SYSFS) as req:
        ctrl_c(req.release)
        with pytest.raises(KeyboardInterrupt):
            req.respond(lambda r, ev: False, line=IN, wait="busy", busy_spin_us=500)
        assert os.sched_getscheduler(0) == os.SCHED_OTHER


def test_read_needs_the_character_device(exports: GpioExports) -> None:
    exports.fifo_values.add(BASE + IN)  # pollable: edges on sysfs
    with udrv.Chip(0) as chip, chip.request({IN: udrv.LineSettings(edge=udrv.Edge.BOTH)},
                                            backend=SYSFS) as req:  # fmt: skip
        with pytest.raises(udrv.Error) as e:
            req.respond(lambda r, ev: True, line=IN)
        assert "the sysfs backend has no edge events to block on" in str(e.value.strerror)
        assert "UDRV_RESPOND_BUSY" in str(e.value.strerror)


def test_irq_needs_the_kernel_helper(exports: GpioExports) -> None:
    """wait="irq" asks /dev/udrv-irq for the line: without the module the
    error says how to load it (the helper itself: tests/lab)."""
    with udrv.Chip(0) as chip, chip.request({OUT: None}, backend=SYSFS) as req:
        with pytest.raises(udrv.Error) as e:
            req.respond(lambda r, ev: True, line=IN, wait="irq")
        assert "/dev/udrv-irq does not exist" in str(e.value.strerror)
        assert "modprobe udrv-irq" in str(e.value.strerror)
        assert os.sched_getscheduler(0) == os.SCHED_OTHER


def test_irq_line_is_the_helpers(exports: GpioExports) -> None:
    """wait="irq": the helper requests the input line itself, so a line the
    request holds is refused before anything is changed; a name is not an
    offset."""
    with udrv.Chip(0) as chip, chip.request({IN: None}, backend=SYSFS) as req:
        with pytest.raises(udrv.Error) as e:
            req.respond(lambda r, ev: True, line=IN, wait="irq")
        assert e.value.errno == errno.EINVAL
        assert "is the request's (index 0): with UDRV_RESPOND_IRQ_LINE the helper udrv-irq " \
               "requests the input line itself" in str(e.value.strerror)
        with pytest.raises(ValueError, match="wait='irq' takes the line's offset"):
            req.respond(lambda r, ev: True, line="wire2-in", wait="irq")


def test_replies_are_the_helpers_lines(exports: GpioExports) -> None:
    """replies=: udrv-irq's outputs, checked before anything is changed (a line of
    the request, the input, one given twice, more than 8, a reply line with
    another wait); reply() outside a run is refused; Chip.respond() likewise
    (its helper: tests/lab)."""
    with udrv.Chip(0) as chip, chip.request({OUT: None}, backend=SYSFS) as req:
        cases: list[tuple[dict[str, object], str]] = [
            ({"line": IN, "wait": "irq", "replies": {OUT: True}}, "is the request's"),
            ({"line": IN, "wait": "irq", "replies": {IN: True}}, "the input"),
            ({"line": OUT, "wait": "read", "replies": {9: True}},
             "reply lines are the helper's"),
        ]
        for kw, text in cases:
            with pytest.raises(udrv.Error) as e:
                req.respond(lambda r, ev: True, **kw)  # type: ignore[arg-type]
            assert e.value.errno == errno.EINVAL and text in str(e.value.strerror), kw
        with pytest.raises(ValueError, match="at most 8"):
            req.respond(lambda r, ev: True, line=IN, wait="irq",
                        replies=dict.fromkeys(range(20, 29), False))
        with pytest.raises(ValueError, match="a reply line is the helper's"):
            req.respond(lambda r, ev: True, line=IN, wait="irq",
                        replies={"x": True})  # type: ignore[dict-item]
        with pytest.raises(RuntimeError, match="only from the callback"):
            req.reply(9, True)
        with pytest.raises(udrv.Error) as e:  # no helper here: how to load it
            req.respond(lambda r, ev: True, line=IN, wait="irq", replies={9: True})
        assert "/dev/udrv-irq does not exist" in str(e.value.strerror)
        with pytest.raises(udrv.Error) as e:
            chip.respond(lambda c, ev: True, line=IN, replies={IN: True})
        assert e.value.errno == errno.EINVAL and "the input" in str(e.value.strerror)
        with pytest.raises(udrv.Error) as e:
            chip.respond(lambda c, ev: True, line=IN, replies={9: False})
        assert "/dev/udrv-irq does not exist" in str(e.value.strerror)
        with pytest.raises(RuntimeError, match="only from the callback"):
            chip.reply(9, True)
        assert os.sched_getscheduler(0) == os.SCHED_OTHER


@pytest.mark.parametrize(("kw", "exc", "text"), [
    ({"line": 7}, ValueError, "line 7 is not in this request"),
    ({"line": IN, "wait": "poll"}, ValueError, "wait is 'read', 'busy' or 'irq'"),
    ({"line": IN, "priority": 2**70}, OverflowError, "priority"),
    ({"line": IN, "cpu": "x"}, TypeError, "cpu"),
])  # fmt: skip
def test_usage_errors(exports: GpioExports, kw: dict[str, object], exc: type[Exception],
                      text: str) -> None:  # fmt: skip
    with udrv.Chip(0) as chip, chip.request({IN: None}, backend=SYSFS) as req:
        with pytest.raises(exc, match=text):
            req.respond(lambda r, ev: True, **kw)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="callable"):
            req._respond(None, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, (), 0)  # type: ignore[arg-type]


def test_released_request(exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        req = chip.request({IN: None}, backend=SYSFS)
        req.release()
        with pytest.raises(ValueError, match="released"):
            req.respond(lambda r, ev: True, line=IN, wait="busy")


def test_the_example_answers(cdev: FakeTree) -> None:
    """examples/python/responder.py, with the fake character device."""
    feeder = feed(cdev, range(1, 4))
    example = Path(__file__).resolve().parent.parent.parent / "examples" / "python" / "responder.py"
    res = subprocess.run([sys.executable, str(example), "gpiochip0", str(IN), str(OUT), "--count",
                          "3"], capture_output=True, text=True, timeout=GUARD_S,
                         env=fake_env(cdev), check=False)  # fmt: skip
    feeder.join(GUARD_S)
    assert res.returncode == 0 and res.stdout == "answered 3 edges\n", res
    assert level(cdev, OUT) == 1
