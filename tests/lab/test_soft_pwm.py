# SPDX-License-Identifier: GPL-2.0-only
"""libudrv's software PWM on real kernels, measured on the wire: `udrv pwm
run` and gpiozero's PWMLED, Servo, AngularServo, Motor and TonalBuzzer
through udrv's pin factory drive
gpio-wire's line 2 (wire1-out) while `udrv gpio mon` on line 3 (wire1-in)
prints every edge with the kernel's timestamp. What the PWM's thread
counted (its edges, missed and skipped periods: at the source) is held to
what the wire saw, and the pulse widths to what was asked.

Under icount the guest's clock follows the instruction count: a width's
error is the difference of two wake-ups' instruction counts (timer
interrupt, the thread scheduled, its write through the character device),
not silicon time; the lab's figures compare ratios (docs/measurements.md).
On one CPU and at SCHED_OTHER nothing else runs here, so no period may be
missed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from guest import CHIP, Udrv, python_json, root, sh
from test_pwm import edge_list, level, near, waveform

from rig.lab import Board
from rig.lab.image import pyguest

pytestmark = [pytest.mark.lg_feature(["gpio-wire"])]

OUT, IN = 2, 3  # wire1-out drives wire1-in
EDGES = "/tmp/soft-pwm-edges.json"
# a width's or period's error at SCHED_OTHER, idle, one CPU: what the PWM
# itself calls on time, its late_ns (50 us by default: a later edge counts
# as missed, and these tests hold the thread to none missed). Usually a few
# us (the two wake-ups' paths differ by a few thousand instructions); on
# PREEMPT_RT a SCHED_OTHER sleeper's timer expires in the timer softirq's
# thread, and a fresh lab-check saw 1 kHz edges 17-21 us late there
WIDTH_ERROR_NS = 50_000


def watched(board: Board, command: str) -> tuple[Udrv, list[tuple[int, str]]]:
    """@command run while `udrv gpio mon` watches line IN (started first,
    ending 300 ms of guest time after the last edge): its result, and the
    edges (kernel timestamp ns, rising|falling)."""
    r = sh(board, f"udrv gpio mon -c {CHIP} -S 1024 --json -t 300ms {IN} > {EDGES} & "
                  f"sleep 0.1; {command}; s=$?; wait; exit $s", timeout=300)
    lines = [json.loads(x) for x in root(board, f"cat {EDGES}").splitlines() if x.strip()]
    evs = [e for e in lines if "edge" in e]
    assert lines and lines[-1].get("lost") == 0 and not any(e["lost"] for e in evs), lines
    return r, edge_list(evs)


@pytest.mark.parametrize(("wave", "period_ns", "duty_ns"), [
    ("--frequency 1000 --duty-cycle 50", 1_000_000, 500_000),
    ("--servo-us 1500", 20_000_000, 1_500_000),
])
def test_udrv_pwm_run_on_the_wire(board: Board, wave: str, period_ns: int,
                                  duty_ns: int) -> None:
    duration = "50ms" if period_ns < 10_000_000 else "210ms"
    r, evs = watched(board, f"udrv pwm run -c {CHIP} {wave} --duration {duration} --json {OUT}"
                            " > /tmp/soft-pwm-run.json")  # fmt: skip
    assert r.status == 0, r.stderr
    st: dict[str, Any] = json.loads(root(board, "cat /tmp/soft-pwm-run.json"))
    assert (st["period_ns"], st["duty_ns"], st["ended"]) == (period_ns, duty_ns, "duration"), st
    # counted at the source: every edge the thread drove reached the wire
    assert st["edges"] == len(evs), (st, len(evs))
    assert st["missed"] == st["skipped"] == 0, st
    assert st["periods"] >= 10, st
    periods, pulses = waveform(evs)
    assert near(periods, period_ns, WIDTH_ERROR_NS), periods
    assert near(pulses, duty_ns, WIDTH_ERROR_NS), pulses
    assert evs[-1][1] == "falling" and level(board, IN) == 0  # left inactive


def test_a_late_threshold_below_the_wake_up_counts_misses(board: Board) -> None:
    """--late 1ns: no wake-up is that punctual, so every period counts as
    missed. The first pulse's rising edge is the start's own write (on
    time by definition), its falling edge late: one pulse on the wire.
    Every later pulse is skipped (a rising edge later than the threshold
    is not driven): the counts are the thread's, the wire's edges the
    receiver's. The check that a late period is seen."""
    r, evs = watched(board, f"udrv pwm run -c {CHIP} --frequency 1000 --duty-cycle 50 "
                            f"--late 1ns --duration 20ms --json {OUT} > /tmp/soft-pwm-run.json")
    assert r.status == 0, r.stderr
    st = json.loads(root(board, "cat /tmp/soft-pwm-run.json"))
    assert st["periods"] >= 10 and st["missed"] == st["periods"], st
    assert st["skipped"] == st["periods"] - 1, st
    assert st["edges"] == len(evs) == 2, (st, evs)


