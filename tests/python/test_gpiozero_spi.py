# SPDX-License-Identifier: GPL-2.0-only
"""gpiozero's SPI devices on udrv.gpiozero: MCP3008 and MCP3208 through
spidev and in software, in a child Python with the fakes preloaded
(tests/support/preloaded.py): fake_spidev's ADC (spidevB.C.adc) behind
hardware SPI, fake_cdev's ADC on four lines (gpiochip0.mcp3008) behind
software SPI.

The gpiozero is the one installed: scripts/check.py runs this file with
gpiozero 2.0.1 and again with 1.6.2, as test_gpiozero.py.
"""

from __future__ import annotations

import pytest
from conftest import NO_GPIOZERO, with_factory

from tests.support.fake_gpio import fake_chip, line_state
from tests.support.fakes import FakeTree
from tests.support.preloaded import Child, preloaded

try:  # fail, do not skip: the tests exist to run
    import gpiozero  # noqa: F401
except ImportError as e:
    raise ImportError(NO_GPIOZERO) from e
import udrv
from gpiozero import LED, Device
from gpiozero.exc import GPIOPinInUse

ADC = [100, 200, 1023, 0, 512, 5, 6, 7]
CLK, MOSI, MISO, CS = 4, 5, 6, 7  # the software ADC's lines on gpiochip0


@pytest.fixture
def child(gpiozero_child: Child) -> Child:
    return gpiozero_child


@pytest.fixture
def spi(tree: FakeTree) -> FakeTree:
    """gpiochip0 (8 lines, fake_cdev) and spidev0.0 and 1.1 (fake_spidev);
    no ADC yet."""
    fake_chip(tree, "fake-spi", 8)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 8)
    for bus, cs in ((0, 0), (1, 1)):
        tree.file(f"dev/spidev{bus}.{cs}", "")
        tree.dir(f"sys/class/spidev/spidev{bus}.{cs}")
    return tree



def spi_log(tree: FakeTree, dev: str = "0.0") -> list[str]:
    path = tree.path(f"dev/spidev{dev}.log")
    return path.read_text().splitlines() if path.exists() else []



