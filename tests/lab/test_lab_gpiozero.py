# SPDX-License-Identifier: GPL-2.0-only
"""gpiozero on udrv (GPIOZERO_PIN_FACTORY=udrv) on real kernels: gpiozero's
LED on gpio-wire's output line drives a Button on its wired input.

Each test runs one short Python script in the guest of the Python image
variant (py_board, rig/lab/image/pyguest.py) that prints one JSON line; the checks
are problems(), so that the broken-wire run can show that they fail.

- the wire: led.on() -> button.is_pressed (pull-down, active high), and
  off again;
- callbacks: N paced toggles (a person at a button, not a storm: 1 ms
  apart), when_pressed and when_released counted against N and against
  gpio-wire's own count of the level changes it put on the input's wire
  (/sys/devices/platform/gpio-wire/edges, DRIVEN): no edge lost, none
  invented;
- ticks: a pin's when_changed gets the kernel's edge timestamp
  (CLOCK_MONOTONIC ns, the factory's ticks()): each falls between the write
  that made it and the next write, and the states alternate;
- bounce: the kernel's debounce_us on the line while it is watched;
- the broken wire: the Button on another wire's input (wire1-in) sees none
  of it, and problems() says so.

Both backends that have edges in the lab: the character device (default)
and sysfs (GPIOZERO_UDRV_BACKEND=sysfs; no bias there, so the Button has no
pull and an explicit active state, and bounce is udrv's own filter).
"""

from __future__ import annotations

from typing import Any

import pytest
from guest import python_json

from rig.lab.image import pyguest

pytestmark = [pytest.mark.skipif(pyguest.udrv_missing() is not None,
                                 reason=str(pyguest.udrv_missing())),
              pytest.mark.lg_feature(["python", "gpio-wire"])]  # fmt: skip

N = 100  # toggles per trial: 200 edges, ~0.5 s of guest time

