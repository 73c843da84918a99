# SPDX-License-Identifier: LGPL-2.1-or-later
"""SPI devices: the package's side of udrv._udrv.SPI (message() of
SPITransfer)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import _udrv
from ._i2c import _nbytes

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

    from ._i2c import Data


class SPITransfer:
    """One transfer of :meth:`SPI.message`.

    tx: the bytes sent (any bytes-like object, or a list of ints 0..255);
        None: zeros.
    rx: where the bytes received go: True (the default) a new bytearray
        (``.rx`` after the message), a writable buffer of the caller's
        (filled in place), or False: dropped (a 3-wire write).
    length: the transfer's bytes when neither tx nor rx is a buffer.
    speed_hz: 0 the device's maximum; bits_per_word: 0 the device's;
    delay_usecs: after it, before the chip select changes; cs_change: the
    chip select off after it (before the next transfer); word_delay_usecs:
    between its words.
    """

    def __init__(self, tx: Data | None = None, rx: WriteableBuffer | bool = True, *,
                 length: int | None = None, speed_hz: int = 0, bits_per_word: int = 0,
                 delay_usecs: int = 0, cs_change: bool = False,
                 word_delay_usecs: int = 0) -> None:
        sizes = [] if length is None else [length]
        if tx is not None:
            sizes.append(_nbytes(tx))
        if rx is not True and rx is not False:
            sizes.append(_nbytes(rx))
        if not sizes:
            raise ValueError("an SPITransfer needs tx, an rx buffer or a length")
        if any(s != sizes[0] for s in sizes):
            raise ValueError(f"tx, rx and length disagree: {sizes} bytes")
        if isinstance(length, bool) or (length is not None and not isinstance(length, int)):
            raise TypeError(f"length must be an int, not {type(length).__name__}")
        if not 1 <= sizes[0] <= 0xFFFFFFFF:
            raise ValueError(f"a transfer is 1 byte or more, not {sizes[0]}")
        self.tx = tx
        self.rx: WriteableBuffer | None = (
            bytearray(sizes[0]) if rx is True else None if rx is False else rx)
        self.length = sizes[0]
        self.speed_hz = speed_hz
        self.bits_per_word = bits_per_word
        self.delay_usecs = delay_usecs
        self.cs_change = cs_change
        self.word_delay_usecs = word_delay_usecs

    def _astuple(self) -> tuple[object, ...]:
        if not isinstance(self.cs_change, bool):
            raise TypeError(f"cs_change must be True or False, not "
                            f"{type(self.cs_change).__name__}")
        return (self.tx, self.rx, self.length, self.speed_hz, self.delay_usecs,
                self.bits_per_word, int(self.cs_change), self.word_delay_usecs)

    def __repr__(self) -> str:
        return f"SPITransfer(tx={self.tx!r}, rx={self.rx!r}, length={self.length})"


class SPI(_udrv.SPI):
    """A spidev device, opened by ``"B.C"`` (``SPI("0.1")``, or
    ``SPI(0, 1)``), node (``"/dev/spidev0.1"``) or the kernel's name of the
    device (its modalias: ``"mcp3008"``). A context manager; close() when
    done.

    ``mode`` (0..3), ``bits_per_word``, ``max_speed_hz``, ``lsb_first``,
    ``cs_high``, ``three_wire``, ``loop`` and ``no_cs`` read and set the
    device's settings (a setting the controller lacks raises
    ``udrv.Error`` saying so). :meth:`transfer` is one full-duplex
    transfer, :meth:`message` several in one SPI_IOC_MESSAGE. The GIL is
    released around each ioctl; bad arguments raise before anything is
    sent.
    """

    __slots__ = ()

    def __init__(self, device: int | str | os.PathLike[str], cs: int | None = None) -> None:
        # the C type opened the device in __new__
        pass

    def message(self, *transfers: SPITransfer) -> list[WriteableBuffer | None]:
        """The transfers (1..511, their bytes together within spidev's
        buffer) in one message, the chip select held between them unless
        a transfer's cs_change drops it; returns each transfer's rx."""
        for i, t in enumerate(transfers):
            if not isinstance(t, SPITransfer):
                raise TypeError(f"transfer {i} must be an SPITransfer, not {type(t).__name__}")
        self._message(tuple(t._astuple() for t in transfers))
        return [t.rx for t in transfers]
