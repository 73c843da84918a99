# SPDX-License-Identifier: GPL-2.0-only
"""`udrv gpio get`, `mon` and `info` through udrvd (--via, issue 41 item 6):
a user the chip refuses but udrvd's policy grants lines reads them, watches
their edges and lists the chips through udrvd, with the direct path's
output, and udrv says on stderr that it went through udrvd. The CLI runs
here with the fake chip preloaded and UDRV_SYSROOT at the fake tree, so
that it finds the chips itself: its nodes are root's, 0644, so another user
cannot open them (EACCES), and root can (the direct path, to compare with).
A refused user gets udrvd's refusal and the rule that would grant it."""

from __future__ import annotations

import json
import os
import pwd
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import GUARD_S, Udrvd, serving
from tests.daemon.test_edge_events import BOTH, edges, rules_become
from tests.daemon.test_udrvd import request
from tests.support.fakes import FakeTree

ALICE, BOB, CAROL = 1, 2, 3  # alice: the rules below; bob: none; carol: watch
POLICY = """# udrv gpio get/mon/info through udrvd
allow uid:1 read gpio fake-a LOCK
allow uid:1 read,watch gpio fake-a DOOR
allow uid:3 watch gpio fake-a DOOR
"""
THROUGH = "udrv: through udrvd: "


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    # LOCK high, an input nobody holds (fake_cdev.c's state file)
    tree.file("dev/gpiochip0.state", "0 in 1 0 - none\n" + "0 in 0 0 - none\n" * 7)
    os.mkfifo(tree.path("dev/gpiochip0.events"))
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


def gpio(d: Udrvd, udrv: Path, *args: str, uid: int = ALICE) -> subprocess.CompletedProcess[str]:
    """udrv gpio ARGS as @uid, on the fake chips (as root: the direct path)."""
    return d.run_as([str(udrv), "gpio", *args], uid, preload=True)


def user(uid: int) -> str:
    return pwd.getpwuid(uid).pw_name


def test_the_chip_refuses_the_user(udrvd: Udrvd, udrv: Path) -> None:
    """What makes auto choose udrvd: the direct path is refused."""
    res = gpio(udrvd, udrv, "get", "--via", "chip", "LOCK")
    assert res.returncode == 1 and "Permission denied" in res.stderr, res.stderr
    assert THROUGH not in res.stderr


def test_get_reads_through_udrvd_as_the_chip_would(udrvd: Udrvd, udrv: Path) -> None:
    res = gpio(udrvd, udrv, "get", "LOCK", "DOOR")
    assert res.returncode == 0, res.stderr
    assert res.stdout == "LOCK=1 DOOR=0\n"
    said = [ln for ln in res.stderr.splitlines() if ln.startswith(THROUGH)]
    assert len(said) == 1 and "gpiochip0: Permission denied" in said[0], res.stderr
    assert "--via chip" in said[0]
    assert not udrvd.lines()[0].used  # the request made for the reading is released
    assert "objectpath '/io/gpiod1/requests/request" not in udrvd.call(
        "/io/gpiod1/requests", "org.freedesktop.DBus.ObjectManager.GetManagedObjects").stdout
    # --json: the direct path's document, byte for byte (root opens the chip)
    direct = gpio(udrvd, udrv, "get", "--json", "-c", "fake-a", "LOCK", "DOOR", uid=0)
    through = gpio(udrvd, udrv, "get", "--json", "-c", "fake-a", "LOCK", "DOOR")
    assert direct.returncode == 0 and through.returncode == 0, (direct.stderr, through.stderr)
    assert THROUGH not in direct.stderr and THROUGH in through.stderr
    assert through.stdout == direct.stdout
    assert json.loads(through.stdout)["lines"][0] == {"line": "LOCK", "offset": 0, "value": 1}
    # asked for: no word on stderr
    res = gpio(udrvd, udrv, "get", "--via", "daemon", "-c", "0", "0")
    assert (res.returncode, res.stdout, res.stderr) == (0, "0=1\n", "")


