# SPDX-License-Identifier: GPL-2.0-only
"""Python tests that run in a Python with a fake preloaded (LD_PRELOAD must
be set before the interpreter starts, and the one running pytest has none).

A test written as usual and decorated with @preloaded runs in a child
Python started with the fakes preloaded (one per test module, kept for its
tests, started again after a crash): pytest builds its fixtures here (the
fake tree, the parameters), the child imports the test's module and calls
the undecorated function with them, under this process's environment at
the time (UDRV_SYSROOT, monkeypatched variables), and a failure there
(its traceback) fails the test here::

    child = preloaded_child("UDRV_FAKE_I2C", "tests/cli/libfake_i2c_dev.so")

    @preloaded
    def test_read(child: Child, bus: FakeTree) -> None:
        with udrv.I2C(1) as i2c: ...

The first parameter names the module's child fixture; the others are the
test's fixtures and parameters, pickled to the child.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import pytest

from tests.support.udrv_runner import REPO, required

IN_CHILD = "UDRV_TEST_PRELOADED_CHILD"
# how long a test may run in the child before it counts as hung: it is then
# sent SIGABRT (its faulthandler prints every thread's stack to the log) and
# the test fails with that, not make check waiting for ever (the tests take
# seconds; only a deadlock comes near this)
HUNG_S = 300
F = TypeVar("F", bound=Callable[..., None])


def _send(f: BinaryIO, obj: object) -> None:
    data = pickle.dumps(obj)
    f.write(struct.pack("<I", len(data)) + data)
    f.flush()


def _recv(f: BinaryIO) -> Any:
    head = f.read(4)
    if len(head) < 4:
        raise EOFError
    return pickle.loads(f.read(struct.unpack("<I", head)[0]))


class Child:
    """A Python with @preload in LD_PRELOAD, running tests it is sent."""

    def __init__(self, preload: list[Path]) -> None:
        self.preload = preload
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            old = os.environ.get("LD_PRELOAD", "")
            env = {**os.environ, IN_CHILD: "1",
                   "LD_PRELOAD": " ".join(p for p in (old, *map(str, self.preload)) if p)}
            self.proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", _CHILD],
                                         stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self.log, env=env,
                                         cwd=REPO)
        return self.proc

    def run(self, module: str, name: str, kwargs: dict[str, object]) -> None:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        hung = False
        try:
            _send(proc.stdin, (sys.path, env, module, name, kwargs))  # type: ignore[arg-type]
            hung = not select.select([proc.stdout], [], [], HUNG_S)[0]
            if hung:
                proc.send_signal(signal.SIGABRT)
            ok, report = _recv(proc.stdout)  # type: ignore[arg-type]
        except (EOFError, BrokenPipeError):
            proc.wait()
            self.log.seek(0)
            tail = self.log.read()[-6000:].decode(errors="replace")
            what = f"hung for {HUNG_S} s" if hung else f"ended (status {proc.returncode})"
            pytest.fail(f"the preloaded Python {what} in {name}:\n{tail}", pytrace=False)
        if not ok:
            pytest.fail(f"in the preloaded Python:\n{report}", pytrace=False)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(30)
        self.log.close()


def preloaded_child(*fakes: tuple[str, str]) -> Any:
    """A module fixture `child`: a Child with @fakes preloaded, each
    (environment variable naming it, its path in build/dev)."""

    @pytest.fixture(scope="module")
    def child() -> Iterator[Child]:
        paths = [required(Path(os.environ.get(var, REPO / "build" / "dev" / rel)), var)
                 for var, rel in fakes]
        c = Child(paths)
        yield c
        c.close()

    return child


def preloaded(fn: F) -> F:
    """Run the test @fn in the module's child (see the module's docstring)."""
    if os.environ.get(IN_CHILD):
        return fn
    params = list(inspect.signature(fn).parameters.values())

    @functools.wraps(fn)
    def test(child: Child, **kwargs: object) -> None:
        child.run(fn.__module__, fn.__name__, kwargs)

    test.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("child", inspect.Parameter.POSITIONAL_OR_KEYWORD), *params[1:]])
    del test.__wrapped__  # pytest reads __signature__, not fn's
    return test  # type: ignore[return-value]


def _serve() -> None:  # the child's loop (_CHILD)
    import importlib

    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what a test prints goes to the log
    inp = sys.stdin.buffer
    while True:
        try:
            path, env, module, name, kwargs = _recv(inp)
        except EOFError:
            return
        sys.path[:] = path
        os.environ.clear()
        os.environ.update(env)
        os.environ[IN_CHILD] = "1"
        try:
            fn = getattr(importlib.import_module(module), name)
            fn(None, **kwargs)
            _send(out, (True, ""))
        except BaseException:  # reported to the test
            _send(out, (False, traceback.format_exc()))


_CHILD = "from tests.support.preloaded import _serve; _serve()"


# gil_released()'s writer: another interpreter, so that it runs whatever this
# one's GIL does
_WRITER = """
import os, select, sys
fifo, told, answer_fd, answer = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
fd = os.open(fifo, os.O_WRONLY)  # until the fake opens it: the call is under way
os.write(told, b"in")
ready, _, _ = select.select([answer_fd], [], [], 20)
os.write(fd, os.read(answer_fd, 64) if ready else answer.encode())
sys.exit(0 if ready else 3)  # 3: the test's thread did not run in the call
"""


def gil_released(fifo: Path, answer: bytes, call: Callable[[], object]) -> bool:
    """Does @call release the GIL while the fake it reaches waits? The fake
    opens and reads @fifo (a FIFO, made here) in the ioctl. A thread makes
    the call; a writer process waits for the fake to open the FIFO, tells
    this thread, which (needing the GIL for it) hands it @answer to write.
    True when it did; False when the call held the GIL, which the writer
    saw after 20 s without the answer (it then answers itself, ending the
    deadlock: no wall-clock race in the passing case)."""
    import threading

    os.mkfifo(fifo)
    errors: list[BaseException] = []
    told_r, told_w = os.pipe()
    ans_r, ans_w = os.pipe()
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(fifo), str(told_w),
                               str(ans_r), answer.decode()], pass_fds=(told_w, ans_r))
    os.close(told_w)
    os.close(ans_r)

    def run() -> None:
        try:
            call()
        except BaseException as e:  # handed to the test
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    try:
        os.read(told_r, 2)  # the call is in the ioctl
        with contextlib.suppress(BrokenPipeError):  # the writer answered itself
            os.write(ans_w, answer)
    finally:
        t.join()
        status = writer.wait()
        os.close(told_r)
        os.close(ans_w)
    if errors:
        raise errors[0]
    assert status in (0, 3), f"the writer failed: {status}"
    return status == 0