GPIOZERO = r"""
import json, os, subprocess, time
os.environ["GPIOZERO_PIN_FACTORY"] = "udrv"
os.environ["GPIOZERO_UDRV_CHIP"] = "gpio-wire"
from gpiozero import PWMLED, AngularServo, Motor, Servo, TonalBuzzer
from gpiozero.tones import Tone
mon = subprocess.Popen(["udrv", "gpio", "mon", "-c", "gpio-wire", "-S", "1024", "--json",
                        "-t", "300ms", "{inp}"], stdout=subprocess.PIPE, text=True)
time.sleep(0.1)  # guest time: mon has the line
{device}
dev.close()
out, _ = mon.communicate(timeout=60)
print(json.dumps([json.loads(x) for x in out.splitlines() if x.strip()]))
"""
# each device on wire1-out as a program drives it, and the waveform it must
# put there: (period, pulse) in ns
DEVICES = {
    # 1 kHz, a quarter on
    "PWMLED": ("dev = PWMLED({out}, frequency=1000); dev.value = 0.25; time.sleep(0.05)",
               1_000_000, 250_000),
    # 20 ms frames, 1 to 2 ms: the middle
    "Servo": ("dev = Servo({out}); dev.mid(); time.sleep(0.21)", 20_000_000, 1_500_000),
    # 45 degrees of -90..90: three quarters of 1..2 ms
    "AngularServo": ("dev = AngularServo({out}, min_angle=-90, max_angle=90); "
                     "dev.angle = 45; time.sleep(0.21)", 20_000_000, 1_750_000),
    # half speed forward: the forward pin at gpiozero's 100 Hz, half on (the
    # backward pin, wire2-out, held low)
    "Motor": ("dev = Motor(forward={out}, backward=4); dev.forward(0.5); time.sleep(0.1)",
              10_000_000, 5_000_000),
    # A4: 440 Hz, half on (the period as the factory rounds 1 s / 440 to ns)
    "TonalBuzzer": ("dev = TonalBuzzer({out}); dev.play(Tone(frequency=440.0)); "
                    "time.sleep(0.05)", round(1e9 / 440), round(1e9 / 440) // 2),
}


@pytest.mark.skipif(pyguest.udrv_missing() is not None, reason=str(pyguest.udrv_missing()))
@pytest.mark.lg_feature(["python"])
@pytest.mark.parametrize("device", list(DEVICES))
def test_gpiozero_through_the_factory(py_board: Board, device: str) -> None:
    code, period_ns, duty_ns = DEVICES[device]
    lines = python_json(py_board, GPIOZERO.format(device=code.format(out=OUT), inp=IN),
                        timeout=300)  # fmt: skip
    evs = edge_list(lines)
    assert lines[-1].get("lost") == 0, lines[-1]
    periods, pulses = waveform(evs)
    assert len(pulses) >= 4, evs
    assert near(periods, period_ns, WIDTH_ERROR_NS), periods
    assert near(pulses, duty_ns, WIDTH_ERROR_NS), pulses
    assert evs[-1][1] == "falling"  # closed: the line inactive