SCRIPT = r"""
import json, os, threading, time
os.environ["GPIOZERO_PIN_FACTORY"] = "udrv"
os.environ["GPIOZERO_UDRV_BACKEND"] = "{backend}"
# the pin names' chip: on rpi3 the default is the SoC's, behind the header
os.environ["GPIOZERO_UDRV_CHIP"] = "gpio-wire"
from gpiozero import LED, Button, Device
import udrv
from udrv.gpiozero import UdrvFactory

N = {n}
SYSFS = os.environ["GPIOZERO_UDRV_BACKEND"] == "sysfs"

def driven(line):
    with open("/sys/devices/platform/gpio-wire/edges") as f:
        for row in f:
            num, made, _dropped = row.split()
            if int(num) == line:
                return int(made)
    return None

def beside_irq_threads():
    # The character device's handler is threaded and oneshot: a line stays
    # masked until its irq thread ran, and gpio-wire, as hardware does, raises
    # no edge meanwhile. On one CPU the thread (FIFO 50) preempts the writer
    # at every edge; on several (rpi3: 4) it may run elsewhere, later. The
    # writer and the factory's irq threads on one CPU make every edge count
    # there too (as tests/lab/test_python.py's edge tests do).
    if os.cpu_count() == 1:
        return
    cpu = {{min(os.sched_getaffinity(0))}}
    os.sched_setaffinity(0, cpu)
    for t in udrv.rt_threads("irq/"):
        if t.name.endswith("-gpiozero"):
            os.sched_setaffinity(t.pid, cpu)

def button(name, **kw):
    if SYSFS:  # sysfs cannot set a bias
        return Button(name, pull_up=None, active_state=True, **kw)
    return Button(name, pull_up=False, **kw)

def trial(out_name, in_name):
    # N toggles of the LED: the first checked by reading the Button, every
    # one counted by its callbacks
    led = LED(out_name)
    btn = button(in_name)
    counts = {{"pressed": 0, "released": 0}}
    done = threading.Event()
    last = [time.monotonic()]
    def pressed():
        counts["pressed"] += 1
        last[0] = time.monotonic()
    def released():
        counts["released"] += 1
        last[0] = time.monotonic()
        if counts["released"] == N:
            done.set()
    btn.when_pressed = pressed
    btn.when_released = released
    beside_irq_threads()
    before = driven(btn.pin.offset)
    res = {{"factory": type(Device.pin_factory).__name__, "backend": btn.pin.backend.name,
           "idle": btn.is_pressed}}
    led.on()
    res["on"] = btn.is_pressed  # read at once: the edge's event still pending
    time.sleep(0.001)
    led.off()
    res["off"] = btn.is_pressed
    for _ in range(N - 1):
        time.sleep(0.001)
        led.on()
        time.sleep(0.001)
        led.off()
    # all N, or 0.2 s without a callback (the broken wire: none at all)
    while not done.wait(0.02) and time.monotonic() - last[0] < 0.2:
        pass
    res.update(counts, toggles=N, driven=driven(btn.pin.offset) - before,
               lost=btn.pin.lost_events)
    led.close()
    btn.close()
    return res

def ticks_trial():
    f = Device.pin_factory
    out, inp = f.pin("wire2-out"), f.pin("wire2-in")
    out.output_with_state(0)
    inp.function = "input"
    got = []
    def changed(ticks, state):
        got.append((ticks, state, time.monotonic_ns()))
    inp.when_changed = changed
    beside_irq_threads()
    marks = []  # the factory's ticks before and after each write
    for i in range(20):
        t0 = f.ticks()
        out.state = (i + 1) % 2
        marks.append((t0, f.ticks()))
        time.sleep(0.002)
    deadline = time.monotonic() + 2
    while len(got) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    inp.when_changed = None
    inp.close()
    out.close()
    return {{"got": got, "marks": marks}}

def gen_trial(n=20):
    # gpio-wire's generator toggles wire2-in by itself, 1 ms apart, while
    # this thread sleeps: the delay from each edge's timestamp to its
    # callback is the factory's path alone; the generator counts its edges
    f = Device.pin_factory
    inp = f.pin("wire2-in")
    inp.function = "input"
    got = []
    def changed(ticks, state):
        got.append((ticks, time.monotonic_ns()))
    inp.when_changed = changed
    gen = "/sys/devices/platform/gpio-wire/"
    def put(name, value):
        with open(gen + name, "w") as f:
            f.write(str(value))
    def get(name):
        with open(gen + name) as f:
            return int(f.read())
    put("gen_line", inp.offset)
    put("gen_limit", n)
    before, masked = get("gen_edges"), get("gen_masked")
    put("gen_period_ns", 1000000)
    deadline = time.monotonic() + 2
    while len(got) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    made, masked = get("gen_edges") - before, get("gen_masked") - masked
    inp.when_changed = None
    inp.close()
    return {{"made": made, "called": len(got), "masked": masked, "cpus": os.cpu_count(),
            "delays": [c - t for t, c in got]}}

def cost_trial(rounds=3, calls=500):
    # ns per call: gpiozero's LED.on()/off() on udrv, and udrv's own
    # Request.set_value() on another output of the same backend, in
    # alternating rounds
    led = LED("wire1-out")
    out = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
    with udrv.Chip("gpio-wire") as chip:
        with chip.request({{"wire3-out": out}}, backend=led.pin.backend) as req:
            off = req.offsets[0]
            zero, raw = [], []
            for _ in range(rounds):
                t0 = time.perf_counter_ns()
                for _ in range(calls):
                    led.on()
                    led.off()
                t1 = time.perf_counter_ns()
                for _ in range(calls):
                    req.set_value(off, 1)
                    req.set_value(off, 0)
                t2 = time.perf_counter_ns()
                zero.append((t1 - t0) / (2 * calls))
                raw.append((t2 - t1) / (2 * calls))
    led.close()
    return {{"gpiozero_ns": zero, "udrv_ns": raw, "calls": 2 * calls}}

def bounce_trial():
    btn = button("wire3-in", bounce_time=0.05)
    btn.when_pressed = lambda: None
    bounce = btn.pin.bounce
    with udrv.Chip("gpio-wire") as chip:
        watched = chip.line_info(btn.pin.offset)
    btn.close()
    return {{"bounce": bounce, "debounce_us": watched.debounce_us, "edge": watched.edge.name}}

def faults():
    # gpio-wire's fault injection, which an earlier test may have left on
    out = {{}}
    for name in ("drop_every", "stuck_every"):
        with open("/sys/module/gpio_wire/parameters/" + name) as f:
            out[name] = int(f.read())
    return out

def drive_low(name):
    # gpio-wire keeps the level last driven: what ran before (another test
    # of the session) may have left a wire high
    low = udrv.LineSettings(direction=udrv.Direction.OUTPUT, value=0)
    with udrv.Chip("gpio-wire") as chip, chip.request({{name: low}}):
        pass

faults_before = faults()
good = trial("wire0-out", "wire0-in")
drive_low("wire1-out")  # the broken trial's Button reads wire1-in
broken = trial("wire0-out", "wire1-in")
print(json.dumps({{"faults": faults_before, "good": good, "broken": broken, "ticks": ticks_trial(),
                  "bounce": bounce_trial(), "cost": cost_trial(), "gen": gen_trial()}}))
"""


