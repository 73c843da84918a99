# SPDX-License-Identifier: GPL-2.0-only
"""Read back what udrv-report wrote: the page's ids, figures, tables; PNG files checked.

Stdlib only (the test interpreter need not have matplotlib): check_png()
walks the chunks, checks every CRC, inflates the image data and checks its
size and scanline filters against the header, which is what a decoder does
before unfiltering.
"""

from __future__ import annotations

import base64
import struct
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


@dataclass
class Cell:
    text: str
    cls: str
    title: str


@dataclass
class Table:
    head: list[list[tuple[str, int]]] = field(default_factory=list)
    rows: list[list[Cell]] = field(default_factory=list)
    caption: str = ""


class Page(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.figures: dict[str, str] = {}  # figure id -> img src
        self.tables: dict[str, Table] = {}
        self.toc: list[str] = []
        self.headings: list[str] = []
        self.external: list[str] = []
        self.tags: set[str] = set()
        self._figure: str | None = None
        self._table: Table | None = None
        self._row: list[Cell] | None = None
        self._cell: list[str] | None = None
        self._cell_attrs: dict[str, str] = {}
        self._in_nav = False
        self._heading: list[str] | None = None
        self._caption: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        if "id" in a:
            self.ids.append(a["id"])
        for key in ("src", "href"):
            if a.get(key, "").startswith(("http:", "https:", "//", "file:")):
                self.external.append(a[key])
        if tag in ("script", "link", "iframe"):
            self.external.append(tag)
        if tag == "figure":
            self._figure = a.get("id", "")
        elif tag == "img" and self._figure is not None:
            self.figures[self._figure] = a.get("src", "")
        elif tag == "table":
            self._table = self.tables.setdefault(a.get("id", ""), Table())
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
            self._cell_attrs = a
        elif tag == "nav":
            self._in_nav = True
        elif tag == "a" and self._in_nav:
            self.toc.append(a.get("href", ""))
        elif tag in ("h1", "h2", "h3", "h4"):
            self._heading = []
        elif tag == "caption":
            self._caption = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self._figure = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            text = "".join(self._cell).strip()
            a = self._cell_attrs
            if tag == "th":
                self._row.append(Cell(text, "th", a.get("colspan", "1")))
            else:
                self._row.append(Cell(text, a.get("class", ""), a.get("title", "")))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            if self._row and all(c.cls == "th" for c in self._row):
                self._table.head.append([(c.text, int(c.title)) for c in self._row])
            else:
                self._table.rows.append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "nav":
            self._in_nav = False
        elif tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None
        elif tag == "caption" and self._caption is not None and self._table is not None:
            self._table.caption = "".join(self._caption).strip()
            self._caption = None

    def handle_data(self, data: str) -> None:
        for buf in (self._cell, self._heading, self._caption):
            if buf is not None:
                buf.append(data)


def data_uri_png(src: str) -> bytes:
    prefix = "data:image/png;base64,"
    assert src.startswith(prefix), f"not an embedded PNG: {src[:40]!r}"
    return base64.b64decode(src[len(prefix):], validate=True)


def check_png(data: bytes) -> tuple[int, int]:
    """Decode a PNG down to its scanlines; return (width, height) or raise AssertionError."""
    width, height, _ = _scanlines(data)
    return width, height


def scanlines(data: bytes) -> list[bytes]:
    """A PNG's pixel rows, unfiltered (8-bit samples, no interlace)."""
    _, height, (raw, stride, bpp) = _scanlines(data)
    rows: list[bytes] = []
    prev = bytes(stride)
    for i in range(height):
        start = i * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            pred = (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]
            line[x] = (line[x] + pred) & 0xFF
        rows.append(bytes(line))
        prev = rows[-1]
    return rows


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _scanlines(data: bytes) -> tuple[int, int, tuple[bytes, int, int]]:
    assert data[:8] == PNG_SIGNATURE, "no PNG signature"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
        if kind == b"IEND":
            break
    assert header is not None, "no IHDR chunk"
    assert pos == len(data), "bytes after IEND"
    width, height, depth, colour, _, _, interlace = header
    assert width > 0 and height > 0 and interlace == 0 and colour in CHANNELS
    raw = zlib.decompress(idat)
    stride = (width * CHANNELS[colour] * depth + 7) // 8
    assert len(raw) == height * (stride + 1), "image data does not match the header"
    assert all(raw[i * (stride + 1)] <= 4 for i in range(height)), "bad scanline filter"
    return width, height, (raw, stride, max(1, CHANNELS[colour] * depth // 8))
