# SPDX-License-Identifier: GPL-2.0-only
"""examples/python run on the fake trees (the Python running the tests, with
udrv installed); lm75.py and mcp3008.py on tests/cli's fake i2c-dev and
spidev (preloaded into the example's Python: bus_fakes sets LD_PRELOAD in the
environment run() passes on), beside their C twins of examples/sensors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import BASE

from tests.support.bus_fakes import i2c_bus, spidev
from tests.support.fakes import FakeTree, GpioExports, uio_counts, uio_dev_fifo, uio_device
from tests.support.udrv_runner import REPO, required

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples" / "python"


def run(tree: FakeTree, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "UDRV_SYSROOT": str(tree.root)})


def test_blink(tree: FakeTree, exports: GpioExports) -> None:
    r = run(tree, str(EXAMPLES / "blink.py"), "gpiochip0", "3", "--backend", "sysfs",
            "--count", "2", "--period", "0.02")
    assert r.returncode == 0, r
    assert exports.final(BASE + 3, "value").startswith("0")
    assert exports.exported == [BASE + 3]


def test_blink_error_names_the_chip(tree: FakeTree, exports: GpioExports) -> None:
    r = run(tree, str(EXAMPLES / "blink.py"), "gpiochip4", "3", "--backend", "sysfs")
    assert r.returncode == 1, r
    assert "gpiochip4" in r.stdout


def test_uio_wait(tree: FakeTree) -> None:
    uio_device(tree, 0, "ticker", event=4)
    uio_dev_fifo(tree, 0)
    with uio_counts(tree, 0, [5, 8]):
        r = run(tree, str(EXAMPLES / "uio_wait.py"), "ticker", "--count", "2")
    assert r.returncode == 0, r
    assert "count 5 (+1, 0 missed)" in r.stdout
    assert "count 8 (+3, 2 missed)" in r.stdout
    assert "2 missed in all" in r.stdout


def test_button_asyncio_ends_after_its_time(tree: FakeTree, exports: GpioExports) -> None:
    """A FIFO as the value file: pollable, never an edge (edges: the lab)."""
    exports.fifo_values.add(BASE + 3)
    r = run(tree, str(EXAMPLES / "button_asyncio.py"), "gpiochip0", "3", "--seconds", "1.3",
            "--backend", "sysfs", "--bias", "as_is")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == ["...", "0 events lost"]
    # the default backend needs the character device the host has not
    r = run(tree, str(EXAMPLES / "button_asyncio.py"), "gpiochip0", "3", "--seconds", "0.1")
    assert r.returncode == 1, r
    assert "character device" in r.stdout


# ---- lm75.py: an LM75 on the fake i2c-dev (bus 1, its device at 0x50 whose
# registers are the node's bytes, an lm75 driver bound at 0x48) ----

LM75 = EXAMPLES / "lm75.py"
LM75_C = Path(os.environ.get("UDRV_LM75", REPO / "build" / "dev" / "examples" / "udrv-lm75"))


@pytest.fixture
def i2c(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    return i2c_bus(tree, monkeypatch)


def temp_register(tree: FakeTree, msb: int, lsb: int) -> None:
    node = tree.path("dev/i2c-1")
    node.write_bytes(bytes([msb, lsb]) + node.read_bytes()[2:])


def i2c_log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/i2c-1.log")
    return path.read_text().splitlines() if path.exists() else []


DEGREES = [
    (0x19, 0x80, "25.5 °C"),
    (0x00, 0x00, "0.0 °C"),
    (0xFF, 0x80, "-0.5 °C"),
    (0xFF, 0x00, "-1.0 °C"),
    (0xE7, 0x00, "-25.0 °C"),
    (0x7D, 0x00, "125.0 °C"),
    (0xC9, 0x00, "-55.0 °C"),
    (0x80, 0x00, "-128.0 °C"),  # the register's lowest
    (0x19, 0xFF, "25.5 °C"),  # the 7 bits below the 9 are not the temperature's
]


@pytest.mark.parametrize(("msb", "lsb", "says"), DEGREES)
def test_lm75_reads_degrees(i2c: FakeTree, msb: int, lsb: int, says: str) -> None:
    """The register's two bytes, most significant first on the wire, as 9
    bits of two's complement in half degrees."""
    temp_register(i2c, msb, lsb)
    r = run(i2c, str(LM75), "1", "0x50", "0", "1")
    assert (r.returncode, r.stdout, r.stderr) == (0, says + "\n", ""), r
    assert i2c_log(i2c) == ["read-word-data 0x50"]


