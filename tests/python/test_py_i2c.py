# SPDX-License-Identifier: GPL-2.0-only
"""udrv.I2C on the CLI tests' fake i2c-dev (tests/cli/fake_i2c_dev.c: bus 1
"SMBus I801 adapter at f040", its device at 0x50 whose registers are the
node's bytes, every transaction logged), preloaded into a child Python
(tests/support/preloaded.py): every SMBus call and plain transfers in one
I2C_RDWR, the caller's buffers filled in place, the library's messages in
the exceptions, the GIL released in the ioctl, and bad arguments refused
before anything reaches the bus."""

from __future__ import annotations

import array
import errno
import math

import pytest
import udrv

from tests.support.fakes import FakeTree
from tests.support.preloaded import Child, gil_released, preloaded, preloaded_child

child = preloaded_child(("UDRV_FAKE_I2C", "tests/cli/libfake_i2c_dev.so"))

# i2c-core's emulation of SMBus on a plain I2C adapter, all of it (Linux
# 6.1's I2C_FUNC_SMBUS_EMUL_ALL: EMUL, READ_BLOCK_DATA, BLOCK_PROC_CALL)
# but PEC: the fake's .funcs
I2C_FUNC_I2C = 0x1
PEC = 0x8
READ_BLOCK_DATA = 0x01000000
FUNCS = I2C_FUNC_I2C | (0x0EFF0008 | READ_BLOCK_DATA | 0x00008000) & ~PEC


def regs() -> bytes:
    return bytes(i ^ 0xA5 for i in range(256))


@pytest.fixture
def bus(tree: FakeTree) -> FakeTree:
    """Bus 1, its device at 0x50 (registers i ^ 0xa5), an lm75 bound at
    0x48; every SMBus transaction (block reads too), no PEC."""
    tree.file("dev/i2c-1", regs())
    tree.file("dev/i2c-1.addr", "50\n")
    tree.file("dev/i2c-1.funcs", f"{FUNCS:x}\n")
    tree.file("sys/bus/i2c/devices/i2c-1/name", "SMBus I801 adapter at f040\n")
    tree.dir("sys/bus/i2c/devices/1-0048")
    tree.symlink("../../../bus/i2c/drivers/lm75", "sys/bus/i2c/devices/1-0048/driver")
    return tree


def log(tree: FakeTree) -> list[str]:
    path = tree.path("dev/i2c-1.log")
    return path.read_text().splitlines() if path.exists() else []


def reg(tree: FakeTree, r: int, n: int = 1) -> bytes:
    return tree.read_bytes("dev/i2c-1")[r:r + n]


@preloaded
def test_open_by_number_node_and_name(child: Child, bus: FakeTree) -> None:
    assert udrv.i2c_list() == ["i2c-1"]
    for spec in (1, "1", "i2c-1", "/dev/i2c-1", "SMBus I801 adapter at f040"):
        with udrv.I2C(spec) as i2c:
            assert (i2c.bus, i2c.name, i2c.address) == (1, "SMBus I801 adapter at f040", None)
            assert i2c.funcs == FUNCS
            assert repr(i2c) == "<I2C i2c-1 [SMBus I801 adapter at f040]>", repr(i2c)
        assert i2c.closed and repr(i2c) == "<I2C (closed)>", repr(i2c)
    with pytest.raises(udrv.NotFoundError, match="no I2C bus 2"):
        udrv.I2C(2)
    assert log(bus) == []