@preloaded
def test_mcp3008_on_spidev(child: Child, spi: FakeTree) -> None:
    """MCP3008(channel=N): gpiozero's default SPI, spidev0.0 (udrv.SPI):
    one 3-byte transfer a reading, the fake ADC's value back; channels
    share one device (gpiozero asks for it shared)."""
    from gpiozero import MCP3008

    spi.file("dev/spidev0.0.adc", "10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    try:
        adc2, adc4 = MCP3008(channel=2), MCP3008(channel=4)
        assert adc2._spi is adc4._spi  # shared
        assert "port=0, device=0" in repr(adc2), repr(adc2)
        assert (adc2.raw_value, adc4.raw_value) == (1023, 512)
        assert adc2.value == 1.0 and abs(adc4.value - 0.5) < 1e-3
        diff = MCP3008(channel=0, differential=True)  # CH0 - CH1: below 0, read as 0
        assert diff.raw_value == 0
        assert spi_log(spi) == ["xfer 3"] * 5, spi_log(spi)  # one a reading
        assert spi.read("dev/spidev0.0").split() == ["0", "8", "500000"]  # gpiozero's rate
        adc2.close()
        assert adc4.raw_value == 512  # the shared device is still open
        adc4.close()
        diff.close()
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3208_by_port_and_device(child: Child, spi: FakeTree) -> None:
    from gpiozero import MCP3208

    spi.file("dev/spidev1.1.adc", "12 0 4095 2048 0 0 0 0 0\n")
    f = with_factory()
    try:
        with MCP3208(channel=1, port=1, device=1) as a1, MCP3208(channel=2, port=1,
                                                                  device=1) as a2:
            assert (a1.raw_value, a2.raw_value) == (4095, 2048)
            a1._spi.clock_mode = 3
            assert a1._spi.clock_mode == 3 and spi.read("dev/spidev1.1").split()[0] == "3"
        assert spi_log(spi, "1.1") == ["xfer 3", "xfer 3"]
        with pytest.raises(udrv.NotFoundError, match=r"no SPI device 2\.0"):
            MCP3208(port=2, device=0)  # off a Pi: no pins to fall back on
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3008_in_software_on_any_lines(child: Child, spi: FakeTree) -> None:
    """Pins that are no SPI bus: bit-banged on the lines (udrv requests),
    the fake device sampling MOSI at the clock's rising edge and setting
    MISO at its falling edge (mode 0); nothing through spidev."""
    from gpiozero import MCP3008
    from udrv._gpiozero_spi import UdrvSoftwareSPI

    spi.file("dev/gpiochip0.mcp3008",
             f"{CLK} {MOSI} {MISO} {CS} 10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    pins = {"clock_pin": CLK, "mosi_pin": MOSI, "miso_pin": MISO, "select_pin": CS}
    try:
        adcs = [MCP3008(channel=ch, **pins) for ch in range(8)]
        assert isinstance(adcs[0]._spi, UdrvSoftwareSPI)
        assert [a.raw_value for a in adcs] == ADC
        assert MCP3008(channel=1, differential=True, **pins).raw_value == 200 - 100
        assert [line_state(spi, n)[1:3] for n in (CLK, MOSI, CS)] == [
            ["out", "0"], ["out", "0"], ["out", "1"]]  # idle: clock low, deselected
        assert line_state(spi, MISO)[1] == "in"
        with pytest.raises(GPIOPinInUse):
            LED(CLK)
        for a in adcs:
            a.close()
        assert spi_log(spi) == []
    finally:
        Device.pin_factory = None
        f.close()
    assert [line_state(spi, n)[0] for n in (CLK, MOSI, MISO, CS)] == ["0"] * 4  # released


@preloaded
def test_software_spi_modes_and_words(child: Child, spi: FakeTree) -> None:
    """The clock's idle level follows the mode; words longer than 8 bits;
    the select's polarity."""
    f = with_factory()
    try:
        iface = f.spi(clock_pin=CLK, mosi_pin=MOSI, miso_pin=MISO, select_pin=CS)
        iface.clock_mode = 2
        assert iface.clock_mode == 2 and line_state(spi, CLK)[2] == "1"
        spi.file("dev/gpiochip0.state", "".join(  # MISO held high: every bit reads 1
            "0 in 1 0 - none\n" if n == MISO else line for n, line in enumerate(
                spi.read("dev/gpiochip0.state").splitlines(keepends=True))))
        iface.bits_per_word = 12
        assert iface.transfer([0xABC, 0]) == [0xFFF, 0xFFF]
        assert line_state(spi, MOSI)[2] == "0" and line_state(spi, CLK)[2] == "1"
        iface.select_high = True
        assert line_state(spi, CS)[2] == "0"
        with pytest.raises(ValueError, match="does not fit 12 bits"):
            iface.transfer([0x1000])
        iface.close()
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_spi_arguments(child: Child, spi: FakeTree) -> None:
    from gpiozero import MCP3008
    from gpiozero.exc import SPIBadArgs

    f = with_factory()
    try:
        with pytest.raises(SPIBadArgs, match="combinations of the two schemes"):
            MCP3008(port=0, clock_pin=CLK)
        with pytest.raises(SPIBadArgs, match="unrecognized keyword argument foo"):
            f.spi(foo=1)
        with pytest.raises(SPIBadArgs, match="needs clock_pin and select_pin"):
            MCP3008(clock_pin=CLK)
        with pytest.raises(SPIBadArgs, match="port must be an int 0 or more"):
            MCP3008(port=-1)
        with pytest.raises(udrv.NotFoundError, match=r"no SPI device 0\.0"):
            spi.path("dev/spidev0.0").unlink()
            MCP3008()
        assert spi_log(spi) == []
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3008_on_a_pi_s_spi0(child: Child, tree: FakeTree) -> None:
    """On a Pi, SPI0's pins are spidev0.0 and 0.1 (GPIO11, 10, 9, and 8 or 7
    selecting), reserved; without spidev, gpiozero's fallback: a warning,
    then software SPI on those pins (the fake ADC on the header's lines)."""
    from gpiozero import MCP3008
    from gpiozero.exc import SPISoftwareFallback
    from udrv._gpiozero_spi import UdrvHardwareSPI, UdrvSoftwareSPI

    fake_chip(tree, "pinctrl-bcm2835", 54)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 54)
    tree.file("proc/device-tree/compatible", b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    tree.file("proc/device-tree/system/linux,revision", bytes.fromhex("00a02082"))
    tree.file("dev/spidev0.1", "")
    tree.file("dev/spidev0.1.adc", "10 " + " ".join(map(str, ADC)) + "\n")
    tree.file("dev/gpiochip0.mcp3008", "11 10 9 8 10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    try:
        with MCP3008(channel=2, select_pin=7) as hw:
            assert isinstance(hw._spi, UdrvHardwareSPI) and "device=1" in repr(hw._spi)
            assert hw.raw_value == ADC[2]
            with pytest.raises(GPIOPinInUse):
                LED("GPIO11")
            LED("GPIO8").close()  # device 0's select: not device 1's
        with pytest.warns(SPISoftwareFallback, match=r"no SPI device 0\.0"):
            sw = MCP3008(channel=1)  # spidev0.0 is not there
        assert isinstance(sw._spi, UdrvSoftwareSPI)
        assert sw.raw_value == ADC[1]
        sw.close()
        assert spi_log(tree, "0.1") == ["xfer 3"]
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_spidev_words_longer_than_a_byte(child: Child, spi: FakeTree) -> None:
    """gpiozero's words go to spidev as it takes them: 2 bytes each for 9
    to 16 bits, 4 beyond (the loopback returns them)."""
    from gpiozero.exc import SPIInvalidClockMode

    f = with_factory()
    try:
        iface = f.spi(port=1, device=1)
        assert iface.transfer([1, 255]) == [1, 255]
        iface.bits_per_word = 12
        assert iface.transfer([0xABC, 0x123]) == [0xABC, 0x123]
        iface.bits_per_word = 20
        assert iface.transfer([0xABCDE]) == [0xABCDE]
        with pytest.raises(SPIInvalidClockMode):
            iface.clock_mode = 4
        iface.lsb_first = True
        iface.select_high = True
        iface.rate = 1e6
        assert (iface.lsb_first, iface.select_high, iface.rate) == (True, True, 1_000_000)
        iface.close()
        assert spi_log(spi, "1.1") == ["xfer 2", "xfer 4", "xfer 4"], spi_log(spi, "1.1")
        assert spi.read("dev/spidev1.1").split() == [str(8 | 4), "20", "1000000"]
    finally:
        Device.pin_factory = None
        f.close()