def problems(res: dict[str, Any], backend: str) -> list[str]:
    """What is wrong with one trial of the LED driving the Button."""
    out = []
    if res["factory"] != "UdrvFactory" or res["backend"].lower() != backend:
        out.append(f"factory {res['factory']} backend {res['backend']}, not udrv's {backend}")
    if (res["idle"], res["on"], res["off"]) != (False, True, False):
        out.append(f"button idle/on/off {res['idle']}/{res['on']}/{res['off']}, "
                   "not False/True/False")
    n = res["toggles"]
    if res["driven"] != 2 * n:
        out.append(f"the wire carried {res['driven']} level changes for {n} toggles")
    if (res["pressed"], res["released"]) != (n, n):
        out.append(f"pressed {res['pressed']} and released {res['released']} "
                   f"of {n} toggles (lost: {res['lost']})")
    return out


@pytest.fixture(scope="module", params=["cdev", "sysfs"])
def run(request: pytest.FixtureRequest, py_board: Any) -> tuple[str, dict[str, Any]]:
    backend = str(request.param)
    return backend, python_json(py_board, SCRIPT.format(backend=backend, n=N), timeout=180)


def test_led_drives_button_and_every_edge_calls_back(run: tuple[str, dict[str, Any]]) -> None:
    backend, out = run
    assert out["faults"] == {"drop_every": 0, "stuck_every": 0}, "left on by an earlier test"
    assert problems(out["good"], backend) == []
    assert out["good"]["lost"] == 0


def test_broken_wire_is_seen(run: tuple[str, dict[str, Any]]) -> None:
    backend, out = run
    found = problems(out["broken"], backend)
    assert any("idle/on/off False/False/False" in p for p in found), found
    assert any(f"pressed 0 and released 0 of {N}" in p for p in found), found
    assert any("the wire carried 0 level changes" in p for p in found), found


def test_ticks_are_the_kernel_s_edge_timestamps(run: tuple[str, dict[str, Any]]) -> None:
    backend, out = run
    got, marks = out["ticks"]["got"], out["ticks"]["marks"]
    assert [s for _t, s, _c in got] == [1, 0] * 10
    ticks = [t for t, _s, _c in got]
    assert ticks == sorted(ticks)
    assert all(c >= t for t, _s, c in got)  # a callback after its edge
    if backend == "cdev":
        # stamped by the kernel's interrupt handler, which runs before the
        # write returns: inside it (a tick taken by the event thread, after
        # the write, would not be)
        inside = [t0 <= t <= t1 for t, (t0, t1) in zip(ticks, marks, strict=True)]
        assert all(inside), (ticks, marks)
    else:
        # sysfs: the time the event thread saw the edge, after its write
        # and before the next one
        nexts = [t0 for t0, _t1 in marks[1:]] + [got[-1][2]]
        after = [t1 <= t <= n for t, (_t0, t1), n in zip(ticks, marks, nexts, strict=True)]
        assert all(after), (ticks, marks)


def test_bounce_is_the_kernel_s_debounce(run: tuple[str, dict[str, Any]]) -> None:
    """bounce_time=0.05: on the character device the kernel debounces the
    watched line (50000 us in its line info); sysfs has no debounce, udrv's
    software filter stands in (tests/python/test_gpiozero.py)."""
    backend, out = run
    b = out["bounce"]
    assert b["bounce"] == pytest.approx(0.05)
    if backend == "cdev":
        assert (b["edge"], b["debounce_us"]) == ("BOTH", 50000)
    else:
        assert b["debounce_us"] == 0


def test_generator_edges_all_called_back(run: tuple[str, dict[str, Any]]) -> None:
    """The edges gpio-wire's generator made (its own count) = the callbacks,
    but for those it made while the line was masked (its own count too: on
    several CPUs the oneshot handler's thread may not have run yet; the
    generator's timer is not a writer that can be put beside it)."""
    _backend, out = run
    gen = out["gen"]
    assert gen["made"] == 20 == gen["called"] + gen["masked"], gen
    if gen["cpus"] == 1:  # the thread ran at every edge
        assert gen["masked"] == 0, gen


def test_costs(run: tuple[str, dict[str, Any]]) -> None:
    """What gpiozero on udrv costs, printed (pytest -s): a call of LED.on()
    or off() against udrv's own set_value on the same chip, and the delay
    from the edge's timestamp to its when_changed callback (the generator's
    edges, this process idle)."""
    backend, out = run
    cost = out["cost"]
    lat = sorted(out["gen"]["delays"])
    zero, raw = min(cost["gpiozero_ns"]), min(cost["udrv_ns"])
    print(f"\ngpiozero on udrv ({backend}): LED.on/off {zero:.0f} ns/call, "
          f"udrv set_value {raw:.0f} ns/call (x{zero / raw:.1f}, best of "
          f"{len(cost['udrv_ns'])} rounds of {cost['calls']}); edge -> callback "
          f"min {lat[0] / 1000:.1f} us, median {lat[len(lat) // 2] / 1000:.1f} us, "
          f"max {lat[-1] / 1000:.1f} us ({len(lat)} edges)")
    assert 0 < raw < zero  # gpiozero's layers on top of the same call
