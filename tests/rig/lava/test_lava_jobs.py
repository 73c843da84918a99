# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.lava job: the job templates of the three device types render
into jobs that LAVA's own job schema (lava_common, strict, as the server
checks a submission) accepts, carrying rig/lava/udrv-bench.yaml and the options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from lava_helpers import REPO, lava_cli

URLS = ["--kernel-url", "file:///srv/k", "--ramdisk-url", "file:///srv/r.cpio.gz",
        "--dtb-url", "file:///srv/board.dtb", "--bundle-url", "file:///srv/udrv.tar"]


def job(tmp: Path, *args: str) -> dict[str, Any]:
    out = tmp / "job.yaml"
    proc = lava_cli("job", *args, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    return dict(yaml.safe_load(out.read_text()))


def schema_validate(data: dict[str, Any]) -> None:
    lava_schemas = pytest.importorskip("lava_common.schemas",
                                       reason="lava-dispatcher not installed")
    lava_schemas.validate(data, strict=True)


@pytest.mark.parametrize("device_type", ["qemu", "beaglebone-black", "bcm2837-rpi-3-b",
                                         "bcm2712-rpi-5-b"])
def test_job_validates(tmp_path: Path, device_type: str) -> None:
    data = job(tmp_path, "--device-type", device_type, *URLS, "--samples", "500",
               "--wire", "gpiochip0 17 18", "--args", "timer:--cpu 0",
               "--bench", "timer", "--bench", "toggle")
    schema_validate(data)
    assert data["device_type"] == device_type
    [definition] = data["actions"][2]["test"]["definitions"]
    testdef = yaml.safe_load((REPO / "rig" / "lava" / "udrv-bench.yaml").read_text())
    assert definition["repository"]["run"] == testdef["run"]
    # the plan's arguments for the board (qemu: the lab's gpio-wire, its default
    # lines; a board: the jumper's), in the job's order, --args appended
    toggle = "" if device_type == "qemu" else " -c gpiochip0 --line 17"
    assert definition["repository"]["params"] == {"COMMANDS": (
        "timer --json --quiet --load none --samples 500 --cpu 0;"
        f"toggle --json --quiet --load none --samples 500{toggle}")}
    text = yaml.safe_dump(data)
    for url in URLS[1::2]:
        # the x86 board boots without a device tree
        assert (url in text) == (device_type != "qemu" or "dtb" not in url), url


def test_rpi3_under_qemu(tmp_path: Path) -> None:
    """The lab's rpi3 board (raspi3b) as a qemu job: arm64, its device tree,
    the console on the mini-UART (the second serial port)."""
    data = job(tmp_path, "--kernel", "rpi3", *URLS)
    schema_validate(data)
    assert data["context"]["arch"] == "arm64" and data["context"]["machine"] == "raspi3b"
    assert data["context"]["extra_options"][-2:] == ["-serial null", "-serial stdio"]
    images = data["actions"][0]["deploy"]["images"]
    assert images["dtb"] == {"image_arg": "-dtb {dtb}", "url": "file:///srv/board.dtb"}
    assert "console=ttyS1,115200" in images["kernel"]["image_arg"]


def test_git_definition(tmp_path: Path) -> None:
    data = job(tmp_path, *URLS, "--testdef", "https://example.org/udrv.git")
    schema_validate(data)
    [definition] = data["actions"][2]["test"]["definitions"]
    assert definition["from"] == "git" and definition["path"] == "rig/lava/udrv-bench.yaml"
    assert [c.split()[0] for c in definition["parameters"]["COMMANDS"].split(";")] == \
        ["timer", "irq", "uio", "toggle"]


# the responder on a board: reply's two jumpers (docs/rig/boards.md)
REPLY_WIRES = {"beaglebone-black": ("gpiochip1 13 12 15 14",
                                    "-c gpiochip1 --trigger 13 --in 12 --reply 15 --watch 14"),
               "bcm2837-rpi-3-b": ("pinctrl-bcm2835 22 23 24 25",
                                   "-c pinctrl-bcm2835 --trigger 22 --in 23 --reply 24 "
                                   "--watch 25"),
               "bcm2712-rpi-5-b": ("pinctrl-rp1 22 23 24 25",
                                   "-c pinctrl-rp1 --trigger 22 --in 23 --reply 24 --watch 25")}


@pytest.mark.parametrize("device_type", list(REPLY_WIRES))
@pytest.mark.parametrize("gpio_reply", [False, True])
def test_the_responder_on_a_board(tmp_path: Path, device_type: str, gpio_reply: bool) -> None:
    """udrv-bench reply on a BeagleBone Black and a Raspberry Pi 3: the job
    passes LAVA's schema and runs the reply bench on the board's jumpers, the
    process responders (user, lib: libudrv's) alone unless gpio-reply.ko is
    loaded (--feature gpio-reply), with the breakdown of the idle run."""
    wire, lines = REPLY_WIRES[device_type]
    feature = ["--feature", "gpio-reply"] if gpio_reply else []
    data = job(tmp_path, "--device-type", device_type, *URLS, "--reply-wire", wire, *feature,
               "--bench", "timer", "--bench", "reply")
    schema_validate(data)
    params = data["actions"][2]["test"]["definitions"][0]["repository"]["params"]
    responders = "" if gpio_reply else " --responder user,lib"
    assert params["COMMANDS"] == (
        "timer --json --quiet --load none --samples 500;"
        f"reply --json --quiet --load none --samples 200 {lines}{responders} --breakdown")


def test_the_pi_5_with_its_jumpers_runs_the_plans_pi_5_rows(tmp_path: Path) -> None:
    """A Pi 5 (rp1, rig/lab/boards/envs/raspberrypi5.yaml's wiring): toggle on the
    RP1's GPIO 17 (the plan's loopback), the responder on its four lines; with
    rp1 alone and no jumper, toggle's edge-less run on GPIO 17 as on the rpi3."""
    data = job(tmp_path, "--device-type", "bcm2712-rpi-5-b", *URLS, "--feature", "rp1",
               "--wire", "pinctrl-rp1 17 18", "--reply-wire", "pinctrl-rp1 22 23 24 25",
               "--bench", "toggle", "--bench", "reply")
    schema_validate(data)
    assert data["device_type"] == "bcm2712-rpi-5-b"
    params = data["actions"][2]["test"]["definitions"][0]["repository"]["params"]
    assert params["COMMANDS"] == (
        "toggle --json --quiet --load none --samples 2000 -c pinctrl-rp1 --line 17;"
        "reply --json --quiet --load none --samples 200 -c pinctrl-rp1 --trigger 22 --in 23 "
        "--reply 24 --watch 25 --responder user,lib --breakdown")
    data = job(tmp_path, "--device-type", "bcm2712-rpi-5-b", *URLS, "--feature", "rp1",
               "--bench", "toggle")
    params = data["actions"][2]["test"]["definitions"][0]["repository"]["params"]
    assert params["COMMANDS"] == ("toggle --json --quiet --load none --samples 2000 "
                                  "-c pinctrl-rp1 --line 17 --no-edges")


def test_the_pi_5_device_type_renders(tmp_path: Path) -> None:
    """Debian 12's lava-server has no bcm2712-rpi-5-b: rig/lava/device-types/ has
    one, which renders on lava-server's base-uboot into a device lava-run takes
    (its U-Boot commands load the kernel, ramdisk and device tree)."""
    proc = lava_cli("device", "--device-type", "bcm2712-rpi-5-b", "-o", str(tmp_path / "d.yaml"))
    assert proc.returncode == 0, proc.stderr
    device = yaml.safe_load((tmp_path / "d.yaml").read_text())
    booti = device["parameters"]["booti"]
    assert (booti["kernel"], booti["ramdisk"], booti["dtb"]) == \
        ("0x00080000", "0x02700000", "0x02600000")
    text = yaml.safe_dump(device)
    assert "console=ttyAMA10,115200n8" in text and "earlycon=pl011,0x107d001000" in text


def test_board_job_defaults_to_the_timer(tmp_path: Path) -> None:
    data = job(tmp_path, "--device-type", "beaglebone-black", *URLS)
    params = data["actions"][2]["test"]["definitions"][0]["repository"]["params"]
    assert params["COMMANDS"] == "timer --json --quiet --load none --samples 500"


@pytest.mark.parametrize("args, message", [
    (["--device-type", "beaglebone-black"], "needs --kernel-url, --ramdisk-url, --dtb-url"),
    (["--kernel", "rt-q35", "--bundle-url", "file:///x"],
     "--kernel rt-q35: the qemu template runs the lab's std, rt or rpi3 board"),
    ([*URLS, "--wire", "gpiochip0 17"], "--wire 'gpiochip0 17': want \"CHIP OUT IN\""),
    ([*URLS, "--feature", "gpio-wyre"], "--feature gpio-wyre: use one of"),
    ([*URLS, "--reply-wire", "gpiochip0 22 23 24 23"],
     "--reply-wire 'gpiochip0 22 23 24 23': want \"CHIP A B C D\""),
    ([*URLS, "--args", "rate:--rates 2k"], "--args 'rate:--rates 2k': want 'BENCH:OPTIONS'"),
    ([*URLS, "--args", "timer"], "--args 'timer': want 'BENCH:OPTIONS'"),
])
def test_job_usage_errors_exit_2(args: list[str], message: str) -> None:
    proc = lava_cli("job", *args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
