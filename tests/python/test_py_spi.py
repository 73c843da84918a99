# SPDX-License-Identifier: GPL-2.0-only
"""udrv.SPI on the CLI tests' fake spidev (tests/cli/fake_spidev.c: a
loopback device whose settings the node keeps, each transfer logged, or an
MCP3008 answering from a file), preloaded into a child Python
(tests/support/preloaded.py): transfers into the caller's buffers, messages
of several transfers in one ioctl, the settings, the library's messages in
the exceptions, the GIL released in the ioctl, and bad arguments refused
before anything is sent or set."""

from __future__ import annotations

import array
import errno

import pytest
import udrv

from tests.support.fakes import FakeTree
from tests.support.preloaded import Child, gil_released, preloaded, preloaded_child

child = preloaded_child(("UDRV_FAKE_SPIDEV", "tests/cli/libfake_spidev.so"))


@pytest.fixture
def dev(tree: FakeTree) -> FakeTree:
    """spidev0.1 (an mcp3008 as its modalias says), and spidev1.0."""
    for bus, cs, name in ((1, 0, "spidev"), (0, 1, "mcp3008")):
        tree.file(f"dev/spidev{bus}.{cs}", "")
        tree.file(f"sys/bus/spi/devices/spi{bus}.{cs}/modalias", f"spi:{name}\n")
        tree.dir(f"sys/class/spidev/spidev{bus}.{cs}")
    return tree


def log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/spidev0.1.log")
    return path.read_text().splitlines() if path.exists() else []


@preloaded
def test_open_by_bus_and_cs_node_and_name(child: Child, dev: FakeTree) -> None:
    assert udrv.spi_list() == ["spidev0.1", "spidev1.0"]  # by bus, then chip select
    for spec in (("0.1",), (0, 1), ("spidev0.1",), ("/dev/spidev0.1",), ("mcp3008",)):
        with udrv.SPI(*spec) as spi:  # type: ignore[arg-type]
            assert (spi.bus, spi.cs, spi.mode, spi.bits_per_word, spi.max_speed_hz) == (
                0, 1, 0, 8, 500000)
            assert repr(spi) == "<SPI spidev0.1 mode 0, 8 bits, 500000 Hz>", repr(spi)
        assert spi.closed and repr(spi) == "<SPI (closed)>"
    with pytest.raises(udrv.NotFoundError, match=r"no SPI device 2\.0"):
        udrv.SPI("2.0")
    assert log(dev) == []


@preloaded
def test_transfer_fills_the_callers_buffer(child: Child, dev: FakeTree) -> None:
    big = bytearray(6)
    with udrv.SPI("0.1") as spi:
        assert spi.transfer(b"\x01\x80\x00") == b"\x01\x80\x00"  # the loopback
        for tx in (bytearray(b"ab"), memoryview(b"xab")[1:], array.array("B", b"ab"), [97, 98],
                   (97, 98)):
            assert spi.transfer(tx) == b"ab"  # type: ignore[arg-type]
        assert spi.transfer(b"xyz", memoryview(big)[2:5]) is None
        assert big == b"\0\0xyz\0"
        rx = bytearray(2)
        assert spi.transfer(rx, rx) is None and rx == b"\0\0"  # in place
        assert spi.read(3) == b"\0\0\0"  # zeros sent
        assert spi.readinto(big) == 6 and big == bytes(6)
        assert spi.write(b"\x05\x06") is None
    assert log(dev) == ["xfer 3"] + ["xfer 2"] * 5 + ["xfer 3", "xfer 2", "xfer 3", "xfer 6",
                                                      "xfer 2"]


@preloaded
def test_message_is_one_ioctl_of_its_transfers(child: Child, dev: FakeTree) -> None:
    buf = bytearray(2)
    with udrv.SPI("0.1") as spi:
        a = udrv.SPITransfer(b"\x01")
        b = udrv.SPITransfer(b"\x02\x03", buf, cs_change=True, delay_usecs=10, speed_hz=1000,
                             bits_per_word=16, word_delay_usecs=2)
        c = udrv.SPITransfer(length=2)  # zeros sent, received into a new bytearray
        d = udrv.SPITransfer(b"\x04", rx=False)  # received bytes dropped
        assert spi.message(a, b, c, d) == [bytearray(b"\x01"), buf, bytearray(2), None]
        assert a.rx == b"\x01" and buf == b"\x02\x03" and b.rx is buf
    assert log(dev) == ["xfer 1", "xfer 2 cs_change delay 10 speed 1000 bits 16 word_delay 2",
                        "xfer 2", "xfer 1"]


