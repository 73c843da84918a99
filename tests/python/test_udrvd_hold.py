# SPDX-License-Identifier: GPL-2.0-only
"""udrv.hold(), udrv.release_held() and the gpiozero factory's hold="daemon"
against udrvd on a private bus (tests/daemon/conftest.py's bus, fake chips and
fake character device): a line held through the Python package keeps its
level after the Python process exits, the next gpiozero program takes it back
from udrvd, udrvd's refusals and the package's usage errors reach the caller.

The clients run as another user (setpriv), so that the lines are udrvd's
policy's to grant. In the sanitizer run (scripts/check.py python_asan) the
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
POLICY = "allow uid:1 drive,read gpio fake-a LOCK\nallow uid:1 drive,read gpio fake-a LED\n"

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


def python(d: Udrvd, code: str, uid: int = ALICE,
           gpiozero: str | None = None) -> dict[str, object]:  # fmt: skip
    """@code's main() in this Python as @uid (with gpiozero on the fake chips
    when @gpiozero is the factory's GPIOZERO_UDRV_HOLD): {"result": what it
    returned}, or {"error": the exception's type, "errno", "msg"}."""
    wrapped = textwrap.dedent("""
        try:
            out = {"result": main()}
        except (OSError, ValueError, TypeError) as e:
            out = {"error": type(e).__name__, "errno": getattr(e, "errno", None), "msg": str(e)}
        print(json.dumps(out))
    """)
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": d.address}
    if gpiozero is not None:
        env |= {"UDRV_SYSROOT": str(d.tree.root), "LD_PRELOAD": d.preload,
                "GPIOZERO_PIN_FACTORY": "udrv", "GPIOZERO_UDRV_HOLD": gpiozero}
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
    got = python(udrvd, "OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)\n"
                        f"def main():\n    {code}\n")  # fmt: skip
    assert got["error"] == error and text in str(got["msg"]), got


def test_without_udrvd_it_says_so(udrvd: Udrvd) -> None:
    udrvd.stop()
    got = python(udrvd, HOLD.format(line="LOCK", value=1, chip=None))
    assert got["error"] == "NotFoundError" and "udrvd" in str(got["msg"]), got


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
