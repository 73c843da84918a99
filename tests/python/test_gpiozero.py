# SPDX-License-Identifier: GPL-2.0-only
"""gpiozero on udrv (udrv.gpiozero) against the fake sysfs trees of tests/cli.

The host has no GPIO character device, so the chips here are sysfs-only and
the factory falls back to the sysfs backend: an LED's level is what udrv
writes to the fake value file, an input's what the test writes there. A
Button's edges need a character device: test_led_and_button runs a Python
with tests/daemon's fake one (fake_cdev.c) preloaded; on a kernel,
tests/lab/test_lab_gpiozero.py runs them on gpio-wire. The software bounce
filter of the sysfs backend is checked on events made by hand.

The gpiozero is the one installed: scripts/check.py runs this file with
gpiozero 2.0.1 (PyPI, Raspberry Pi OS) and again with 1.6.2 (Debian 12's
python3-gpiozero), each naming the version it wants in $UDRV_TEST_GPIOZERO.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from importlib.metadata import version

import pytest

from tests.daemon.conftest import GUARD_S
from tests.support import fake_gpio
from tests.support.fake_gpio import FALLING, RISING, fake_chip, fake_env, line_state
from tests.support.fakes import (  # tests/cli, on the path by conftest.py
    FakeTree,
    GpioExports,
    gpio_attr,
    gpio_bus,
    gpio_chip,
    gpio_line,
)
from tests.support.preloaded import Child, preloaded, preloaded_child
from tests.support.pwm_fakes import PwmChip, pwm_tree

try:  # fail, do not skip: the tests exist to run
    import gpiozero  # noqa: F401
except ImportError as e:
    raise ImportError("tests/python/test_gpiozero.py needs gpiozero (1.6 or 2.x): pip install "
                      "gpiozero==2.0.1, or apt install python3-gpiozero (scripts/check.py "
                      "installs both into venvs under build/)") from e
import udrv
from gpiozero import (
    LED,
    PWMLED,
    AngularServo,
    Button,
    Device,
    InputDevice,
    Motor,
    Servo,
    TonalBuzzer,
)
from gpiozero.exc import (
    BadPinFactory,
    GPIOPinInUse,
    PinInvalidPin,
    PinInvalidState,
    PinPWMError,
    PinSetInput,
)
from udrv.gpiozero import UdrvFactory, UdrvPin, pi_revision

BASE = 512  # sysfs number of gpiochip0's line 0 (conftest's exports)
OTHER = BASE + 8  # gpiochip1 ("other-chip", 4 lines)
GPIOZERO = version("gpiozero")
GPIOZERO_1 = GPIOZERO.startswith("1.")


def test_the_gpiozero_wanted() -> None:
    """make check's two runs test the versions they name (not, say, the one
    of a system site package shadowing the venv's)."""
    wanted = os.environ.get("UDRV_TEST_GPIOZERO")
    assert wanted in (None, GPIOZERO), f"gpiozero {GPIOZERO} here, {wanted} wanted"


def board_info(f: UdrvFactory) -> object:
    """The factory's description of the board: gpiozero 2's board_info, 1.x's pi_info."""
    return f.pi_info if GPIOZERO_1 else f.board_info


