# SPDX-License-Identifier: GPL-2.0-only
"""udrv spi list|transfer on a fake tree with a fake spidev
(tests/cli/fake_spidev.c, preloaded: a loopback device whose settings the
node keeps, every message logged); bad input refused with exit 2 before
anything is sent."""

from __future__ import annotations

import pytest

from tests.support.bus_fakes import spidev
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner


@pytest.fixture
def dev(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """spidev0.1 (an mcp3008 as its modalias says), and spidev1.0 (spidev())."""
    return spidev(tree, monkeypatch)


def log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/spidev0.1.log")
    return path.read_text().splitlines() if path.exists() else []


def test_list(udrv: Runner, dev: FakeTree) -> None:
    r = udrv("spi", "list")
    assert r.returncode == 0, r
    assert [line.split()[0] for line in r.stdout.splitlines()] == ["spidev0.1", "spidev1.0"]
    assert "mode 0" in r.stdout and "500000 Hz" in r.stdout
    first = udrv("spi", "list", "--json").json()[0]
    assert first == {"device": "spidev0.1", "mode": 0, "bits_per_word": 8,
                     "max_speed_hz": 500000}


def test_transfer_loops_back_and_keeps_the_settings(udrv: Runner, dev: FakeTree) -> None:
    r = udrv("spi", "transfer", "mcp3008", "0x01", "0x80", "0")
    assert (r.returncode, r.stdout) == (0, "0x01 0x80 0x00\n"), r
    assert log(dev) == ["xfer 3"]  # one transfer: chip select held throughout
    doc = udrv("spi", "transfer", "--json", "-m", "3", "-s", "1000000", "0.1", "255").json()
    assert doc == {"device": "0.1", "sent": [255], "received": [255]}
    assert dev.path("dev/spidev0.1").read_text().split() == ["3", "8", "1000000"]


@pytest.mark.parametrize(("args", "says"), [
    (("transfer", "0.1", "0x100"), "bad byte '0x100'"),
    (("transfer", "0.1", ""), "bad byte ''"),
    (("transfer", "0.1", "1", "18446744073709551616"), "bad byte"),
    (("transfer", "0.1"), "give DEVICE and the bytes"),
    (("transfer", "--mode", "4", "0.1", "1"), "bad --mode '4'"),
    (("transfer", "--bits", "0", "0.1", "1"), "bad --bits '0'"),
    (("transfer", "--speed", "1000000001", "0.1", "1"), "bad --speed"),
    (("transfer", "0.1", *["0"] * 4097), "4097 bytes: at most 4096"),
    (("transfer", "01.1", "1"), "no SPI device '01.1'"),
    (("transfer", "0.99999999999", "1"), "out of range"),
    (("list", "--mode", "1"), "option -m does not apply"),
])
def test_bad_input_is_exit_2_and_sends_nothing(udrv: Runner, dev: FakeTree,
                                               args: tuple[str, ...], says: str) -> None:
    r = udrv("spi", *args)
    want = 1 if "no SPI device" in says else 2  # not a device: none is there
    assert (r.returncode, says in r.stderr) == (want, True), r
    assert log(dev) == []
    assert dev.path("dev/spidev0.1").read_text() == ""  # no setting changed
