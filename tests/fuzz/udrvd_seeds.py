# SPDX-License-Identifier: GPL-2.0-only
"""The seeds of udrvd's harness (fuzz_udrvd.c), for make_seeds.py."""

from __future__ import annotations

from seed_format import ABSENT, join, lstr, u32

# udrvd itself on the harness's bus (fuzz_udrvd.c): part 0 the policy ("": the
# harness's own), part 1 the state file, then the calls: caller, step, object,
# the body's values (fuzz_sdbus.c's encoding; variants by its index: 0 s, 1 b,
# 2 x, 3 u)
ALICE, BOB, CAROL, ROOT_, NOBODY, GONE = 1, 2, 3, 0, 4, 5
(REQUEST_LINES, RELEASE, RECONFIGURE, GET_VALUES, SET_VALUES, GET_FD, OPEN_UIO, OPEN_VFIO,
 PROP_GET, PROP_GET_ALL, PROP_SET, MANAGED_OBJECTS, INTROSPECT, PING, ANY, LEAVE,
 HOTPLUG, KERNEL, OPEN_SPI, OPEN_I2C_BUS, I2C_TRANSFER, I2C_READ_BYTE,
 I2C_WRITE_WORD) = range(23)


def chip(n: int) -> bytes:
    return bytes([0, n])


def request(n: int) -> bytes:
    return bytes([2, n])


def line(c: int, n: int) -> bytes:
    return bytes([1, c, n])


DEVICES, CHIPS_MGR, REQUESTS_MGR = bytes([3, 0]), bytes([4, 0]), bytes([4, 1])


def q(v: int) -> bytes:
    return v.to_bytes(2, "big")


def i2c_msgs(*msgs: tuple[int, int, int, bytes]) -> bytes:
    """Transfer's a(qqqay): (address, flags, length, bytes) each."""
    return bytes([len(msgs)]) + b"".join(q(a) + q(f) + q(n) + bytes([len(d)]) + d
                                         for a, f, n, d in msgs)


def settings(*kv: tuple[str, int, bytes]) -> bytes:
    return bytes([len(kv)]) + b"".join(lstr(k) + bytes([t]) + v for k, t, v in kv)


def linecfg(offsets: list[int], conf: bytes, values: list[int]) -> bytes:
    return (b"\x01" + bytes([len(offsets)]) + b"".join(u32(o) for o in offsets) + conf
            + bytes([len(values)]) + b"".join(u32(v) for v in values))


OUT = settings(("direction", 0, lstr("output")))
IN_EDGES = settings(("direction", 0, lstr("input")), ("edge", 0, lstr("both")),
                    ("bias", 0, lstr("pull-up")))


def call(who: int, step: int, obj: bytes, body: bytes = b"") -> bytes:
    return bytes([who, step]) + obj + body


def udrvd(*calls: bytes, policy: str = "", state: bytes = ABSENT) -> bytes:
    return join(policy, state, b"".join(calls))


