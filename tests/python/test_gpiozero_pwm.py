# SPDX-License-Identifier: GPL-2.0-only
"""gpiozero's PWM devices on udrv.gpiozero: PWMLED, Servo, AngularServo,
Motor and TonalBuzzer on udrv's software PWM (the fake sysfs chips of
conftest.py: the line's level in the value file, the PWM thread's counts;
bad frequencies), and a Pi's hardware PWM (a fake device tree muxing GPIO18
to the PWM controller, in a child Python with the fake PWM class preloaded).

The gpiozero is the one installed: scripts/check.py runs this file with
gpiozero 2.0.1 and again with 1.6.2, as test_gpiozero.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from conftest import BASE, NO_GPIOZERO, value, with_factory

from tests.daemon.conftest import GUARD_S
from tests.support.fake_gpio import fake_chip, line_state
from tests.support.fakes import FakeTree, GpioExports
from tests.support.preloaded import Child, preloaded
from tests.support.pwm_fakes import PwmChip, pwm_tree

try:  # fail, do not skip: the tests exist to run
    import gpiozero  # noqa: F401
except ImportError as e:
    raise ImportError(NO_GPIOZERO) from e
import udrv
from gpiozero import LED, PWMLED, AngularServo, Device, Motor, Servo, TonalBuzzer
from gpiozero.exc import PinInvalidState, PinPWMError, PinSetInput
from udrv.gpiozero import UdrvFactory, UdrvPin


@pytest.fixture
def child(gpiozero_child: Child) -> Child:
    return gpiozero_child


# ---- software PWM on the sysfs chips ----


def wait_for(what: str, cond: Callable[[], bool]) -> None:
    """Until @cond(): a software PWM's progress (a change takes effect at
    the next period boundary), however slow the machine; GUARD_S only ends
    a test that would hang."""
    end = time.monotonic() + GUARD_S
    while not cond():
        assert time.monotonic() < end, f"no {what} in {GUARD_S} s"
        time.sleep(0.005)


def soft(pin: UdrvPin) -> udrv.SoftPWM:
    pwm = pin._pwm
    assert isinstance(pwm, udrv.SoftPWM), pwm
    return pwm


def test_pwmled_in_software(root: FakeTree, chips: GpioExports, factory: UdrvFactory) -> None:
    """PWMLED on a line without a PWM controller: udrv.SoftPWM on its
    request, the value the duty cycle; its edges in the value file's
    writes (the PWM thread's counts); off, then closed: the line low, an
    input again."""
    chips.values[BASE + 3] = 0
    led = PWMLED(3)
    pwm = soft(led.pin)
    assert led.pin.frequency == 100 and led.value == 0
    assert (pwm.period_ns, pwm.duty_ns, pwm.running) == (10_000_000, 0, True)
    assert value(root, BASE + 3) == "0"
    led.value = 1
    wait_for("the line high", lambda: value(root, BASE + 3) == "1")
    led.value = 0.5
    assert led.value == 0.5 and pwm.duty_ns == 5_000_000
    wait_for("edges", lambda: pwm.stats.edges >= 6)
    led.off()
    wait_for("the line low", lambda: value(root, BASE + 3) == "0" and pwm.duty_ns == 0)
    led.close()
    assert pwm.closed  # stopped, the line inactive
    assert chips.final(BASE + 3, "value").startswith("0")
    assert chips.final(BASE + 3, "direction").startswith("in")


def test_frequency_none_is_a_plain_output_again(root: FakeTree, chips: GpioExports,
                                                factory: UdrvFactory) -> None:
    chips.values[BASE + 4] = 0
    pin = factory.pin(4)
    pin.function = "output"
    pin.frequency = 1000
    pwm = soft(pin)
    pin.state = 1.0
    wait_for("the line high", lambda: value(root, BASE + 4) == "1")
    assert (pin.state, pin.function) == (1.0, "output")
    pin.frequency = None
    assert pwm.closed and pin._pwm is None and pin.frequency is None
    assert value(root, BASE + 4) == "0"  # stopped: inactive
    pin.state = 1  # a plain output: the level at once
    assert value(root, BASE + 4) == "1" and pin.state == 1
    with pytest.raises(PinInvalidState):
        pin.state = 0.5
    pin.frequency = 50
    with pytest.raises(PinInvalidState):
        pin.state = 1.5
    assert chips.exported == [BASE + 4]  # one request throughout


def test_servos_in_software(chips: GpioExports, factory: UdrvFactory) -> None:
    """Servo and AngularServo: gpiozero's frame (20 ms) and pulse widths
    as the PWM's period and duty cycle; detach() turns the PWM off."""
    servo = Servo(3)
    pwm = soft(servo.pwm_device.pin)
    assert (pwm.period_ns, pwm.duty_ns) == (20_000_000, 1_500_000)  # value 0: the middle
    servo.max()
    assert pwm.duty_ns == 2_000_000
    servo.min()
    assert pwm.duty_ns == 1_000_000
    servo.detach()
    assert servo.value is None and servo.pwm_device.pin._pwm is None and pwm.closed
    servo.mid()
    assert soft(servo.pwm_device.pin).duty_ns == 1_500_000
    angular = AngularServo(4, min_angle=-90, max_angle=90)
    angular.angle = 45
    assert soft(angular.pwm_device.pin).duty_ns == 1_750_000
    assert angular.angle == pytest.approx(45)
    servo.close()
    angular.close()
    assert chips.final(BASE + 3, "value").startswith("0")
    assert chips.final(BASE + 4, "value").startswith("0")


def test_motor_and_tonal_buzzer_in_software(chips: GpioExports,
                                            factory: UdrvFactory) -> None:
    motor = Motor(forward=3, backward=4)
    fwd, bwd = soft(motor.forward_device.pin), soft(motor.backward_device.pin)
    motor.forward(0.5)
    assert (fwd.duty_cycle, bwd.duty_ns) == (0.5, 0)
    motor.backward(1)
    assert (fwd.duty_ns, bwd.duty_ns) == (0, bwd.period_ns)
    motor.stop()
    assert (fwd.duty_ns, bwd.duty_ns) == (0, 0)
    motor.close()
    buzzer = TonalBuzzer(5)
    assert buzzer.pwm_device.pin.frequency is None  # silent: no PWM
    buzzer.play("A4")
    pwm = soft(buzzer.pwm_device.pin)
    assert (pwm.period_ns, pwm.duty_ns) == (2_272_727, 1_136_364)  # 440 Hz, half
    buzzer.play(880)
    assert pwm.period_ns == 1_136_364 and pwm.duty_cycle == pytest.approx(0.5)
    buzzer.stop()
    assert pwm.closed and buzzer.pwm_device.pin.frequency is None
    buzzer.close()
    assert chips.final(BASE + 5, "value").startswith("0")


@pytest.mark.parametrize(("frequency", "message"), [
    (0, "above 0 Hz"), (-50, "above 0 Hz"), (float("nan"), "finite"), (True, "not bool"),
    ("100", "not str"), (200_000, "it takes 10000 ns"),  # software: up to 100 kHz
])
def test_bad_frequencies(chips: GpioExports, factory: UdrvFactory, frequency: object,
                         message: str) -> None:
    pin = factory.pin(3)
    pin.function = "output"
    with pytest.raises(PinPWMError, match=message):
        pin.frequency = frequency
    assert pin.frequency is None and pin._pwm is None
    pin.state = 1  # still a plain output
    pin.function = "input"
    with pytest.raises(PinSetInput):
        pin.frequency = 100


# ---- a Pi's hardware PWM (in the child: the fake PWM class preloaded) ----


def pi_with_pwm_on_gpio18(tree: FakeTree) -> PwmChip:
    """A Pi 4 (fake_cdev's 54 header lines) whose device tree muxes GPIO18
    to its PWM controller, as dtoverlay=pwm,pin=18,func=2 does: the
    controller's node (compatible, pinctrl-0) is pwmchip0's of_node."""
    fake_chip(tree, "pinctrl-bcm2711", 54)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 54)
    tree.file("proc/device-tree/compatible", b"raspberrypi,4-model-b\0brcm,bcm2711\0")
    tree.file("proc/device-tree/system/linux,revision", bytes.fromhex("00c03111"))
    chip = pwm_tree(tree)  # fe20c000.pwm
    node = "proc/device-tree/soc/pwm@7e20c000"
    tree.file(f"{node}/compatible", b"brcm,bcm2711-pwm\0brcm,bcm2835-pwm\0")
    tree.file(f"{node}/pinctrl-0", (0x2A).to_bytes(4, "big"))
    pins = "proc/device-tree/soc/gpio@7e200000/pwm0_gpio18"
    tree.file(f"{pins}/phandle", (0x2A).to_bytes(4, "big"))
    tree.file(f"{pins}/brcm,pins", (18).to_bytes(4, "big"))
    tree.symlink(f"../../../../{node}", "sys/devices/platform/fe20c000.pwm/of_node")
    return chip