def test_lm75_prints_as_the_c_example(i2c: FakeTree) -> None:
    """The same lines as examples/sensors/lm75.c (udrv-lm75) for every
    temperature above, and the same exit status where it fails."""
    c = str(required(LM75_C, "UDRV_LM75"))

    def both(*args: str) -> None:
        py = run(i2c, str(LM75), *args)
        cr = subprocess.run([c, *args], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "UDRV_SYSROOT": str(i2c.root)})
        assert (py.returncode, py.stdout) == (cr.returncode, cr.stdout), (args, py, cr)

    for msb, lsb, _ in DEGREES:
        temp_register(i2c, msb, lsb)
        both("1", "0x50", "0", "2")
    for args in (("1",), ("1", "0x51", "0", "1"), ("1", "0x80"), ("1", "0x50", "x")):
        both(*args)


@pytest.mark.parametrize("bus", ["1", "/dev/i2c-1", "i2c-1", "SMBus I801 adapter at f040"])
def test_lm75_opens_the_bus_by_each_name(i2c: FakeTree, bus: str) -> None:
    temp_register(i2c, 0x19, 0x80)
    r = run(i2c, str(LM75), bus, "80", "0", "1")  # 80: 0x50 in decimal
    assert (r.returncode, r.stdout) == (0, "25.5 °C\n"), r


def test_lm75_reads_once_a_period(i2c: FakeTree) -> None:
    temp_register(i2c, 0x19, 0x80)
    t0 = time.monotonic()
    r = run(i2c, str(LM75), "1", "0x50", "250", "3")
    elapsed = time.monotonic() - t0
    assert (r.returncode, r.stdout) == (0, "25.5 °C\n" * 3), r
    assert i2c_log(i2c) == ["read-word-data 0x50"] * 3
    assert elapsed >= 0.5, f"3 reads 250 ms apart in {elapsed:.3f} s"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_lm75_reads_until_stopped(i2c: FakeTree, sig: signal.Signals) -> None:
    """COUNT 0 (the default): a read a period until Ctrl-C or SIGTERM, then
    exit 0 quietly; each line flushed as it is read (here into a pipe, which
    Python's stdout buffers unless PYTHONUNBUFFERED says otherwise)."""
    temp_register(i2c, 0xFF, 0x80)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    p = subprocess.Popen([sys.executable, str(LM75), "1", "0x50", "100"], text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**env, "UDRV_SYSROOT": str(i2c.root)})
    # a hung example fails, not hangs, the test; so does one whose lines wait
    # in its buffer (8 KiB: 910 lines, 91 s)
    killer = threading.Timer(10, p.kill)
    killer.start()
    try:
        assert p.stdout is not None
        lines = [p.stdout.readline(), p.stdout.readline()]
        p.send_signal(sig)
        out, err = p.communicate(timeout=20)
    finally:
        killer.cancel()
    assert lines == ["-0.5 °C\n"] * 2
    assert (p.returncode, err) == (0, ""), (p.returncode, lines, out, err)
    assert len(i2c_log(i2c)) >= 2


def test_lm75_refused_where_the_kernel_drives_it(i2c: FakeTree) -> None:
    """The default address, 0x48, is the lm75 driver's on the fake bus:
    udrv.I2C refuses it, and the example says the library's message (the
    driver, the client and how to unbind it) and exits 1."""
    r = run(i2c, str(LM75), "1")
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr.startswith("lm75: i2c-1 (SMBus I801 adapter at f040): address 0x48"), r
    assert "kernel's driver lm75 (client 1-0048)" in r.stderr, r
    assert "echo 1-0048 > /sys/bus/i2c/drivers/lm75/unbind" in r.stderr, r
    assert "Traceback" not in r.stderr, r
    assert i2c_log(i2c) == []  # nothing reached the bus


@pytest.mark.parametrize(("args", "says"), [
    (("1", "0x51", "0", "1"), "no device answered at 0x51"),
    (("7",), "no I2C bus 7"),
    (("SMBus stub driver",), "SMBus stub driver"),
])
def test_lm75_bus_failures_exit_1(i2c: FakeTree, args: tuple[str, ...], says: str) -> None:
    r = run(i2c, str(LM75), *args)
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr.startswith("lm75: ") and says in r.stderr and "Traceback" not in r.stderr, r


@pytest.mark.parametrize("args", [
    (), ("",), ("1", "0x80"), ("1", "0x78"), ("1", "0x02"), ("1", ""), ("1", "12abc"),
    ("1", "0x"), ("1", " 0x50"), ("1", "0x50 "), ("1", "+80"), ("1", "0o120"), ("1", "8_0"),
    ("1", "\u0668\u0660"),  # Arabic-Indic 80: int() takes it, the C example does not
    ("1", "0x50", "-1"), ("1", "0x50", "3600001"), ("1", "0x50", "1.5"), ("1", "0x50", ""),
    ("1", "0x50", "1", "x"), ("1", "0x50", "1", "-1"), ("1", "0x50", "1", "4294967296"),
    ("1", "0x50", "1", ""), ("1", "0x50", "1", "1", "5"),
])
def test_lm75_bad_arguments_exit_2(i2c: FakeTree, args: tuple[str, ...]) -> None:
    r = run(i2c, str(LM75), *args)
    assert (r.returncode, r.stdout) == (2, ""), r
    assert "lm75.py: error: " in r.stderr, r
    assert i2c_log(i2c) == []


