# SPDX-License-Identifier: GPL-2.0-only
"""udrv gpio toggle --toggle D[,D]...: libgpiod's gpioset -t sequences, on
test_cli_gpio's sysfs chip. Counted, never timed: the periods are a
microsecond, what is checked is the number of toggles and the line's last
level (the line starts low, the first toggle drives it high)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_gpio import GPIO
from tests.cli.test_cli_gpio import exports as exports
from tests.support.fakes import FakeTree, GpioExports
from tests.support.udrv_runner import Runner


def toggle(udrv: Runner, *args: str) -> int:
    r = udrv("gpio", "toggle", "-b", "sysfs", "-c", "0", "--json", *args, "3")
    assert r.returncode == 0, r
    n = r.json()["toggles"]
    assert isinstance(n, int)
    return n


@pytest.mark.parametrize(("seq", "toggles", "level"), [
    ("1us,1us,1us,0", 3, "1"),  # a last 0 ends the sequence
    ("1us,2us,0", 2, "0"),
    ("1us,0", 1, "1"),
    ("0", 0, None),  # gpioset -t 0: set, no toggle (the fake writes no value)
])  # fmt: skip
def test_a_sequence_ending_in_0_toggles_once_per_period(udrv: Runner, exports: GpioExports,
                                                        seq: str, toggles: int,
                                                        level: str | None) -> None:  # fmt: skip
    assert toggle(udrv, "-t", seq) == toggles
    if level is not None:
        assert exports.final(GPIO, "value").startswith(level)


def test_a_sequence_repeats_until_the_count(udrv: Runner, exports: GpioExports) -> None:
    assert toggle(udrv, "--toggle", "1us,2us", "-n", "5") == 5
    assert exports.final(GPIO, "value").startswith("1")


def test_the_count_ends_a_sequence_early(udrv: Runner, exports: GpioExports) -> None:
    assert toggle(udrv, "-t", "1us,1us,1us,1us,0", "-n", "2") == 2


@pytest.mark.parametrize("seq", ["", "1us,", ",1us", "1us,,2us", "0,1us", "fast", "1us,8d",
                                 ",".join(["1us"] * 65)])  # fmt: skip
def test_a_bad_sequence_is_a_usage_error(udrv: Runner, tree: FakeTree, seq: str) -> None:
    r = udrv("gpio", "toggle", "-b", "sysfs", "-c", "0", "-t", seq, "3")
    assert r.returncode == 2, r
    assert f"udrv gpio toggle: bad --toggle '{seq}'" in r.stderr


def test_period_and_sequence_exclude_each_other(udrv: Runner, tree: FakeTree) -> None:
    r = udrv("gpio", "toggle", "-c", "0", "-p", "1ms", "-t", "1ms", "3")
    assert r.returncode == 2, r
    assert "--period and --toggle: give one" in r.stderr
