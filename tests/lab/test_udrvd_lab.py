# SPDX-License-Identifier: GPL-2.0-only
"""udrvd on real kernels (the Python image variant with D-Bus, py_board,
rig/lab/image/dbusguest.py): a real dbus-daemon with Debian's system bus
configuration, udrvd on gpio-wire, and libgpiod 2.2.1's own gpiocli and
gpio-manager built from its sources (scripts/build-gpiod-dbus).

gpio-wire wires each output line 2k to input 2k+1, so what udrvd holds is
read on the partner line by another process (`udrv gpio get`), after the
client that set it has exited:

- a line requested and set with gpiocli keeps its value after gpiocli exits,
  and again after a client drove it through the request's fd (io.udrv1);
- `udrv gpio set --hold daemon` has udrvd hold the line, a second set takes
  the same request, `udrv gpio release` lets go;
- a held line is driven through its request's fd, taken over with
  udrv_request_adopt() (examples/udrvd-held, Python's udrv.take_held());
- after `udrvd` stops (SIGTERM: state written, lines released) and starts
  again, the line the policy says `restore` of comes back with its value,
  the other one does not;
- gpiocli says the same against udrvd as against gpio-manager, call for call;
- gpiocli monitor prints the same edges through both (EdgeEvent);
- a line another process requests and releases is signalled
  (PropertiesChanged, from the kernel's line info watch);
- gpio-wire unbound and bound again while udrvd runs: its chip goes away
  and comes back (hotplug);
- gdbus, a generic client, reads the properties io.gpiod1.xml declares.

Each test starts the bus and its daemon and stops both, so that the board's
gpio-wire lines are free again for the other tests.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from xml.etree import ElementTree

import pytest
from guest import Board, sh

from rig.lab.brokers import BUS, BUS2, POLICY, STATE, Broker
from rig.lab.image import dbusguest

pytestmark = [pytest.mark.skipif(dbusguest.missing() is not None,
                                 reason=str(dbusguest.missing())),
              pytest.mark.lg_feature(["udrvd", "gpio-wire"])]  # fmt: skip

ENV = f"export DBUS_SYSTEM_BUS_ADDRESS={BUS} PATH=$PATH:{dbusguest.GUEST_GPIOD}/bin; "
# root may do everything on gpio-wire (udrvd grants nothing without a rule,
# root included); wire0-out comes back after a restart, wire1-out does not
RULES = "allow uid:0 all gpio gpio-wire *\nrestore gpio gpio-wire wire0-out\n"


def run(board: Board, cmd: str, timeout: float = 60) -> str:
    """@cmd's stdout in the guest (with the bus's address); fails on an exit
    status other than 0, with what it printed."""
    r = sh(board, ENV + cmd, timeout=timeout)
    assert r.status == 0, f"{cmd!r} exited {r.status}:\n{r.stdout}{r.stderr}"
    return r.stdout


def partner(board: Board, out_line: int) -> int:
    """The level gpio-wire's input out_line + 1 reads (another process)."""
    text = run(board, f"udrv gpio get -c gpio-wire {out_line + 1}")
    m = re.fullmatch(rf"{out_line + 1}=([01])\n", text)
    assert m, f"udrv gpio get said {text!r}"
    return int(m.group(1))


def consumer(board: Board, line: int) -> str | None:
    """Who holds gpio-wire's line @line, as the kernel says (udrv gpio info
    --json, GPIO_V2_GET_LINEINFO_IOCTL), or None when it is free. (The
    partner's level alone proves nothing: gpio-wire keeps an output's value
    when it is released.)"""
    (chip,) = json.loads(run(board, "udrv gpio info -c gpio-wire --json"))
    info = chip["lines"][line]
    return str(info["consumer"]) if info["used"] else None


@pytest.fixture
def guest(py_board: Board) -> Iterator[Board]:
    """The board with udrvd's policy and an empty state; afterwards nothing
    of this module running and every gpio-wire line free."""
    py_board.put_bytes(RULES.encode(), POLICY)
    run(py_board, f"mkdir -p /var/lib/udrvd && rm -f {STATE}")
    yield py_board
    r = sh(py_board, "ps -o pid,args | grep -E 'udrvd|gpio-manager|dbus-daemon' | grep -v grep")
    assert not r.stdout.strip(), f"left running:\n{r.stdout}"


@pytest.fixture
def udrvd(guest: Board) -> Iterator[Broker]:
    b = Broker(guest, "udrvd").start()
    try:
        yield b
    finally:
        b.stop()


def gpiocli(board: Board, *args: str) -> str:
    return run(board, shlex.join(["gpiocli", *args]))


