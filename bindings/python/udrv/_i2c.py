# SPDX-License-Identifier: LGPL-2.1-or-later
"""I2C buses: the package's side of udrv._udrv.I2C (transfer() of
I2CMessage)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import _udrv

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

    # what write() and I2CMessage.write() send: any bytes-like object, or
    # ints 0..255 (checked in C)
    Data = ReadableBuffer | Sequence[int]

# the kernel's struct i2c_msg flags (<linux/i2c.h>, udrv/i2c.h's UDRV_I2C_M_*)
_M_RD = 0x0001
_M_TEN = 0x0010
_M_IGNORE_NAK = 0x1000
_M_NOSTART = 0x4000
_M_STOP = 0x8000



def _nbytes(data: Data) -> int:
    if isinstance(data, (list, tuple)):
        return len(data)
    return memoryview(data).nbytes  # type: ignore[arg-type]


class I2CMessage:
    """One message of :meth:`I2C.transfer`: a read into a buffer or a write
    of data, to ``address`` (None: the bus's set address).

    ``I2CMessage.read(2)`` reads into a new bytearray (``.data`` after the
    transfer), ``I2CMessage.read(buf)`` into the caller's writable buffer;
    ``I2CMessage.write(b"\\x10")`` sends bytes (any bytes-like object, or a
    list of ints). ``ten_bit``: a 10-bit address; ``no_start``: no repeated
    start before this message; ``ignore_nak``; ``stop``: a stop after it
    (where the adapter can).
    """

    def __init__(self, buffer: Data, flags: int, address: int | None = None) -> None:
        self.buffer = buffer
        self.flags = flags
        self.address = address

    @classmethod
    def _make(cls, buffer: Data, read: bool, address: int | None, ten_bit: bool,
              no_start: bool, ignore_nak: bool, stop: bool) -> I2CMessage:
        flags = ((_M_RD if read else 0) | (_M_TEN if ten_bit else 0)
                 | (_M_NOSTART if no_start else 0) | (_M_IGNORE_NAK if ignore_nak else 0)
                 | (_M_STOP if stop else 0))
        return cls(buffer, flags, address)

    @classmethod
    def read(cls, length_or_buffer: int | WriteableBuffer, address: int | None = None,
             *, ten_bit: bool = False, no_start: bool = False, ignore_nak: bool = False,
             stop: bool = False) -> I2CMessage:
        """A read of length bytes (into a new bytearray), or into a writable
        buffer (its length)."""
        if isinstance(length_or_buffer, int) and not isinstance(length_or_buffer, bool):
            if not 1 <= length_or_buffer <= 8192:
                raise ValueError(f"length must be 1..8192, not {length_or_buffer!r}")
            buf: Data = bytearray(length_or_buffer)
        else:
            buf = length_or_buffer  # type: ignore[assignment]
        return cls._make(buf, True, address, ten_bit, no_start, ignore_nak, stop)

    @classmethod
    def write(cls, data: Data, address: int | None = None, *, ten_bit: bool = False,
              no_start: bool = False, ignore_nak: bool = False,
              stop: bool = False) -> I2CMessage:
        """A write of data (any bytes-like object, or a list of ints 0..255)."""
        return cls._make(data, False, address, ten_bit, no_start, ignore_nak, stop)

    @property
    def is_read(self) -> bool:
        """Whether the message reads (into its buffer)."""
        return bool(self.flags & _M_RD)

    @property
    def data(self) -> bytes:
        """The message's bytes: what was read (after the transfer), or sent."""
        if isinstance(self.buffer, (list, tuple)):
            return bytes(self.buffer)
        return bytes(memoryview(self.buffer))  # type: ignore[arg-type]

    def __len__(self) -> int:
        return _nbytes(self.buffer)

    def __repr__(self) -> str:
        to = "" if self.address is None else f", address=0x{self.address:02x}"
        return f"I2CMessage.{'read' if self.is_read else 'write'}({self.data!r}{to})"


class I2C(_udrv.I2C):
    """An I2C bus through i2c-dev, opened by number (``I2C(1)``), node
    (``"/dev/i2c-1"``, ``"i2c-1"``) or adapter name; ``I2C(1, 0x48)`` also
    sets the device's address. A context manager; close() when done.

    The SMBus calls are smbus2's, without its address argument: they talk
    to the set address (:meth:`set_address`). :meth:`transfer` sends
    several plain I2C messages in one transaction (repeated starts, one
    stop). Each call releases the GIL around its ioctl; arguments out of
    range raise before anything reaches the bus; the bus's failures raise
    ``udrv.Error`` with libudrv's message (no answer: ``NotFoundError``, a
    kernel driver's address: ``BusyError``).
    """

    __slots__ = ()

    def __init__(self, bus: int | str | os.PathLike[str], address: int | None = None, *,
                 ten_bit: bool = False, force: bool = False) -> None:
        # the C type opened the bus in __new__
        pass

    def transfer(self, *messages: I2CMessage) -> None:
        """The messages (1..42, each 1..8192 bytes) in one I2C_RDWR; reads
        land in their buffers (``message.data``)."""
        for i, m in enumerate(messages):
            if not isinstance(m, I2CMessage):
                raise TypeError(f"message {i} must be an I2CMessage, not {type(m).__name__}")
        self._transfer(tuple((m.address, m.flags, m.buffer) for m in messages))
