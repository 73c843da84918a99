# SPDX-License-Identifier: LGPL-2.1-or-later
"""UIO devices: the package's side of udrv._udrv.Uio."""

from __future__ import annotations

import os

from . import _udrv
from ._types import UioMapInfo, UioPortInfo


class Uio(_udrv.Uio):
    """A UIO device, opened by its driver's name ("uio_pci_generic"),
    "uio0" or "/dev/uio0". A context manager; close() when done (Regions
    mapped from it stay valid until unmapped).

    wait() blocks with the GIL released; await_irq() is its asyncio form.
    """

    __slots__ = ()

    def __init__(self, spec: str | os.PathLike[str]) -> None:
        # the C type opened the device in __new__
        pass

    @property
    def maps(self) -> list[UioMapInfo]:
        """The device's memory regions (map(index) maps one)."""
        return [UioMapInfo(*t) for t in self._maps()]

    @property
    def ports(self) -> list[UioPortInfo]:
        """The device's I/O port regions."""
        return [UioPortInfo(*t) for t in self._ports()]

    async def await_irq(self, timeout: float | None = None) -> _udrv.UioIrq | None:
        """The next interrupt, awaited on the running loop (add_reader on
        fileno()); None after timeout seconds."""
        from ._aio import wait_uio

        return await wait_uio(self, timeout)
