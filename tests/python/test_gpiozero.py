# SPDX-License-Identifier: GPL-2.0-only
"""gpiozero on udrv (udrv.gpiozero) against the fake sysfs trees of tests/cli.

The host has no GPIO character device, so the chips here are sysfs-only and
the factory falls back to the sysfs backend: an LED's level is what udrv
writes to the fake value file, an input's what the test writes there. A
Button's edges need a character device: test_led_and_button runs a Python
with tests/daemon's fake one (fake_cdev.c) preloaded; on a kernel,
tests/lab/test_lab_gpiozero.py runs them on gpio-wire. The software bounce
filter of the sysfs backend is checked on events made by hand. PWM:
test_gpiozero_pwm.py; SPI: test_gpiozero_spi.py; the fixtures they share
with this file: conftest.py.

The gpiozero is the one installed: scripts/check.py runs test_gpiozero*.py
with gpiozero 2.0.1 (PyPI, Raspberry Pi OS) and again with 1.6.2 (Debian
12's python3-gpiozero), each naming the version it wants in
$UDRV_TEST_GPIOZERO.
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
from importlib.metadata import version

import pytest
from conftest import BASE, NO_GPIOZERO, OTHER, value

from tests.daemon.conftest import GUARD_S
from tests.support import fake_gpio
from tests.support.fake_gpio import FALLING, RISING, fake_chip, fake_env, line_state
from tests.support.fakes import (  # tests/cli, on the path by conftest.py
    RP1_CLR,
    RP1_SET,
    RP1_SYS_RIO,
    FakeTree,
    GpioExports,
    gpio_attr,
    gpio_bus,
    gpio_chip,
    gpio_line,
    rp1_claimed,
    rp1_pi5,
    rp1_word,
)

try:  # fail, do not skip: the tests exist to run
    import gpiozero  # noqa: F401
except ImportError as e:
    raise ImportError(NO_GPIOZERO) from e
import udrv
from gpiozero import LED, Button, Device, InputDevice
from gpiozero.exc import (
    BadPinFactory,
    GPIOPinInUse,
    PinInvalidPin,
    PinInvalidState,
    PinSetInput,
)
from udrv.gpiozero import UdrvFactory, UdrvPin, pi_revision

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


PI5_LED = """
import json, os, struct
from gpiozero import LED, Device
led = LED("J8:11")  # GPIO17 on the Pi 5's header
for on in (True, False, True):
    led.value = on
f = Device.pin_factory  # gpiozero 2's board_info, 1.x's pi_info
print(json.dumps({"factory": type(f).__name__,
                  "board": getattr(f, "board_info", None) and f.board_info.model
                  or f.pi_info.model}), flush=True)
# gpiozero leaves the line an input at close: the kernel's part, RIO_OE's bit
with open(os.environ["UDRV_SYSROOT"] + "/dev/gpiomem0", "r+b") as f:
    f.seek(0x10004)
    oe = struct.unpack("<I", f.read(4))[0]
    f.seek(0x10004)
    f.write(struct.pack("<I", oe & ~(1 << 17)))
led.close()
"""


@pytest.mark.parametrize("num", [0, 4], ids=["gpiochip0", "gpiochip4"])
def test_pi5_register_path(root: FakeTree, num: int) -> None:
    """GPIOZERO_UDRV_BACKEND=mmio on a Pi 5: the header's chip is RP1's
    pinctrl-rp1 (either numbering), claimed through the character device
    (fake_cdev) and driven through /dev/gpiomem0's RIO_OUT SET and CLR
    aliases (a regular file here: each alias keeps what was written last),
    never RIO_OUT itself."""
    rp1_pi5(root, num)
    rp1_claimed(root, 17, output=True)  # as the kernel leaves it at the claim
    env = {**fake_env(root), "GPIOZERO_PIN_FACTORY": "udrv", "GPIOZERO_UDRV_BACKEND": "mmio"}
    env.pop("GPIOZERO_UDRV_CHIP", None)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(PI5_LED)], env=env,
                       capture_output=True, text=True, timeout=GUARD_S, check=False)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["factory"] == "UdrvFactory"
    # gpiozero 1.6.2 predates the Pi 5 (no model name), its J8 header is the same
    assert out["board"] == ("???" if GPIOZERO_1 else "5B")
    assert rp1_word(root, RP1_SYS_RIO + RP1_SET) == 1 << 17
    assert rp1_word(root, RP1_SYS_RIO + RP1_CLR) == 1 << 17
    assert rp1_word(root, RP1_SYS_RIO) == 0  # RIO_OUT never written


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


