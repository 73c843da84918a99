# SPDX-License-Identifier: LGPL-2.1-or-later
"""The gpiozero factory's event thread (udrv.gpiozero): one thread per
factory waits on the requests of the watched pins with epoll and calls
their callbacks, in the order of the events."""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import traceback
from typing import TYPE_CHECKING

import udrv

if TYPE_CHECKING:
    from .gpiozero import UdrvPin


class EventThread:
    """One thread per factory: waits on the requests of the watched pins
    with epoll and calls their callbacks.

    Only this thread touches the epoll set; other threads ask it to add or
    remove a pin through a pipe and wait until it has, so that a request is
    never released while this thread may still read from it, and no
    callback of a pin runs after its unwatch() returned.
    """

    def __init__(self) -> None:
        self._ep = select.epoll()
        self._rfd, self._wfd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._ep.register(self._rfd, select.EPOLLIN)
        self._lock = threading.Lock()
        self._ops: list[tuple[str, UdrvPin | None, threading.Event]] = []
        self._pins: dict[int, UdrvPin] = {}
        self._stopping = False
        self._close_on_exit = False
        self._thread = threading.Thread(target=self._run, name="udrv-gpiozero-events",
                                        daemon=True)
        self._thread.start()

    def watch(self, pin: UdrvPin) -> None:
        self._submit("add", pin)

    def unwatch(self, pin: UdrvPin) -> None:
        self._submit("del", pin)

    def close(self) -> None:
        """Stop the thread (from a callback: once the callback returned)."""
        inside = threading.current_thread() is self._thread
        self._close_on_exit = inside  # nobody joins the thread: it closes up
        self._submit("stop", None)
        if not inside:
            self._thread.join()
            self._close_fds()

    def _close_fds(self) -> None:
        self._ep.close()
        os.close(self._rfd)
        os.close(self._wfd)

    def _submit(self, op: str, pin: UdrvPin | None) -> None:
        done = threading.Event()
        if threading.current_thread() is self._thread:
            self._apply(op, pin, done)
            return
        with self._lock:
            self._ops.append((op, pin, done))
        with contextlib.suppress(BlockingIOError):  # full of wake-ups already
            os.write(self._wfd, b"x")
        while not done.wait(0.5):
            if not self._thread.is_alive():
                break

    def _apply(self, op: str, pin: UdrvPin | None, done: threading.Event) -> None:
        if op == "add" and pin is not None and pin._request is not None:
            fd = pin._request.fileno()
            if fd not in self._pins:
                self._ep.register(fd, select.EPOLLIN)
                self._pins[fd] = pin
        elif op == "del":
            for fd, p in list(self._pins.items()):
                if p is pin:
                    self._ep.unregister(fd)
                    del self._pins[fd]
        elif op == "stop":
            for fd in list(self._pins):
                self._ep.unregister(fd)
            self._pins.clear()
            self._stopping = True
        done.set()

    def _run_ops(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self._rfd, 4096):
                pass
        with self._lock:
            ops, self._ops = self._ops, []
        for op, pin, done in ops:
            self._apply(op, pin, done)

    def _run(self) -> None:
        pins, poll, wake = self._pins, self._ep.poll, self._rfd
        while not self._stopping:
            for fd, _mask in poll():
                if fd == wake:
                    # the set changed: what this poll said of the others may
                    # be of a request released since (its fd reused): ask again
                    self._run_ops()
                    break
                pin = pins.get(fd)
                if pin is not None:
                    self._read(pin)
        if self._close_on_exit:
            self._close_fds()

    def _read(self, pin: UdrvPin) -> None:
        try:
            pin._dispatch(pin._request.read_edge_events())
        except udrv.Error as e:
            # the chip went away (device unbound): stop watching it
            print(f"udrv gpiozero: {pin!r}: {e}; its callbacks stop", file=sys.stderr)
            self._apply("del", pin, threading.Event())
        except Exception:
            # a callback's bug must not stop the other pins' callbacks
            traceback.print_exc()