CONSUMER = settings(("consumer", 0, lstr("door")))
UDRVD = [
    # alice's output on fuzz-a: read, set, its fd, reconfigured, released;
    # bob's tries at it refused; the objects read meanwhile
    udrvd(call(ALICE, REQUEST_LINES, chip(0), linecfg([0, 1], OUT, [1, 0]) + CONSUMER),
          call(ALICE, GET_VALUES, request(0), b"\x00"),
          call(ALICE, SET_VALUES, request(0), b"\x02" + u32(0) + u32(0) + u32(1) + u32(1)),
          call(ALICE, GET_FD, request(0)), call(BOB, GET_FD, request(0)),
          call(BOB, SET_VALUES, request(0), b"\x01" + u32(0) + u32(1)),
          call(ALICE, RECONFIGURE, request(0), linecfg([1, 0], IN_EDGES, [])),
          call(ALICE, PROP_GET_ALL, line(0, 1), b"\x01"),
          call(ALICE, PROP_GET, request(0), b"\x02\x11"),
          call(ALICE, MANAGED_OBJECTS, CHIPS_MGR), call(BOB, MANAGED_OBJECTS, REQUESTS_MGR),
          call(ALICE, MANAGED_OBJECTS, chip(0)), call(ALICE, INTROSPECT, request(0)),
          call(BOB, RELEASE, request(0)), call(ALICE, RELEASE, request(0))),
    # bob's drive of lines 0-3 and read of L5 (an input); a line beyond the
    # chip, a line twice, more lines than a request holds
    udrvd(call(BOB, REQUEST_LINES, chip(0), linecfg([2, 3], OUT, [1]) + b"\x00"),
          call(BOB, REQUEST_LINES, chip(0), linecfg([5], settings(), []) + b"\x00"),
          call(BOB, REQUEST_LINES, chip(0), linecfg([4], OUT, []) + b"\x00"),
          call(BOB, REQUEST_LINES, chip(0), linecfg([8], OUT, []) + b"\x00"),
          call(BOB, REQUEST_LINES, chip(0), linecfg([2, 2], OUT, []) + b"\x00"),
          call(BOB, GET_VALUES, request(1), b"\x02" + u32(5) + u32(9)),
          call(BOB, SET_VALUES, request(1), b"\x01" + u32(5) + u32(1)),
          call(BOB, SET_VALUES, request(0), b"\x01" + u32(2) + u32(7))),
    # carol through her groups: door drives fuzz-b's B1, lab configures;
    # watchers of B1 (GetAll), then leaving the bus
    udrvd(call(CAROL, REQUEST_LINES, chip(1), linecfg([1], settings(
              ("direction", 0, lstr("output")), ("drive", 0, lstr("open-drain")),
              ("active-low", 1, b"\x01")), [1]) + b"\x00"),
          call(ALICE, PROP_GET_ALL, line(1, 1), b"\x01"),
          call(CAROL, PROP_GET, line(1, 1), b"\x01\x07"),
          call(ALICE, LEAVE, b""), call(CAROL, LEAVE, b""),
          call(ALICE, PROP_GET_ALL, line(1, 1), b"\x01"),
          call(CAROL, RELEASE, request(0))),
    # the devices: alice's UIO device by name and number, others refused;
    # VFIO addresses good and bad
    udrvd(call(ALICE, OPEN_UIO, DEVICES, lstr("fuzz-uio")),
          call(ALICE, OPEN_UIO, DEVICES, lstr("uio0")),
          call(ALICE, OPEN_UIO, DEVICES, lstr("/dev/uio0")),
          call(BOB, OPEN_UIO, DEVICES, lstr("fuzz-uio")),
          call(ALICE, OPEN_UIO, DEVICES, lstr("uio99999999999")),
          call(ALICE, OPEN_UIO, DEVICES, lstr("")),
          call(CAROL, OPEN_VFIO, DEVICES, lstr("00:04.0")),
          call(CAROL, OPEN_VFIO, DEVICES, lstr("0000:00:04.9")),
          call(NOBODY, OPEN_VFIO, DEVICES, lstr("04.0"))),
    # root's lines of fuzz-c; a caller the bus no longer knows; properties
    # written, unknown members and interfaces, a path of the input's
    udrvd(call(ROOT_, REQUEST_LINES, chip(2), linecfg([0, 9], settings(
              ("direction", 0, lstr("input")), ("debounce-period", 2, (1000).to_bytes(8, "big")),
              ("event-clock", 0, lstr("realtime"))), []) + settings(
              ("event-buffer-size", 3, u32(64)))),
          call(GONE, REQUEST_LINES, chip(2), linecfg([1], OUT, []) + b"\x00"),
          call(GONE, GET_FD, request(0)),
          call(ROOT_, PROP_SET, line(2, 0), b"\x01\x05\x00" + lstr("x")),
          call(ROOT_, ANY, chip(0), b"\x00" + lstr("RequestLines") + lstr("s") + lstr("x")),
          call(ROOT_, ANY, bytes([7]) + lstr("/io/gpiod1/chips/gpiochip0/line3"),
               b"\x05" + lstr("GetAll") + lstr("s") + lstr("io.gpiod1.Line")),
          call(ROOT_, PING, bytes([5, 0]))),
    # the state file: alice's line 7 and root's fuzz-c lines come back (restore
    # rules), bob's line 2 does not; then their owners use them
    udrvd(call(ALICE, GET_FD, request(0)), call(ROOT_, GET_VALUES, request(1), b"\x00"),
          call(BOB, RELEASE, request(0)), call(ALICE, MANAGED_OBJECTS, REQUESTS_MGR),
          state=(b"udrvd-state 1\nrequest 1000 gpiochip0 fuzz-a lock\n"
                 b"line 7 output 1 0 as-is push-pull none 0 monotonic\n"
                 b"line 2 output 1 0 as-is push-pull none 0 monotonic\nend\n"
                 b"request 0 gpiochip2 fuzz-c udrvd\n"
                 b"line 3 input 0 1 pull-up push-pull both 5000 realtime\nend\n")),
    # fuzz-a goes away with alice's request and its watchers, and comes back
    udrvd(call(ALICE, REQUEST_LINES, chip(0), linecfg([7], IN_EDGES, []) + CONSUMER),
          call(ALICE, PROP_GET_ALL, line(0, 7), b"\x01"),
          call(ALICE, HOTPLUG, b"", b"\x00\x00"), call(ALICE, GET_FD, request(0)),
          call(ALICE, MANAGED_OBJECTS, CHIPS_MGR), call(ALICE, HOTPLUG, b"", b"\x00\x01"),
          call(ALICE, HOTPLUG, b"", b"\x00\x01"),
          call(ALICE, REQUEST_LINES, chip(0), linecfg([7], OUT, [1]) + b"\x00"),
          call(ALICE, GET_FD, request(1))),
    # a line held twice (busy), values of lines not in the request, an
    # input set, a reconfiguration of the wrong lines; every object's
    # properties
    udrvd(call(ALICE, REQUEST_LINES, chip(0), linecfg([3, 4], settings(
              ("direction", 0, lstr("input")), ("bias", 0, lstr("pull-down"))), [])
              + settings(("consumer", 0, lstr("a")), ("event-buffer-size", 3, u32(1 << 20)))),
          call(ALICE | 0x10, REQUEST_LINES, chip(0), linecfg([4], OUT, [1]) + b"\x00"),
          call(ALICE, GET_VALUES, request(0), b"\x02" + u32(4) + u32(3)),
          call(ALICE, GET_VALUES, request(0), b"\x01" + u32(5)),
          call(ALICE, SET_VALUES, request(0), b"\x01" + u32(3) + u32(1)),
          call(ALICE, RECONFIGURE, request(0), linecfg([3], OUT, [1])),
          call(ALICE, RECONFIGURE, request(0), linecfg([3, 5], OUT, [1])),
          call(ALICE, PROP_GET_ALL, chip(0), b"\x00"),
          call(ALICE, PROP_GET, chip(0), b"\x00\x03"),
          call(ALICE, PROP_GET_ALL, request(0), b"\x03"),
          call(ALICE, PROP_GET_ALL, request(0), b"\x02"),
          call(ALICE, PROP_GET, line(0, 3), b"\x01\x10"),
          call(ALICE, PROP_GET_ALL, DEVICES, b"\x04"),
          call(ALICE, INTROSPECT, bytes([5, 1])), call(ALICE, INTROSPECT, CHIPS_MGR),
          call(ALICE, MANAGED_OBJECTS, bytes([5, 0]))),
    # a state file with a chip by its label alone, a line beyond its chip, a
    # chip that is not there
    udrvd(call(ALICE, MANAGED_OBJECTS, REQUESTS_MGR),
          state=(b"udrvd-state 1\nrequest 1000 gpiochip7 fuzz-a x\n"
                 b"line 7 input 0 0 as-is push-pull falling 0 monotonic\n"
                 b"line 60 input 0 0 as-is push-pull none 0 monotonic\nend\n"
                 b"request 0 gpiochip9 gone udrvd\n"
                 b"line 1 output 1 0 as-is push-pull none 0 monotonic\nend\n")),
    # edges of alice's watched input lines reach the watchers the policy
    # allows (alice's two connections), not bob; a line changed by another
    # process; a watcher that left
    udrvd(call(ALICE, REQUEST_LINES, chip(0), linecfg([0, 1], IN_EDGES, []) + b"\x00"),
          call(ALICE, PROP_GET_ALL, line(0, 0), b"\x01"),
          call(BOB, PROP_GET_ALL, line(0, 0), b"\x01"),
          call(6, PROP_GET, line(0, 1), b"\x01\x06"),
          call(ALICE, KERNEL, b"", b"\x00" + u32(0) + b"\x00"),
          call(ALICE, KERNEL, b"", b"\x00" + u32(1) + b"\x01"),
          call(ALICE, KERNEL, b"", b"\x00" + u32(3) + b"\x02"),
          call(ALICE, KERNEL, b"", b"\x01" + u32(0) + b"\x00"),
          call(ALICE, LEAVE, b""),
          call(ALICE, KERNEL, b"", b"\x00" + u32(0) + b"\x01"),
          call(6, RELEASE, request(0)),
          call(ALICE, KERNEL, b"", b"\x02" + u32(2) + b"\x03")),
    # a policy of the input's; the bus without UnixGroupIDs (bit 3 of the first byte)
    udrvd(call(NOBODY | 0x08, REQUEST_LINES, chip(1), linecfg([0], OUT, [0]) + b"\x00"),
          call(NOBODY, GET_FD, request(0)),
          policy="allow uid:65534 read,drive gpio gpiochip1 B0\nallow group:gpio all gpio * *\n"),
    # a group alice does not hold but the process at the pid the bus reports
    # for her does (the harness, root): her groups are the bus's, so the gid 0
    # rule is not hers (udrvd 1.5 read them from /proc/PID and granted B2)
    udrvd(call(ALICE, REQUEST_LINES, chip(1), linecfg([2], OUT, [1]) + b"\x00"),
          policy="allow gid:0 drive gpio fuzz-b B2\n"),
    # SPI and I2C (the harness's tree has neither: the arguments are read and
    # checked, then udrvd's open fails): transfers good and bad (flags, a
    # 10-bit address, a write whose length is not its bytes', a read with
    # bytes), SMBus calls at a device's and a reserved address, whole buses
    udrvd(call(ALICE, I2C_TRANSFER, DEVICES, lstr("1") + i2c_msgs((0x50, 0, 1, b"\x10"),
                                                                  (0x50, 1, 4, b""))),
          call(ALICE, I2C_TRANSFER, DEVICES, lstr("i2c-1") + i2c_msgs((0x50, 0x4000, 0, b""))),
          call(BOB, I2C_TRANSFER, DEVICES, lstr("1") + i2c_msgs((0x150, 0x10, 2, b""),
                                                                (0x80, 1, 1, b""))),
          call(BOB, I2C_TRANSFER, DEVICES, lstr("1") + i2c_msgs((0x50, 0, 3, b"\x01"))),
          call(BOB, I2C_TRANSFER, DEVICES, lstr("1") + i2c_msgs((0x50, 1, 1, b"\x01"))),
          call(CAROL, I2C_TRANSFER, DEVICES, lstr("") + i2c_msgs()),
          call(ALICE, I2C_READ_BYTE, DEVICES, lstr("1") + q(0x50) + b"\x10"),
          call(ALICE, I2C_READ_BYTE, DEVICES, lstr("1") + q(0x78) + b"\x10"),
          call(ALICE, I2C_WRITE_WORD, DEVICES, lstr("SMBus stub") + q(0x48) + b"\x00" + q(7)),
          call(ALICE, OPEN_SPI, DEVICES, lstr("0.1")),
          call(BOB, OPEN_SPI, DEVICES, lstr("mcp3008")),
          call(ALICE, OPEN_SPI, DEVICES, lstr("")),
          call(ALICE, OPEN_I2C_BUS, DEVICES, lstr("1")),
          call(ROOT_, OPEN_I2C_BUS, DEVICES, lstr("x" * 70)),
          policy="allow user:alice transfer i2c i2c-1 0x50-0x57\n"
                 "allow user:alice open spi 0.1\nallow uid:0 open i2c-bus name:SMBus_stub\n"),
]