@preloaded
def test_settings_are_spidev_s(child: Child, dev: FakeTree) -> None:
    """What is set reaches spidev (the fake keeps it in the node: "MODE
    BITS SPEED") and is read back from there by the next open."""
    with udrv.SPI("0.1") as spi:
        spi.mode = 3
        spi.lsb_first = True
        spi.cs_high = True
        spi.bits_per_word = 16
        spi.max_speed_hz = 1_000_000
        assert dev.read("dev/spidev0.1").split() == [str(3 | 8 | 4), "16", "1000000"]
        spi.three_wire = True
        spi.cs_high = False
        spi.mode = 1  # the clock mode only: the flags stay
        assert (spi.mode, spi.lsb_first, spi.cs_high, spi.three_wire, spi.loop,
                spi.no_cs) == (1, True, False, True, False, False)
        spi.loop = True
        spi.no_cs = True
    with udrv.SPI("0.1") as spi:
        assert (spi.mode, spi.lsb_first, spi.three_wire, spi.loop, spi.no_cs,
                spi.bits_per_word, spi.max_speed_hz) == (1, True, True, True, True, 16,
                                                         1_000_000)
    assert dev.read("dev/spidev0.1").split() == [str(1 | 8 | 0x10 | 0x20 | 0x40), "16",
                                                  "1000000"]
    assert log(dev) == []


@preloaded
def test_an_mcp3008_answers(child: Child, dev: FakeTree) -> None:
    """The fake's ADC, as gpiozero's MCP3008 talks to it (start bit,
    single-ended, channel; a null bit, 10 bits back)."""
    dev.file("dev/spidev0.1.adc", "10 1 2 1023 4 5 6 7 8\n")
    with udrv.SPI("mcp3008") as spi:
        for ch, want in ((0, 1), (2, 1023), (7, 8)):
            rx = spi.transfer([1, 0x80 | ch << 4, 0])
            assert rx is not None and (rx[1] & 3) << 8 | rx[2] == want, (ch, rx)
        rx = spi.transfer([1, 0x20, 0])  # differential: CH2 - CH3
        assert rx is not None and (rx[1] & 3) << 8 | rx[2] == 1023 - 4


@preloaded
def test_more_than_spidev_s_buffer_is_the_library_s_refusal(child: Child, dev: FakeTree) -> None:
    with udrv.SPI("0.1") as spi:
        with pytest.raises(udrv.Error, match="4097 bytes in one message, spidev takes 4096") as e:
            spi.transfer(bytes(4097))
        assert e.value.errno == errno.EMSGSIZE
        with pytest.raises(udrv.Error, match="spidev takes 4096"):
            spi.message(udrv.SPITransfer(bytes(4000)), udrv.SPITransfer(bytes(97)))
    assert log(dev) == []


@preloaded
def test_closed_is_a_value_error(child: Child, dev: FakeTree) -> None:
    spi = udrv.SPI("0.1")
    spi.close()
    spi.close()
    for call in (lambda: spi.transfer(b"x"), lambda: spi.mode, lambda: setattr(spi, "mode", 1),
                 lambda: spi.message(udrv.SPITransfer(b"x")), lambda: spi.__enter__()):
        with pytest.raises(ValueError, match="SPI device is released"):
            call()
    assert log(dev) == []


@preloaded
def test_the_gil_is_released_in_the_ioctl(child: Child, dev: FakeTree) -> None:
    """The fake's ADC reads its values from a FIFO in the ioctl."""
    with udrv.SPI("0.1") as spi:
        assert gil_released(dev.path("dev/spidev0.1.adc"), b"10 0 0 0 0 0 0 0 0\n",
                            lambda: spi.transfer(b"\x01\x80\x00"))
    assert log(dev) == ["xfer 3"]