@preloaded
def test_smbus_calls_reach_the_registers(child: Child, bus: FakeTree) -> None:
    with udrv.I2C(1, 0x50) as i2c:
        assert i2c.address == 0x50 and not i2c.ten_bit and not i2c.forced
        assert repr(i2c).endswith("] address 0x50>"), repr(i2c)
        i2c.write_quick()
        i2c.read_quick()
        assert i2c.read_byte() == 0xA5  # receive byte: register 0
        i2c.write_byte(7)
        assert i2c.read_byte_data(0x10) == 0x10 ^ 0xA5
        i2c.write_byte_data(0x10, 0x5A)
        assert reg(bus, 0x10) == b"\x5a" and i2c.read_byte_data(0x10) == 0x5A
        i2c.write_word_data(0x20, 0xBEEF)
        assert reg(bus, 0x20, 2) == b"\xef\xbe"  # low byte first
        assert i2c.read_word_data(0x20) == 0xBEEF
        bus_regs = reg(bus, 0x32, 2)
        assert i2c.process_call(0x30, 0x1234) == int.from_bytes(bus_regs, "little")
        assert reg(bus, 0x30, 2) == b"\x34\x12"
        i2c.write_block_data(0x40, b"\x03abc")  # count 3 at 0x40, then a b c
        assert reg(bus, 0x40, 4) == b"\x03abc"
        assert i2c.read_block_data(0x40) == b"abc"
        assert i2c.block_process_call(0x50, [1, 2, 3]) == b"\x03\x02\x01"
        i2c.write_i2c_block_data(0x60, bytearray(b"xyz"))
        assert i2c.read_i2c_block_data(0x60, 3) == b"xyz"
        assert reg(bus, 0x60, 3) == b"xyz"
    assert log(bus) == [  # in order, one each
        "quick-write 0x50", "quick-read 0x50", "read-byte 0x50", "write-byte 0x50",
        "read-byte-data 0x50", "write-byte-data 0x50", "read-byte-data 0x50",
        "write-word-data 0x50", "read-word-data 0x50", "process-call 0x50",
        "write-block-data 0x50", "read-block-data 0x50",
        "block-process-call 0x50", "write-i2c-block-data 0x50", "read-i2c-block-data 0x50"]


@preloaded
def test_transfer_is_one_rdwr_into_the_callers_buffers(child: Child, bus: FakeTree) -> None:
    """A register pointer written, then read back with a repeated start: one
    I2C_RDWR; a read message fills the very buffer it was given (a slice of
    a larger one here), another a new bytearray."""
    big = bytearray(8)
    with udrv.I2C("i2c-1") as i2c:
        i2c.address = 0x50
        w = udrv.I2CMessage.write(b"\x10")
        r = udrv.I2CMessage.read(memoryview(big)[2:5])
        r2 = udrv.I2CMessage.read(2)
        assert i2c.transfer(w, r, r2) is None
        assert big == b"\0\0" + regs()[0x10:0x13] + b"\0\0\0"
        assert r.data == regs()[0x10:0x13] and r2.data == regs()[0x13:0x15]
        assert r2.is_read and not w.is_read and len(r2) == 2
        i2c.transfer(udrv.I2CMessage.write([0x70, 1, 2], 0x50))
        assert reg(bus, 0x70, 2) == b"\x01\x02"
        i2c.write(array.array("B", [0x80, 9]))
        assert reg(bus, 0x80) == b"\x09"
        i2c.write(b"\x80")
        assert i2c.read(1) == b"\x09"
        buf = bytearray(2)
        i2c.write(b"\x80")
        assert i2c.readinto(buf) == 2 and buf == b"\x09" + regs()[0x81:0x82]
    assert log(bus) == ["rdwr-write 0x50", "rdwr-read 0x50", "rdwr-read 0x50",
                        "rdwr-write 0x50", "rdwr-write 0x50", "rdwr-write 0x50",
                        "rdwr-read 0x50", "rdwr-write 0x50", "rdwr-read 0x50"]


@preloaded
def test_failures_carry_the_library_s_message(child: Child, bus: FakeTree) -> None:
    with udrv.I2C(1) as i2c:
        i2c.set_address(0x51)
        with pytest.raises(udrv.NotFoundError, match=r"no device answered at 0x51 \(no ACK\)"):
            i2c.read_byte_data(0)
        with pytest.raises(udrv.NotFoundError, match="no device answered at 0x51"):
            i2c.transfer(udrv.I2CMessage.read(1))
        with pytest.raises(udrv.BusyError, match=r"kernel's driver lm75 \(client 1-0048\)"):
            i2c.set_address(0x48)
        assert i2c.address == 0x51  # unchanged by the refusal
        with pytest.raises(udrv.Error, match="reserved address") as e:
            i2c.set_address(0x78)
        assert e.value.errno == errno.ERANGE
        i2c.set_address(0x48, force=True)  # the driver's: reaches the bus
        assert i2c.forced and i2c.address == 0x48
        with pytest.raises(udrv.NotFoundError, match="no device answered at 0x48"):
            i2c.read_byte()
        with pytest.raises(udrv.Error, match="10-bit") as e:
            i2c.set_address(0x150, ten_bit=True)
        assert e.value.errno == errno.EOPNOTSUPP
    assert log(bus) == ["read-byte-data 0x51", "rdwr-read 0x51", "read-byte 0x48"]


