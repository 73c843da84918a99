# SPDX-License-Identifier: GPL-2.0-only
"""Line and chip names, and mistyped commands: the messages name what is
missing and suggest what exists. The chips have a character device answered
by tests/daemon/fake_cdev.c (preloaded), so that their lines have names:
gpiochip0 "pinctrl-bcm2835" and gpiochip1 "raspberrypi-exp-gpio", as on a
Raspberry Pi 4 (whose SoC is a BCM2711 with the 2835's GPIO block)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree, chip_file, gpio_bus
from tests.support.udrv_runner import REPO, Runner, required

SOC = ["ID_SDA", "ID_SCL", "GPIO2", "GPIO3", "GPIO17", "GPIO27", "LED", "LED"]
EXP = ["BT_ON", "WL_ON", "LED", "GPIO9"]


@pytest.fixture
def fake_cdev() -> Path:
    env = os.environ.get("UDRVD_FAKE_CDEV")
    return required(Path(env) if env else REPO / "build/dev/tests/daemon/libfake_cdev.so",
                    "UDRVD_FAKE_CDEV")


@pytest.fixture
def pi(tree: FakeTree, fake_cdev: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTree]:
    gpio_bus(tree)
    chip_file(tree, 0, "pinctrl-bcm2835", SOC)
    chip_file(tree, 1, "raspberrypi-exp-gpio", EXP)
    preload = " ".join(p for p in (os.environ.get("LD_PRELOAD", ""), str(fake_cdev)) if p)
    monkeypatch.setenv("LD_PRELOAD", preload)
    yield tree


def test_a_name_is_found_on_its_chip(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "--json", "GPIO17", "GPIO27")
    assert r.returncode == 0, r
    doc = r.json()
    assert doc["chip"] == "gpiochip0"
    assert [ln["offset"] for ln in doc["lines"]] == [4, 5]


def test_a_missing_name_is_named(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "GPIO17", "GPIO99")
    assert r.returncode == 1, r
    assert ("no line named 'GPIO99' on any of gpiochip0 [pinctrl-bcm2835], "
            "gpiochip1 [raspberrypi-exp-gpio]") in r.stderr
    assert "did you mean 'GPIO9'?" in r.stderr  # one edit away, on gpiochip1


def test_every_missing_name_is_named(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "GPIO99", "GPIO17", "gpio27", "BUTTON")
    assert r.returncode == 1, r
    missing = [ln.split("'")[1] for ln in r.stderr.splitlines() if "no line named" in ln]
    assert missing == ["GPIO99", "gpio27", "BUTTON"]
    assert "did you mean 'GPIO27'?" in r.stderr


def test_case_is_the_hint(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "gpio17")
    assert r.returncode == 1, r
    assert "did you mean 'GPIO17'? (line names are case-sensitive)" in r.stderr


def test_nothing_near_points_at_info(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "-c", "0", "BUTTON")
    assert r.returncode == 1, r
    assert "no line named 'BUTTON' on gpiochip0 [pinctrl-bcm2835]" in r.stderr
    assert "did you mean" not in r.stderr
    assert "udrv gpio info" in r.stderr


def test_lines_of_two_chips_are_named(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "GPIO17", "BT_ON")
    assert r.returncode == 1, r
    assert "no chip has all of the lines given" in r.stderr
    assert "'GPIO17' is line 4 of gpiochip0 [pinctrl-bcm2835]" in r.stderr
    assert "'BT_ON' is line 0 of gpiochip1 [raspberrypi-exp-gpio]" in r.stderr


def test_an_unknown_chip_lists_labels(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "-c", "pinctrl-bcm2711", "GPIO17")
    assert r.returncode == 1, r
    assert ("no GPIO chip 'pinctrl-bcm2711' (available: gpiochip0 [pinctrl-bcm2835] "
            "gpiochip1 [raspberrypi-exp-gpio])") in r.stderr


def test_a_shared_name_takes_the_first_and_says_so(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "--json", "LED")
    assert r.returncode == 0, r
    assert r.json()["chip"] == "gpiochip0" and r.json()["lines"][0]["offset"] == 6
    assert "'LED' also names line 7 of gpiochip0 [pinctrl-bcm2835]" in r.stderr
    assert "'LED' also names line 2 of gpiochip1 [raspberrypi-exp-gpio]" in r.stderr
    assert "using line 6 of gpiochip0" in r.stderr


@pytest.mark.parametrize("args", [["LED"], ["-c", "1", "LED"], ["-c", "0", "LED"]])
def test_strict_refuses_a_shared_name(udrv: Runner, pi: FakeTree, args: list[str]) -> None:
    r = udrv("gpio", "get", "--strict", *args)
    if args == ["-c", "1", "LED"]:  # unique on that chip
        assert r.returncode == 0, r
        return
    assert r.returncode == 1, r
    assert "line name 'LED' is not unique (--strict)" in r.stderr
    assert "gpiochip0 [pinctrl-bcm2835] line 6" in r.stderr
    assert "gpiochip0 [pinctrl-bcm2835] line 7" in r.stderr


def test_strict_passes_a_unique_name(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "get", "-s", "GPIO17")
    assert r.returncode == 0, r
    assert r.stderr == ""


def test_info_by_line_name(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "info", "GPIO17", "GPIO27")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[0].startswith("gpiochip0 [pinctrl-bcm2835] 8 lines")
    assert [ln.split()[:2] for ln in lines[1:]] == [["4", "GPIO17"], ["5", "GPIO27"]]


def test_info_by_name_json_and_offsets(udrv: Runner, pi: FakeTree) -> None:
    [c] = udrv("gpio", "info", "--json", "-c", "1", "GPIO9", "0").json()
    assert c["name"] == "gpiochip1"
    assert [(ln["offset"], ln["name"]) for ln in c["lines"]] == [(3, "GPIO9"), (0, "BT_ON")]


def test_info_of_a_missing_name(udrv: Runner, pi: FakeTree) -> None:
    r = udrv("gpio", "info", "GPIO71")
    assert r.returncode == 1, r
    assert "no line named 'GPIO71'" in r.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["gpoi", "info"], "udrv: unknown command 'gpoi': did you mean 'gpio'?"),
    (["gpio", "sett", "X=1"], "udrv gpio: unknown command 'sett': did you mean 'gpio set'?"),
    (["gpio", "mom"], "did you mean 'gpio mon'?"),
    (["rt", "chek"], "did you mean 'rt check'?"),
])  # fmt: skip
def test_a_mistyped_command_gets_a_suggestion(udrv: Runner, args: list[str],
                                              message: str) -> None:  # fmt: skip
    r = udrv(*args)
    assert r.returncode == 2, r
    assert message in r.stderr, r


def test_a_far_command_gets_none(udrv: Runner) -> None:
    r = udrv("gpio", "frobnicate")
    assert r.returncode == 2, r
    assert "unknown command 'gpio frobnicate'" in r.stderr
    assert "did you mean" not in r.stderr


@pytest.mark.parametrize(("args", "prefix"), [
    (["gpio", "get", "--bogus", "X"], "udrv gpio get: "),
    (["gpio", "set", "-c"], "udrv gpio set: "),
    (["gpio", "toggle", "--count", "x", "X"], "udrv gpio toggle: "),
    (["uio", "wait", "--bogus"], "udrv uio wait: "),
])  # fmt: skip
def test_option_errors_name_the_whole_command(udrv: Runner, args: list[str],
                                              prefix: str) -> None:  # fmt: skip
    r = udrv(*args)
    assert r.returncode == 2, r
    first = r.stderr.splitlines()[0]
    assert first.startswith(prefix), r
    assert not any(ln.startswith(("get:", "set:", "toggle:", "wait:"))
                   for ln in r.stderr.splitlines()), r


@pytest.fixture
def one_unopenable(pi: FakeTree) -> FakeTree:
    """gpiochip1's node cannot be opened (a directory: EISDIR, as a node
    without permission would refuse): its lines cannot be searched."""
    pi.path("dev/gpiochip1").unlink()
    pi.dir("dev/gpiochip1")
    return pi


def test_a_chip_not_searched_is_named(udrv: Runner, one_unopenable: FakeTree) -> None:
    r = udrv("gpio", "get", "BT_ON")
    assert r.returncode == 1, r
    assert "no line named 'BT_ON' on gpiochip0 [pinctrl-bcm2835]" in r.stderr
    assert "udrv: not searched: cannot open " in r.stderr and "gpiochip1" in r.stderr


def test_no_chip_searched_says_why(udrv: Runner, one_unopenable: FakeTree) -> None:
    one_unopenable.path("dev/gpiochip0").unlink()
    one_unopenable.dir("dev/gpiochip0")
    r = udrv("gpio", "get", "GPIO17")
    assert r.returncode == 1, r
    assert r.stderr.startswith("udrv: cannot open "), r
    assert "no line named" not in r.stderr
