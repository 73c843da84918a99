# SPDX-License-Identifier: LGPL-2.1-or-later
"""What udrv.gpiozero tells gpiozero about the board: a Raspberry Pi's
revision code (gpiozero then knows its header and pin names), or, on any
other board, one header per GPIO chip this process can open, its pins named
CHIP:OFFSET, LABEL:OFFSET, the line's name and, on the default chip, the
plain offset (see udrv.gpiozero's docstring).

gpiozero 2 describes a board with BoardInfo, HeaderInfo and PinInfo and looks
a pin's name up there (BoardInfo.find_pin); gpiozero 1.x (Debian 12's 1.6.2)
has none of them, only the Pi's PiBoardInfo: there the same names are looked
up in a LineTable (another board) or by PiBoardInfo.to_gpio (a Pi), whose
find_pin gives the factory what gpiozero 2's would."""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import gpiozero.pins  # type: ignore[import-untyped, import-not-found, unused-ignore]

import udrv

__all__ = ["GPIOZERO_1", "PI_CHIP_LABELS", "ChipView", "LineInfo", "LineNumber", "LineTable",
           "PiLines", "UdrvBoardInfo", "chip_views", "generic_board_info", "line_names",
           "pi_revision"]

# gpiozero 1.x: no BoardInfo (it came with 2.0, with PinInfo and HeaderInfo)
GPIOZERO_1 = not hasattr(gpiozero.pins, "BoardInfo")

# The Raspberry Pi's firmware puts the board's revision code in the device
# tree (system/linux,revision); a kernel booted without it (QEMU's raspi3b)
# has only the model's compatible string. gpiozero needs a revision to know
# the header: one revision per model, whose header is that model's.
PI_MODEL_REVISIONS = {
    "raspberrypi,model-b": 0x000E,
    "raspberrypi,model-b-plus": 0x0010,
    "raspberrypi,model-a-plus": 0x0012,
    "raspberrypi,model-zero": 0x900092,
    "raspberrypi,model-zero-w": 0x9000C1,
    "raspberrypi,model-zero-2-w": 0x902120,
    "raspberrypi,2-model-b": 0xA01041,
    "raspberrypi,3-model-b": 0xA02082,
    "raspberrypi,3-model-b-plus": 0xA020D3,
    "raspberrypi,3-model-a-plus": 0x9020E0,
    "raspberrypi,4-model-b": 0xA03111,
    "raspberrypi,400": 0xC03130,
    "raspberrypi,5-model-b": 0xC04170,
}
# labels of the gpiochip behind a Pi's header (GPIO<n> is its offset n)
PI_CHIP_LABELS = ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1")

def sysroot_path(path: str) -> str:
    """path under $UDRV_SYSROOT, where libudrv looks too (test trees)."""
    return os.environ.get("UDRV_SYSROOT", "") + path


def read_bytes(path: str) -> bytes | None:
    try:
        with open(sysroot_path(path), "rb") as f:
            return f.read()
    except OSError:
        return None


def pi_revision() -> int | None:
    """The Raspberry Pi's revision code, or None when this is not a Pi.

    A Pi is what the device tree's root compatible says (/proc/cpuinfo's
    "Revision" alone is not enough: 32-bit ARM kernels print one on every
    board). The code is the firmware's system/linux,revision, else
    /proc/cpuinfo's Revision, else a code of the compatible's model.
    """
    compat = read_bytes("/proc/device-tree/compatible") or b""
    models = [c.decode("ascii", "replace") for c in compat.split(b"\0")]
    pi_models = [m for m in models if m.startswith("raspberrypi,")]
    if not pi_models:
        return None
    rev: int | None = None
    raw = read_bytes("/proc/device-tree/system/linux,revision")
    if raw is not None and len(raw) == 4:
        rev = int.from_bytes(raw, "big")
    if not rev:
        cpuinfo = (read_bytes("/proc/cpuinfo") or b"").decode("ascii", "replace")
        for line in cpuinfo.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Revision":
                try:
                    rev = int(value.strip(), 16)
                except ValueError:
                    rev = None
    if rev and not rev & 0x800000:
        rev &= 0xFFFF  # an old-style code with the overvoltage prefix (1000...)
    if not rev:
        rev = next((PI_MODEL_REVISIONS[m] for m in pi_models if m in PI_MODEL_REVISIONS), None)
    return rev


class UdrvBoardInfo(getattr(gpiozero.pins, "BoardInfo", object)):  # type: ignore[misc]
    """gpiozero 2's BoardInfo of a board that is not a Raspberry Pi: one
    header per GPIO chip, its pins numbered offset + 1 (gpiozero counts header
    pins from 1), named as the module's docstring says (gpiozero 1.x has no
    BoardInfo: this class is unused there)."""

    __slots__ = ()

    @property
    def description(self) -> str:
        return f"{self.model} (GPIO through udrv)"


def model_name() -> str:
    for path in ("/proc/device-tree/model", "/sys/class/dmi/id/product_name"):
        raw = read_bytes(path)
        if raw and raw.strip(b"\0\n "):
            return raw.strip(b"\0\n ").decode("ascii", "replace")
    return "Linux"


@dataclasses.dataclass
class ChipView:
    name: str
    label: str
    num_lines: int
    line_names: list[str]


