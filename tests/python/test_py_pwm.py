# SPDX-License-Identifier: GPL-2.0-only
"""udrv.PWM and udrv.SoftPWM.

The hardware PWM on the fake PWM class of tests/lib/fake_pwm_sysfs.c
(tests/cli's libfake_pwm_sysfs.so, preloaded into a child Python:
tests/support/preloaded.py), which checks each write as Linux 6.1 does and
logs it: a test reads back what the channel's attributes became and what
was written, in order. The software PWM on conftest's sysfs GPIO chip
(the sysfs backend: each level the PWM's thread drives is a write of the
line's value file) and, for a steady level, on fake_cdev's character
device; its counts are the thread's own. No test asserts on time: a
running PWM is waited for until its counts show edges, however long a
loaded machine takes."""

from __future__ import annotations

import errno
import math
import time

import pytest
import udrv
from conftest import BASE

from tests.daemon.conftest import GUARD_S
from tests.support.fake_gpio import fake_chip, line_state
from tests.support.fakes import FakeTree, GpioExports, gpio_attr
from tests.support.preloaded import Child, preloaded, preloaded_child
from tests.support.pwm_fakes import PwmChip, pwm_tree

child = preloaded_child(("UDRV_FAKE_PWM", "tests/cli/libfake_pwm_sysfs.so"),
                        ("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so"))
LINE = 3
OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)


@pytest.fixture
def chip(tree: FakeTree) -> PwmChip:
    """pwmchip0 of fe20c000.pwm, 2 channels, none exported (the fake
    serves it in the child)."""
    return pwm_tree(tree)


# ---- hardware: udrv.PWM ----


@preloaded
def test_pwm_exports_sets_and_unexports(child: Child, chip: PwmChip) -> None:
    with udrv.PWM(0, 1) as pwm:
        assert chip.exported(1) and pwm.owns_export
        assert (pwm.chip_number, pwm.npwm, pwm.channel, pwm.device) == (0, 2, 1, "fe20c000.pwm")
        assert (pwm.period_ns, pwm.frequency, pwm.duty_cycle) == (0, 0.0, 0.0)
        pwm.frequency = 50
        pwm.duty_cycle = 0.075
        pwm.enabled = True
        assert (chip.attr(1, "period"), chip.attr(1, "duty_cycle")) == ("20000000", "1500000")
        assert chip.attr(1, "enable") == "1" and pwm.enabled
        assert (pwm.period_ns, pwm.duty_ns, pwm.frequency) == (20_000_000, 1_500_000, 50.0)
        assert pwm.duty_cycle == pytest.approx(0.075)
        assert pwm.polarity is udrv.Polarity.NORMAL
        with pytest.raises(udrv.BusyError):  # the kernel refuses it while enabled
            pwm.polarity = udrv.Polarity.INVERSED
        pwm.disable()
        pwm.polarity = "inversed"
        assert chip.attr(1, "polarity") == "inversed"
        assert pwm.polarity is udrv.Polarity.INVERSED
    assert not chip.exported(1)
    # the frequency: the period and the duty cycle as it was (set_config())
    assert chip.log() == ["export 1", "pwm1 period 20000000", "pwm1 duty_cycle 0",
                          "pwm1 duty_cycle 1500000",
                          "pwm1 enable 1", "pwm1 enable 0",
                          "pwm1 polarity inversed", "unexport 1"], chip.log()
    with pytest.raises(ValueError, match="PWM channel is released"):
        pwm.period_ns  # noqa: B018
    assert pwm.closed


@preloaded
def test_pwm_frequency_keeps_the_duty_fraction(child: Child, chip: PwmChip) -> None:
    """A higher frequency: the period shrinks below the duty cycle, which
    set_config() writes first, the fraction kept."""
    with udrv.PWM("pwmchip0", 0) as pwm:
        pwm.frequency = 100
        pwm.duty_cycle = 0.25
        pwm.frequency = 800
        assert (pwm.period_ns, pwm.duty_ns) == (1_250_000, 312_500)
        assert pwm.duty_cycle == 0.25
        pwm.frequency = 3  # 333333333.3 ns: to the nearest ns
        assert (pwm.period_ns, pwm.duty_ns) == (333_333_333, 83_333_333)
    assert chip.log()[1:] == ["pwm0 period 10000000", "pwm0 duty_cycle 0",
                              "pwm0 duty_cycle 2500000",
                              "pwm0 duty_cycle 312500", "pwm0 period 1250000",
                              "pwm0 period 333333333", "pwm0 duty_cycle 83333333",
                              "unexport 0"], chip.log()