@preloaded
def test_what_the_adapter_lacks_is_refused_before_the_bus(child: Child, bus: FakeTree) -> None:
    bus.file("dev/i2c-1.funcs", f"{FUNCS & ~READ_BLOCK_DATA:x}\n")
    with udrv.I2C(1, 0x50) as i2c:
        with pytest.raises(udrv.Error, match="I2C_FUNC_SMBUS_READ_BLOCK_DATA") as e:
            i2c.read_block_data(0)
        assert e.value.errno == errno.EOPNOTSUPP
        with pytest.raises(udrv.Error, match="I2C_FUNC_SMBUS_PEC"):
            i2c.pec = True
        assert not i2c.pec
    assert log(bus) == []


@preloaded
def test_a_block_longer_than_smbus_allows(child: Child, bus: FakeTree) -> None:
    bus.file("dev/i2c-1", bytes([40]) + bytes(255))  # "40 bytes follow"
    with udrv.I2C(1, 0x50) as i2c, pytest.raises(udrv.Error, match="said 40 bytes follow"):
        i2c.read_block_data(0)


@preloaded
def test_settings_reach_the_adapter(child: Child, bus: FakeTree) -> None:
    with udrv.I2C(1) as i2c:
        assert (i2c.retries, i2c.timeout, i2c.pec) == (None, None, False)
        i2c.retries = 3
        i2c.timeout = 0.105  # in the kernel's 10 ms steps: 110 ms
        i2c.pec = False
        assert (i2c.retries, i2c.timeout, i2c.pec) == (3, 0.11, False)
    assert log(bus) == ["retries 0x03", "timeout 0x0b", "pec 0x00"]


@preloaded
def test_closed_is_a_value_error(child: Child, bus: FakeTree) -> None:
    i2c = udrv.I2C(1, 0x50)
    i2c.close()
    i2c.close()  # idempotent
    for call in (lambda: i2c.read_byte(), lambda: i2c.set_address(0x50),
                 lambda: i2c.transfer(udrv.I2CMessage.read(1)), lambda: i2c.address,
                 lambda: setattr(i2c, "retries", 1), lambda: i2c.__enter__()):
        with pytest.raises(ValueError, match="I2C bus is released"):
            call()
    assert log(bus) == []


@preloaded
def test_the_gil_is_released_in_the_ioctl(child: Child, bus: FakeTree) -> None:
    """The fake reads the device's address from a FIFO in the ioctl: the
    call must let this thread write it (tests/support/preloaded.py)."""
    bus.path("dev/i2c-1.addr").unlink()
    with udrv.I2C(1, 0x50) as i2c:
        assert gil_released(bus.path("dev/i2c-1.addr"), b"50\n",
                            lambda: i2c.read_byte_data(0x10))


def _msgs(n: int) -> list[udrv.I2CMessage]:
    return [udrv.I2CMessage.read(1)] * n


