# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which pins of a Raspberry Pi have a hardware PWM channel, for udrv.gpiozero.

A Pi's PWM controller (the kernel's PWM class: pwmchipN, its parent device
the controller) drives a pin when the device tree muxes the pin to it: the
pwm overlays (``dtoverlay=pwm,pin=18,func=2``, ``pwm-2chan``) give the
controller's node a pinctrl-0 state naming its pins. A pin has a channel
here when a PWM chip's controller is one of PI_PWM's (by its compatible
string) and its pinctrl-0 names the pin; the channel is PI_PWM's. Without
the overlay there is no chip, or no pin muxed to it: software PWM.

Other boards: none yet (a board file would add its controllers here).
"""

from __future__ import annotations

import os

import udrv
from udrv._gpiozero_board import sysroot_path

__all__ = ["PI_PWM", "pi_pwm_channels"]

# the Pi's PWM controllers, by compatible: GPIO -> channel. BCM2835..2711:
# PWM0 channel 0 on GPIO12 or 18, channel 1 on GPIO13 or 19; the Pi 5's RP1:
# pwm0's channels 0..3 on GPIO12, 13, 18, 19
PI_PWM = {
    "brcm,bcm2835-pwm": {12: 0, 13: 1, 18: 0, 19: 1},
    "raspberrypi,rp1-pwm": {12: 0, 13: 1, 18: 2, 19: 3},
}
DEVICE_TREE = "/proc/device-tree"


def _phandles(root: str) -> dict[int, str]:
    """The device tree's nodes by phandle."""
    nodes = {}
    for path, _dirs, files in os.walk(root):
        if "phandle" in files:
            raw = _read(path, "phandle")
            if raw is not None and len(raw) == 4:
                nodes[int.from_bytes(raw, "big")] = path
    return nodes


def _cells(raw: bytes | None) -> list[int]:
    raw = raw or b""
    return [int.from_bytes(raw[i:i + 4], "big") for i in range(0, len(raw) - 3, 4)]


def _state_pins(node: str) -> set[int]:
    """The GPIOs a pinctrl state node names: brcm,pins (BCM2835's cells)
    or pins ("gpio18": RP1's, the generic binding's)."""
    pins = set(_cells(_read(node, "brcm,pins")))
    for name in (_read(node, "pins") or b"").split(b"\0"):
        if name.startswith(b"gpio") and name[4:].isdigit():
            pins.add(int(name[4:]))
    return pins


def _read(node: str, prop: str) -> bytes | None:
    try:
        with open(os.path.join(node, prop), "rb") as f:
            return f.read()
    except OSError:
        return None


def pi_pwm_channels() -> dict[int, tuple[str, int]]:
    """GPIO -> (PWM chip's name, channel) of the pins muxed to a Pi's PWM
    controller that the kernel's PWM class serves."""
    out: dict[int, tuple[str, int]] = {}
    nodes: dict[int, str] | None = None
    for chip in udrv.pwm_list():
        of_node = sysroot_path(f"/sys/class/pwm/{chip}/device/of_node")
        compatible = (_read(of_node, "compatible") or b"").split(b"\0")
        table = next((t for c, t in PI_PWM.items() if c.encode() in compatible), None)
        if table is None:
            continue
        if nodes is None:
            nodes = _phandles(sysroot_path(DEVICE_TREE))
        muxed: set[int] = set()
        for handle in _cells(_read(of_node, "pinctrl-0")):
            if handle in nodes:
                muxed |= _state_pins(nodes[handle])
        for gpio in sorted(muxed & table.keys()):
            out.setdefault(gpio, (chip, table[gpio]))
    return out