@preloaded
def test_pwm_servo_helpers(child: Child, chip: PwmChip) -> None:
    with udrv.PWM("/sys/class/pwm/pwmchip0", 0) as pwm:
        assert pwm.set_servo_angle(45) is False
        assert (chip.attr(0, "period"), chip.attr(0, "duty_cycle")) == ("20000000", "1750000")
        assert pwm.set_servo_angle(120) is True  # clamped to 90 degrees
        assert pwm.duty_ns == 2_000_000
        assert pwm.set_servo_pulse(500, min_us=500, max_us=2500, frame_hz=100) is False
        assert (pwm.period_ns, pwm.duty_ns) == (10_000_000, 500_000)
        assert pwm.set_servo_pulse(2600) is True
        assert pwm.duty_ns == 2_000_000
        with pytest.raises(udrv.InvalidError, match="min_us 2500 is above max_us 1000"):
            pwm.set_servo_pulse(1500, min_us=2500, max_us=1000)
        with pytest.raises(udrv.InvalidError, match="does not fit in a frame at 500 Hz"):
            pwm.set_servo_pulse(1500, frame_hz=500)
        with pytest.raises(udrv.InvalidError, match="two different finite numbers"):
            pwm.set_servo_angle(0, min_angle=10, max_angle=10)
        assert pwm.duty_ns == 2_000_000  # nothing written by the refusals


BAD_FLOATS = [(math.nan, ValueError, "finite"), (math.inf, ValueError, "finite"),
              (-math.inf, ValueError, "finite"), (True, TypeError, "not bool"),
              ("50", TypeError, "not str"), (None, TypeError, "not NoneType"),
              (10**400, ValueError, "finite")]


@preloaded
def test_pwm_refuses_bad_numbers_and_writes_nothing(child: Child, chip: PwmChip) -> None:
    with udrv.PWM(0, 0) as pwm:
        pwm.set_config(1_000_000, 500_000)
        before = chip.log()
        for value, exc, msg in [*BAD_FLOATS, (0, ValueError, "above 0 Hz"),
                                (-5.0, ValueError, "above 0 Hz"),
                                (1e-12, ValueError, "the periods are 1..")]:
            with pytest.raises(exc, match=msg):
                pwm.frequency = value
        for value, exc, msg in [*BAD_FLOATS, (1.5, ValueError, r"0\.0\.\.1\.0"),
                                (-0.1, ValueError, r"0\.0\.\.1\.0")]:
            with pytest.raises(exc, match=msg):
                pwm.duty_cycle = value
        for value, exc, msg in [(-1, ValueError, "period_ns must be 0..9223372036854775807"),
                                (2**63, OverflowError, "period_ns must be"),
                                (True, TypeError, "period_ns must be an int, not bool"),
                                (1e6, TypeError, "period_ns must be an int, not float")]:
            with pytest.raises(exc, match=msg):
                pwm.period_ns = value
        with pytest.raises(TypeError, match="duty_ns must be an int, not bool"):
            pwm.set_config(1_000_000, False)
        for value, exc in [(1, TypeError), ("sideways", ValueError), (None, TypeError)]:
            with pytest.raises(exc, match="polarity must be"):
                pwm.polarity = value
        with pytest.raises(TypeError, match="enabled is True or False, not int"):
            pwm.enabled = 1
        with pytest.raises(ValueError, match="angle must be a finite number, not nan"):
            pwm.set_servo_angle(math.nan)
        assert chip.log() == before
        assert (pwm.period_ns, pwm.duty_ns) == (1_000_000, 500_000)


@preloaded
def test_pwm_refusals_of_the_kernel_and_the_arguments(child: Child, chip: PwmChip) -> None:
    with udrv.PWM(0, 0) as pwm:
        with pytest.raises(udrv.InvalidError):  # a duty cycle above the period
            pwm.set_config(1000, 2000)
        with pytest.raises(ValueError, match="no period set"):
            pwm.duty_cycle = 0.5
    with pytest.raises(udrv.Error, match="has 2 channels, 0 to 1: no channel 2"):
        udrv.PWM(0, 2)
    with pytest.raises(TypeError, match="channel must be an int, not bool"):
        udrv.PWM(0, True)
    with pytest.raises(ValueError, match=r"channel must be 0\.\.2147483647, not -1"):
        udrv.PWM(0, -1)
    with pytest.raises(TypeError, match="chip must be a chip's number"):
        udrv.PWM(True, 0)  # type: ignore[arg-type]
    with pytest.raises(udrv.NotFoundError):
        udrv.PWM(0, 1, export=False)  # not exported: not exported now either
    assert not chip.exported(1)
    with pytest.raises(TypeError):
        udrv.PWM(0, 1, export=1)  # type: ignore[arg-type]


