# SPDX-License-Identifier: GPL-2.0-only
"""udrvd grants SPI devices, I2C addresses and whole I2C buses to the user
its policy names, on real kernels (the Python image variant with D-Bus and
udrvd, py_board: std and rt), on the real spidev and i2c-dev drivers:

- an SPI device by fd hand-over (io.udrv1.Devices.OpenSpi): spi-fixture's
  loopback chip select, named in the rule by its modalias; the bytes come
  back as sent and the fixture counts the message at the source;
- I2C per address (io.udrv1.I2c: udrvd makes the transfers): i2c-stub's
  chip at 0x50 named by the adapter's name, SMBus byte and word reads and
  writes checked against what root reads and writes there itself;
  i2c-fixture's device by its controller device, a plain I2C_RDWR transfer
  (the register pointer written, bytes read after a repeated start);
- a whole I2C bus by fd (io.udrv1.Devices.OpenI2cBus, `open i2c-bus`).

The nodes are root's, mode 0600, as devtmpfs makes them: the user cannot
open them itself (seen first). Another address, another chip select, a user
without a rule are refused before anything reaches the bus, the fixture's
counts unchanged; a rule removed and the policy reloaded (SIGHUP) refuses
the next call. The calls are made with gdbus (a generic D-Bus client,
the types from udrvd's introspection) and tests/daemon/client.c (which
takes the fds with udrv_spi_open_fd() and udrv_i2c_open_fd()).

The groups i2c and spi (udev's rules): tests/lab/test_access.py.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

import pytest
from guest import Udrv, as_user, guest_users, root, sh
from test_i2c import FIXTURE as I2C_FIXTURE
from test_i2c import buses as i2c_buses
from test_i2c import stats as i2c_stats
from test_spi import stats as spi_stats
from test_udrvd_devices import client

from rig.lab import Board
from rig.lab.brokers import BUS, POLICY, STATE, Broker
from rig.lab.image import dbusguest

pytestmark = [pytest.mark.skipif(dbusguest.missing() is not None,
                                 reason=str(dbusguest.missing())),
              pytest.mark.lg_feature(["udrvd", "spi-fixture", "i2c-stub",
                                      "i2c-fixture"])]  # fmt: skip

MEMBER, OUTSIDER = "udrvuser", "otheruser"
UIDS = {MEMBER: 1100, OUTSIDER: 1101}
ENV = f"DBUS_SYSTEM_BUS_ADDRESS={BUS}"
STUB, FIXTURE = "SMBus stub driver", "i2c-fixture"  # the adapters' names
ADDR = 0x50  # i2c-stub's chip_addr in the lab, i2c-fixture's addr=
LOOP = "spi-loopback"  # spi-fixture's chip select 1 (its modalias)


def bus_of(board: Board, name: str) -> str:
    """The number of the I2C adapter called @name ("i2c-N" in udrv i2c list)."""
    found = i2c_buses(board)
    assert name in found, f"no I2C adapter {name!r} among {sorted(found)}"
    return str(found[name]["bus"]).removeprefix("i2c-")


def rules(fixture_bus: str, transfers: bool = True) -> str:
    """The policy: the loopback, 0x50 on both adapters (the stub by its
    name, the fixture by its controller device), the fixture's whole bus by
    number; without @transfers, the two `transfer i2c` rules left out."""
    grant = [f"allow user:{MEMBER} open spi {LOOP}",
             f"allow user:{MEMBER} open i2c-bus i2c-{fixture_bus}"]  # fmt: skip
    if transfers:
        grant += [f"allow user:{MEMBER} transfer i2c name:{STUB.replace(' ', '_')} 0x50",
                  f"allow user:{MEMBER} transfer i2c device:{FIXTURE} 0x50"]  # fmt: skip
    return "\n".join(grant) + "\n"


@pytest.fixture
def broker(py_board: Board) -> Iterator[Broker]:
    """Two users (no groups but their own), udrvd with rules(); the nodes
    root's 0600; i2c-stub's and i2c-fixture's registers as booted after."""
    b = py_board
    r = sh(b, "chown root:root /dev/i2c-* /dev/spidev* && chmod 0600 /dev/i2c-* /dev/spidev*")
    assert r.status == 0, r
    b.put_bytes(rules(bus_of(b, FIXTURE)).encode(), POLICY)
    root(b, f"mkdir -p /var/lib/udrvd && rm -f {STATE}")
    udrvd = Broker(b, "udrvd")
    try:
        with guest_users(b, UIDS):
            yield udrvd.start()
    finally:
        udrvd.stop()
        sh(b, f"udrv i2c set -w '{STUB}' 0x50 0x05 0 ; udrv i2c set -w '{STUB}' 0x50 0x06 0; "
              f"dd if=/dev/zero of={I2C_FIXTURE}/regs bs=256 count=1")  # fmt: skip


def i2c_call(board: Board, user: str, method: str, *args: str) -> Udrv:
    """io.udrv1.I2c.@method(@args, GVariant text) by @user, through gdbus."""
    cmd = ["gdbus", "call", "--system", "-d", "io.gpiod1", "-o", "/io/udrv1",
           "-m", f"io.udrv1.I2c.{method}", *args]  # fmt: skip
    return as_user(board, user, shlex.join(cmd), env=ENV)


def gv_str(s: str) -> str:
    return "'" + s + "'"


def refused(r: Udrv, what: str) -> None:
    assert r.status != 0, f"not refused: {r.stdout}"
    assert "AccessDenied" in r.stderr and what in r.stderr, r.stderr


