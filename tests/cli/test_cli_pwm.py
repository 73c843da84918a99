# SPDX-License-Identifier: GPL-2.0-only
"""udrv pwm list|get|set on a fake PWM class (tests/support/pwm_fakes.py:
the kernel's sysfs answers preloaded, every write logged): the channel
exported and left so, the period and duty cycle in the order the kernel
takes them, the refusals; bad input is exit 2 with nothing written."""

from __future__ import annotations

import os

import pytest

from tests.support.fakes import FakeTree, sysfs_mounted
from tests.support.pwm_fakes import PwmChip, pwm_chip
from tests.support.udrv_runner import Runner

SERVO = ["--frequency", "50", "--duty", "1.5ms", "--enable"]


@pytest.fixture
def chip(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> PwmChip:
    """pwmchip0 of fe20c000.pwm, two channels, none exported."""
    return pwm_chip(tree, monkeypatch)


def test_list_without_pwm(udrv: Runner, tree: FakeTree) -> None:
    sysfs_mounted(tree)
    r = udrv("pwm", "list")
    assert (r.returncode, "no PWM chip" in r.stdout, "dtoverlay=pwm" in r.stdout) == \
        (0, True, True), r
    r = udrv("pwm", "list", "--json")
    assert (r.returncode, r.json(), "no PWM chip" in r.stderr) == (0, [], True), r


def test_list_shows_chips_and_channels(udrv: Runner, chip: PwmChip, tree: FakeTree,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    chip.channel(0, 20000000, 1500000, "inversed", 1)
    pwm_chip(tree, monkeypatch, num=2, parent="", npwm=1)
    r = udrv("pwm", "list")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == [
        "pwmchip0  fe20c000.pwm  2 channels",
        "  channel 0   enabled, period 20000000 ns (50 Hz), duty cycle 1500000 ns (7.5%), "
        "polarity inversed",
        "  channel 1   not exported",
        "pwmchip2  (no device)  1 channel",
        "  channel 0   not exported"]
    doc = udrv("pwm", "list", "--json").json()
    assert doc[0] == {"chip": "pwmchip0", "number": 0, "device": "fe20c000.pwm", "npwm": 2,
                      "channels": [{"channel": 0, "exported": True, "enabled": True,
                                    "period_ns": 20000000, "duty_ns": 1500000,
                                    "polarity": "inversed"},
                                   {"channel": 1, "exported": False}]}
    assert doc[1]["device"] == "" and doc[1]["channels"] == [{"channel": 0, "exported": False}]
    assert chip.log() == []  # listing exports nothing


def test_get_by_device_and_path(udrv: Runner, chip: PwmChip) -> None:
    chip.channel(1, 1000000, 250000)
    r = udrv("pwm", "get", "fe20c000.pwm", "1")
    assert (r.returncode, r.stdout) == (0, "pwmchip0 channel 1: disabled, period 1000000 ns "
                                           "(1000 Hz), duty cycle 250000 ns (25%), polarity "
                                           "normal\n"), r
    doc = udrv("pwm", "get", "--json", "/sys/class/pwm/pwmchip0", "0").json()
    assert doc == {"chip": "pwmchip0", "channel": 0, "exported": False}
    assert chip.log() == [] and not chip.exported(0)


def test_set_a_servo_exports_and_leaves_it_exported(udrv: Runner, chip: PwmChip) -> None:
    r = udrv("pwm", "set", "0", "0", *SERVO)
    assert r.returncode == 0, r
    assert r.stdout == ("pwmchip0 channel 0: enabled, period 20000000 ns (50 Hz), duty cycle "
                        "1500000 ns (7.5%), polarity normal\n")
    assert "it stays exported" in r.stderr
    # the period first (0 before it: the kernel takes no duty cycle then)
    assert chip.log() == ["export 0", "pwm0 period 20000000", "pwm0 duty_cycle 1500000",
                          "pwm0 enable 1"]
    assert chip.exported(0) and chip.attr(0, "enable") == "1"
    # exported now: the next run uses it, and unexports nothing either
    r = udrv("pwm", "set", "pwmchip0", "0", "--duty-cycle", "10", "--json")
    assert r.json() == {"chip": "pwmchip0", "channel": 0, "exported": True, "enabled": True,
                        "period_ns": 20000000, "duty_ns": 2000000, "polarity": "normal"}
    assert "stays exported" not in r.stderr
    assert chip.log()[4:] == ["pwm0 period 20000000", "pwm0 duty_cycle 2000000"]


def test_shrinking_period_writes_duty_first(udrv: Runner, chip: PwmChip) -> None:
    chip.channel(1, 20000000, 15000000, "normal", 1)
    r = udrv("pwm", "set", "0", "1", "--period", "10ms", "--duty", "5000000")
    assert r.returncode == 0, r
    assert chip.log() == ["pwm1 duty_cycle 5000000", "pwm1 period 10000000"]
    assert (chip.attr(1, "period"), chip.attr(1, "duty_cycle")) == ("10000000", "5000000")


@pytest.mark.parametrize(("period", "pct", "duty"), [
    ("1000000", "25", 250000),
    ("1000000", "12.5%", 125000),
    ("1000000", "33.333333333", 333333),
    ("3", "50", 2),  # 1.5 ns: to the nearest, half up
    ("20ms", "100", 20000000),
    ("20ms", "0", 0),
    ("18446744073709551615", "100", 18446744073709551615),
    ("18446744073709551615", "50", 9223372036854775808),
])
def test_duty_cycle_percent_exactly(udrv: Runner, chip: PwmChip, period: str, pct: str,
                                    duty: int) -> None:
    r = udrv("pwm", "set", "0", "0", "--period", period, "--duty-cycle", pct, "--json")
    assert r.returncode == 0, r
    assert r.json()["duty_ns"] == duty


@pytest.mark.parametrize(("hz", "period"), [
    ("50", 20000000), ("0.5", 2000000000), ("1000000000", 1), ("3", 333333333),
    ("0.000000001", 1000000000000000000), ("7", 142857143),
])
def test_frequency_to_the_nearest_ns(udrv: Runner, chip: PwmChip, hz: str, period: int) -> None:
    r = udrv("pwm", "set", "0", "0", "--frequency", hz, "--json")
    assert (r.returncode, r.json()["period_ns"] if r.returncode == 0 else None) == (0, period), r


def test_polarity_only_while_disabled(udrv: Runner, chip: PwmChip) -> None:
    chip.channel(0, 20000000, 1500000, "normal", 1)
    r = udrv("pwm", "set", "0", "0", "--polarity", "inversed")
    assert r.returncode == 1, r
    assert "is enabled: its polarity cannot change while it runs" in r.stderr
    assert "with --disable, then --enable in a second run" in r.stderr
    assert chip.log() == []
    r = udrv("pwm", "set", "0", "0", "--disable", "--polarity", "inversed")
    assert r.returncode == 0, r
    assert chip.log() == ["pwm0 enable 0", "pwm0 polarity inversed"]
    r = udrv("pwm", "set", "0", "0", "--enable")
    assert (r.returncode, chip.attr(0, "enable"), chip.attr(0, "polarity")) == \
        (0, "1", "inversed"), r


def test_permission_error_names_owner_and_fix(udrv: Runner, chip: PwmChip) -> None:
    chip.channel(0, 20000000, 1500000)
    chip.path("pwm0/duty_cycle").chmod(0o444)
    r = udrv("pwm", "set", "0", "0", "--duty", "1ms")
    assert r.returncode == 1, r
    assert "pwm0/duty_cycle: Permission denied" in r.stderr
    assert "pwm0/duty_cycle is owner " in r.stderr and ", mode 0444" in r.stderr
    assert "run as root" in r.stderr or "add your user to group" in r.stderr


def test_export_waits_for_udev(udrv: Runner, chip: PwmChip) -> None:
    chip.control(".delay_ms", "100\n")
    r = udrv("pwm", "set", "0", "1", *SERVO)
    assert (r.returncode, chip.attr(1, "enable")) == (0, "1"), r


def test_busy_channel_and_missing_chip(udrv: Runner, chip: PwmChip) -> None:
    chip.control(".busy", "1\n")
    r = udrv("pwm", "set", "0", "1", *SERVO)
    assert (r.returncode, "is in use by a kernel driver" in r.stderr) == (1, True), r
    r = udrv("pwm", "set", "pwmchip7", "0", *SERVO)
    assert (r.returncode, "no PWM chip 'pwmchip7'" in r.stderr) == (1, True), r
    assert chip.log() == ["export 1 EBUSY"]


def test_a_failed_set_undoes_its_export(udrv: Runner, chip: PwmChip) -> None:
    # a fresh channel's period is 0: a duty cycle alone cannot be set
    r = udrv("pwm", "set", "0", "1", "--duty", "1ms")
    assert (r.returncode, "the channel's period is 0" in r.stderr) == (2, True), r
    assert chip.log() == ["export 1", "unexport 1"] and not chip.exported(1)


def test_a_period_below_the_channels_duty_is_refused(udrv: Runner, chip: PwmChip) -> None:
    chip.channel(0, 20000000, 15000000)
    r = udrv("pwm", "set", "0", "0", "--period", "10ms")
    assert r.returncode == 2, r
    assert "the channel's duty cycle, 15000000 ns, is longer than the new period" in r.stderr
    r = udrv("pwm", "set", "0", "0", "--duty", "21ms")
    assert (r.returncode, "longer than the channel's period" in r.stderr) == (2, True), r
    assert chip.log() == []


@pytest.mark.parametrize(("args", "says"), [
    (("set", "0", "0", "--period", "0"), "--period 0: a PWM needs a period above 0"),
    (("set", "0", "0", "--period", ""), "bad --period ''"),
    (("set", "0", "0", "--period", "18446744073709551616"), "beyond 64 bits of ns"),
    (("set", "0", "0", "--period", "18446744073709551616ns"), "beyond 64 bits of ns"),
    (("set", "0", "0", "--period", "-1"), "bad --period '-1'"),
    (("set", "0", "0", "--period", "1.5"), "bad --period '1.5'"),
    (("set", "0", "0", "--period", "nan"), "bad --period 'nan'"),
    (("set", "0", "0", "--period", "inf"), "bad --period 'inf'"),
    (("set", "0", "0", "--period", "1e6"), "bad --period '1e6'"),
    (("set", "0", "0", "--period", " 20ms"), "bad --period ' 20ms'"),
    (("set", "0", "0", "--frequency", "0"), "bad --frequency '0'"),
    (("set", "0", "0", "--frequency", ""), "bad --frequency ''"),
    (("set", "0", "0", "--frequency", "nan"), "bad --frequency 'nan'"),
    (("set", "0", "0", "--frequency", "-50"), "bad --frequency '-50'"),
    (("set", "0", "0", "--frequency", "1000000001"), "bad --frequency '1000000001'"),
    (("set", "0", "0", "--frequency", "50Hz"), "bad --frequency '50Hz'"),
    (("set", "0", "0", "--frequency", "0.0000000001"), "bad --frequency"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "100.5"), "bad --duty-cycle '100.5'"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "-1"), "bad --duty-cycle '-1'"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", ""), "bad --duty-cycle ''"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "%"), "bad --duty-cycle '%'"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "50%%"), "bad --duty-cycle '50%%'"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "inf"), "bad --duty-cycle 'inf'"),
    (("set", "0", "0", "-p", "1ms", "--duty-cycle", "1e2"), "bad --duty-cycle '1e2'"),
    (("set", "0", "0", "-p", "1ms", "--duty", "2ms"), "--duty 2ms is longer than the period"),
    (("set", "0", "0", "-p", "1ms", "-f", "50"), "--period or --frequency, not both"),
    (("set", "0", "0", "-p", "1ms", "-d", "1", "--duty-cycle", "5"),
     "--duty or --duty-cycle, not both"),
    (("set", "0", "0", "--enable", "--disable"), "--enable or --disable, not both"),
    (("set", "0", "0", "--polarity", "up"), "bad --polarity 'up': normal or inversed"),
    (("set", "0", "0"), "nothing to set"),
    (("set", "0", "x", "--enable"), "bad CHANNEL 'x'"),
    (("set", "0", "+1", "--enable"), "bad CHANNEL '+1'"),
    (("set", "--enable", "0", "--", "-1"), "bad CHANNEL '-1'"),
    (("set", "0", "", "--enable"), "bad CHANNEL ''"),
    (("set", "0", "4294967296", "--enable"), "bad CHANNEL '4294967296'"),
    (("set", "0", "2", "--enable"), "has 2 channels, 0 to 1: no channel 2"),
    (("get", "0", "2"), "has 2 channels, 0 to 1: no channel 2"),
    (("set", "", "0", "--enable"), "no PWM chip given"),
    (("set", "pwmchip2147483648", "0", "--enable"), "number out of range"),
    (("get", "0"), "give CHIP and CHANNEL"),
    (("get", "0", "0", "1"), "unexpected argument '1'"),
    (("list", "--period", "1"), "option --period does not apply to pwm list"),
    (("get", "--enable", "0", "0"), "option --enable does not apply to pwm get"),
])
def test_bad_input_is_exit_2_and_writes_nothing(udrv: Runner, chip: PwmChip,
                                                args: tuple[str, ...], says: str) -> None:
    r = udrv("pwm", *args)
    assert (r.returncode, says in r.stderr) == (2, True), r
    assert chip.log() == []


def test_set_help_teaches(udrv: Runner) -> None:
    r = udrv("pwm", "set", "--help")
    assert r.returncode == 0, r
    for words in ("active for the duty cycle", "1 / period", "at 50 Hz (a period of 20 ms)",
                  "1.5 ms", "--frequency 50 --duty 1.5ms --enable", "ns, us, ms, s"):
        assert words in r.stdout, words


def test_the_fake_is_preloaded(chip: PwmChip) -> None:
    """The fake reached udrv (else every write above went to plain files)."""
    assert "libfake_pwm_sysfs.so" in os.environ["LD_PRELOAD"]


def test_chardev_set_shows_the_hardware_rounding(udrv: Runner, chip: PwmChip) -> None:
    """Where the chip has /dev/pwmchipN the channel is requested, set in one
    waveform and freed at exit (nothing exported); set and get show what the
    hardware rounded the request to."""
    chip.node(step_ns=8)
    r = udrv("pwm", "set", "0", "1", "--period", "1000003", "--duty", "250005", "--enable")
    assert r.returncode == 0, r
    assert r.stdout.splitlines() == [
        "pwmchip0 channel 1: enabled, period 1000003 ns (999.997 Hz), duty cycle 250005 ns "
        "(25.0004%), polarity normal",
        "  hardware (/pwmchip0): period 1000000 ns, high 250000 ns from 0 ns"]
    assert "exported" not in r.stderr and not chip.exported(1)
    assert chip.log() == ["cdev request 1", "cdev setrounded 1 1000003 250005 0"]
    assert chip.waveform(1) == (1000000, 250000, 0)
    # inversed is an offset, set while the output runs (one waveform)
    r = udrv("pwm", "set", "0", "1", "--polarity", "inversed", "--period", "1ms", "--duty",
             "0.25ms")
    assert r.returncode == 0 and chip.waveform(1) == (1000000, 750000, 250000), r
    doc = udrv("pwm", "get", "--json", "0", "1").json()
    assert doc == {"chip": "pwmchip0", "channel": 1, "exported": False, "enabled": True,
                   "period_ns": 1000000, "duty_ns": 250000, "polarity": "inversed",
                   "hardware": {"period_ns": 1000000, "duty_ns": 750000,
                                "offset_ns": 250000}}
    # off is a period of 0: what a disabled channel was set to ends with the run
    r = udrv("pwm", "set", "0", "1", "--disable")
    assert r.returncode == 0 and chip.waveform(1) == (0, 0, 0), r
    assert udrv("pwm", "get", "--json", "0", "1").json()["period_ns"] == 0


def test_chardev_list_and_busy(udrv: Runner, chip: PwmChip) -> None:
    """list requests each channel for a moment; one a kernel driver holds
    is shown in use, not an error; get of it says who may hold it."""
    chip.node()
    chip.control(".busy", "1\n")
    r = udrv("pwm", "list")
    assert r.returncode == 0, r
    assert r.stdout.splitlines()[1:] == [
        "  channel 0   disabled, period 0 ns, duty cycle 0 ns, polarity normal",
        "                hardware (/pwmchip0): period 0 ns, high 0 ns from 0 ns",
        "  channel 1   in use (a kernel driver or another process holds it)"]
    doc = udrv("pwm", "list", "--json").json()
    assert doc[0]["channels"][1] == {"channel": 1, "exported": False, "in_use": True}
    r = udrv("pwm", "set", "0", "1", "--frequency", "50", "--duty", "1ms")
    assert r.returncode == 1 and "channel 1 of pwmchip0 (fe20c000.pwm) is in use" in r.stderr, r
    assert not chip.exported(0) and not chip.exported(1)