# (call on I2C(1, 0x50), exception, what its message says)
BAD_CALLS = [
    (lambda b: b.set_address(0x80), ValueError, r"address must be 0\.\.127, not 128"),
    (lambda b: b.set_address(0x400, ten_bit=True), ValueError, r"address must be 0\.\.1023"),
    (lambda b: b.set_address(-1), OverflowError, "address must be"),
    (lambda b: b.set_address("0x50"), TypeError, "address must be an int, not str"),
    (lambda b: setattr(b, "address", 2**64), OverflowError, "address must be"),
    (lambda b: delattr(b, "address"), AttributeError, "the address cannot be deleted"),
    (lambda b: delattr(b, "retries"), AttributeError, "retries cannot be deleted"),
    (lambda b: b.read_byte_data(256), ValueError, r"register must be 0\.\.255, not 256"),
    (lambda b: b.read_byte_data(1.0), TypeError, "register must be an int, not float"),
    (lambda b: b.write_byte(-1), OverflowError, "value must be 0..255"),
    (lambda b: b.write_byte_data(0, 256), ValueError, r"value must be 0\.\.255"),
    (lambda b: b.write_byte_data(0), TypeError, r"takes 2 arguments \(1 given\)"),
    (lambda b: b.write_word_data(0, 65536), ValueError, r"value must be 0\.\.65535"),
    (lambda b: b.process_call(0, -1), OverflowError, "value must be"),
    (lambda b: b.write_block_data(0, b""), ValueError, r"data must be 1\.\.32 bytes.*not 0"),
    (lambda b: b.write_block_data(0, bytes(33)), ValueError, "not 33"),
    (lambda b: b.block_process_call(0, bytes(33)), ValueError, "not 33"),
    (lambda b: b.write_i2c_block_data(0, b""), ValueError, "data must be 1..32"),
    (lambda b: b.write_block_data(0, "ab"), TypeError, "data must be a bytes-like object"),
    (lambda b: b.write_block_data(0, 5), TypeError, "not int"),
    (lambda b: b.write_block_data(0, [256]), ValueError, "list of ints 0..255"),
    (lambda b: b.write_block_data(0, [1.5]), TypeError, "list of ints 0..255"),
    (lambda b: b.read_i2c_block_data(0, 0), ValueError, r"length must be 1\.\.32, not 0"),
    (lambda b: b.read_i2c_block_data(0, 33), ValueError, r"length must be 0\.\.32"),
    (lambda b: b.read(0), ValueError, r"length must be 1\.\.8192, not 0"),
    (lambda b: b.read(8193), ValueError, r"length must be 0\.\.8192"),
    (lambda b: b.readinto(bytes(2)), TypeError, "must be a writable bytes-like object"),
    (lambda b: b.write(b""), ValueError, r"message 0: 1\.\.8192 bytes, not 0"),
    (lambda b: b.transfer(), ValueError, r"a transfer is 1\.\.42 messages, not 0"),
    (lambda b: b.transfer(*_msgs(43)), ValueError, "not 43"),
    (lambda b: b.transfer(b"\x10"), TypeError, "message 0 must be an I2CMessage, not bytes"),
    (lambda b: b.transfer(udrv.I2CMessage.read(1), udrv.I2CMessage.write(bytes(8193))),
     ValueError, "message 1: 1..8192 bytes, not 8193"),
    (lambda b: b.transfer(udrv.I2CMessage.read(bytes(2))), TypeError,
     "message 0's data must be a writable"),
    (lambda b: b.transfer(udrv.I2CMessage.write(b"x", 0x80)), ValueError,
     r"address must be 0\.\.127, not 128"),
    (lambda b: udrv.I2CMessage.read(0), ValueError, r"length must be 1\.\.8192, not 0"),
    (lambda b: setattr(b, "retries", 1001), ValueError, r"retries must be 0\.\.1000"),
    (lambda b: setattr(b, "timeout", 0), ValueError, r"timeout must be 0\.01\.\.600 seconds"),
    (lambda b: setattr(b, "timeout", 601), ValueError, "timeout must be 0.01..600"),
    (lambda b: setattr(b, "timeout", math.nan), ValueError, "timeout must be a finite"),
    (lambda b: setattr(b, "timeout", None), TypeError, "timeout must be a number"),
    (lambda b: setattr(b, "pec", 1), TypeError, "pec must be True or False, not int"),
    (lambda b: udrv.I2C(-1), OverflowError, r"bus must be 0\.\.2147483647, not -1"),
    (lambda b: udrv.I2C(2**31), ValueError, "bus must be 0..2147483647"),
    (lambda b: udrv.I2C(1.0), TypeError, "bus must be a bus number.*not float"),
    (lambda b: udrv.I2C(True), TypeError, "not bool"),
    (lambda b: udrv.I2C(""), ValueError, "not ''"),
    (lambda b: udrv.I2C(1, 0x80), ValueError, "address must be 0..127"),
]


@pytest.mark.parametrize(("index"), range(len(BAD_CALLS)))
@preloaded
def test_bad_arguments_send_nothing(child: Child, bus: FakeTree, index: int) -> None:
    call, exc, says = BAD_CALLS[index]
    with udrv.I2C(1, 0x50) as i2c:
        with pytest.raises(exc, match=says):
            call(i2c)
        assert i2c.address == 0x50 and i2c.retries is None and i2c.timeout is None
    assert log(bus) == []


@preloaded
def test_smbus_without_an_address_sends_nothing(child: Child, bus: FakeTree) -> None:
    with udrv.I2C(1) as i2c:
        for call in (i2c.read_byte, i2c.write_quick, lambda: i2c.read_word_data(0),
                     lambda: i2c.write(b"\x01"), lambda: i2c.transfer(udrv.I2CMessage.read(1))):
            with pytest.raises(ValueError, match=r"no (device )?address"):
                call()
    assert log(bus) == []