def chip_views() -> list[ChipView]:
    """The chips this process can open (a chip it may not open, say
    /dev/gpiochip1 of another group, is left out; none at all raises the
    first chip's error)."""
    views = []
    first: udrv.Error | None = None
    for name in udrv.chip_list():
        try:
            chip = udrv.Chip(name)
        except udrv.Error as e:
            first = first or e
            continue
        with chip:
            names = []
            for offset in range(chip.num_lines):
                try:
                    names.append(chip.line_info(offset).name)
                except udrv.Error:
                    names.append("")  # sysfs GPIO has no line names
            views.append(ChipView(chip.name, chip.label, chip.num_lines, names))
    if not views and first is not None:
        raise first
    return views


def line_names(views: list[ChipView], default: str) -> dict[tuple[str, int], frozenset[Any]]:
    """Each line's names, by (chip, offset): CHIP:OFFSET (the first: the
    line's canonical name), LABEL:OFFSET when no other chip has the label,
    the line's name when no other line has it, and on the default chip the
    offset (an int and its digits)."""
    labels = Counter(v.label for v in views)
    line_names = Counter(n for v in views for n in v.line_names if n)
    out = {}
    for v in views:
        for offset in range(v.num_lines):
            names: set[str | int] = {f"{v.name}:{offset}"}
            if v.label and labels[v.label] == 1 and v.label != v.name:
                names.add(f"{v.label}:{offset}")
            line = v.line_names[offset]
            if line and line_names[line] == 1:
                names.add(line)
            if v.name == default:
                names.update((offset, str(offset)))
            out[v.name, offset] = frozenset(names)
    return out


def generic_board_info(views: list[ChipView], default: str) -> UdrvBoardInfo:
    """gpiozero 2's description of a board that is not a Pi."""
    names = line_names(views, default)
    headers = {}
    for v in views:
        pins = {}
        for offset in range(v.num_lines):
            pins[offset + 1] = gpiozero.pins.PinInfo(
                number=offset + 1, name=f"{v.name}:{offset}", names=names[v.name, offset],
                pull="", row=offset + 1, col=1, interfaces=frozenset({"gpio"}))
        headers[v.name] = gpiozero.pins.HeaderInfo(name=v.name, rows=v.num_lines, columns=1,
                                                   pins=pins)
    chips = ", ".join(f"{v.name} ({v.label}, {v.num_lines} lines)" for v in views)
    return UdrvBoardInfo(
        revision="", model=model_name(), pcb_revision="", released="", soc="",
        manufacturer="", memory=0, storage="", usb=0, usb3=0, ethernet=0, eth_speed=0,
        wifi=False, bluetooth=False, csi=0, dsi=0, headers=headers,
        board=f"GPIO chips: {chips}; default chip {default}\n")


# ---- gpiozero 1.x ----


@dataclasses.dataclass(frozen=True)
class LineInfo:
    """What gpiozero 2's PinInfo says of a GPIO pin that the factory uses,
    for gpiozero 1.x: the canonical name (CHIP:OFFSET, or GPIO<n> on a
    Pi), the physical pull ("up" or ""), the interfaces ({"gpio"})."""

    name: str
    pull: str = ""
    interfaces: frozenset[str] = frozenset({"gpio"})


class LineNumber(int):
    """gpiozero 1.x's pin.number of a line on a board that is not a Pi: its
    offset (an int: gpiozero formats it with %d), naming the line itself to
    the factory (gpiozero releases a pin's reservation by its number)."""

    line: Any  # the pin's info: a LineInfo

    def __new__(cls, offset: int, line: Any) -> LineNumber:
        number = super().__new__(cls, offset)
        number.line = line
        return number


class LineTable:
    """gpiozero 1.x, a board that is not a Pi: the lines' names
    (line_names()), looked up as gpiozero 2's BoardInfo.find_pin does."""

    def __init__(self, views: list[ChipView], default: str) -> None:
        self._by_name: dict[Any, LineInfo] = {}
        for (chip, offset), names in line_names(views, default).items():
            info = LineInfo(f"{chip}:{offset}")
            self._by_name.update(dict.fromkeys(names, info))

    def find_pin(self, name: Any) -> Iterator[tuple[LineTable, LineInfo]]:
        info = name.line if isinstance(name, LineNumber) else self._by_name.get(name)
        if info is not None:
            yield self, info


class PiLines:
    """gpiozero 1.x on a Raspberry Pi: a pin's name (17, "GPIO17", "BCM17",
    "BOARD11", "J8:11", "WPI0") is the Pi's PiBoardInfo's to say (to_gpio:
    gpiozero's PinInvalidPin for a name that is no GPIO, e.g. a 3V3 pin)."""

    def __init__(self, pi: Any) -> None:
        self._pi = pi
        self._lines: dict[int, LineInfo] = {}

    def find_pin(self, name: Any) -> Iterator[tuple[PiLines, LineInfo]]:
        gpio = int(self._pi.to_gpio(name))
        info = self._lines.get(gpio)
        if info is None:
            pull = "up" if self._pi.pulled_up(f"GPIO{gpio}") else ""
            info = self._lines[gpio] = LineInfo(f"GPIO{gpio}", pull)
        yield self, info
