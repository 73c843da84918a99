# SPDX-License-Identifier: GPL-2.0-only
"""`udrv gpio set --hold daemon` and `udrv gpio release` against udrvd on the
host (conftest.py's private bus and fake chips): udrvd holds the line after
udrv exits, a second set takes the same request (other settings through
ReconfigureLines), the policy's refusals reach the user, and udrv
finds the lines through udrvd (it runs here without UDRV_SYSROOT, so it
could not open a chip of the fake tree itself)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import GUARD_S, Udrvd, serving
from tests.support.fakes import FakeTree

ALICE, BOB = 1, 2
POLICY = """# udrv gpio set --hold daemon
allow uid:1 drive,configure gpio fake-a LOCK
allow uid:2 drive gpio fake-a LOCK
allow uid:1 drive gpio fake-a 2
allow uid:1 all gpio fake-a LED
"""


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


def gpio(d: Udrvd, udrv: Path, *args: str, uid: int = ALICE) -> subprocess.CompletedProcess[str]:
    return d.run_as([str(udrv), "gpio", *args], uid)


def requests(d: Udrvd) -> str:
    res = d.call("/io/gpiod1/requests", "org.freedesktop.DBus.ObjectManager.GetManagedObjects")
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_the_line_stays_and_a_second_set_takes_the_same_request(udrvd: Udrvd, udrv: Path) -> None:
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "-c", "fake-a", "--json", "LOCK=1")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["chip"] == "gpiochip0" and out["backend"] == "udrvd", out
    assert out["lines"] == [{"line": "LOCK", "offset": 0, "value": 1}], out
    line = udrvd.lines()[0]
    assert (line.used, line.output, line.level, line.consumer) == (True, True, 1, "udrv")
    # by name alone, the same request takes the new value
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "--json", "LOCK=0")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["request"] == out["request"]
    assert udrvd.lines()[0].level == 0
    assert requests(udrvd).count("objectpath '/io/gpiod1/requests/request") == 1


def test_other_settings_reconfigure_the_request(udrvd: Udrvd, udrv: Path) -> None:
    assert gpio(udrvd, udrv, "set", "--hold", "daemon", "--json", "LOCK=1").returncode == 0
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "--active-low", "--json", "LOCK=0")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["request"] == "/io/gpiod1/requests/request0"
    line = udrvd.lines()[0]  # logical 0, active-low: the level is high
    assert (line.used, line.active_low, line.level) == (True, True, 1)
    # the policy decides: bob may drive LOCK but not configure it
    res = gpio(udrvd, udrv, "release", "LOCK")
    assert res.returncode == 0, res.stderr
    assert not udrvd.lines()[0].used
    assert gpio(udrvd, udrv, "set", "--hold", "daemon", "LOCK=1", uid=BOB).returncode == 0
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "-l", "LOCK=1", uid=BOB)
    assert res.returncode == 1 and "no rule grants configure" in res.stderr, res.stderr
    assert gpio(udrvd, udrv, "release", "-c", "0", "0", uid=BOB).returncode == 0
    res = gpio(udrvd, udrv, "release", "LOCK")
    assert res.returncode == 1
    assert "udrvd holds no request on offset 0 of gpiochip0" in res.stderr, res.stderr


def test_the_policy_and_the_owner_are_udrvds(udrvd: Udrvd, udrv: Path) -> None:
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "-c", "fake-a", "DOOR=1")
    assert res.returncode == 1
    assert "udrv: udrvd refused the request: the policy refuses uid 1 (gid 1) 'drive' on " \
           "line 1 (DOOR) of gpiochip0 (fake-a)" in res.stderr, res.stderr  # fmt: skip
    assert gpio(udrvd, udrv, "set", "--hold", "daemon", "LOCK=1").returncode == 0
    # bob may drive LOCK, but the request is alice's
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "LOCK=0", uid=BOB)
    assert res.returncode == 1
    assert "/io/gpiod1/requests/request0 belongs to uid 1, not to the caller (uid 2)" \
        in res.stderr, res.stderr  # fmt: skip
    res = gpio(udrvd, udrv, "release", "LOCK", uid=BOB)
    assert res.returncode == 1 and "belongs to uid 1" in res.stderr, res.stderr
    assert udrvd.lines()[0].level == 1


def test_release_takes_only_the_lines_given(udrvd: Udrvd, udrv: Path) -> None:
    """One request holds LOCK (0) and line 2: releasing LOCK alone would
    release line 2 too (udrvd, as the kernel, releases a request whole), so
    nothing is released and the message says how to release both."""
    res = gpio(udrvd, udrv, "set", "--hold", "daemon", "-c", "fake-a", "0=1", "2=1")
    assert res.returncode == 0, res.stderr
    res = gpio(udrvd, udrv, "release", "LOCK")
    assert res.returncode == 1, res.stdout
    assert "offset 0 of gpiochip0 is held in /io/gpiod1/requests/request0 with other lines " \
           "(offsets 0 2)" in res.stderr, res.stderr  # fmt: skip
    assert "to release them all: udrv gpio release -c gpiochip0 0 2" in res.stderr, res.stderr
    assert udrvd.lines()[0].used and udrvd.lines()[2].used
    res = gpio(udrvd, udrv, "release", "-c", "gpiochip0", "2", "0")
    assert res.returncode == 0, res.stderr
    assert not udrvd.lines()[0].used and not udrvd.lines()[2].used


def test_pwm_run_leaves_its_line_held_inactive(udrvd: Udrvd, udrv: Path) -> None:
    """udrv pwm run --hold daemon: udrvd requests the line (its policy's
    all: udrvd hands the request's fd only so), the PWM drives that request
    (adopted), and after the run udrvd still holds the line, inactive."""
    pwm = [str(udrv), "pwm", "run", "--hold", "daemon", "--frequency", "100", "--duty-cycle",
           "50", "--duration", "100ms", "--json"]  # fmt: skip
    res = udrvd.run_as([*pwm, "LED"], ALICE, preload=True)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert (doc["chip"], doc["offset"], doc["ended"]) == ("gpiochip0", 4, "duration"), doc
    assert doc["edges"] == 2 * (doc["periods"] - doc["skipped"]) >= 2, doc
    line = udrvd.lines()[4]
    assert (line.used, line.output, line.level, line.consumer) == (True, True, 0, "udrv")
    # inversed: inactive is high, and udrvd's same request is taken again
    res = udrvd.run_as([*pwm, "--polarity", "inversed", "LED"], ALICE, preload=True)
    assert res.returncode == 0, res.stderr
    assert (udrvd.lines()[4].used, udrvd.lines()[4].level) == (True, 1)
    assert requests(udrvd).count("objectpath '/io/gpiod1/requests/request") == 1
    # drive alone on LOCK: udrvd sets it, but keeps its fd; the rule is named
    res = udrvd.run_as([*pwm, "LOCK"], ALICE, preload=True)
    assert res.returncode == 1 and res.stdout == "", res.stderr
    assert "allow user:" in res.stderr or "allow uid:1" in res.stderr, res.stderr
    assert "read,drive,watch,configure gpio fake-a LOCK" in res.stderr, res.stderr
    assert gpio(udrvd, udrv, "release", "LED").returncode == 0
    assert not udrvd.lines()[4].used


def test_bad_input_is_a_usage_error(udrvd: Udrvd, udrv: Path) -> None:
    cases = [
        (["set", "--hold", "daemon", "-b", "sysfs", "LOCK=1"], 2, "leave out --backend"),
        (["set", "--hold", "daemon", "0=1"], 2, "line 0 is an offset: say which chip it is on"),
        (["set", "--hold", "daemon", "LOCK=1", "LOCK=0"], 2, "line LOCK is given twice"),
        (["set", "--hold", "daemonic", "LOCK=1"], 2, "bad --hold 'daemonic'"),
        (["release"], 2, "give 1 to"),
        (["release", ""], 2, "empty line name"),
        (["set", "--hold", "daemon", "-c", "nochip", "LOCK=1"], 1,
         "udrvd has no chip nochip (it has gpiochip"),
        (["set", "--hold", "daemon", "-c", "fake-a", "NOLINE=1"], 1,
         "gpiochip0 (fake-a) has no line NOLINE"),
        (["set", "--hold", "daemon", "NOLINE=1"], 1, "no chip of udrvd's has all of the lines"),
    ]  # fmt: skip
    for args, status, want in cases:
        res = gpio(udrvd, udrv, *args)
        assert res.returncode == status and want in res.stderr, (args, res.stderr)


def test_without_udrvd_it_says_so(bus: str, udrv: Path) -> None:
    env = {"DBUS_SYSTEM_BUS_ADDRESS": bus, "PATH": "/usr/bin:/bin"}
    res = subprocess.run([str(udrv), "gpio", "set", "--hold", "daemon", "LOCK=1"], env=env,
                         capture_output=True, text=True, timeout=GUARD_S, check=False)  # fmt: skip
    assert res.returncode == 1
    assert "udrvd does not run on the system bus (nothing owns io.gpiod1): start it " \
           "(systemctl start udrvd)" in res.stderr, res.stderr  # fmt: skip
