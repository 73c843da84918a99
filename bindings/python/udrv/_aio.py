# SPDX-License-Identifier: LGPL-2.1-or-later
"""asyncio: a request's and a UIO device's events through the loop's
add_reader on their file descriptor."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from . import _udrv

if TYPE_CHECKING:
    from ._gpio import Request
    from ._uio import Uio


async def _readable(fd: int) -> None:
    """Return once fd is readable (the loop watches it meanwhile)."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not fut.done():
            fut.set_result(None)

    loop.add_reader(fd, ready)
    try:
        await fut
    finally:
        loop.remove_reader(fd)


async def aiter_events(req: Request) -> AsyncIterator[_udrv.EdgeEvent]:
    """The events of req, forever (until the request is released or the
    task cancelled)."""
    while not req.released:
        if not req.wait_edge_events(0):
            await _readable(req.fileno())
            continue
        for ev in req.read_edge_events():
            yield ev


async def wait_uio(uio: Uio, timeout: float | None = None) -> _udrv.UioIrq | None:
    """Uio.await_irq(): the next interrupt without blocking the loop; None
    after timeout seconds."""
    async def once() -> _udrv.UioIrq:
        while True:
            irq = uio.wait(0)
            if irq is not None:
                return irq
            await _readable(uio.fileno())

    _udrv._timeout_ms(timeout)  # finite or None, as Uio.wait() takes it
    try:
        return await asyncio.wait_for(once(), timeout)
    except asyncio.TimeoutError:
        return None