def test_held_line_keeps_its_value(udrvd: Broker) -> None:
    b = udrvd.board
    assert gpiocli(b, "request", "--output", "wire0-out=active") == "request0\n"
    # gpiocli has exited; udrvd holds the line, another process reads it
    assert partner(b, 0) == 1
    assert consumer(b, 0) == "gpio-manager"  # gpiocli's default consumer
    gpiocli(b, "set", "wire0-out=inactive")
    assert partner(b, 0) == 0
    # the fast path: the request's fd, driven by the client and kept after it exits
    out = run(b, f"{dbusguest.GUEST_CLIENT} fd /io/gpiod1/requests/request0 1 1")
    assert out == "set 1 times\n"
    assert partner(b, 0) == 1
    assert gpiocli(b, "get", "wire0-out") == '"wire0-out"=active\n'
    gpiocli(b, "release", "request0")
    assert gpiocli(b, "requests") == ""
    assert consumer(b, 0) is None


def test_udrv_asks_udrvd_to_hold_the_line(udrvd: Broker) -> None:
    b = udrvd.board
    udrv = dbusguest.GUEST_UDRV  # built with udrvd's client
    run(b, f"{udrv} gpio set --hold daemon -c gpio-wire wire0-out=1")
    assert (partner(b, 0), consumer(b, 0)) == (1, "udrv")
    # by name, the same request takes the new value
    run(b, f"{udrv} gpio set --hold daemon wire0-out=0")
    assert (partner(b, 0), consumer(b, 0)) == (0, "udrv")
    assert gpiocli(b, "requests") == "request0 (gpiochip0) Offsets: [0]\n"
    run(b, f"{udrv} gpio release wire0-out")
    assert consumer(b, 0) is None


TAKE_HELD = """
import udrv
with udrv.take_held(["wire0-out"]) as req:
    before = req.get_value("wire0-out")
    req.set_value("wire0-out", 0)
    print(before, req.get_values(), req.chip_name, req.chip)
"""


def test_a_held_line_driven_through_its_fd(udrvd: Broker) -> None:
    """udrv_request_adopt() on a real kernel: examples/udrvd-held takes the
    request of udrvd's that holds wire0-out (GetFd) and sets it 3 times from
    0; Python's take_held() sets it back; each time udrvd keeps the line, at
    the level set last, as gpio-wire's partner line reads it."""
    b = udrvd.board
    run(b, f"{dbusguest.GUEST_UDRV} gpio set --hold daemon -c gpio-wire wire0-out=0")
    out = run(b, f"{dbusguest.GUEST_EXAMPLE} gpiochip0 0 3")
    assert re.fullmatch(r"3 sets of offset 0, \d+ ns each; left at 1\n", out), out
    assert (partner(b, 0), consumer(b, 0)) == (1, "udrv")
    out = run(b, f"python3 -c {shlex.quote(TAKE_HELD)}")
    assert out == "1 [0] gpiochip0 None\n", out
    assert (partner(b, 0), consumer(b, 0)) == (0, "udrv")
    assert gpiocli(b, "requests") == "request0 (gpiochip0) Offsets: [0]\n"
    run(b, f"{dbusguest.GUEST_UDRV} gpio release wire0-out")
    assert consumer(b, 0) is None


def said(b: Board, text: str) -> None:
    """Wait (10 s of guest time at most) until udrvd's log has @text."""
    run(b, f"i=0; until grep -qF {shlex.quote(text)} /tmp/udrvd.log; do i=$((i+1)); "
        "[ $i -lt 100 ] || { cat /tmp/udrvd.log; exit 1; }; sleep 0.1; done")


def test_a_chip_that_goes_and_comes_back(udrvd: Broker) -> None:
    """Hotplug on a real kernel: gpio-wire's driver unbound while udrvd runs
    takes its Chip object away (devtmpfs removes the node); bound again, it
    is exported again and udrvd holds its lines as before. No line is held
    across the unbind: Debian 12's 6.1 kernels leak a chip removed while
    lines are requested (docs/api.md)."""
    b = udrvd.board
    chips = ("gdbus call --system -d io.gpiod1 -o /io/gpiod1/chips "
             "-m org.freedesktop.DBus.ObjectManager.GetManagedObjects")  # fmt: skip
    assert "'gpio-wire'" in run(b, chips)
    run(b, "echo gpio-wire > /sys/bus/platform/drivers/gpio-wire/unbind")
    said(b, "(gpio-wire) went away: 0 of udrvd's requests on it dropped")
    assert "'gpio-wire'" not in run(b, chips)
    run(b, "echo gpio-wire > /sys/bus/platform/drivers/gpio-wire/bind")
    said(b, "(gpio-wire) came: exported, ")
    assert "'gpio-wire'" in run(b, chips)
    run(b, f"{dbusguest.GUEST_UDRV} gpio set --hold daemon -c gpio-wire wire0-out=1")
    assert (partner(b, 0), consumer(b, 0)) == (1, "udrv")
    run(b, f"{dbusguest.GUEST_UDRV} gpio release wire0-out")


