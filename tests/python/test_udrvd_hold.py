# SPDX-License-Identifier: GPL-2.0-only
"""udrv.hold(), udrv.release_held() and the gpiozero factory's hold="daemon"
against udrvd on a private bus (tests/daemon/conftest.py's bus, fake chips and
fake character device): a line held through the Python package keeps its
level after the Python process exits, the next gpiozero program takes it back
from udrvd, udrvd's refusals and the package's usage errors reach the caller.

The clients run as another user (setpriv), so that the lines are udrvd's
policy's to grant. In the sanitizer run (scripts/check_steps/python_step.py, python_asan) the
client Pythons keep the sanitizers' runtimes preloaded; the bus daemon and
udrvd do not get them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
import udrv

from tests.daemon.conftest import (
    BUS_CONF,
    GUARD_S,
    Udrvd,
    abstract_name,
    binary,
    chip_file,
    dbus_daemon,
    start_udrvd,
)
from tests.support.fakes import FakeTree, gpio_bus

ALICE, BOB = 1, 2  # base-passwd's daemon and bin
POLICY = ("allow uid:1 drive,read gpio fake-a LOCK\nallow uid:1 drive,read gpio fake-a LED\n"
          "allow uid:1 all gpio fake-a 2-3\n")  # 2 and 3: the fast path too

pytestmark = pytest.mark.skipif(not udrv._udrv.HAS_UDRVD_CLIENT,
                                reason="this udrv was built without udrvd's client")  # fmt: skip


@pytest.fixture
def udrvd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Udrvd]:
    """udrvd on fake-a (gpiochip0: LOCK, DOOR, -, -, LED, ...) with POLICY."""
    sanitizers = os.environ.get("LD_PRELOAD", "")
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    monkeypatch.delenv("UDRV_SYSROOT", raising=False)
    with tempfile.TemporaryDirectory(prefix="udrvd-py-") as tmp:
        os.chmod(tmp, 0o755)
        tree = FakeTree(Path(tmp) / "root")
        gpio_bus(tree)
        chip_file(tree, 0, "fake-a", ["LOCK", "DOOR", "", "", "LED", "", "", ""])
        os.chmod(tree.root, 0o755)
        os.chmod(tree.path("dev"), 0o777)
        os.chmod(tree.path("dev/gpiochip0"), 0o666)  # gpiozero requests lines itself
        conf, policy = tmp_path / "bus.conf", tmp_path / "udrvd.conf"
        conf.write_text(BUS_CONF.format(name=abstract_name()))
        policy.write_text(POLICY)
        fake = binary("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so")
        with dbus_daemon(conf) as address:
            d = start_udrvd(binary("UDRVD_BIN", "daemon/udrvd"), fake, address, tree, policy)
            d.preload = " ".join(p for p in (sanitizers, str(fake)) if p)
            try:
                yield d
            finally:
                d.stop()


def python(d: Udrvd, code: str, uid: int = ALICE, gpiozero: str | None = None,
           fake: bool = False) -> dict[str, object]:  # fmt: skip
    """@code's main() in this Python as @uid (with gpiozero on the fake chips
    when @gpiozero is the factory's GPIOZERO_UDRV_HOLD; with the fake
    character device when @fake, to use a request's fd): {"result": what it
    returned}, or {"error": the exception's type, "errno", "msg"}."""
    wrapped = textwrap.dedent("""
        try:
            out = {"result": main()}
        except (OSError, ValueError, TypeError) as e:
            out = {"error": type(e).__name__, "errno": getattr(e, "errno", None), "msg": str(e)}
        print(json.dumps(out))
    """)
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": d.address}
    if gpiozero is not None or fake:
        env |= {"UDRV_SYSROOT": str(d.tree.root), "LD_PRELOAD": d.preload}
    if gpiozero is not None:
        env |= {"GPIOZERO_PIN_FACTORY": "udrv", "GPIOZERO_UDRV_HOLD": gpiozero}
    elif fake:
        pass
    elif "libasan" in d.preload:
        env["LD_PRELOAD"] = d.preload.rsplit(" ", 1)[0]
    script = "import json, udrv\n" + textwrap.dedent(code) + wrapped
    cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
           sys.executable, "-c", script]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD_S, env=env,
                         check=False)  # fmt: skip
    assert res.returncode == 0 and res.stdout.strip(), res.stdout + res.stderr
    assert not res.stderr.strip(), res.stderr  # gpiozero's close at exit: its errors
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert isinstance(out, dict)
    return out


HOLD = """
def main():
    out = udrv.LineSettings(direction=udrv.Direction.OUTPUT, value={value})
    return udrv.hold({{{line!r}: out}}, chip={chip!r})
"""