@preloaded
def test_pwm_kept_exported_and_found_exported(child: Child, chip: PwmChip) -> None:
    with udrv.PWM("fe20c000.pwm", 1, keep_exported=True) as pwm:
        assert pwm.keep_exported and pwm.owns_export
    assert chip.exported(1)
    with udrv.PWM(0, 1, export=False) as pwm:  # someone's export: left as it is
        assert not pwm.owns_export
        pwm.keep_exported = False
    assert chip.exported(1)
    assert chip.log() == ["export 1"]


@preloaded
def test_pwm_waveform_through_the_chardev(child: Child, chip: PwmChip) -> None:
    """/dev/pwmchipN (tests/lib/fake_pwm_cdev.c in the preloaded fake): the
    channel requested, not exported; the hardware's rounding read back, an
    exact waveform it cannot make refused with nothing set."""
    chip.node(step_ns=8)
    with udrv.PWM(0, 1) as pwm:
        assert not pwm.owns_export and not chip.exported(1)
        assert pwm.waveform == (0, 0, 0)
        pwm.set_config(1_000_003, 250_005)
        pwm.enable()
        assert pwm.period_ns == 1_000_003  # the state asked for
        assert pwm.waveform == (1_000_000, 250_000, 0)  # what the hardware makes
        assert pwm.round_waveform(20, 5) == (16, 0, 0)
        assert pwm.round_waveform(20, 5, offset_ns=9) == (16, 0, 8)
        with pytest.raises(OSError) as e:
            pwm.set_waveform(1_000_003, 250_000, exact=True)
        assert e.value.errno == errno.EDOM and "its nearest: 1000000" in str(e.value)
        pwm.set_waveform(2_000_000, 500_000, offset_ns=1_000_000, exact=True)
        assert chip.waveform(1) == (2_000_000, 500_000, 1_000_000)
        with pytest.raises(ValueError):
            pwm.set_waveform(1000, 10, 1000)
        with pytest.raises(ValueError):
            pwm.set_waveform(-1, 0)
    assert chip.log() == ["cdev request 1", "cdev setrounded 1 1000003 250005 0",
                          "cdev round 1 20 5 0", "cdev round 1 20 5 9",
                          "cdev setexact 1 1000003 250000 0", "cdev setexact EDOM",
                          "cdev round 1 1000003 250000 0",  # the message's nearest
                          "cdev setexact 1 2000000 500000 1000000"], chip.log()
    chip.channel(0, 1000, 500)  # exported in sysfs already: used there, no waveform
    with udrv.PWM(0, 0) as pwm:
        assert pwm.waveform is None
        with pytest.raises(OSError) as e:
            pwm.set_waveform(1000, 500)
        assert e.value.errno == errno.EOPNOTSUPP and "through sysfs" in str(e.value)


# ---- software: udrv.SoftPWM ----


def value(root: FakeTree) -> str:
    return gpio_attr(root, BASE + LINE, "value")[:1]


def sysfs_request(chip: udrv.Chip, settings: udrv.LineSettings = OUT) -> udrv.Request:
    return chip.request({LINE: settings}, backend=udrv.Backend.SYSFS)


def wait_for(what: str, cond: object) -> None:
    """Until @cond() is true: a running PWM's progress, however slow the
    machine (GUARD_S only ends a test that would hang)."""
    end = time.monotonic() + GUARD_S
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < end, f"no {what} in {GUARD_S} s"
        time.sleep(0.01)


def test_soft_pwm_steady_levels_and_polarity(tree: FakeTree, exports: GpioExports) -> None:
    """A whole period's duty cycle is a steady active level, driven before
    start() returns; stop() leaves the line inactive, for either polarity."""
    with udrv.Chip(0) as chip, sysfs_request(chip) as req:
        pwm = udrv.SoftPWM(req, LINE)
        assert (pwm.line, pwm.request, pwm.running) == (LINE, req, False)
        pwm.frequency = 1000
        pwm.duty_cycle = 1.0
        assert (pwm.period_ns, pwm.duty_ns) == (1_000_000, 1_000_000)
        pwm.start()
        assert value(tree) == "1" and pwm.running
        pwm.stop()
        assert value(tree) == "0" and not pwm.running
        assert pwm.stats.periods >= 1
        pwm.polarity = "inversed"
        pwm.start()
        assert value(tree) == "0"
        with pytest.raises(udrv.BusyError, match="while it runs"):
            pwm.polarity = udrv.Polarity.NORMAL
        pwm.stop()
        assert value(tree) == "1"  # inactive: high
        pwm.close()
        assert pwm.closed