def test_restore_after_restart(udrvd: Broker) -> None:
    b = udrvd.board
    gpiocli(b, "request", "--output", "wire0-out=active")
    gpiocli(b, "request", "--output", "wire1-out=active")
    assert (partner(b, 0), partner(b, 2)) == (1, 1)
    udrvd.stop_daemon()
    assert (consumer(b, 0), consumer(b, 2)) == (None, None)
    state = run(b, f"cat {STATE}")
    # the file keeps what a restore rule covers: wire0-out's request alone
    assert state.startswith("udrvd-state 1\n") and state.count("\nrequest ") == 1, state
    assert "\nline 0 output 1 " in state and "\nline 2 " not in state, state
    # the lines are free: another process drives both low and lets go
    run(b, "udrv gpio set -c gpio-wire 0=0 2=0")
    assert (partner(b, 0), partner(b, 2)) == (0, 0)
    udrvd.start_daemon()
    # restore gpio gpio-wire wire0-out: back, high; wire1-out: left to the kernel
    assert (partner(b, 0), partner(b, 2)) == (1, 0), udrvd.log()
    assert (consumer(b, 0), consumer(b, 2)) == ("gpio-manager", None)
    assert gpiocli(b, "requests") == "request0 (gpiochip0) Offsets: [0]\n"


SESSION = (["detect"], ["info", "-c", "gpiochip0"], ["request", "--output", "wire0-out=active"],
           ["requests"], ["get", "wire0-out"], ["set", "wire0-out=inactive"],
           ["get", "wire0-out"], ["info", "wire0-out"],
           ["reconfigure", "--output", "--active-low", "request0"], ["info", "wire0-out"],
           ["get", "wire0-out"], ["release", "request0"],
           ["info", "wire0-out"], ["requests"])  # fmt: skip


def test_gpiocli_says_the_same_against_gpio_manager(guest: Board) -> None:
    said: dict[str, list[str]] = {}
    for daemon in ("udrvd", "gpio-manager"):
        broker = Broker(guest, daemon).start()
        try:
            said[daemon] = [gpiocli(guest, *args) for args in SESSION]
            said[daemon].append(f"partner {partner(guest, 0)}")
        finally:
            broker.stop()
    steps = [f"gpiocli {shlex.join(args)}" for args in SESSION] + ["gpio-wire's partner line"]
    for step, ours, theirs in zip(steps, said["udrvd"], said["gpio-manager"], strict=True):
        assert ours == theirs, step
    # inactive, then active-low: the level is high, and gpio-wire keeps it after release
    assert said["udrvd"][-1] == "partner 1"


def monitor_session(board: Board) -> list[str]:
    """gpiocli monitor on gpio-wire's wire0-in (requested with both edges)
    while another process drives wire0-out up and down three times: what it
    printed, timestamps checked to rise and then left out. The monitor says
    nothing when it is ready: the guest's clock follows its instruction
    count (icount, sleep=off), so a second of it passes only once every
    process of the guest waits, the monitor's proxies made."""
    run(board, "udrv gpio set -c gpio-wire 0=0")  # the wire low, as nothing left it
    gpiocli(board, "request", "--input", "--both-edges", "wire0-in")
    run(board, "gpiocli monitor wire0-in > /tmp/monitor.out 2>&1 & echo $! > /tmp/monitor.pid; "
               "sleep 1")  # fmt: skip
    run(board, "for v in 1 0 1 0 1 0; do udrv gpio set -c gpio-wire 0=$v; done")
    # SIGTERM: gpiocli leaves its loop and exits, its output flushed
    run(board, "pid=$(cat /tmp/monitor.pid); kill $pid; while kill -0 $pid 2>/dev/null; "
               "do sleep 0.1; done")  # fmt: skip
    out = run(board, "cat /tmp/monitor.out").splitlines()
    gpiocli(board, "release", "request0")
    stamps = [int(line.split()[0]) for line in out if line[:1].isdigit()]
    assert stamps == sorted(stamps) and len(stamps) == len(out), out
    return [line.split(None, 1)[1] for line in out]


def test_gpiocli_monitor_against_both_brokers(guest: Board) -> None:
    """EdgeEvent: gpiocli monitor prints every edge of a line udrvd holds with
    edge detection, as it does against gpio-manager (which broadcasts them;
    udrvd sends them to the clients that may watch the line: root here)."""
    said: dict[str, list[str]] = {}
    for daemon in ("udrvd", "gpio-manager"):
        broker = Broker(guest, daemon).start()
        try:
            said[daemon] = monitor_session(guest)
        finally:
            broker.stop()
    assert said["udrvd"] == said["gpio-manager"]
    assert said["udrvd"] == ['rising  "wire0-in"', 'falling "wire0-in"'] * 3


