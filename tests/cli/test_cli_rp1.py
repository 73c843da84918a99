# SPDX-License-Identifier: GPL-2.0-only
"""udrv info, udrv gpio info -b mmio and udrv gpio toggle -b mmio on a fake
Raspberry Pi 5: RP1's chip pinctrl-rp1 under its device 1f000d0000.gpio
(gpiochip0 on current kernels, gpiochip4 after the BCM2712's four brcmstb
chips on older ones), its node's compatible, a character device answered by
tests/daemon/fake_cdev.c (preloaded), and /dev/gpiomem0 as a regular file
holding the RP1's IO_BANK, SYS_RIO and PADS blocks as the kernel leaves them
after a claim (FUNCSEL SYS_RIO, RIO_OE, the pad's input enabled). A regular
file keeps each register's aliases apart: after a toggle the SET and CLR
aliases of RIO_OUT hold the line's bit, and RIO_OUT itself was never written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fakes import (
    RP1_CLR,
    RP1_PHYS,
    RP1_SET,
    RP1_SYS_RIO,
    FakeTree,
    rp1_claimed,
    rp1_pi5,
    rp1_poke,
    rp1_word,
)
from tests.support.udrv_runner import REPO, Runner, required

LINE = 17


@pytest.fixture
def fake_cdev() -> Path:
    env = os.environ.get("UDRVD_FAKE_CDEV")
    return required(Path(env) if env else REPO / "build/dev/tests/daemon/libfake_cdev.so",
                    "UDRVD_FAKE_CDEV")


@pytest.fixture(params=[0, 4], ids=["gpiochip0", "gpiochip4"])
def pi5(request: pytest.FixtureRequest, tree: FakeTree, fake_cdev: Path,
        monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTree]:  # fmt: skip
    rp1_pi5(tree, request.param)
    preload = " ".join(p for p in (os.environ.get("LD_PRELOAD", ""), str(fake_cdev)) if p)
    monkeypatch.setenv("LD_PRELOAD", preload)
    yield tree


def test_gpio_info_shows_rp1_and_gpiomem0(udrv: Runner, pi5: FakeTree) -> None:
    r = udrv("gpio", "info", "-b", "mmio", "-c", "pinctrl-rp1")
    assert r.returncode == 0, r
    assert "registers: rp1 GPIO block at 0x1f000d0000 (196608 bytes, 32-bit), through " in r.stdout
    assert "/dev/gpiomem0 at 0x0; line 0: SYS_RIO0 RIO_OUT SET/SYS_RIO0 RIO_OUT CLR, " \
        "level SYS_RIO0 RIO_IN, mask 0x1" in r.stdout


def test_udrv_info_shows_rp1_only(udrv: Runner, pi5: FakeTree) -> None:
    r = udrv("info", "--json")
    chips = {c["label"]: c for c in r.json()["gpio"]["chips"]}
    rp1 = chips["pinctrl-rp1"]["mmio"]
    assert rp1["soc"] == "rp1"
    assert rp1["device"] == "1f000d0000.gpio"
    assert rp1["phys"] == RP1_PHYS
    assert rp1["map_path"].endswith("/dev/gpiomem0")
    # the BCM2712's own chips: a SoC the mmio backend does not know, no registers shown
    assert all("mmio" not in c for label, c in chips.items() if label != "pinctrl-rp1")
    human = udrv("info")
    assert "registers: rp1 GPIO block at 0x1f000d0000" in human.stdout


def test_toggle_drives_the_set_and_clr_aliases(udrv: Runner, pi5: FakeTree) -> None:
    rp1_claimed(pi5, LINE, output=True)
    rp1_claimed(pi5, 16, output=True)  # another user's output, high
    rp1_poke(pi5, RP1_SYS_RIO, 1 << 16)
    r = udrv("gpio", "toggle", "-b", "mmio", "-c", "pinctrl-rp1", "-n", "4", "--json", str(LINE))
    assert r.returncode == 0, r
    doc = json.loads(r.stdout)
    assert doc["toggles"] == 4
    mmio = doc["mmio"]
    assert (mmio["soc"], mmio["line"], mmio["mask"]) == ("rp1", LINE, 1 << LINE)
    assert mmio["set"] == "SYS_RIO0 RIO_OUT SET" and mmio["clear"] == "SYS_RIO0 RIO_OUT CLR"
    assert mmio["map_path"].endswith("/dev/gpiomem0") and mmio["map_offset"] == 0
    assert rp1_word(pi5, RP1_SYS_RIO + RP1_SET) == 1 << LINE
    assert rp1_word(pi5, RP1_SYS_RIO + RP1_CLR) == 1 << LINE
    assert rp1_word(pi5, RP1_SYS_RIO) == 1 << 16  # RIO_OUT itself never written
    human = udrv("gpio", "toggle", "-b", "mmio", "-c", "pinctrl-rp1", "-n", "2", str(LINE))
    assert human.returncode == 0, human
    assert "registers: rp1 GPIO block at 0x1f000d0000" in human.stdout


def test_toggle_in_the_third_bank(udrv: Runner, pi5: FakeTree) -> None:
    rp1_claimed(pi5, 53, output=True)
    r = udrv("gpio", "toggle", "-b", "mmio", "-c", "pinctrl-rp1", "-n", "1", "--json", "53")
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["mmio"]["set"] == "SYS_RIO2 RIO_OUT SET"
    assert rp1_word(pi5, RP1_SYS_RIO + 2 * 0x4000 + RP1_SET) == 1 << 19


def test_a_muxed_line_is_refused_saying_which(udrv: Runner, pi5: FakeTree) -> None:
    rp1_claimed(pi5, 14, output=True, funcsel=4)  # alt4: uart0 on GPIO14
    r = udrv("gpio", "toggle", "-b", "mmio", "-c", "pinctrl-rp1", "-n", "1", "14")
    assert r.returncode == 1, r
    assert "line 14 of gpiochip" in r.stderr
    assert "GPIO14_CTRL's FUNCSEL is a4, not a5 (SYS_RIO, GPIO)" in r.stderr
    # nothing driven
    assert rp1_word(pi5, RP1_SYS_RIO + RP1_SET) == rp1_word(pi5, RP1_SYS_RIO + RP1_CLR) == 0


def test_no_gpiomem0_is_named(udrv: Runner, pi5: FakeTree) -> None:
    pi5.path("dev/gpiomem0").unlink()
    r = udrv("gpio", "toggle", "-b", "mmio", "-c", "pinctrl-rp1", "-n", "1", str(LINE))
    assert r.returncode == 1, r
    assert "cannot map the rp1 GPIO registers (0x1f000d0000): no /dev/gpiomem0" in r.stderr
