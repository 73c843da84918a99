# SPDX-License-Identifier: GPL-2.0-only
"""udrv's arm64 Debian packages on the rpi3 board (`deb_rpi3`: QEMU's raspi3b
with Debian's arm64 kernel and python3.11, and libudrv1, udrv, udrv-bench and
python3-udrv of `make deb DEB_ARCH=arm64` unpacked over it:
rig/lab/image/debguest.py). The packaged CLI and library, the Python package
and its gpiozero factory drive GPIO 17 of the SoC's chip, and the GPIO block's
level register (GPLEV0, through /dev/mem) must follow; the toggle bench runs
through the packaged udrv-bench. Marked `deb`: scripts/deb-test --lab runs
these, after make deb DEB_ARCH=arm64 (make check does not build packages)."""

from __future__ import annotations

import json
import textwrap

import pytest
from bcm2835 import CHIP, LINE, gplev
from guest import ok

from rig.lab import Board
from rig.lab.suite import qemu as suite
from rig.results.check import check_lab

pytestmark = [pytest.mark.lg_feature(["bcm2835"]), pytest.mark.deb]

LAB_BOARD = "rpi3"
LIBUDRV = "/usr/lib/aarch64-linux-gnu/libudrv.so.1"


def python(board: Board, code: str, env: str = "") -> str:
    """Run `code` with the guest's python3; its stdout (it must succeed)."""
    script = textwrap.dedent(code).strip()
    r = board.run(f"{env} python3 - <<'EOF'\n{script}\nEOF", timeout=300)
    assert r.status == 0, f"exit {r.status}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_the_packaged_binaries_and_library_are_the_ones_run(deb_rpi3: Board) -> None:
    """/usr/bin/udrv is the package's (dynamically linked to libudrv1's
    library, loaded from /usr/lib/aarch64-linux-gnu), not the static build."""
    version = ok(deb_rpi3, "--version").stdout
    assert "1.6.0" in version, version
    r = deb_rpi3.run(f"udrv gpio set -c {CHIP} --hold 3s {LINE}=1 & sleep 1; "
                     "grep -o '/[^ ]*libudrv[^ ]*' /proc/$!/maps | sort -u; wait", timeout=60)
    assert r.status == 0 and r.stdout.split() == [LIBUDRV], r.stdout + r.stderr


def test_python_is_debians_arm64_python_with_the_packaged_udrv(deb_rpi3: Board) -> None:
    out = json.loads(python(deb_rpi3, """
        import json, platform, sys, udrv, udrv._udrv
        from importlib.metadata import entry_points, version
        libs = [l.split()[-1] for l in open("/proc/self/maps") if "libudrv" in l]
        eps = [e.value for e in entry_points(group="gpiozero_pin_factories") if e.name == "udrv"]
        print(json.dumps({"machine": platform.machine(), "python": sys.version.split()[0],
                          "udrv": udrv.__version__, "meta": version("udrv"),
                          "ext": udrv._udrv.__file__, "libs": sorted(set(libs)), "eps": eps}))
    """))
    assert out["machine"] == "aarch64" and out["python"].startswith("3.11"), out
    assert out["udrv"] == out["meta"] == "1.6.0", out
    assert out["ext"].startswith("/usr/lib/python3/dist-packages/udrv/_udrv.cpython-311-aarch64")
    assert out["libs"] == [LIBUDRV], out  # libudrv1's, not compiled in
    assert out["eps"] == ["udrv.gpiozero:UdrvFactory"], out


def test_udrv_info_shows_the_soc_chip(deb_rpi3: Board) -> None:
    out = ok(deb_rpi3, "info").stdout
    assert CHIP in out and "54 lines" in out, out


@pytest.mark.parametrize("level", [1, 0, 1])
def test_python_drives_gpio17(deb_rpi3: Board, level: int) -> None:
    out = json.loads(python(deb_rpi3, f"""
        import json, udrv
        with udrv.Chip("{CHIP}") as chip:
            out = {{"lines": chip.num_lines}}
            cfg = {{{LINE}: udrv.LineSettings(direction=udrv.Direction.OUTPUT)}}
            with chip.request(cfg, consumer="pytest") as req:
                req.set_value({LINE}, {level})
                out["get"] = req.get_value({LINE})
                out["consumer"] = chip.line_info({LINE}).consumer
        print(json.dumps(out))
    """))
    assert out == {"lines": 54, "get": level, "consumer": "pytest"}, out
    # the character device keeps the last value after release on this chip
    assert gplev(deb_rpi3, LINE) == level


def test_gpiozero_led_on_the_udrv_factory(deb_rpi3: Board) -> None:
    """gpiozero 2.0.1 finds the factory through the package's entry point
    (GPIOZERO_PIN_FACTORY=udrv) and drives the pin."""
    out = python(deb_rpi3, f"""
        import subprocess
        from gpiozero import LED, Device
        led = LED({LINE})
        print(type(Device.pin_factory).__name__)
        for on in (True, False, True):
            led.on() if on else led.off()
            word = subprocess.run(["devmem", "0x3F200034", "32"], capture_output=True,
                                  text=True, check=True).stdout
            print(int(on), (int(word, 16) >> {LINE}) & 1)
        led.close()
    """, env="GPIOZERO_PIN_FACTORY=udrv")
    lines = out.split("\n")
    assert lines[0] == "UdrvFactory", out
    assert lines[1:4] == ["1 1", "0 0", "1 1"], out


def test_toggle_bench_through_the_packaged_udrv_bench(deb_rpi3: Board) -> None:
    """The suite's rpi3 part (rig/lab/suite/qemu.py, few samples) through
    /usr/bin/udrv-bench of the udrv-bench package."""
    run = suite.run_rpi3(deb_rpi3, "quick")
    assert run.failures == [], run.failures
    (doc,) = run.documents
    assert doc["bench"] == "toggle" and doc["board"] == "Raspberry Pi 3 Model B"
    for row in doc["rows"]:
        assert f"verified: set 1, 0 -> GPLEV0 bit {LINE} read 1, 0" in row["note"], row
    check_lab(suite.lab_document([run]))
