# SPDX-License-Identifier: GPL-2.0-only
"""I2C on the real kernels' i2c-core and i2c-dev: `udrv i2c` and libudrv
(tests/lab/progs/i2c_check.c, udrv-i2c-check, for the calls the CLI has no
command for) on two adapters the x86 boards load (rig/lab/catalogue.py):

- Debian's i2c-stub (chip_addr=0x50, functionality with SMBus block): an
  SMBus-only adapter whose chip does every SMBus transaction i2c-stub has.
  The stub counts nothing, so each value is read back through another kind
  of transaction than the one that wrote it (the stub keeps one array of
  16-bit words behind all of them).
- rig/kernel/i2c-fixture: plain I2C only, so i2c-core emulates every SMBus
  transaction with I2C messages (process calls, block process calls, PEC);
  its register file (`regs`) and its counts (`stats`) are read at the source,
  /sys/devices/platform/i2c-fixture/, and compared with what was sent.

A member of group i2c and an outsider: tests/lab/test_access.py (udev's
rules on std-q35).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from guest import Udrv, ok, root, sh, udrv

from rig.lab import Board
from rig.lab.catalogue import I2C_STUB, I2C_STUB_ADDR, I2C_STUB_PARAMS

pytestmark = [pytest.mark.lg_feature(["i2c-fixture", "i2c-stub"])]

FIXTURE = "/sys/devices/platform/i2c-fixture"
FIXTURE_NAME = "i2c-fixture"
STUB_NAME = "SMBus stub driver"
STUB_PARAM = "/sys/module/i2c_stub/parameters/functionality"
ADDR = 0x50  # i2c-fixture's default addr=, and i2c-stub's chip_addr in the lab
assert I2C_STUB_ADDR == ADDR

# the kernel's I2C_FUNC_* bits (<linux/i2c.h>)
I2C_FUNC_I2C = 0x1
I2C_FUNC_10BIT_ADDR = 0x2
I2C_FUNC_SMBUS_PEC = 0x8
I2C_FUNC_SMBUS_BLOCK_PROC_CALL = 0x8000
I2C_FUNC_SMBUS_QUICK = 0x10000
I2C_FUNC_SMBUS_BYTE = 0x60000
I2C_FUNC_SMBUS_BYTE_DATA = 0x180000
I2C_FUNC_SMBUS_WORD_DATA = 0x600000
I2C_FUNC_SMBUS_PROC_CALL = 0x800000
I2C_FUNC_SMBUS_READ_BLOCK_DATA = 0x1000000
I2C_FUNC_SMBUS_WRITE_BLOCK_DATA = 0x2000000
I2C_FUNC_SMBUS_BLOCK_DATA = I2C_FUNC_SMBUS_READ_BLOCK_DATA | I2C_FUNC_SMBUS_WRITE_BLOCK_DATA
I2C_FUNC_SMBUS_I2C_BLOCK = 0xC000000
# what i2c-core emulates on an adapter of plain I2C (I2C_FUNC_SMBUS_EMUL_ALL)
SMBUS_EMUL_ALL = (I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA
                  | I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_PROC_CALL
                  | I2C_FUNC_SMBUS_WRITE_BLOCK_DATA | I2C_FUNC_SMBUS_I2C_BLOCK
                  | I2C_FUNC_SMBUS_PEC | I2C_FUNC_SMBUS_READ_BLOCK_DATA
                  | I2C_FUNC_SMBUS_BLOCK_PROC_CALL)  # fmt: skip
# i2c-stub's STUB_FUNC_DEFAULT (no SMBus block) and STUB_FUNC_ALL
STUB_DEFAULT = (I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA
                | I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_I2C_BLOCK)  # fmt: skip
STUB_ALL = STUB_DEFAULT | I2C_FUNC_SMBUS_BLOCK_DATA

EOPNOTSUPP, ENXIO, ENODEV, EIO, EPROTO, EBADMSG = 95, 6, 19, 5, 71, 74


def crc8(data: bytes) -> int:
    """SMBus PEC (CRC-8, x^8 + x^2 + x + 1), computed here, not by the kernel."""
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def buses(board: Board) -> dict[str, dict]:
    """`udrv i2c list --json` by adapter name."""
    return {b["name"]: b for b in ok(board, "i2c list --json").json()}


@pytest.fixture
def smb(board: Board) -> Iterator[str]:
    """i2c-stub's bus (i2c-N); a fresh stub afterwards (loaded again as the
    lab loads it: its registers zero, no SMBus block stored), so that the
    tests and benches after this one find it as booted (udrv-bench i2c
    checks its reads against the stub's contents)."""
    found = buses(board)
    assert STUB_NAME in found, f"no {STUB_NAME!r} among {sorted(found)}: i2c-stub not loaded?"
    yield str(found[STUB_NAME]["bus"])
    root(board, f"rmmod i2c_stub && insmod /lib/modules/$(uname -r)/{I2C_STUB} "
                f"{I2C_STUB_PARAMS}")  # fmt: skip


@pytest.fixture
def fx(board: Board) -> Iterator[str]:
    """i2c-fixture's bus (i2c-N), its device without PEC; its registers zeroed."""
    found = buses(board)
    assert FIXTURE_NAME in found, f"no {FIXTURE_NAME!r} among {sorted(found)}"
    root(board, f"echo 0 > {FIXTURE}/pec && dd if=/dev/zero of={FIXTURE}/regs bs=256 count=1")
    yield str(found[FIXTURE_NAME]["bus"])
    sh(board, f"echo 0 > {FIXTURE}/pec")


def check(board: Board, bus: str, op: str, *args: int | str, pec: bool = False,
          addr: int = ADDR) -> dict:  # fmt: skip
    """udrv-i2c-check's JSON for OP on BUS at ADDR."""
    words = " ".join(hex(a) if isinstance(a, int) else a for a in args)
    cmd = f"udrv-i2c-check {'--pec ' if pec else ''}{bus} {addr:#x} {op} {words}"
    r = sh(board, cmd)
    assert r.status == 0, f"{cmd}: exit {r.status}\n{r.stdout}{r.stderr}"
    out = json.loads(r.stdout)
    assert isinstance(out, dict)
    return out


def done(board: Board, bus: str, op: str, *args: int | str, pec: bool = False) -> dict:
    """check() of a call that must succeed."""
    out = check(board, bus, op, *args, pec=pec)
    assert out["ret"] == 0, out
    return out


def stats(board: Board) -> dict[str, int]:
    """i2c-fixture's own counts."""
    text = root(board, f"cat {FIXTURE}/stats")
    return {k: int(v) for k, v in (line.split() for line in text.splitlines())}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def regs(board: Board) -> bytes:
    """i2c-fixture's register file, at the source."""
    text = root(board, f"od -An -tu1 -v {FIXTURE}/regs")
    return bytes(int(w) for w in text.split())


def seed(board: Board, reg: int, data: bytes) -> None:
    """DATA into the fixture's register file from REG on (not through I2C)."""
    esc = "".join(f"\\{b:03o}" for b in data)
    root(board, f"printf {shlex.quote(esc)} | dd of={FIXTURE}/regs bs=1 seek={reg} "
                f"conv=notrunc 2>/dev/null")  # fmt: skip
    assert regs(board)[reg:reg + len(data)] == data


def get(board: Board, bus: str, reg: int, word: bool = False) -> int:
    value = ok(board, f"i2c get --json {'-w ' if word else ''}{bus} {ADDR:#x} {reg:#x}").json()
    assert isinstance(value["value"], int)
    return int(value["value"])


def cli_set(board: Board, bus: str, reg: int, value: int, word: bool = False) -> Udrv:
    return udrv(board, f"i2c set {'-w ' if word else ''}{bus} {ADDR:#x} {reg:#x} {value:#x}")


# -- both adapters -------------------------------------------------------------------


def test_list_tells_plain_i2c_from_smbus(board: Board, smb: str, fx: str) -> None:
    found = buses(board)
    assert found[STUB_NAME]["i2c"] is False
    assert found[STUB_NAME]["functionality"] == STUB_ALL  # the lab's functionality=
    assert found[FIXTURE_NAME]["i2c"] is True
    assert found[FIXTURE_NAME]["functionality"] == I2C_FUNC_I2C | SMBUS_EMUL_ALL
    text = ok(board, "i2c list").stdout
    assert any(smb in ln and STUB_NAME in ln and ln.rstrip().endswith("SMBus")
               for ln in text.splitlines()), text  # fmt: skip
    assert any(fx in ln and ln.rstrip().endswith("I2C, SMBus")
               for ln in text.splitlines()), text  # fmt: skip


@pytest.mark.parametrize("quick", [False, True], ids=["read-byte", "quick"])
def test_detect_finds_the_one_device(board: Board, smb: str, fx: str, quick: bool) -> None:
    q = "--quick " if quick else ""
    for bus in (smb, fx):
        before = stats(board)
        found = ok(board, f"i2c detect --json {q}{bus}").json()
        assert found["found"] == [ADDR] and found["in_use"] == [], (bus, found)
        if bus == fx:  # one transfer an address, 0x03..0x77; all but one NAKed
            d = delta(before, stats(board))
            assert d["transfers"] == 0x77 - 0x03 + 1, d
            assert d["naks"] == d["transfers"] - 1, d
            assert d.get("read_bytes", 0) == (0 if quick else 1), d


# -- i2c-stub: every SMBus transaction it has ----------------------------------------


def test_stub_quick(board: Board, smb: str) -> None:
    assert check(board, smb, "quick", "w")["ret"] == 0
    assert check(board, smb, "quick", "r")["ret"] == 0
    # i2c-stub answers an address without a chip with ENODEV, not the ENXIO
    # of Documentation/i2c/fault-codes.rst that a real adapter gives (its
    # message: test_fixture_plain_transfers); libudrv says what it means
    out = check(board, smb, "quick", "w", addr=ADDR + 1)
    assert out["ret"] == -ENODEV, out
    assert (f"quick write at {ADDR + 1:#04x}: no such device (what an adapter such as "
            "i2c-stub says where no device answers" in out["errmsg"]), out


def test_stub_byte_data_and_word_data(board: Board, smb: str) -> None:
    assert cli_set(board, smb, 0x10, 0x1234, word=True).status == 0
    assert get(board, smb, 0x10, word=True) == 0x1234
    assert get(board, smb, 0x10) == 0x34  # byte data: the word's low byte
    assert cli_set(board, smb, 0x10, 0xAB).status == 0
    assert get(board, smb, 0x10, word=True) == 0x12AB  # only the low byte changed
    assert get(board, smb, 0x10) == 0xAB


def test_stub_send_and_receive_byte(board: Board, smb: str) -> None:
    for reg, value in ((0x20, 0x5A), (0x21, 0xC3)):
        assert cli_set(board, smb, reg, value).status == 0
    done(board, smb, "send", 0x20)  # the stub's pointer
    # receive byte: the byte at the pointer, which then moves on (one
    # process each: the pointer is the chip's, not the open file's)
    assert done(board, smb, "recv")["value"] == 0x5A
    assert done(board, smb, "recv")["value"] == 0xC3
    # the CLI's form of it: udrv i2c get without a register
    done(board, smb, "send", 0x21)
    assert ok(board, f"i2c get --json {smb} {ADDR:#x}").json()["value"] == 0xC3


def test_stub_i2c_block(board: Board, smb: str) -> None:
    data = list(range(0x31, 0x31 + 12))
    done(board, smb, "wi2c", 0x40, *data)
    assert done(board, smb, "ri2c", 0x40, len(data))["block"] == data
    assert get(board, smb, 0x45) == data[5]  # byte by byte behind it
    assert done(board, smb, "ri2c", 0x44, 3)["block"] == data[4:7]


def test_stub_smbus_block(board: Board, smb: str) -> None:
    data = [9, 8, 7, 6]
    done(board, smb, "wblock", 0x60, *data)
    assert done(board, smb, "rblock", 0x60)["block"] == data
    # i2c-stub: a block write also sets the register's word to
    # (first byte << 8) | length
    assert get(board, smb, 0x60, word=True) == (data[0] << 8) | len(data)
    out = check(board, smb, "rblock", 0x61)  # never written as a block
    assert out["ret"] == -EOPNOTSUPP and "refused" in out["errmsg"], out


def test_stub_without_smbus_block_functionality(board: Board, smb: str) -> None:
    """i2c-stub's default functionality (no SMBus block): libudrv refuses the
    block calls before any ioctl, naming the missing bit."""
    mode = root(board, f"stat -c %a {STUB_PARAM}").strip()
    assert mode == "644", f"{STUB_PARAM} is mode {mode}: not writable at run time"
    root(board, f"echo {STUB_DEFAULT} > {STUB_PARAM}")
    try:
        funcs = buses(board)[STUB_NAME]["functionality"]
        assert funcs == STUB_DEFAULT, hex(funcs)
        for op, flag in (("rblock", "I2C_FUNC_SMBUS_READ_BLOCK_DATA"),
                         ("wblock", "I2C_FUNC_SMBUS_WRITE_BLOCK_DATA")):  # fmt: skip
            out = check(board, smb, op, 0x60, *([1] if op == "wblock" else []))
            assert out["ret"] == -EOPNOTSUPP, out
            assert f"its functionality lacks {flag}" in out["errmsg"], out
        assert done(board, smb, "ri2c", 0x60, 2)["ret"] == 0  # the rest works
    finally:
        root(board, f"echo {STUB_ALL} > {STUB_PARAM}")


# -- i2c-fixture: SMBus emulated over plain I2C ------------------------------------


def test_fixture_byte_and_word_counted_at_the_source(board: Board, fx: str) -> None:
    before = stats(board)
    assert cli_set(board, fx, 0x10, 0xA5).status == 0
    # write byte data: one message, the register and the value
    assert delta(before, s := stats(board)) == {"transfers": 1, "messages": 1,
                                                "written_bytes": 2}  # fmt: skip
    assert regs(board)[0x10] == 0xA5
    assert get(board, fx, 0x10) == 0xA5
    # read byte data: the register written, a repeated start, one byte read
    assert delta(s, s2 := stats(board)) == {"transfers": 1, "messages": 2, "written_bytes": 1,
                                            "read_bytes": 1}  # fmt: skip
    assert cli_set(board, fx, 0x20, 0xBEEF, word=True).status == 0
    assert regs(board)[0x20:0x22] == bytes([0xEF, 0xBE])  # the low byte first on the wire
    assert get(board, fx, 0x20, word=True) == 0xBEEF
    assert delta(s2, stats(board)) == {"transfers": 2, "messages": 3, "written_bytes": 4,
                                       "read_bytes": 2}  # fmt: skip


def test_fixture_process_call(board: Board, fx: str) -> None:
    """Write a word, a repeated start, read a word: the register file takes
    the word at REG and answers from REG + 2 on."""
    seed(board, 0x32, bytes([0x34, 0x12]))
    before = stats(board)
    assert done(board, fx, "pcall", 0x30, 0xBEEF)["reply"] == 0x1234
    assert delta(before, stats(board)) == {"transfers": 1, "messages": 2, "written_bytes": 3,
                                           "read_bytes": 2}  # fmt: skip
    assert regs(board)[0x30:0x32] == bytes([0xEF, 0xBE])


def test_fixture_block_process_call(board: Board, fx: str) -> None:
    """An SMBus block written (its length first), a repeated start, a block
    read whose length is the first byte the device sends (I2C_M_RECV_LEN,
    done by the adapter's driver)."""
    sent, reply = [0xA1, 0xA2], [7, 8, 9]
    seed(board, 0x30 + 1 + len(sent), bytes([len(reply), *reply]))
    before = stats(board)
    assert done(board, fx, "bpcall", 0x30, *sent)["reply"] == reply
    assert delta(before, stats(board)) == {
        "transfers": 1, "messages": 2, "written_bytes": 2 + len(sent),
        "read_bytes": 1 + len(reply)}  # fmt: skip
    assert regs(board)[0x30:0x33] == bytes([len(sent), *sent])


def test_fixture_smbus_block_and_a_bad_length(board: Board, fx: str) -> None:
    data = list(range(1, 33))  # UDRV_I2C_BLOCK_MAX
    done(board, fx, "wblock", 0x40, *data)
    assert regs(board)[0x40:0x40 + 33] == bytes([32, *data])
    assert done(board, fx, "rblock", 0x40)["block"] == data
    for bad in (0, 33):  # a length byte beyond the SMBus block
        seed(board, 0x90, bytes([bad]))
        before = stats(board)
        out = check(board, fx, "rblock", 0x90)
        assert out["ret"] == -EPROTO, out
        assert delta(before, stats(board))["recv_len_errors"] == 1


def test_fixture_i2c_block(board: Board, fx: str) -> None:
    data = [0x10 + i for i in range(16)]
    done(board, fx, "wi2c", 0x70, *data)
    assert regs(board)[0x70:0x80] == bytes(data)
    assert done(board, fx, "ri2c", 0x78, 8)["block"] == data[8:]


def test_fixture_pec(board: Board, fx: str) -> None:
    """PEC through i2c-core's emulation: the device checks the host's PEC
    byte and sends its own; each side's mistake shows on the other."""
    a_w, a_r = ADDR << 1, ADDR << 1 | 1
    root(board, f"echo 1 > {FIXTURE}/pec")
    before = stats(board)
    done(board, fx, "wbd", 0x70, 0x5A, pec=True)
    assert regs(board)[0x70:0x72] == bytes([0x5A, 0])  # the PEC byte not stored
    assert done(board, fx, "rbd", 0x70, pec=True)["value"] == 0x5A
    seed(board, 0x7A, bytes([0x34, 0x12]))
    assert done(board, fx, "pcall", 0x78, 0x0102, pec=True)["reply"] == 0x1234
    done(board, fx, "wblock", 0x40, 1, 2, 3, pec=True)
    assert done(board, fx, "rblock", 0x40, pec=True)["block"] == [1, 2, 3]
    d = delta(before, stats(board))
    assert d["pec_ok"] == 2 and d["pec_sent"] == 3 and "pec_errors" not in d, d

    # the host without PEC: the device takes the value for a PEC, NAKs it
    # and stores nothing
    before = stats(board)
    assert crc8(bytes([a_w, 0x74])) != 0x22  # (else the value would pass for one)
    r = cli_set(board, fx, 0x74, 0x22)
    assert r.status == 1 and "Input/output error" in r.stderr, r
    assert delta(before, stats(board))["pec_errors"] == 1
    assert regs(board)[0x74] == 0

    # the device without PEC: the host's PEC byte lands in the next register
    # (the value computed here), and a read's last byte is no PEC
    root(board, f"echo 0 > {FIXTURE}/pec")
    done(board, fx, "wbd", 0x72, 0x11, pec=True)
    assert regs(board)[0x72:0x74] == bytes([0x11, crc8(bytes([a_w, 0x72, 0x11]))])
    assert crc8(bytes([a_w, 0x70, a_r, 0x5A])) != regs(board)[0x71]  # what it sends instead
    out = check(board, fx, "rbd", 0x70, pec=True)
    assert out["ret"] == -EBADMSG and "the PEC byte did not match" in out["errmsg"], out


def transfer(board: Board, bus: str, *msgs: str) -> list[list[int]]:
    """`udrv i2c transfer --json BUS MSGS...`, which must succeed: the reads."""
    doc = ok(board, f"i2c transfer --json {bus} {' '.join(msgs)}").json()
    return [m["data"] for m in doc["messages"] if m["read"]]


def test_fixture_plain_transfers(board: Board, fx: str) -> None:
    """udrv i2c transfer (I2C_RDWR): several messages with repeated starts in
    one transfer; the device's pointer runs on from message to message and
    wraps at 0xff."""
    before = stats(board)
    assert transfer(board, fx, f"w7@{ADDR:#x}", "0x80 1 2 3 4 5 6") == []
    assert regs(board)[0x80:0x86] == bytes([1, 2, 3, 4, 5, 6])
    assert transfer(board, fx, f"w1@{ADDR:#x}", "0x81", "r2", "r3") == [[2, 3], [4, 5, 6]]
    assert delta(before, stats(board)) == {"transfers": 2, "messages": 4, "written_bytes": 8,
                                           "read_bytes": 5}  # fmt: skip
    transfer(board, fx, f"w4@{ADDR:#x}", "0xfe 9 8 7")
    assert regs(board)[0xFE:] == bytes([9, 8]) and regs(board)[0] == 7
    assert transfer(board, fx, f"w1@{ADDR:#x}", "0xff", "r2") == [[8, 7]]
    before = stats(board)
    r = udrv(board, f"i2c transfer {fx} w1@{ADDR + 1:#x} 0 r1")
    assert r.status == 1 and f"no device answered at {ADDR + 1:#04x}" in r.stderr, r
    assert delta(before, stats(board)) == {"transfers": 1, "messages": 1, "naks": 1}
    # i2c-stub is SMBus only: udrv refuses before any message
    smb = buses(board)[STUB_NAME]["bus"]
    r = udrv(board, f"i2c transfer {smb} w1@{ADDR:#x} 0 r1")
    assert r.status == 1 and "lacks I2C_FUNC_I2C" in r.stderr, r


@pytest.mark.parametrize(("mode", "per_transfer"), [("", 1), ("--word", 1), ("--block", 16)])
def test_dump(board: Board, smb: str, fx: str, mode: str, per_transfer: int) -> None:
    """udrv i2c dump on both adapters: the same bytes through byte data,
    word data and I2C block reads; the fixture counts one transfer a
    register, or one for 16 registers in a block."""
    data = list(range(0xA0, 0xB0))
    done(board, smb, "wi2c", 0x20, *data)
    seed(board, 0x20, bytes(data))
    for bus in (smb, fx):
        before = stats(board)
        doc = ok(board, f"i2c dump --json {mode} {bus} {ADDR:#x} 0x20 0x2f").json()
        values = doc["values"]
        if mode == "--word" and bus == fx:  # a register's byte, then the next one's
            nxt = [*data[1:], regs(board)[0x30]]
            assert values == [lo | hi << 8 for lo, hi in zip(data, nxt, strict=True)], values
        elif mode == "--word":  # i2c-stub: a 16-bit cell a register, the block wrote its low byte
            assert [v & 0xFF for v in values] == data, values
        else:
            assert values == data, (bus, mode, values)
        if bus == fx:
            assert delta(before, stats(board))["transfers"] == 16 // per_transfer


def test_fixture_ten_bit_refused(board: Board, fx: str) -> None:
    """The adapter has no 10-bit addressing: libudrv refuses before the
    kernel sees anything, and the adapter's driver refuses a 10-bit message
    that goes around the library."""
    before = stats(board)
    for op in ("ten", "tenxfer"):
        out = check(board, fx, op, addr=0x150)
        assert out["ret"] == -EOPNOTSUPP, out
        assert ("cannot do 10-bit addresses: its functionality lacks I2C_FUNC_10BIT_ADDR"
                in out["errmsg"]), out  # fmt: skip
    assert stats(board) == before
    assert not buses(board)[FIXTURE_NAME]["functionality"] & I2C_FUNC_10BIT_ADDR
    out = check(board, fx, "rawten", addr=0x150)
    assert out["ret"] == -EOPNOTSUPP, out
    assert delta(before, stats(board)) == {"transfers": 1, "messages": 1, "refused": 1}


# -- Python (branch i43-python) -------------------------------------------------------
# TODO(i43-python): udrv.I2C on the py_board (rig/lab/image/pyguest.py): the same
# transactions through the Python package, on i2c-stub and i2c-fixture, counted with
# stats() as above. Written with the Python package, on its branch.


def test_fixture_unloads_and_loads_again(board: Board, fx: str) -> None:
    """rmmod takes the adapter and its /dev/i2c-N away cleanly (no warning in
    the kernel log), insmod brings a working one back."""
    ko = root(board, "ls /lib/modules/$(uname -r)/extra/i2c-fixture/i2c-fixture.ko").strip()
    mark = root(board, "dmesg | wc -l").strip()
    root(board, "rmmod i2c_fixture")
    try:
        assert FIXTURE_NAME not in buses(board)
        assert sh(board, f"test -e /dev/{fx}").status != 0
    finally:
        root(board, f"insmod {ko}")
    bus = buses(board)[FIXTURE_NAME]["bus"]
    assert cli_set(board, bus, 0x10, 0x77).status == 0 and get(board, bus, 0x10) == 0x77
    assert stats(board)["transfers"] == 2  # a new device, counted from 0
    log = root(board, f"dmesg | tail -n +{int(mark) + 1}")
    assert not any(bad in log for bad in ("WARNING", "BUG", "Call Trace")), log
