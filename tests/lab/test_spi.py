# SPDX-License-Identifier: GPL-2.0-only
"""SPI on the real kernels' SPI core and spidev: `udrv spi` and libudrv's
messages (tests/lab/progs/spi_check.c, udrv-spi-check: several transfers,
their own clocks and word sizes, cs_change) on rig/kernel/spi-fixture, whose
two devices the lab binds to spidev (rig/kernel/spi-fixture/lab-setup.sh):

- chip select 0, "mcp3008": an MCP3008 model, shifted bit by bit; its inputs
  are what the test writes to the fixture's `adc`;
- chip select 1, "spi-loopback": MISO is MOSI (also udrv-bench spi's device).

What the controller did is read at the source, /sys/devices/platform/
spi-fixture/cs0 and cs1 (messages, transfers, bytes, chip-select
assertions, conversions started, and the last transfer's mode, bits per
word and clock as the SPI core gave them to the controller).

A member of group spi and an outsider: tests/lab/test_access.py.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator

import pytest
from guest import Udrv, ok, root, sh, udrv

from rig.lab import Board

pytestmark = [pytest.mark.lg_feature(["spi-fixture"])]

FIXTURE = "/sys/devices/platform/spi-fixture"
ADC, LOOP = "mcp3008", "spi-loopback"  # the devices' modalias: what udrv spi takes as names
MIN_HZ, MAX_HZ = 10_000, 10_000_000  # the controller's (spi-fixture.c)
DEVICE_HZ = 1_000_000  # each device's max_speed_hz as registered
INPUTS = [0, 1023, 512, 100, 7, 300, 900, 1]  # the ADC's eight channels
EINVAL, EMSGSIZE = 22, 90


@pytest.fixture
def spi(board: Board) -> Iterator[str]:
    """The controller's bus number; the inputs set to INPUTS; both devices
    back to mode 0, 8 bits, DEVICE_HZ afterwards (spidev keeps settings)."""
    r = sh(board, f"ls {FIXTURE}/spi_master")
    assert r.status == 0 and r.stdout.startswith("spi"), r
    root(board, f"echo {' '.join(map(str, INPUTS))} > {FIXTURE}/adc")
    yield r.stdout.split()[0].removeprefix("spi")
    for dev in (ADC, LOOP):
        sh(board, f"udrv spi transfer -m 0 -b 8 -s {DEVICE_HZ} {dev} 0")
    sh(board, f"echo 0 0 0 0 0 0 0 0 > {FIXTURE}/adc")


def stats(board: Board, cs: int) -> dict[str, int]:
    text = root(board, f"cat {FIXTURE}/cs{cs}")
    return {k: int(v) for k, v in (line.split() for line in text.splitlines())}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    counts = ("messages", "transfers", "bytes", "cs_asserts", "conversions", "bad_mode")
    return {k: after[k] - before[k] for k in counts if after[k] != before[k]}


def transfer(board: Board, dev: str, data: list[int], opts: str = "") -> Udrv:
    return udrv(board, f"spi transfer --json {opts} {dev} {' '.join(map(hex, data))}")


def received(board: Board, dev: str, data: list[int], opts: str = "") -> list[int]:
    r = transfer(board, dev, data, opts)
    assert r.status == 0, f"udrv spi transfer {opts} {dev}: exit {r.status}\n{r.stderr}"
    out = r.json()
    assert out["sent"] == data, out
    return list(out["received"])


def message(board: Board, dev: str, *xfers: str, opts: str = "") -> dict:
    cmd = f"udrv-spi-check {dev} {opts} {' '.join(xfers)}"
    r = sh(board, cmd)
    assert r.status == 0, f"{cmd}: exit {r.status}\n{r.stdout}{r.stderr}"
    out = json.loads(r.stdout)
    assert isinstance(out, dict)
    return out


def frame(ch: int, single: bool = True) -> list[int]:
    """The MCP3008's usual 3-byte frame: start bit, SGL/DIFF, D2 D1 D0."""
    return [0x01, (0x80 if single else 0) | ch << 4, 0x00]


def result(rx: list[int]) -> int:
    """The 10-bit result in a 3-byte frame's last ten bits."""
    return (rx[1] & 0x03) << 8 | rx[2]