def test_a_refused_user_gets_udrvds_refusal_and_the_rule(udrvd: Udrvd, udrv: Path) -> None:
    res = gpio(udrvd, udrv, "get", "LOCK", uid=BOB)
    assert res.returncode == 1
    assert "udrv: udrvd refused the request: the policy refuses uid 2 (gid 2) 'read' on " \
           "line 0 (LOCK) of gpiochip0 (fake-a): no rule grants read" in res.stderr  # fmt: skip
    assert f"allow user:{user(BOB)} read gpio fake-a LOCK" in res.stderr, res.stderr
    # alice may read LOCK, not watch it
    res = gpio(udrvd, udrv, "mon", "-n", "1", "LOCK")
    assert res.returncode == 1 and "no rule grants watch" in res.stderr, res.stderr
    assert f"allow user:{user(ALICE)} read,watch gpio fake-a LOCK" in res.stderr, res.stderr
    assert not udrvd.lines()[0].used
    # an output now (released as one): reading it as an input stops its
    # driver, which udrvd grants with drive, and the rule says so
    udrvd.tree.file("dev/gpiochip0.state", "0 in 1 0 - none\n0 out 1 0 - none\n" +
                    "0 in 0 0 - none\n" * 6)  # fmt: skip
    res = gpio(udrvd, udrv, "get", "DOOR")
    assert res.returncode == 1 and "no rule grants drive" in res.stderr, res.stderr
    assert f"allow user:{user(ALICE)} read,drive gpio fake-a DOOR" in res.stderr, res.stderr


def wait_for(holds: object, what: str, d: Udrvd) -> None:
    deadline = time.monotonic() + GUARD_S
    while not holds():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"never: {what}\n" + "\n".join(d.log))
        time.sleep(0.02)