def test_another_process_s_change_is_signalled(udrvd: Broker) -> None:
    """PropertiesChanged on a Line when another process (udrv, not through
    udrvd) requests and releases it: udrvd watches the kernel's line info.
    The watching client (tests/daemon/client.c watch) syncs with a Ping
    until the change has come, at most 50 times."""
    line = "/io/gpiod1/chips/gpiochip0/line2"
    out = run(udrvd.board, f"rm -f /tmp/w.in /tmp/w.out; mkfifo /tmp/w.in; "
              f"{dbusguest.GUEST_CLIENT} watch {line} < /tmp/w.in > /tmp/w.out & exec 3>/tmp/w.in; "
              "until grep -q watching /tmp/w.out; do sleep 0.05; done; "
              "udrv gpio set -c gpio-wire 2=0; "
              "for i in $(seq 50); do echo sync >&3; sleep 0.05; "
              "grep -q changed /tmp/w.out && break; done; "
              "exec 3>&-; wait; cat /tmp/w.out")  # fmt: skip
    changed = [ln for ln in out.splitlines() if ln.startswith("changed ")]
    assert changed, out
    assert "Used" in changed[0] and "Consumer" in changed[0], changed


def declared_properties(xml: str) -> dict[str, set[str]]:
    """{interface: its property names} of an introspection document."""
    root = ElementTree.fromstring(xml)
    return {i.get("name", ""): {p.get("name", "") for p in i.iter("property")}
            for i in root.iter("interface")}  # fmt: skip


def test_generic_client_reads_the_declared_properties(udrvd: Broker) -> None:
    """gdbus's Properties.GetAll on a chip, a line and a request gives the
    properties libgpiod's io.gpiod1.xml declares, no more, no fewer."""
    b = udrvd.board
    get = ("gdbus call --system -d io.gpiod1 -o /io/gpiod1/chips/gpiochip0 -m "
           "org.freedesktop.DBus.Properties.Get io.gpiod1.Chip ")  # fmt: skip
    assert run(b, get + "Label") == "(<'gpio-wire'>,)\n"
    assert run(b, get + "NumLines") == "(<uint32 8>,)\n"
    gpiocli(b, "request", "--output", "wire0-out=active")
    declared = declared_properties(run(b, f"cat {dbusguest.GUEST_GPIOD}/share/io.gpiod1.xml"))
    for iface, path in (("Chip", "chips/gpiochip0"), ("Line", "chips/gpiochip0/line0"),
                        ("Request", "requests/request0")):  # fmt: skip
        got = run(b, f"gdbus call --system -d io.gpiod1 -o /io/gpiod1/{path} -m "
                  f"org.freedesktop.DBus.Properties.GetAll io.gpiod1.{iface}")  # fmt: skip
        have = set(re.findall(r"'(\w+)': <", got))
        want = declared[f"io.gpiod1.{iface}"]
        assert want and have == want, f"{iface}: declared {sorted(want)}, udrvd {sorted(have)}"
    gpiocli(b, "release", "request0")


def test_bench_rows_through_both_brokers(guest: Board) -> None:
    """udrv-bench toggle's broker rows (udrv-bench-dbus, its peer): udrvd on
    one bus, gpio-manager on another, the same line; every row checked at the
    source (the bench fails when gpio-wire's partner did not see every toggle
    it sent, received or counted lost) and compared with its reference."""
    brokers = [Broker(guest, "udrvd").start(), Broker(guest, "gpio-manager", BUS2).start()]
    try:
        out = run(guest, f"udrv-bench toggle -n 4000 --udrvd {BUS} --gpio-manager {BUS2} "
                  f"--gpiocli {dbusguest.GUEST_GPIOD}/bin/gpiocli --json -q", timeout=300)
    finally:
        for b in brokers:
            b.stop()
    doc = json.loads(out)
    index = {(r["mechanism"], r["implementation"]): i for i, r in enumerate(doc["rows"])}
    want = {("cdev", "udrvd-fd"): ("cdev", "raw"), ("dbus", "gpio-manager"): None,
            ("dbus", "udrvd"): ("dbus", "gpio-manager"), ("gpiocli", "gpio-manager"): None,
            ("gpiocli", "udrvd"): ("gpiocli", "gpio-manager")}  # fmt: skip
    for key, ref in want.items():
        assert key in index, f"no {key} row: {doc.get('rows')}"
        row = doc["rows"][index[key]]
        assert row["stats"]["count"] > 0 and row["loss"]["sent"] >= 2, row
        got = row["reference"] and (row["reference"]["mechanism"],
                                    row["reference"]["implementation"])  # fmt: skip
        assert got == ref, f"{key}: reference {row['reference']}"
        if ref:
            assert row["reference"]["ratio_avg"] > 0, row["reference"]