def test_list_shows_both_devices(board: Board, spi: str) -> None:
    devices = {d["device"]: d for d in ok(board, "spi list --json").json()}
    for cs in (0, 1):
        d = devices.get(f"spidev{spi}.{cs}")
        assert d is not None, devices
        assert (d["mode"] & 3, d["bits_per_word"], d["max_speed_hz"]) == (0, 8, DEVICE_HZ), d
    for cs, name in ((0, ADC), (1, LOOP)):
        assert root(board, f"cat /sys/bus/spi/devices/spi{spi}.{cs}/modalias").strip() == \
            f"spi:{name}"
        assert root(board, f"readlink /sys/bus/spi/devices/spi{spi}.{cs}/driver").strip() \
            .endswith("/spidev")  # fmt: skip


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_loopback_in_every_mode_and_clock(board: Board, spi: str, mode: int) -> None:
    data = [0x01, 0xA5, 0x5A, 0xFF, 0x00, 0x80]
    for hz in (MIN_HZ, 100_000, DEVICE_HZ, MAX_HZ):
        before = stats(board, 1)
        assert received(board, LOOP, data, f"-m {mode} -s {hz}") == data
        after = stats(board, 1)
        assert delta(before, after) == {"messages": 1, "transfers": 1, "bytes": len(data),
                                        "cs_asserts": 1}  # fmt: skip
        assert (after["mode"], after["bits"], after["speed_hz"]) == (mode, 8, hz), after
    # The next program: spidev keeps the mode (the device's), but 6.1's
    # spidev puts its clock back to the device's max_speed_hz when the last
    # user closes it, and SPI_IOC_RD_MAX_SPEED_HZ reads the device's too:
    # a transfer without -s runs at DEVICE_HZ, and udrv spi list shows it
    assert received(board, LOOP, data) == data
    after = stats(board, 1)
    assert (after["mode"], after["speed_hz"]) == (mode, DEVICE_HZ), after
    d = {x["device"]: x for x in ok(board, "spi list --json").json()}[f"spidev{spi}.1"]
    assert (d["mode"] & 3, d["max_speed_hz"]) == (mode, DEVICE_HZ), d


def test_clock_beyond_the_controller(board: Board, spi: str) -> None:
    """Faster than the controller: the SPI core clamps it (the controller sees
    its maximum); slower than its minimum: the core refuses the transfer."""
    data = [0x12, 0x34]
    assert received(board, LOOP, data, f"-s {5 * MAX_HZ}") == data
    assert stats(board, 1)["speed_hz"] == MAX_HZ
    before = stats(board, 1)
    r = transfer(board, LOOP, data, f"-s {MIN_HZ // 10}")
    assert r.status == 1 and "Invalid argument" in r.stderr, r
    assert delta(before, stats(board, 1)) == {}  # never reached the controller


def test_sixteen_bits_per_word(board: Board, spi: str) -> None:
    data = [0x01, 0x02, 0xFE, 0xFF]
    assert received(board, LOOP, data, "-b 16") == data
    assert stats(board, 1)["bits"] == 16
    assert received(board, LOOP, data) == data  # the next program: spidev kept it
    assert stats(board, 1)["bits"] == 16
    before = stats(board, 1)
    r = transfer(board, LOOP, [0x01, 0x02, 0x03], "-b 16")  # not whole words
    assert r.status == 1 and "Invalid argument" in r.stderr, r
    r = transfer(board, LOOP, data, "-b 12")  # a width the controller lacks
    assert r.status == 1, r
    assert "the controller cannot do 12-bit words" in r.stderr, r.stderr
    assert delta(before, stats(board, 1)) == {}


def test_adc_reads_every_channel(board: Board, spi: str) -> None:
    before = stats(board, 0)
    got = [result(received(board, ADC, frame(ch))) for ch in range(8)]
    assert got == INPUTS
    assert delta(before, stats(board, 0)) == {"messages": 8, "transfers": 8, "bytes": 24,
                                              "cs_asserts": 8, "conversions": 8}  # fmt: skip


def test_adc_differential(board: Board, spi: str) -> None:
    """Pair ch/2, IN+ = CHch, IN- its pair's other channel; a negative
    difference reads 0."""
    for ch in range(8):
        want = max(0, INPUTS[ch] - INPUTS[ch ^ 1])
        assert result(received(board, ADC, frame(ch, single=False))) == want, ch


def test_adc_keeps_clocking_lsb_first(board: Board, spi: str) -> None:
    """Clocked on after B0 the MCP3008 sends the result again LSB first
    (from B1; its data sheet, figure 5-1), then zeros."""
    v = INPUTS[2]
    rx = received(board, ADC, [*frame(2), 0x00, 0x00])
    lsb_first = sum(((v >> k) & 1) << (8 - k) for k in range(1, 9))  # B1..B8
    assert rx[1:] == [v >> 8 & 3, v & 0xFF, lsb_first, (v >> 9 & 1) << 7], rx


@pytest.mark.parametrize("mode", [1, 2])
def test_adc_wrong_mode_reads_nothing(board: Board, spi: str, mode: int) -> None:
    before = stats(board, 0)
    assert received(board, ADC, frame(1), f"-m {mode}") == [0, 0, 0]
    assert delta(before, stats(board, 0)) == {"messages": 1, "transfers": 1, "bytes": 3,
                                              "cs_asserts": 1, "bad_mode": 1}  # fmt: skip
    assert result(received(board, ADC, frame(1), "-m 3")) == INPUTS[1]  # CPOL = CPHA works