def test_soft_pwm_drives_edges_and_counts_them(tree: FakeTree, exports: GpioExports) -> None:
    with udrv.Chip(0) as chip, sysfs_request(chip) as req, udrv.SoftPWM(req, LINE) as pwm:
        pwm.set_config(1_000_000, 500_000)  # 1 kHz, half
        pwm.start()
        wait_for("edges", lambda: pwm.stats.edges >= 20)
        pwm.duty_cycle = 0.25  # from the next boundary
        assert pwm.duty_ns == 250_000
        pwm.stop()
        st = pwm.stats
        assert value(tree) == "0"
        assert st.periods >= 10 and st.edges <= 2 * st.periods
        assert st.skipped <= st.missed <= st.periods
        assert pwm.stats == st  # kept after the stop
    assert pwm.closed


@preloaded
def test_soft_pwm_on_fake_cdev(child: Child, tree: FakeTree) -> None:
    """On a character device (fake_cdev): a steady active level (one write,
    no edges: the fake's single thread is never raced), inactive after the
    stop."""
    fake_chip(tree, "fake-pwm", 8)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 8)
    with udrv.Chip(0) as chip, chip.request({5: OUT}) as req:
        pwm = udrv.SoftPWM(req, 5)
        pwm.set_config(20_000_000, 20_000_000)
        pwm.start()
        assert line_state(tree, 5)[1:3] == ["out", "1"]
        pwm.stop()
        assert line_state(tree, 5)[1:3] == ["out", "0"]
        assert pwm.stats.edges <= 2


def test_release_stops_and_closes_its_soft_pwms(tree: FakeTree, exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        req = sysfs_request(chip)
        pwm = udrv.SoftPWM(req, LINE)
        pwm.set_config(1_000_000, 1_000_000)
        pwm.start()
        assert value(tree) == "1"
        with pytest.raises(RuntimeError, match="stop\\(\\) it before a reconfigure"):
            req.reconfigure({LINE: OUT})
        req.release()
        assert pwm.closed
        assert exports.final(BASE + LINE, "value").startswith("0")  # stopped: inactive
        with pytest.raises(ValueError, match="SoftPWM is released"):
            pwm.start()
        pwm.close()  # idempotent


def test_soft_pwm_refusals(tree: FakeTree, exports: GpioExports) -> None:
    with udrv.Chip(0) as chip:
        with (chip.request({2: None}, backend=udrv.Backend.SYSFS) as req,
              pytest.raises(udrv.InvalidError, match="is an input")):
            udrv.SoftPWM(req, 2)
        with sysfs_request(chip) as req:
            with pytest.raises(ValueError, match="not in this request"):
                udrv.SoftPWM(req, 4)
            for kw, exc, msg in [({"priority": 100}, ValueError, "priority must be 0..99"),
                                 ({"priority": True}, TypeError, "not bool"),
                                 ({"cpu": -1}, ValueError, "cpu must be"),
                                 ({"tail_ns": 2_000_000}, ValueError, "tail_ns must be"),
                                 ({"late_ns": 2**32}, ValueError, "late_ns must be"),
                                 ({"lock_memory": 1}, TypeError, "lock_memory is True or")]:
                with pytest.raises(exc, match=msg):
                    udrv.SoftPWM(req, LINE, **kw)  # type: ignore[arg-type]
            pwm = udrv.SoftPWM(req, LINE)
            with pytest.raises(udrv.BusyError, match="has a SoftPWM already"):
                udrv.SoftPWM(req, LINE)
            with pytest.raises(udrv.InvalidError, match="no period set"):
                pwm.start()
            with pytest.raises(udrv.InvalidError, match="it takes 10000 ns"):
                pwm.frequency = 200_000  # above 100 kHz
            for v, exc, msg in BAD_FLOATS:
                with pytest.raises(exc, match=msg):
                    pwm.frequency = v
            with pytest.raises(TypeError, match="duty_ns must be an int, not bool"):
                pwm.duty_ns = True
            assert (pwm.period_ns, pwm.duty_ns, pwm.running) == (0, 0, False)
            pwm.close()
            udrv.SoftPWM(req, LINE).close()  # the line free again