def test_held_after_the_process_exits(udrvd: Udrvd) -> None:
    got = python(udrvd, HOLD.format(line="LOCK", value=1, chip=None))
    path = got["result"]
    assert isinstance(path, str) and path.startswith("/io/gpiod1/requests/request"), got
    lock = udrvd.lines()[0]
    assert (lock.used, lock.output, lock.level, lock.consumer) == (True, True, 1, "udrv")
    # again, by offset with the chip: the same request of udrvd's, the new level
    assert python(udrvd, HOLD.format(line=0, value=0, chip="fake-a")) == {"result": path}
    assert udrvd.lines()[0].level == 0 and udrvd.lines()[0].used
    got = python(udrvd, "def main():\n    return udrv.release_held(['LOCK'])")
    assert got == {"result": {"LOCK": 0}}
    assert not udrvd.lines()[0].used


def test_refusals_reach_the_caller(udrvd: Udrvd) -> None:
    got = python(udrvd, HOLD.format(line="LOCK", value=1, chip=None), uid=BOB)
    assert got["error"] == "PermissionDeniedError", got
    assert "uid 2" in str(got["msg"]) and "no rule" in str(got["msg"]), got
    assert not udrvd.lines()[0].used
    got = python(udrvd, HOLD.format(line="DOOR", value=1, chip=None))
    assert got["error"] == "PermissionDeniedError" and "DOOR" in str(got["msg"]), got
    got = python(udrvd, "def main():\n    udrv.release_held(['LOCK'])")
    assert got["error"] == "NotFoundError", got  # udrvd holds it in no request


@pytest.mark.parametrize(("code", "error", "text"), [
    ("udrv.hold({0: OUT})", "ValueError", "name its chip"),
    ("udrv.hold({'LOCK': udrv.LineSettings()})", "ValueError", "udrvd holds outputs"),
    ("udrv.hold({})", "ValueError", "no line given"),
    ("udrv.hold({'': OUT})", "ValueError", "empty"),
    ("udrv.hold({True: OUT}, chip='fake-a')", "TypeError", "a line is an offset"),
    ("udrv.hold({70000: OUT}, chip='fake-a')", "ValueError", "0..65535"),
    ("udrv.hold({'LOCK': 1})", "TypeError", "must be a LineSettings"),
    ("udrv.hold({'LOCK': OUT}, consumer='')", "ValueError", "consumer is empty"),
    ("udrv.hold({'NOPE': OUT})", "NotFoundError", "no chip of udrvd's has all of the lines"),
    ("udrv.release_held(['LOCK', 'LOCK'])", "ValueError", "twice"),
    ("udrv.release_held([])", "ValueError", "no line given"),
])  # fmt: skip
def test_usage_errors(udrvd: Udrvd, code: str, error: str, text: str) -> None:
    got = refused(udrvd, code)
    assert got["error"] == error and text in str(got["msg"]), got


def refused(d: Udrvd, code: str, fake: bool = False) -> dict[str, object]:
    """@code, one line with OUT an output's LineSettings, run by python()."""
    return python(d, "OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)\n"
                     f"def main():\n    {code}\n", fake=fake)  # fmt: skip


def test_without_udrvd_it_says_so(udrvd: Udrvd) -> None:
    udrvd.stop()
    got = python(udrvd, HOLD.format(line="LOCK", value=1, chip=None))
    assert got["error"] == "NotFoundError" and "udrvd" in str(got["msg"]), got


TAKE = """
OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT, value=1)
def main():
    udrv.hold({2: OUT, 3: OUT}, chip='fake-a')
    with udrv.take_held([2], chip='fake-a') as req:
        got = [req.chip_name, req.offsets, req.chip, req.get_values(), list(req.settings)]
        for v in (0, 1, 0):
            req.set_value(2, v)
        try:
            req.reconfigure({2: OUT})
        except ValueError as e:
            got.append(str(e))
        got.append(req.get_values())
    return got
"""


def test_take_held_drives_the_line_through_the_fd(udrvd: Udrvd) -> None:
    """take_held(): udrvd's request of lines 2 and 3, taken over; the sets go
    through its fd (udrvd is not asked); the lines stay held by udrvd at
    the level set last, as udrvd's own GetValues reads them."""
    got = python(udrvd, TAKE, fake=True)
    assert isinstance(got.get("result"), list), got
    name, offsets, chip, before, settings, refused, after = got["result"]
    assert (name, offsets, chip, before, settings) == ("gpiochip0", [2, 3], None, [1, 1], [])
    assert "taken over" in refused and "name every line" in refused, refused
    assert after == [0, 1]
    line = udrvd.lines()[2]
    assert (line.used, line.output, line.level, line.consumer) == (True, True, 0, "udrv")
    got = python(udrvd, "def main():\n    return udrv.release_held([2], chip='fake-a')")
    assert got == {"result": {"2": 0}}