def test_message_with_cs_change(board: Board, spi: str) -> None:
    """Two frames in one message: with cs_change after the first, the chip
    select goes off between them and the ADC converts twice; without it the
    second frame reads on in the first conversion."""
    hexes = [",".join(map(hex, frame(ch))) for ch in (1, 6)]
    before = stats(board, 0)
    out = message(board, ADC, f"{hexes[0]}/cs", hexes[1])
    assert out["ret"] == 0, out
    assert [result(rx) for rx in out["rx"]] == [INPUTS[1], INPUTS[6]]
    assert delta(before, stats(board, 0)) == {"messages": 1, "transfers": 2, "bytes": 6,
                                              "cs_asserts": 2, "conversions": 2}  # fmt: skip
    before = stats(board, 0)
    out = message(board, ADC, hexes[0], hexes[1])
    assert out["ret"] == 0, out
    assert result(out["rx"][0]) == INPUTS[1] and out["rx"][1][2] == 0, out
    assert delta(before, stats(board, 0)) == {"messages": 1, "transfers": 2, "bytes": 6,
                                              "cs_asserts": 1, "conversions": 1}  # fmt: skip


def test_message_with_clocks_and_words_of_its_own(board: Board, spi: str) -> None:
    """Each transfer of a message at its own clock and word size: the
    controller sees each (its last transfer's in `cs1`), the bytes loop back."""
    before = stats(board, 1)
    out = message(board, LOOP, "1,2,3/speed=100000", "4,5,6,7/bits=16/speed=2000000")
    assert out["ret"] == 0, out
    assert out["rx"] == [[1, 2, 3], [4, 5, 6, 7]]
    after = stats(board, 1)
    assert delta(before, after) == {"messages": 1, "transfers": 2, "bytes": 7, "cs_asserts": 1}
    assert (after["bits"], after["speed_hz"]) == (16, 2_000_000), after
    assert out["bits"] == 8  # the device's own setting stays


def test_adc_in_sixteen_bit_words(board: Board, spi: str) -> None:
    """Words of 16 bits, MSB first: the start bit as the first word's last
    bit, the result in the second word's low ten."""
    for ch in (3, 6):
        tx = struct.pack("<HH", 0x0001, (0x8 | ch) << 12)
        out = message(board, ADC, ",".join(map(str, tx)) + "/bits=16")
        assert out["ret"] == 0, out
        words = struct.unpack("<HH", bytes(out["rx"][0]))
        assert words == (0, INPUTS[ch]), words


# Python: udrv.SPI and gpiozero's MCP3008 (both gpiozero versions) on the py_board
# read spi-fixture's channels in tests/lab/test_python.py
# (test_pybench_buses_*: each value against the fixture's input).


def test_message_as_the_kernel_checks_it(board: Board, spi: str) -> None:
    """libudrv leaves a message's checks to spidev and the SPI core, and says
    why they refused: spidev's buffer counts each way (4096 out and 4096 in
    go in one message), what it refuses and a word size past 32 reach nothing
    (the controller's counts unchanged); a transfer of 0 bytes only waits."""
    before = stats(board, 1)
    out = message(board, LOOP, "1/len=4096/out", "2/len=4096/in")
    assert out["ret"] == 0, out
    assert delta(before, stats(board, 1)) == {"messages": 1, "transfers": 2, "bytes": 8192,
                                              "cs_asserts": 1}  # fmt: skip
    before = stats(board, 1)
    for xfers, ret, said in (
            (("1/len=4000/out", "2/len=97/out"), -EMSGSIZE,
             "a message of 4097 bytes out and 0 in, spidev takes 4096 each way"),
            (("1,2", "3,4/bits=33"), -EINVAL, "transfer 1: 33 bits per word"),
            (("1,2,3/bits=16",), -EINVAL, "a message of 1 transfers: Invalid argument")):
        out = message(board, LOOP, *xfers)
        assert (out["ret"], said in out["errmsg"]) == (ret, True), (xfers, out)
    assert delta(before, stats(board, 1)) == {}
    out = message(board, LOOP, "1,2", "0/len=0/delay=5", "3,4")
    assert (out["ret"], out["rx"]) == (0, [[1, 2], [], [3, 4]]), out


def test_unloads_and_loads_again(board: Board, spi: str) -> None:
    """rmmod unbinds spidev and takes the controller away cleanly (no warning
    in the kernel log); insmod and the lab's setup bring both devices back."""
    ko = root(board, "ls /lib/modules/$(uname -r)/extra/spi-fixture/spi-fixture.ko").strip()
    mark = root(board, "dmesg | wc -l").strip()
    root(board, "rmmod spi_fixture")
    try:
        assert sh(board, "ls /dev/spidev*").stdout.strip() == ""
    finally:
        root(board, f"insmod {ko} && sh /etc/udrv-lab/setup.d/spi-fixture.sh")
    root(board, f"echo {' '.join(map(str, INPUTS))} > {FIXTURE}/adc")
    assert result(received(board, ADC, frame(5))) == INPUTS[5]
    assert received(board, LOOP, [1, 2]) == [1, 2]
    assert stats(board, 0)["messages"] == 1  # a new controller, counted from 0
    log = root(board, f"dmesg | tail -n +{int(mark) + 1}")
    assert not any(bad in log for bad in ("WARNING", "BUG", "Call Trace")), log