@pytest.fixture
def root(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> FakeTree:
    """conftest's fake root (UDRV_SYSROOT), without the factory's variables
    of the environment running the tests."""
    for var in ("GPIOZERO_PIN_FACTORY", "GPIOZERO_UDRV_CHIP", "GPIOZERO_UDRV_BACKEND"):
        monkeypatch.delenv(var, raising=False)
    return tree


@pytest.fixture
def chips(root: FakeTree, exports: GpioExports) -> GpioExports:
    """conftest's gpiochip0 "fake-wire" (8 lines, base 512, export and
    unexport served) and a second chip, gpiochip1 "other-chip"."""
    gpio_chip(root, 1, "other", OTHER, 4, "other-chip")
    return exports


@pytest.fixture
def factory(chips: GpioExports) -> Iterator[UdrvFactory]:
    f = UdrvFactory()
    Device.pin_factory = f
    yield f
    Device.pin_factory = None
    f.close()


def value(root: FakeTree, gpio: int) -> str:
    return gpio_attr(root, gpio, "value")[:1]


def set_input(root: FakeTree, gpio: int, level: int) -> None:
    root.file(f"sys/class/gpio/gpio{gpio}/value", f"{level}\n")


# ---- the entry point ----


def test_gpiozero_finds_the_factory_by_name(chips: GpioExports,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """GPIOZERO_PIN_FACTORY=udrv through gpiozero's own lookup (the
    gpiozero_pin_factories entry point of the installed udrv)."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "udrv")
    f = Device._default_pin_factory()
    try:
        assert isinstance(f, UdrvFactory)
    finally:
        f.close()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "udrv-nonesuch")
    with pytest.raises(BadPinFactory):
        Device._default_pin_factory()


def test_led_on_off_in_the_value_file(root: FakeTree, chips: GpioExports,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An LED made through gpiozero's default factory lookup, as a user's
    program would with GPIOZERO_PIN_FACTORY=udrv in its environment."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "udrv")
    chips.values[BASE + 3] = 0
    try:
        led = LED(3)
        assert isinstance(Device.pin_factory, UdrvFactory)
        assert chips.exported == [BASE + 3]
        # an output from the start, low: no trip through an input
        assert gpio_attr(root, BASE + 3, "direction").startswith("low")
        led.on()
        assert value(root, BASE + 3) == "1"
        assert led.is_lit
        led.off()
        assert value(root, BASE + 3) == "0"
        assert not led.is_lit
        led.close()
        # closed: an input again (as gpiozero's factories leave a pin), released
        assert chips.final(BASE + 3, "direction").startswith("in")
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
            Device.pin_factory = None


def test_led_active_low_is_gpiozero_s(root: FakeTree, factory: UdrvFactory) -> None:
    """state is the physical level: gpiozero inverts, not udrv."""
    led = LED(5, active_high=False)
    assert gpio_attr(root, BASE + 5, "direction").startswith("high")  # off = high
    led.on()
    assert value(root, BASE + 5) == "0"
    assert gpio_attr(root, BASE + 5, "active_low").startswith("0")


def test_input_reads_the_value_file(root: FakeTree, factory: UdrvFactory) -> None:
    """An InputDevice (a Button watches edges from the start, which a
    regular file cannot give: the lab test has the Buttons)."""
    dev = InputDevice(2, pull_up=None, active_state=True)
    set_input(root, BASE + 2, 1)
    assert dev.is_active
    set_input(root, BASE + 2, 0)
    assert not dev.is_active
    assert gpio_attr(root, BASE + 2, "direction").startswith("in")


# ---- an LED and a Button on a character device ----

LED_LINE, BUTTON_LINE = 4, 1

# the client: an LED and a Button by their line names, through gpiozero's
# own lookup of GPIOZERO_PIN_FACTORY=udrv; a line of JSON after each step,
# the next step when the test writes a line to its stdin
LED_AND_BUTTON = """
import json, sys, threading
from importlib.metadata import version
from gpiozero import LED, Button, Device

def say(**what):
    print(json.dumps(what), flush=True)

pressed, released = threading.Event(), threading.Event()
led = LED("LED")
button = Button("BUTTON")  # a pull-up: pressed is low
button.when_pressed = pressed.set
button.when_released = released.set
led.on()
say(gpiozero=version("gpiozero"), factory=type(Device.pin_factory).__name__,
    lit=led.is_lit, pressed=button.is_pressed)
sys.stdin.readline()  # pressed: the line low, a falling edge
say(called=pressed.wait({guard}), pressed=button.is_pressed)
sys.stdin.readline()  # released
say(called=released.wait({guard}), pressed=button.is_pressed)
led.off()
say(lit=led.is_lit)
sys.stdin.readline()
"""


def press(tree: FakeTree, level: int, edge: int, seq: int) -> None:
    """The button's line goes to @level (the state file, which the client
    only writes while it runs a step) with an edge event (the FIFO)."""
    lines = tree.read("dev/gpiochip0.state").splitlines()
    fields = lines[BUTTON_LINE].split()
    fields[2] = str(level)
    lines[BUTTON_LINE] = " ".join(fields)
    tmp = tree.path("dev/gpiochip0.state.test")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.rename(tree.path("dev/gpiochip0.state"))
    fd = os.open(tree.path("dev/gpiochip0.events"), os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, fake_gpio.event(BUTTON_LINE, edge, seq))
    finally:
        os.close(fd)


def test_led_and_button(tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero's LED and Button through the factory, by line name, on a
    character device (fake_cdev): the LED's level is the fake chip's; the
    Button reads the line's level and its callbacks come from the edge
    events, through the factory's event thread."""
    names = ["", "BUTTON", "", "", "LED", "", "", ""]
    fake_chip(tree, "fake-a", len(names), names)
    tree.file("dev/gpiochip0.state", "0 in 1 0 - none\n" * len(names))  # button up
    env = {**fake_env(tree), "GPIOZERO_PIN_FACTORY": "udrv"}
    for var in ("GPIOZERO_UDRV_CHIP", "GPIOZERO_UDRV_BACKEND", "GPIOZERO_UDRV_HOLD"):
        env.pop(var, None)
    script = textwrap.dedent(LED_AND_BUTTON).format(guard=GUARD_S)
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None

    def step(go: bool = True) -> dict[str, object]:
        if go:
            proc.stdin.write("\n")
            proc.stdin.flush()
        line = proc.stdout.readline()
        assert line, proc.communicate(timeout=GUARD_S)[1]
        out = json.loads(line)
        assert isinstance(out, dict)
        return out

    try:
        first = step(go=False)
        assert first == {"gpiozero": GPIOZERO, "factory": "UdrvFactory", "lit": True,
                         "pressed": False}
        assert line_state(tree, LED_LINE)[1:3] == ["out", "1"]
        assert line_state(tree, BUTTON_LINE)[1] == "in"
        assert line_state(tree, BUTTON_LINE)[5] == "both"  # the Button watches edges
        press(tree, 0, FALLING, 1)
        assert step() == {"called": True, "pressed": True}
        press(tree, 1, RISING, 2)
        assert step() == {"called": True, "pressed": False}
        assert step(go=False) == {"lit": False}
        assert line_state(tree, LED_LINE)[1:3] == ["out", "0"]
        _, err = proc.communicate("\n", timeout=GUARD_S)
        assert proc.returncode == 0, err
        # gpiozero closed both at exit: free inputs again
        assert [line_state(tree, n)[1] for n in (LED_LINE, BUTTON_LINE)] == ["in", "in"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_one_line_one_reservation(chips: GpioExports, factory: UdrvFactory) -> None:
    """Two names of one line are one pin to gpiozero (gpiozero 1.x reserves
    a pin under the name it was given and releases it under pin.number: the
    factory takes both to the line); closed, the line is free again."""
    led = LED(3)
    with pytest.raises(GPIOPinInUse):
        LED("gpiochip0:3")
    with pytest.raises(GPIOPinInUse):
        LED("fake-wire:3")
    led.close()
    assert chips.wait_unexported(BASE + 3)
    again = LED("gpiochip0:3")
    assert again.pin is factory.pin(3)
    other = LED("gpiochip1:3")  # the same offset of another chip: another line
    assert (other.pin.chip, other.pin.offset) == ("gpiochip1", 3)


def test_a_device_collected_under_the_reservations_lock(chips: GpioExports,
                                                        factory: UdrvFactory) -> None:
    """A device left in a reference cycle, not closed, is closed by its
    __del__ when the garbage collector frees it: at any allocation, also
    inside reserve_pins() under the reservations lock, and closing it
    releases its pins under that lock again, in the same thread. The
    collection comes here from _conflicts_with(), which reserve_pins() calls
    holding the lock (gpiozero's Lock waited there for ever: make check hung
    in test_mcp3008_on_a_pi_s_spi0 when a collection fell in it)."""

    class Collecting(InputDevice):  # type: ignore[misc]
        def _conflicts_with(self, other: object) -> bool:
            gc.collect()
            return True

    class Cyclic(LED):  # type: ignore[misc]
        def __init__(self, pin: int) -> None:
            super().__init__(pin)
            self._cycle = self

    holder = LED(3)
    gc.disable()  # no collection before the one in reserve_pins()
    try:
        leaked = Cyclic(4)
        gone = weakref.ref(leaked)
        del leaked
        result: list[BaseException] = []

        def reserve() -> None:
            try:
                Collecting(3)
            except BaseException as e:  # kept for the test
                result.append(e)

        t = threading.Thread(target=reserve, daemon=True)
        t.start()
        t.join(GUARD_S)
        assert not t.is_alive(), "reserve_pins() waited for its own lock"
    finally:
        gc.enable()
    assert gone() is None  # collected in there
    assert [type(e) for e in result] == [GPIOPinInUse], result
    assert chips.wait_unexported(BASE + 4)  # closed
    LED(4).close()  # its reservation released
    holder.close()


# ---- names ----


@pytest.mark.parametrize("name", [3, "3", "gpiochip0:3", "fake-wire:3"])
def test_names_of_a_line(factory: UdrvFactory, name: object) -> None:
    pin = factory.pin(name)
    assert isinstance(pin, UdrvPin)
    assert (pin.chip, pin.offset) == ("gpiochip0", 3)
    assert pin is factory.pin("gpiochip0:3")
    assert repr(pin) == "gpiochip0:3"


def test_other_chip_by_name_and_label(root: FakeTree, chips: GpioExports,
                                      factory: UdrvFactory) -> None:
    chips.values[OTHER + 1] = 0
    led = LED("other-chip:1")
    assert (led.pin.chip, led.pin.offset) == ("gpiochip1", 1)
    led.on()
    assert value(root, OTHER + 1) == "1"
    assert factory.pin("gpiochip1:1") is led.pin


def test_default_chip_from_the_environment(root: FakeTree, chips: GpioExports,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_UDRV_CHIP", "other-chip")
    with UdrvFactory() as f:
        assert f.default_chip == "gpiochip1"
        assert (f.pin(2).chip, f.pin(2).offset) == ("gpiochip1", 2)
        with pytest.raises(PinInvalidPin, match="offset of the default chip gpiochip1"):
            f.pin(5)  # gpiochip1 has 4 lines
    with UdrvFactory(chip=0) as f:
        assert f.pin(5).chip == "gpiochip0"


def test_unknown_chip_is_udrv_s_message(chips: GpioExports) -> None:
    with pytest.raises(udrv.NotFoundError) as e:
        UdrvFactory(chip="nochip")
    assert "nochip" in str(e.value)


def test_bad_names(factory: UdrvFactory) -> None:
    with pytest.raises(PinInvalidPin, match=r"CHIP:OFFSET \(e.g. gpiochip0:0\)"):
        LED("gpiochip0:8")
    with pytest.raises(PinInvalidPin):
        LED("GPIO17")  # Pi names only on a Pi


def test_no_gpio_at_all(root: FakeTree) -> None:
    """No chips: the factory fails at construction with udrv's reason (so
    that gpiozero's fallback to another factory sees it)."""
    gpio_bus(root)
    with pytest.raises(udrv.NotFoundError, match="no GPIO chips"):
        UdrvFactory()


def test_a_chip_that_cannot_be_opened_is_left_out(root: FakeTree, chips: GpioExports) -> None:
    """gpiochip1 with neither a character device nor its sysfs entry: the
    factory names the lines of the chips it can open, and fails with
    udrv's message only when it can open none."""
    shutil.rmtree(root.path("sys/devices/platform/other/gpio"))
    with UdrvFactory() as f:
        if not GPIOZERO_1:  # 1.x has no description of a board other than a Pi
            assert list(f.board_info.headers) == ["gpiochip0"]
        assert f.pin("gpiochip0:1").offset == 1
        with pytest.raises(PinInvalidPin):
            f.pin("gpiochip1:0")
    shutil.rmtree(root.path("sys/devices/platform/wire/gpio"))
    with pytest.raises(udrv.NotFoundError, match="no GPIO chip 'gpiochip0'"):
        UdrvFactory()


# ---- a Raspberry Pi ----


def pi_tree(root: FakeTree, compatible: bytes, revision: bytes | None) -> None:
    gpio_bus(root)
    gpio_chip(root, 0, "3f200000.gpio", BASE, 54, "pinctrl-bcm2835")
    gpio_chip(root, 1, "expgpio", BASE + 54, 8, "raspberrypi-exp-gpio")
    root.file("proc/device-tree/compatible", compatible)
    if revision is not None:
        root.file("proc/device-tree/system/linux,revision", revision)


@pytest.mark.parametrize("revision", [bytes.fromhex("00a02082"), None],
                         ids=["firmware-revision", "model-only"])
def test_pi_names(root: FakeTree, revision: bytes | None) -> None:
    pi_tree(root, b"raspberrypi,3-model-b\0brcm,bcm2837\0", revision)
    served = GpioExports(root)
    served.values[BASE + 17] = 0
    try:
        with UdrvFactory() as f:
            assert board_info(f).model == "3B"  # type: ignore[attr-defined]
            assert f.default_chip == "gpiochip0"
            pin = f.pin("GPIO17")
            for name in (17, "BCM17", "BOARD11", "J8:11"):
                assert f.pin(name) is pin
            led = LED("BOARD11", pin_factory=f)
            led.on()
            assert value(root, BASE + 17) == "1"
            with pytest.raises(PinInvalidPin, match="not a GPIO pin"):
                f.pin("BOARD1")  # 3V3
            led.close()
    finally:
        served.stop()


def test_pi_with_another_default_chip_names_its_lines(root: FakeTree) -> None:
    # the lab's rpi3 with gpio-wire loaded: GPIOZERO_UDRV_CHIP=gpio-wire made
    # the header's names map onto gpio-wire's lines ("wire0-out" refused)
    pi_tree(root, b"raspberrypi,3-model-b\0brcm,bcm2837\0", bytes.fromhex("00a02082"))
    gpio_chip(root, 2, "gpio-wire", BASE + 62, 8, "gpio-wire")
    served = GpioExports(root)
    try:
        with UdrvFactory(chip="gpio-wire") as f:
            assert f.default_chip == "gpiochip2"
            assert f.pin(5) is f.pin("gpiochip2:5") is f.pin("gpio-wire:5")
            assert f.pin("gpiochip0:17").info.name == "gpiochip0:17"  # the SoC's, by name
            with pytest.raises(PinInvalidPin):
                f.pin("J8:11")
        with UdrvFactory(chip="pinctrl-bcm2835") as f:  # the header's chip: a Pi's names
            assert f.default_chip == "gpiochip0" and f.pin("J8:11") is f.pin(17)
    finally:
        served.stop()


@pytest.mark.parametrize(("compatible", "firmware", "cpuinfo", "revision"), [
    (b"raspberrypi,4-model-b\0brcm,bcm2711\0", bytes.fromhex("00c03111"), "", 0xC03111),
    # no firmware revision: /proc/cpuinfo's (32-bit kernels)
    (b"raspberrypi,3-model-b-plus\0brcm,bcm2837\0", None, "Revision\t: a020d3\n", 0xA020D3),
    # an old-style code with the overvoltage prefix
    (b"raspberrypi,model-b\0brcm,bcm2835\0", None, "Revision\t: 1000002\n", 0x0002),
    # neither (QEMU's raspi3b): the model's code
    (b"raspberrypi,3-model-b\0brcm,bcm2837\0", None, "Revision\t: zz\n", 0xA02082),
    (b"raspberrypi,3-model-b\0brcm,bcm2837\0", bytes(4), "", 0xA02082),
    # a Pi udrv has no code for (and no firmware): not a Pi to gpiozero
    (b"raspberrypi,9-model-x\0", None, "", None),
])
def test_pi_revision(root: FakeTree, compatible: bytes, firmware: bytes | None, cpuinfo: str,
                     revision: int | None) -> None:
    root.file("proc/device-tree/compatible", compatible)
    if firmware is not None:
        root.file("proc/device-tree/system/linux,revision", firmware)
    root.file("proc/cpuinfo", cpuinfo)
    assert pi_revision() == revision


def test_not_a_pi_despite_cpuinfo_revision(root: FakeTree) -> None:
    """32-bit ARM kernels print a Revision line on every board: a
    BeagleBone keeps the chip names."""
    pi_tree(root, b"ti,am335x-bone-black\0ti,am33xx\0", None)
    root.file("proc/cpuinfo", "processor\t: 0\nHardware\t: Generic AM33XX\nRevision\t: 0000\n")
    with UdrvFactory() as f:
        assert f.pin(17).chip == "gpiochip0"
        with pytest.raises(PinInvalidPin):
            f.pin("GPIO17")


# ---- requests: reconfigured, not requested again ----


def test_function_changes_reconfigure_the_request(root: FakeTree, chips: GpioExports,
                                                  factory: UdrvFactory) -> None:
    chips.values[BASE + 4] = 0
    pin = factory.pin(4)
    pin.function = "input"
    pin.function = "output"
    pin.state = 1
    assert value(root, BASE + 4) == "1"
    with pytest.raises(PinInvalidState):
        pin.state = 0.5
    assert value(root, BASE + 4) == "1"
    pin.function = "input"
    assert pin.function == "input"
    assert chips.exported == [BASE + 4]  # one export: never released in between
    assert chips.unexported == []
    with pytest.raises(PinSetInput):
        pin.state = 0
    pin.close()
    assert chips.wait_unexported(BASE + 4)


def test_factory_close_releases_every_line(chips: GpioExports) -> None:
    f = UdrvFactory()
    LED(1, pin_factory=f)
    LED(6, pin_factory=f)
    f.close()
    assert chips.wait_unexported(BASE + 1)
    assert chips.wait_unexported(BASE + 6)


# ---- errors: udrv's message, gpiozero's exceptions ----


def test_pull_on_sysfs_is_udrv_s_error(chips: GpioExports, factory: UdrvFactory) -> None:
    """Button's default pull-up: sysfs GPIO cannot set a bias; the line is
    released again when gpiozero closes the half-made device."""
    with pytest.raises(udrv.Error, match="sysfs GPIO cannot set bias; use the cdev backend"):
        Button(2)
    assert chips.wait_unexported(BASE + 2)


def test_line_exported_by_someone_else(root: FakeTree, chips: GpioExports,
                                       factory: UdrvFactory) -> None:
    gpio_line(root, BASE + 7, direction="out")
    with pytest.raises(udrv.Error, match="already exported"):
        LED(7)


# ---- PWM: software on the sysfs chips, hardware on a Pi's fake PWM ----


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


@pytest.mark.parametrize(("backend", "message"), [
    ("cdev", "gpiochip0 has no character device"),
    ("mmio", "cannot tell the SoC"),  # no device tree: give a layout
])
def test_backend_on_request(chips: GpioExports, monkeypatch: pytest.MonkeyPatch,
                            backend: str, message: str) -> None:
    """GPIOZERO_UDRV_BACKEND picks the backend: the host's sysfs-only chip
    has neither a character device nor known registers, and udrv says so."""
    monkeypatch.setenv("GPIOZERO_UDRV_BACKEND", backend)
    with UdrvFactory() as f, pytest.raises(udrv.Error, match=message):
        LED(3, pin_factory=f)


def test_bad_backend(chips: GpioExports, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_UDRV_BACKEND", "bogus")
    with pytest.raises(ValueError, match="use one of cdev, sysfs, mmio"):
        UdrvFactory()


# ---- ticks and the sysfs backend's software bounce ----


def test_ticks_are_monotonic_ns(factory: UdrvFactory) -> None:
    t0 = factory.ticks()
    assert abs(t0 - time.monotonic_ns()) < 1_000_000_000
    assert factory.ticks_diff(t0 + 1_500_000, t0) == pytest.approx(0.0015)


def event(ts_ns: int, edge: udrv.Edge, seqno: int) -> object:
    # (timestamp_ns, edge, offset, seqno, line_seqno, index, lost)
    return udrv.EdgeEvent((ts_ns, edge, 2, seqno, seqno, 0, 0))


def test_software_bounce_on_sysfs(factory: UdrvFactory) -> None:
    """sysfs has no kernel debounce: the pin drops callbacks closer than
    bounce to the last one it made; the state is the edge's level."""
    pin = factory.pin(2)
    pin.function = "input"
    pin.bounce = 0.010
    calls: list[tuple[int, int]] = []

    def changed(ticks: int, state: int) -> None:
        calls.append((ticks, state))

    pin._when_changed = lambda: changed  # what when_changed would keep, without a watch
    ms = 1_000_000
    pin._dispatch([event(0, udrv.Edge.RISING, 1), event(3 * ms, udrv.Edge.FALLING, 2),
                   event(12 * ms, udrv.Edge.FALLING, 3), event(15 * ms, udrv.Edge.RISING, 4),
                   event(30 * ms, udrv.Edge.RISING, 5)])
    assert calls == [(0, 1), (12 * ms, 0), (30 * ms, 1)]


# ---- SPI: MCP3008 and MCP3208 through spidev and in software ----
#
# In a child Python with the fakes preloaded (tests/support/preloaded.py):
# fake_spidev's ADC (spidevB.C.adc) behind hardware SPI, fake_cdev's ADC on
# four lines (gpiochip0.mcp3008) behind software SPI; and the fake PWM class
# (fake_pwm_sysfs) behind a Pi's hardware PWM.

spi_child = preloaded_child(("UDRVD_FAKE_CDEV", "tests/daemon/libfake_cdev.so"),
                            ("UDRV_FAKE_SPIDEV", "tests/cli/libfake_spidev.so"),
                            ("UDRV_FAKE_PWM", "tests/cli/libfake_pwm_sysfs.so"))
ADC = [100, 200, 1023, 0, 512, 5, 6, 7]
CLK, MOSI, MISO, CS = 4, 5, 6, 7  # the software ADC's lines on gpiochip0


@pytest.fixture
def child(spi_child: Child) -> Child:
    return spi_child


@pytest.fixture
def spi(tree: FakeTree) -> FakeTree:
    """gpiochip0 (8 lines, fake_cdev) and spidev0.0 and 1.1 (fake_spidev);
    no ADC yet."""
    fake_chip(tree, "fake-spi", 8)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 8)
    for bus, cs in ((0, 0), (1, 1)):
        tree.file(f"dev/spidev{bus}.{cs}", "")
        tree.dir(f"sys/class/spidev/spidev{bus}.{cs}")
    return tree


def spi_log(tree: FakeTree, dev: str = "0.0") -> list[str]:
    path = tree.path(f"dev/spidev{dev}.log")
    return path.read_text().splitlines() if path.exists() else []


def with_factory() -> UdrvFactory:
    for var in ("GPIOZERO_PIN_FACTORY", "GPIOZERO_UDRV_CHIP", "GPIOZERO_UDRV_BACKEND"):
        os.environ.pop(var, None)
    f = UdrvFactory()
    Device.pin_factory = f
    return f


@preloaded
def test_mcp3008_on_spidev(child: Child, spi: FakeTree) -> None:
    """MCP3008(channel=N): gpiozero's default SPI, spidev0.0 (udrv.SPI):
    one 3-byte transfer a reading, the fake ADC's value back; channels
    share one device (gpiozero asks for it shared)."""
    from gpiozero import MCP3008

    spi.file("dev/spidev0.0.adc", "10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    try:
        adc2, adc4 = MCP3008(channel=2), MCP3008(channel=4)
        assert adc2._spi is adc4._spi  # shared
        assert "port=0, device=0" in repr(adc2), repr(adc2)
        assert (adc2.raw_value, adc4.raw_value) == (1023, 512)
        assert adc2.value == 1.0 and abs(adc4.value - 0.5) < 1e-3
        diff = MCP3008(channel=0, differential=True)  # CH0 - CH1: below 0, read as 0
        assert diff.raw_value == 0
        assert spi_log(spi) == ["xfer 3"] * 5, spi_log(spi)  # one a reading
        assert spi.read("dev/spidev0.0").split() == ["0", "8", "500000"]  # gpiozero's rate
        adc2.close()
        assert adc4.raw_value == 512  # the shared device is still open
        adc4.close()
        diff.close()
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3208_by_port_and_device(child: Child, spi: FakeTree) -> None:
    from gpiozero import MCP3208

    spi.file("dev/spidev1.1.adc", "12 0 4095 2048 0 0 0 0 0\n")
    f = with_factory()
    try:
        with MCP3208(channel=1, port=1, device=1) as a1, MCP3208(channel=2, port=1,
                                                                  device=1) as a2:
            assert (a1.raw_value, a2.raw_value) == (4095, 2048)
            a1._spi.clock_mode = 3
            assert a1._spi.clock_mode == 3 and spi.read("dev/spidev1.1").split()[0] == "3"
        assert spi_log(spi, "1.1") == ["xfer 3", "xfer 3"]
        with pytest.raises(udrv.NotFoundError, match=r"no SPI device 2\.0"):
            MCP3208(port=2, device=0)  # off a Pi: no pins to fall back on
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3008_in_software_on_any_lines(child: Child, spi: FakeTree) -> None:
    """Pins that are no SPI bus: bit-banged on the lines (udrv requests),
    the fake device sampling MOSI at the clock's rising edge and setting
    MISO at its falling edge (mode 0); nothing through spidev."""
    from gpiozero import MCP3008
    from udrv._gpiozero_spi import UdrvSoftwareSPI

    spi.file("dev/gpiochip0.mcp3008",
             f"{CLK} {MOSI} {MISO} {CS} 10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    pins = {"clock_pin": CLK, "mosi_pin": MOSI, "miso_pin": MISO, "select_pin": CS}
    try:
        adcs = [MCP3008(channel=ch, **pins) for ch in range(8)]
        assert isinstance(adcs[0]._spi, UdrvSoftwareSPI)
        assert [a.raw_value for a in adcs] == ADC
        assert MCP3008(channel=1, differential=True, **pins).raw_value == 200 - 100
        assert [line_state(spi, n)[1:3] for n in (CLK, MOSI, CS)] == [
            ["out", "0"], ["out", "0"], ["out", "1"]]  # idle: clock low, deselected
        assert line_state(spi, MISO)[1] == "in"
        with pytest.raises(GPIOPinInUse):
            LED(CLK)
        for a in adcs:
            a.close()
        assert spi_log(spi) == []
    finally:
        Device.pin_factory = None
        f.close()
    assert [line_state(spi, n)[0] for n in (CLK, MOSI, MISO, CS)] == ["0"] * 4  # released


@preloaded
def test_software_spi_modes_and_words(child: Child, spi: FakeTree) -> None:
    """The clock's idle level follows the mode; words longer than 8 bits;
    the select's polarity."""
    f = with_factory()
    try:
        iface = f.spi(clock_pin=CLK, mosi_pin=MOSI, miso_pin=MISO, select_pin=CS)
        iface.clock_mode = 2
        assert iface.clock_mode == 2 and line_state(spi, CLK)[2] == "1"
        spi.file("dev/gpiochip0.state", "".join(  # MISO held high: every bit reads 1
            "0 in 1 0 - none\n" if n == MISO else line for n, line in enumerate(
                spi.read("dev/gpiochip0.state").splitlines(keepends=True))))
        iface.bits_per_word = 12
        assert iface.transfer([0xABC, 0]) == [0xFFF, 0xFFF]
        assert line_state(spi, MOSI)[2] == "0" and line_state(spi, CLK)[2] == "1"
        iface.select_high = True
        assert line_state(spi, CS)[2] == "0"
        with pytest.raises(ValueError, match="does not fit 12 bits"):
            iface.transfer([0x1000])
        iface.close()
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_spi_arguments(child: Child, spi: FakeTree) -> None:
    from gpiozero import MCP3008
    from gpiozero.exc import SPIBadArgs

    f = with_factory()
    try:
        with pytest.raises(SPIBadArgs, match="combinations of the two schemes"):
            MCP3008(port=0, clock_pin=CLK)
        with pytest.raises(SPIBadArgs, match="unrecognized keyword argument foo"):
            f.spi(foo=1)
        with pytest.raises(SPIBadArgs, match="needs clock_pin and select_pin"):
            MCP3008(clock_pin=CLK)
        with pytest.raises(SPIBadArgs, match="port must be an int 0 or more"):
            MCP3008(port=-1)
        with pytest.raises(udrv.NotFoundError, match=r"no SPI device 0\.0"):
            spi.path("dev/spidev0.0").unlink()
            MCP3008()
        assert spi_log(spi) == []
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_mcp3008_on_a_pi_s_spi0(child: Child, tree: FakeTree) -> None:
    """On a Pi, SPI0's pins are spidev0.0 and 0.1 (GPIO11, 10, 9, and 8 or 7
    selecting), reserved; without spidev, gpiozero's fallback: a warning,
    then software SPI on those pins (the fake ADC on the header's lines)."""
    from gpiozero import MCP3008
    from gpiozero.exc import SPISoftwareFallback
    from udrv._gpiozero_spi import UdrvHardwareSPI, UdrvSoftwareSPI

    fake_chip(tree, "pinctrl-bcm2835", 54)
    tree.file("dev/gpiochip0.state", "0 in 0 0 - none\n" * 54)
    tree.file("proc/device-tree/compatible", b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    tree.file("proc/device-tree/system/linux,revision", bytes.fromhex("00a02082"))
    tree.file("dev/spidev0.1", "")
    tree.file("dev/spidev0.1.adc", "10 " + " ".join(map(str, ADC)) + "\n")
    tree.file("dev/gpiochip0.mcp3008", "11 10 9 8 10 " + " ".join(map(str, ADC)) + "\n")
    f = with_factory()
    try:
        with MCP3008(channel=2, select_pin=7) as hw:
            assert isinstance(hw._spi, UdrvHardwareSPI) and "device=1" in repr(hw._spi)
            assert hw.raw_value == ADC[2]
            with pytest.raises(GPIOPinInUse):
                LED("GPIO11")
            LED("GPIO8").close()  # device 0's select: not device 1's
        with pytest.warns(SPISoftwareFallback, match=r"no SPI device 0\.0"):
            sw = MCP3008(channel=1)  # spidev0.0 is not there
        assert isinstance(sw._spi, UdrvSoftwareSPI)
        assert sw.raw_value == ADC[1]
        sw.close()
        assert spi_log(tree, "0.1") == ["xfer 3"]
    finally:
        Device.pin_factory = None
        f.close()


@preloaded
def test_spidev_words_longer_than_a_byte(child: Child, spi: FakeTree) -> None:
    """gpiozero's words go to spidev as it takes them: 2 bytes each for 9
    to 16 bits, 4 beyond (the loopback returns them)."""
    from gpiozero.exc import SPIInvalidClockMode

    f = with_factory()
    try:
        iface = f.spi(port=1, device=1)
        assert iface.transfer([1, 255]) == [1, 255]
        iface.bits_per_word = 12
        assert iface.transfer([0xABC, 0x123]) == [0xABC, 0x123]
        iface.bits_per_word = 20
        assert iface.transfer([0xABCDE]) == [0xABCDE]
        with pytest.raises(SPIInvalidClockMode):
            iface.clock_mode = 4
        iface.lsb_first = True
        iface.select_high = True
        iface.rate = 1e6
        assert (iface.lsb_first, iface.select_high, iface.rate) == (True, True, 1_000_000)
        iface.close()
        assert spi_log(spi, "1.1") == ["xfer 2", "xfer 4", "xfer 4"], spi_log(spi, "1.1")
        assert spi.read("dev/spidev1.1").split() == [str(8 | 4), "20", "1000000"]
    finally:
        Device.pin_factory = None
        f.close()


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