@pytest.mark.parametrize(("code", "error", "text"), [
    # LOCK: drive and read only, and the fd would let its holder reconfigure it
    ("udrv.hold({'LOCK': OUT}); udrv.take_held(['LOCK'])", "PermissionDeniedError",
     "no rule grants"),
    ("udrv.take_held(['DOOR'])", "NotFoundError", "hold the line first"),
    ("udrv.take_held([3], chip='fake-a')", "NotFoundError", "hold the line first"),
    ("udrv.take_held([])", "ValueError", "no line given"),
])  # fmt: skip
def test_take_held_refusals(udrvd: Udrvd, code: str, error: str, text: str) -> None:
    got = refused(udrvd, code, fake=True)
    assert got.get("error") == error and text in str(got["msg"]), got


ADOPT = """
import os
def main():
    udrv.hold({2: udrv.LineSettings(direction=udrv.Direction.OUTPUT)}, chip='fake-a')
    name, fd, offsets, named = udrv._udrv.udrvd_fd('fake-a', ('2',))
    r, w = os.pipe()
    out = []
    for args in ((name, r, [2]), (name, 1000, [2]), ('gpiochipX', fd, [2]),
                 (name, fd, [2, 3]), (name, fd, [2, 2]), (name, fd, [])):
        try:
            udrv.Request.adopt(*args).release()
            out.append('taken')
        except (udrv.Error, ValueError) as e:
            out.append([type(e).__name__, e.errno if isinstance(e, OSError) else None, str(e)])
    os.fstat(r), os.fstat(fd)  # still ours after each refusal
    try:
        udrv.Request.adopt(name, fd, offsets, names={'BELL': 3})
    except ValueError as e:
        out.append(str(e))
    with udrv.Request.adopt('0', fd, offsets, names={'BELL': 2}) as req:
        req.set_value('BELL', 1)
        out.append([req.chip_name, req.get_values(), named])
    return out
"""


def test_adopt_refuses_what_is_no_such_request(udrvd: Udrvd) -> None:
    """udrv_request_adopt()'s checks, through udrv.Request.adopt(): another
    file, a closed one, a bad chip name, too few lines, an offset twice, no
    offsets, a name of no line of it; each leaves the fd the caller's; then
    the right one is taken, its line driven by the name given."""
    got = python(udrvd, ADOPT, fake=True)
    assert isinstance(got.get("result"), list), got
    pipe, closed, chip, few, twice, none, not_in, taken = got["result"]
    assert pipe[:2] == ["InvalidError", 22] and "not a GPIO line request" in pipe[2], pipe
    assert closed[1] == 9 and "file descriptor 1000 is not open" in closed[2], closed
    assert chip[:2] == ["InvalidError", 22] and "not a GPIO chip's name" in chip[2], chip
    assert few[:2] == ["InvalidError", 22] and "holds fewer lines than given" in few[2], few
    assert twice[:2] == ["InvalidError", 22] and "offset 2 is given twice" in twice[2], twice
    assert none[0] == "ValueError" and "1..64 lines" in none[2], none
    assert "'BELL' (offset 3) is not in the request (2,)" in not_in, not_in
    assert taken == ["gpiochip0", [1], [2]]  # set by name


GPIOZERO = """
from gpiozero import LED
def main():
    led = LED("LED", initial_value=None)
    was = led.is_lit
    led.{action}()
    return was
"""


def test_gpiozero_hands_a_closed_output_to_udrvd(udrvd: Udrvd) -> None:
    """hold="daemon": the LED's line stays lit after the program exits; the
    next program finds it lit (taken back from udrvd), turns it off, and
    udrvd holds it off; without hold the line is an input again."""
    assert python(udrvd, GPIOZERO.format(action="on"), gpiozero="daemon") == {"result": False}
    led = udrvd.lines()[4]
    assert (led.used, led.output, led.level, led.consumer) == (True, True, 1, "gpiozero")
    assert python(udrvd, GPIOZERO.format(action="off"), gpiozero="daemon") == {"result": True}
    led = udrvd.lines()[4]
    assert (led.used, led.output, led.level) == (True, True, 0)
    got = python(udrvd, "def main():\n    return udrv.release_held(['LED'], chip='gpiochip0')")
    assert got == {"result": {"LED": 0}}
    assert python(udrvd, GPIOZERO.format(action="on"), gpiozero="") == {"result": False}
    assert not udrvd.lines()[4].used and not udrvd.lines()[4].output