def test_mon_prints_the_edges_udrvd_sends(udrvd: Udrvd, udrv: Path) -> None:
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": udrvd.address,
           "LD_PRELOAD": udrvd.preload, "UDRV_SYSROOT": str(udrvd.tree.root)}  # fmt: skip
    proc = subprocess.Popen(["setpriv", f"--reuid={ALICE}", f"--regid={ALICE}",
                             "--clear-groups", str(udrv), "gpio", "mon", "--json", "-n", "3",
                             "DOOR"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)  # fmt: skip
    try:
        # mon watches the line before it has udrvd request it: once the
        # request is there, every edge reaches it
        wait_for(lambda: udrvd.lines()[1].edge == "both", "DOOR requested with edges", udrvd)
        edges(udrvd, range(1, 3))
        edges(udrvd, range(4, 5))  # the kernel lost the third
        out, err = proc.communicate(timeout=GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert THROUGH in err
    docs = [json.loads(ln) for ln in out.splitlines()]
    assert docs == [
        {"timestamp_ns": 1000 * s, "line": "DOOR", "offset": 1,
         "edge": "rising" if s % 2 else "falling", "seqno": s, "line_seqno": s,
         "lost": int(s == 4)}
        for s in (1, 2, 4)
    ] + [{"events": 3, "lost": 1}]  # fmt: skip
    wait_for(lambda: not udrvd.lines()[1].used, "DOOR released after mon", udrvd)


def mon_as(d: Udrvd, udrv: Path, uid: int, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": d.address,
           "LD_PRELOAD": d.preload, "UDRV_SYSROOT": str(d.tree.root)}  # fmt: skip
    return subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                             str(udrv), "gpio", "mon", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip


def test_sigterm_ends_mon_and_udrvd_lets_go(udrvd: Udrvd, udrv: Path) -> None:
    """udrvd keeps a request after its client's connection ends: mon, ended
    by SIGTERM (as by Ctrl-C), releases its own, exits 0 with its summary."""
    proc = mon_as(udrvd, udrv, ALICE, "DOOR")
    try:
        wait_for(lambda: udrvd.lines()[1].used, "DOOR requested by mon", udrvd)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert (out, err.splitlines()[-1]) == ("", "0 events, 0 lost")
    assert not udrvd.lines()[1].used
    assert "request" not in udrvd.call(
        "/io/gpiod1/requests", "org.freedesktop.DBus.ObjectManager.GetManagedObjects").stdout


def test_watch_alone_follows_a_request_that_detects_edges(udrvd: Udrvd, udrv: Path) -> None:
    """Carol may only watch DOOR: mon follows the request alice holds with
    edge detection, and leaves it held."""
    res = request(udrvd, [1], BOTH, uid=ALICE)
    assert res.returncode == 0, res.stderr
    proc = mon_as(udrvd, udrv, CAROL, "-n", "2", "DOOR")
    try:
        # carol's mon is a watcher once udrvd listens for watchers' ends
        assert rules_become(udrvd, 1) == 1
        edges(udrvd, range(1, 3))
        out, err = proc.communicate(timeout=GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert [ln.split()[1:] for ln in out.splitlines()] == [
        ["DOOR", "rising", "seqno=1", "line_seqno=1"],
        ["DOOR", "falling", "seqno=2", "line_seqno=2"]]  # fmt: skip
    assert "2 events, 0 lost" in err
    assert udrvd.lines()[1].used and udrvd.lines()[1].edge == "both"  # alice's still
    # without a request to follow, carol's watch is not enough to make one
    res = udrvd.call("/io/gpiod1/requests/request0", "io.gpiod1.Request.Release", uid=ALICE)
    assert res.returncode == 0, res.stderr
    res = gpio(udrvd, udrv, "mon", "-n", "1", "DOOR", uid=CAROL)
    assert res.returncode == 1 and "no rule grants read" in res.stderr, res.stderr
    assert f"allow user:{user(CAROL)} read,watch gpio fake-a DOOR" in res.stderr


def test_info_lists_udrvds_chips(udrvd: Udrvd, udrv: Path) -> None:
    res = gpio(udrvd, udrv, "info", uid=BOB)
    assert res.returncode == 0, res.stderr
    assert THROUGH in res.stderr and "free inputs" in res.stderr, res.stderr
    assert "gpiochip0: Permission denied" in res.stderr, res.stderr
    direct = gpio(udrvd, udrv, "info", uid=0)
    assert direct.returncode == 0 and THROUGH not in direct.stderr, direct.stderr
    # the lines' rows as the chip gives them (the chips' heads: no sysfs base)
    assert [ln for ln in res.stdout.splitlines() if ln.startswith(" ")] == \
        [ln for ln in direct.stdout.splitlines() if ln.startswith(" ")]  # fmt: skip
    heads = [ln for ln in res.stdout.splitlines() if not ln.startswith(" ")]
    assert heads == ["gpiochip0 [fake-a] 8 lines", "gpiochip1 [fake-b] 4 lines"], res.stdout
    # --json: the same keys; a line's state to those a rule names
    through = gpio(udrvd, udrv, "set", "--hold", "daemon", "-c", "fake-a", "LED=1", uid=0)
    assert through.returncode != 0  # no rule for root either: udrvd's policy is all
    chips = json.loads(gpio(udrvd, udrv, "info", "--json", "-c", "fake-a").stdout)
    direct_chips = json.loads(gpio(udrvd, udrv, "info", "--json", "-c", "fake-a", uid=0).stdout)
    assert [c.keys() for c in chips] == [c.keys() for c in direct_chips]
    assert [ln.keys() for ln in chips[0]["lines"]] == [ln.keys() for ln in direct_chips[0]["lines"]]
    assert chips[0]["lines"] == direct_chips[0]["lines"]
    res = gpio(udrvd, udrv, "info", "-c", "nochip")
    assert res.returncode == 1 and "udrvd has no chip nochip (it has gpiochip0 (fake-a), " \
        "gpiochip1 (fake-b))" in res.stderr, res.stderr  # fmt: skip


def test_info_of_lines_by_name_or_offset(udrvd: Udrvd, udrv: Path) -> None:
    """info LINE...: the lines' chip with those lines only, in the order
    given, as the direct path shows them; offsets with -c."""
    for args, names in [(["DOOR", "LOCK"], ["DOOR", "LOCK"]),
                        (["-c", "fake-a", "4", "DOOR"], ["LED", "DOOR"]),
                        (["-c", "0", "LED"], ["LED"])]:  # fmt: skip
        res = gpio(udrvd, udrv, "info", *args, uid=BOB)
        direct = gpio(udrvd, udrv, "info", *args, uid=0)
        assert res.returncode == 0 and THROUGH in res.stderr, (args, res.stderr)
        assert direct.returncode == 0 and THROUGH not in direct.stderr, (args, direct.stderr)
        assert res.stdout.splitlines()[1:] == direct.stdout.splitlines()[1:], (args, res.stdout)
        assert res.stdout.splitlines()[0] == "gpiochip0 [fake-a] 8 lines", res.stdout
        assert [ln.split()[1] for ln in res.stdout.splitlines()[1:]] == names, res.stdout
    (chip,) = json.loads(gpio(udrvd, udrv, "info", "--json", "LED", "LOCK", uid=BOB).stdout)
    assert [ln["name"] for ln in chip["lines"]] == ["LED", "LOCK"], chip


def test_info_of_a_line_udrvd_does_not_have(udrvd: Udrvd, udrv: Path) -> None:
    for args, want in [
        (["DOOR", "GPIO99"], "gpio info GPIO99: no chip udrvd exports has a line named GPIO99 "
                             "(udrv gpio info lists them)"),
        (["4"], "no chip udrvd exports has a line named 4 (udrv gpio info lists them; "
                "an offset needs its chip: -c CHIP)"),
        (["-c", "fake-b", "LOCK"], "gpio info LOCK: udrvd's chip fake-b has no line LOCK "
                                   "(udrv gpio info -c fake-b lists its lines)"),
        (["-c", "fake-a", "8"], "udrvd's chip fake-a has no line 8"),
    ]:  # fmt: skip
        res = gpio(udrvd, udrv, "info", *args, uid=BOB)
        assert res.returncode == 1 and want in res.stderr, (args, res.stderr)
        assert res.stdout == "", (args, res.stdout)


def test_info_shows_a_line_s_state_to_whom_a_rule_names(udrvd: Udrvd, udrv: Path) -> None:
    res = request(udrvd, [1], BOTH, uid=ALICE, consumer="doorbell")
    assert res.returncode == 0, res.stderr
    rows = {uid: gpio(udrvd, udrv, "info", "-c", "fake-a", uid=uid) for uid in (0, ALICE, BOB)}
    assert all(r.returncode == 0 for r in rows.values()), rows
    door = {uid: r.stdout.splitlines()[2] for uid, r in rows.items()}
    assert door[0].split() == ["1", "DOOR", "input", "doorbell", "edge=both"]  # the chip's
    assert door[ALICE] == door[0]  # alice's rule names DOOR: udrvd shows its state
    assert door[BOB].split() == ["1", "DOOR", "input", "-"]  # bob: a free input
    (chip,) = json.loads(gpio(udrvd, udrv, "info", "--json", "-c", "fake-a").stdout)
    assert chip["lines"][1] | {"used": True} == chip["lines"][1], chip["lines"][1]
    assert (chip["lines"][1]["consumer"], chip["lines"][1]["edge"]) == ("doorbell", "both")


def test_bad_via(udrvd: Udrvd, udrv: Path) -> None:
    for args, want in [
        (["get", "--via", "bus", "LOCK"], "bad --via 'bus': auto, chip or daemon"),
        (["get", "--via", "daemon", "-b", "sysfs", "-c", "0", "0"], "leave out --backend"),
        (["mon", "--via", "", "LOCK"], "bad --via ''"),
        (["info", "--via", "daemon", "-b", "mmio"], "leave out --backend"),
    ]:  # fmt: skip
        res = gpio(udrvd, udrv, *args)
        assert res.returncode == 2 and want in res.stderr, (args, res.stderr)


def test_set_refused_by_the_chip_names_the_way_through_udrvd(udrvd: Udrvd, udrv: Path) -> None:
    """set is not taken to udrvd by itself (udrvd would hold the line after
    udrv exits: --hold daemon says so); refused by the chip, it says that
    way where udrvd runs, and not where it does not."""
    hint = "udrv: udrvd runs: 'udrv gpio set --hold daemon' sets the lines through its policy"
    res = gpio(udrvd, udrv, "set", "LED=1")
    assert res.returncode == 1 and "Permission denied" in res.stderr, res.stderr
    assert hint in res.stderr, res.stderr
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent",
           "LD_PRELOAD": udrvd.preload, "UDRV_SYSROOT": str(udrvd.tree.root)}  # fmt: skip
    alone = subprocess.run(["setpriv", f"--reuid={ALICE}", f"--regid={ALICE}", "--clear-groups",
                            str(udrv), "gpio", "set", "LED=1"], capture_output=True, text=True,
                           env=env, timeout=GUARD_S, check=False)  # fmt: skip
    assert alone.returncode == 1 and "Permission denied" in alone.stderr, alone.stderr
    assert hint not in alone.stderr, alone.stderr