def test_an_spi_device_by_fd(broker: Broker) -> None:
    b = broker.board
    own = as_user(b, MEMBER, f"udrv spi transfer {LOOP} 0x5a")
    assert own.status == 1 and "Permission denied" in own.stderr, own
    before = spi_stats(b, 1)
    r = client(b, MEMBER, "spi", LOOP, "a1b2c3")
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert re.fullmatch(r"spi spidev\d+\.1 \d+\.1 rx a1b2c3\n", r.stdout), r.stdout
    after = spi_stats(b, 1)
    assert (after["messages"] - before["messages"], after["bytes"] - before["bytes"]) == (1, 3)
    # the other chip select (the ADC), and a user without a rule: no fd, nothing sent
    adc = spi_stats(b, 0)
    refused(client(b, MEMBER, "spi", "mcp3008", "00"), "'open' on spi device spidev")
    refused(client(b, OUTSIDER, "spi", LOOP, "00"),
            f"the policy refuses uid {UIDS[OUTSIDER]} (gid ")  # fmt: skip
    assert (spi_stats(b, 0), spi_stats(b, 1)) == (adc, after)


def test_smbus_at_a_granted_address(broker: Broker) -> None:
    b = broker.board
    own = as_user(b, MEMBER, f"udrv i2c get '{STUB}' 0x50 0x05")
    assert own.status == 1 and "Permission denied" in own.stderr, own
    root(b, f"udrv i2c set '{STUB}' 0x50 0x05 0x5a")
    r = i2c_call(b, MEMBER, "ReadByteData", gv_str(STUB), "0x50", "0x05")
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert r.stdout.strip() == "(byte 0x5a,)", r.stdout
    r = i2c_call(b, MEMBER, "WriteWordData", gv_str(STUB), "0x50", "0x06", "0xbeef")
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert root(b, f"udrv i2c get -w '{STUB}' 0x50 0x06").strip() == "0xbeef"
    r = i2c_call(b, MEMBER, "ReadWordData", gv_str(STUB), "0x50", "0x06")
    assert r.status == 0 and r.stdout.strip() == "(uint16 48879,)", r
    # another address on the same bus, another user: refused by the policy
    refused(i2c_call(b, MEMBER, "ReadByteData", gv_str(STUB), "0x51", "0x05"),
            "'transfer' at address 0x51 of i2c-")  # fmt: skip
    refused(i2c_call(b, OUTSIDER, "WriteByteData", gv_str(STUB), "0x50", "0x05", "0x00"),
            f"the policy refuses uid {UIDS[OUTSIDER]} (gid ")  # fmt: skip
    assert root(b, f"udrv i2c get '{STUB}' 0x50 0x05").strip() == "0x5a"


def test_a_plain_transfer_and_a_revoked_rule(broker: Broker) -> None:
    b = broker.board
    regs = bytes(range(0x40, 0x50))
    escaped = "".join(f"\\{x:03o}" for x in regs)  # printf's octal escapes
    root(b, f"printf '{escaped}' | dd of={I2C_FIXTURE}/regs bs=1 seek=16 conv=notrunc "
            "2>/dev/null")  # fmt: skip
    before = i2c_stats(b)
    # the pointer 0x10 written, 4 bytes read after a repeated start
    msgs = f"@a(qqqay) [({ADDR}, 0, 1, [byte 0x10]), ({ADDR}, 1, 4, @ay [])]"
    r = i2c_call(b, MEMBER, "Transfer", gv_str(FIXTURE), msgs)
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert r.stdout.strip() == "([[byte 0x40, 0x41, 0x42, 0x43]],)", r.stdout
    assert i2c_stats(b) != before
    # a message to an address without a rule: nothing of the transfer sent
    before = i2c_stats(b)
    mixed = f"@a(qqqay) [({ADDR}, 0, 1, [byte 0x10]), (0x51, 1, 4, @ay [])]"
    refused(i2c_call(b, MEMBER, "Transfer", gv_str(FIXTURE), mixed), "at address 0x51")
    assert i2c_stats(b) == before
    # the transfer rules removed, the policy reloaded: the next call refused
    b.put_bytes(rules(bus_of(b, FIXTURE), transfers=False).encode(), POLICY)
    root(b, f"kill -HUP {broker.pid}")
    r = sh(b, "i=0; until grep -q 'policy reloaded: 2 rules' /tmp/udrvd.log; do "
              "i=$((i+1)); [ $i -lt 100 ] || exit 1; sleep 0.1; done")  # fmt: skip
    assert r.status == 0, broker.log()
    refused(i2c_call(b, MEMBER, "ReadByteData", gv_str(STUB), "0x50", "0x05"),
            "'transfer' at address 0x50 of i2c-")  # fmt: skip


def test_a_whole_bus_by_fd(broker: Broker) -> None:
    b = broker.board
    bus = bus_of(b, FIXTURE)
    root(b, f"udrv i2c set '{FIXTURE}' 0x50 0x20 0xc3")
    r = client(b, MEMBER, "i2c-bus", bus, "0x50", "0x20")
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert r.stdout == f"i2c-bus i2c-{bus} 0x50 0xc3\n", r.stdout
    stub = bus_of(b, STUB)  # no `open i2c-bus` rule for the stub's bus
    refused(client(b, MEMBER, "i2c-bus", stub, "0x50", "0x05"),
            f"'open' on the whole i2c bus i2c-{stub} ")  # fmt: skip
    refused(client(b, OUTSIDER, "i2c-bus", bus, "0x50", "0x20"),
            f"the policy refuses uid {UIDS[OUTSIDER]} (gid ")  # fmt: skip