BAD_CALLS = [
    (lambda s: setattr(s, "mode", 4), ValueError, r"mode must be 0\.\.3, not 4"),
    (lambda s: setattr(s, "mode", -1), OverflowError, "mode must be"),
    (lambda s: setattr(s, "mode", "0"), TypeError, "mode must be an int, not str"),
    (lambda s: setattr(s, "bits_per_word", 0), ValueError, r"bits_per_word must be 1\.\.32"),
    (lambda s: setattr(s, "bits_per_word", 33), ValueError, r"bits_per_word must be 0\.\.32"),
    (lambda s: setattr(s, "max_speed_hz", 0), ValueError, "max_speed_hz must be 1.."),
    (lambda s: setattr(s, "max_speed_hz", 10**9 + 1), ValueError, "max_speed_hz must be 0.."),
    (lambda s: setattr(s, "lsb_first", 1), TypeError, "a mode flag is True or False, not int"),
    (lambda s: delattr(s, "mode"), AttributeError, "mode cannot be deleted"),
    (lambda s: s.transfer(b""), ValueError, "tx: 1 byte or more"),
    (lambda s: s.transfer(None), TypeError, "tx must be a bytes-like object"),
    (lambda s: s.transfer("ab"), TypeError, "tx must be a bytes-like object.*not str"),
    (lambda s: s.transfer(5), TypeError, "not int"),
    (lambda s: s.transfer([256]), ValueError, "list of ints 0..255"),
    (lambda s: s.transfer(b"ab", bytearray(3)), ValueError, r"rx must be as long as tx \(2"),
    (lambda s: s.transfer(b"ab", b"xy"), TypeError, "rx must be a writable bytes-like"),
    (lambda s: s.transfer(b"ab", False), TypeError, "rx must be a writable buffer or None"),
    (lambda s: s.read(0), ValueError, "length must be 1..4294967295, not 0"),
    (lambda s: s.read(-1), OverflowError, "length must be"),
    (lambda s: s.readinto(bytearray()), ValueError, "rx: 1 byte or more"),
    (lambda s: s.write(b""), ValueError, "1 byte or more"),
    (lambda s: s.message(), ValueError, r"a message is 1\.\.511 transfers, not 0"),
    (lambda s: s.message(*[udrv.SPITransfer(b"x")] * 512), ValueError, "not 512"),
    (lambda s: s.message(b"x"), TypeError, "transfer 0 must be an SPITransfer, not bytes"),
    (lambda s: udrv.SPITransfer(), ValueError, "needs tx, an rx buffer or a length"),
    (lambda s: udrv.SPITransfer(b"ab", bytearray(3)), ValueError, "disagree"),
    (lambda s: udrv.SPITransfer(length=0), ValueError, "1 byte or more, not 0"),
    (lambda s: udrv.SPITransfer(length=True), TypeError, "length must be an int"),
    (lambda s: s.message(udrv.SPITransfer(b"x", delay_usecs=65536)), ValueError,
     r"delay_usecs must be 0\.\.65535"),
    (lambda s: s.message(udrv.SPITransfer(b"x", word_delay_usecs=256)), ValueError,
     "word_delay_usecs must be 0..255"),
    (lambda s: s.message(udrv.SPITransfer(b"x", bits_per_word=33)), ValueError,
     "bits_per_word must be 0..32"),
    (lambda s: s.message(udrv.SPITransfer(b"x", speed_hz=-1)), OverflowError, "speed_hz"),
    (lambda s: s.message(udrv.SPITransfer(b"x", cs_change=1)), TypeError,  # type: ignore
     "cs_change must be True or False"),
    (lambda s: s.message(udrv.SPITransfer(b"x"), udrv.SPITransfer(b"y", rx=b"z")), TypeError,
     "transfer 1's rx must be a writable"),
    (lambda s: udrv.SPI(0), TypeError, "needs its chip select"),
    (lambda s: udrv.SPI(0, -1), OverflowError, "cs must be"),
    (lambda s: udrv.SPI(1.5), TypeError, "device must be"),
    (lambda s: udrv.SPI(""), ValueError, "not ''"),
]


@pytest.mark.parametrize("index", range(len(BAD_CALLS)))
@preloaded
def test_bad_arguments_send_and_set_nothing(child: Child, dev: FakeTree, index: int) -> None:
    call, exc, says = BAD_CALLS[index]
    with udrv.SPI("0.1") as spi:
        with pytest.raises(exc, match=says):
            call(spi)
        assert (spi.mode, spi.bits_per_word, spi.max_speed_hz) == (0, 8, 500000)
    assert log(dev) == []
    assert dev.read("dev/spidev0.1") == ""  # nothing set
