# SPDX-License-Identifier: GPL-2.0-only
"""The seeds' encoding (make_seeds.py): an input's parts (tests/fuzz/fuzz.h)
and the values of a D-Bus message's body (tests/fuzz/fuzz_sdbus.h).
"""

from __future__ import annotations

SEP = b"\x1e"
ABSENT = b"\x1f"


def join(*parts: bytes | str) -> bytes:
    return SEP.join(p.encode() if isinstance(p, str) else p for p in parts)


# fuzz_sdbus.c's values: a string (s, o, g) as a length byte and its bytes,
# a u as four bytes big-endian


def lstr(s: str) -> bytes:
    return bytes([len(s)]) + s.encode()


def u32(v: int) -> bytes:
    return v.to_bytes(4, "big")