# ---- mcp3008.py: an MCP3008 on the fake spidev (spidev0.1, its modalias
# spi:mcp3008, answering from dev/spidev0.1.adc; spidev1.0 a loopback) ----

MCP3008 = EXAMPLES / "mcp3008.py"
MCP3008_C = Path(os.environ.get("UDRV_MCP3008",
                                REPO / "build" / "dev" / "examples" / "udrv-mcp3008"))
# each channel's value; read differentially (CH - its pair) every one would
# differ, so the single-ended bit is checked too
ADC = [100, 1023, 512, 64, 7, 300, 1000, 999]


@pytest.fixture
def spi(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    spidev(tree, monkeypatch)
    tree.file("dev/spidev0.1.adc", "10 " + " ".join(map(str, ADC)) + "\n")
    return tree


def spi_log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/spidev0.1.log")
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize("device", ["mcp3008", "0.1", "/dev/spidev0.1", "spidev0.1"])
def test_mcp3008_reads_every_channel(spi: FakeTree, device: str) -> None:
    """One 3-byte transfer a channel, in mode 0 at 1.35 MHz, 8 bits; the
    fake ADC reads the start bit, single-ended and the channel from the
    frame and answers the channel's value in the last 10 bits (the bits
    before them high)."""
    r = run(spi, str(MCP3008), device)
    assert r.returncode == 0 and r.stderr == "", r
    assert r.stdout.splitlines() == [f"channel {ch}: {v}" for ch, v in enumerate(ADC)], r
    assert spi_log(spi) == ["xfer 3"] * 8
    assert spi.read("dev/spidev0.1").split() == ["0", "8", "1350000"]  # mode, bits, clock


@pytest.mark.parametrize(("args", "says"), [
    (("0.1", "5"), ["channel 5: 300"]),  # FIRST alone: that one channel
    (("0.1", "0x6", "7"), ["channel 6: 1000", "channel 7: 999"]),
    (("0.1", "1", "3", "--vref", "3.3"),
     ["channel 1: 1023 (3.297 V)", "channel 2: 512 (1.650 V)", "channel 3: 64 (0.206 V)"]),
    (("0.1", "--vref", "5", "0", "0"), ["channel 0: 100 (0.488 V)"]),
])
def test_mcp3008_reads_channels_and_volts(spi: FakeTree, args: tuple[str, ...],
                                          says: list[str]) -> None:
    r = run(spi, str(MCP3008), *args)
    assert (r.returncode, r.stdout.splitlines(), r.stderr) == (0, says, ""), r
    assert spi_log(spi) == ["xfer 3"] * len(says)


def test_mcp3008_prints_as_the_c_example(spi: FakeTree) -> None:
    c = str(required(MCP3008_C, "UDRV_MCP3008"))
    for args in (("mcp3008",), ("0.1", "2", "4"), ("0.1", "7"), ("1.0",), ("2.0",),
                 ("0.1", "8")):
        py = run(spi, str(MCP3008), *args)
        cr = subprocess.run([c, *args], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "UDRV_SYSROOT": str(spi.root)})
        assert (py.returncode, py.stdout) == (cr.returncode, cr.stdout), (args, py, cr)


def test_mcp3008_no_device_exits_1(spi: FakeTree) -> None:
    r = run(spi, str(MCP3008), "2.0")
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr.startswith("mcp3008: no SPI device 2.0") and "Traceback" not in r.stderr, r


@pytest.mark.parametrize("args", [
    (), ("",), ("0.1", "8"), ("0.1", "3", "2"), ("0.1", "1", "2", "3"), ("0.1", ""),
    ("0.1", "1x"), ("0.1", "-1"), ("0.1", "0x"), ("0.1", "1", ""), ("0.1", " 1"),
    ("0.1", "--vref", "0"), ("0.1", "--vref", "nan"), ("0.1", "--vref", "inf"),
    ("0.1", "--vref", ""), ("0.1", "--vref", "-3.3"), ("0.1", "--vref", "6"),
    ("0.1", "--vref", "3_3"), ("0.1", "--vref", " 3.3"), ("0.1", "--vref"),
])
def test_mcp3008_bad_arguments_exit_2(spi: FakeTree, args: tuple[str, ...]) -> None:
    r = run(spi, str(MCP3008), *args)
    assert (r.returncode, r.stdout) == (2, ""), r
    assert "mcp3008.py: error: " in r.stderr, r
    assert spi_log(spi) == [] and spi.read("dev/spidev0.1") == ""  # nothing sent, nothing set