@preloaded
def test_hardware_pwm_on_a_pi(child: Child, tree: FakeTree) -> None:
    """PWMLED(18) and Servo(18) on pwmchip0's channel 0, the line never
    requested as a GPIO (that would take the pin from the controller);
    GPIO12, channel 0's other pin but not muxed, and GPIO17: software;
    LED(18), no PWM: a GPIO."""
    chip = pi_with_pwm_on_gpio18(tree)
    f = with_factory()
    try:
        assert f._pwm_channel(f.pin(18)) == ("pwmchip0", 0)
        assert f._pwm_channel(f.pin(12)) is None
        led = PWMLED("GPIO18")
        assert isinstance(led.pin._pwm, udrv.PWM)
        led.value = 0.25
        assert [chip.attr(0, a) for a in ("period", "duty_cycle", "enable")] == [
            "10000000", "2500000", "1"]
        assert (led.value, led.pin.function, led.pin.frequency) == (0.25, "output", 100)
        led.close()
        assert not chip.exported(0)
        assert chip.log() == ["export 0", "pwm0 period 10000000", "pwm0 duty_cycle 0",
                              "pwm0 duty_cycle 0", "pwm0 enable 1", "pwm0 duty_cycle 0",
                              "pwm0 duty_cycle 2500000", "pwm0 enable 0",
                              "unexport 0"], chip.log()
        servo = Servo(18)
        assert [chip.attr(0, a) for a in ("period", "duty_cycle")] == ["20000000", "1500000"]
        servo.detach()
        assert not chip.exported(0)
        servo.close()
        assert line_state(tree, 18)[0] == "0"  # never requested
        for gpio in (12, 17):
            with PWMLED(gpio) as sw:
                assert isinstance(sw.pin._pwm, udrv.SoftPWM)
                assert line_state(tree, gpio)[1:3] == ["out", "0"]
        led = LED(18)
        assert line_state(tree, 18)[1:3] == ["out", "0"]
        led.close()
    finally:
        Device.pin_factory = None
        f.close()
