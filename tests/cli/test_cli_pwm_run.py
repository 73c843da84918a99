# SPDX-License-Identifier: GPL-2.0-only
"""`udrv pwm run`: libudrv's software PWM on a GPIO line of the fake
character device (tests/daemon/fake_cdev.c, preloaded: its state file has
each line's holder pid, direction and physical level). Bad input is exit 2
with its message and no line requested; a run toggles the line, leaves it
inactive and prints counts that add up; SIGTERM and SIGINT end an
until-killed run with exit 0. No sleeps: a test waits for what the fake
line shows, with a guard (TIMEOUT_S), never for a length of time."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_gpio import fake_chip, fake_env, line_state
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import TIMEOUT_S

LINE = 3
LED = ["-c", "0", "--frequency", "100", "--duty-cycle", "50"]


@pytest.fixture
def chip(tree: FakeTree) -> FakeTree:
    """gpiochip0 'fake-a', 8 lines (line 3 named LED), fake_cdev's."""
    fake_chip(tree, "fake-a", 8, ["", "", "", "LED", "", "", "", ""])
    return tree


def run(udrv_bin: Path, t: FakeTree, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(udrv_bin), "pwm", "run", *args], env=fake_env(t),
                          capture_output=True, text=True, timeout=TIMEOUT_S,
                          stdin=subprocess.DEVNULL, check=False)  # fmt: skip


def line(t: FakeTree) -> tuple[int, str, int]:
    """Line LINE as the fake has it: (holder pid or 0, in/out, physical level);
    (0, "in", 0) before anyone requested a line."""
    if not t.path("dev/gpiochip0.state").exists():
        return (0, "in", 0)
    holder, d, level, *_ = line_state(t, LINE)
    return (int(holder), d, int(level))


def counts_add_up(doc: dict[str, Any]) -> None:
    """The thread's counts of a pulse (0 < duty < period): the first
    pulse is driven at the start, a pulse under way always ends, and each
    period is driven (a rising and a falling edge) or skipped (none)."""
    assert doc["periods"] >= 1, doc
    assert 0 <= doc["skipped"] <= doc["missed"] <= doc["periods"], doc
    assert doc["edges"] >= 2, doc
    assert doc["edges"] == 2 * (doc["periods"] - doc["skipped"]), doc


BAD = [
    ([*LED[:2], "--period", "0", "--duty", "0", "3"], "--period 0: a PWM needs a period above 0"),
    ([*LED[:2], "--period", "1ms", "--duty", "2ms", "3"], "--duty 2ms is longer than the period"),
    ([*LED[:2], "--frequency", "1000", "--duty", "2ms", "3"], "is longer than the period"),
    ([*LED[:2], "--period", "18446744073709551616", "--duty", "0", "3"],
     "bad --period '18446744073709551616': beyond 64 bits of ns"),
    ([*LED[:2], "--period", "-1ms", "--duty", "0", "3"], "bad --period '-1ms'"),
    ([*LED[:2], "--frequency", "nan", "--duty", "0", "3"], "bad --frequency 'nan'"),
    ([*LED[:2], "--frequency", "inf", "--duty", "0", "3"], "bad --frequency 'inf'"),
    ([*LED[:2], "--frequency", "", "--duty", "0", "3"], "bad --frequency ''"),
    ([*LED[:4], "--duty-cycle", "", "3"], "bad --duty-cycle ''"),
    ([*LED[:4], "--duty-cycle", "100.5", "3"], "bad --duty-cycle '100.5'"),
    ([*LED[:4], "--duty", "nan", "3"], "bad --duty 'nan'"),
    ([*LED[:4], "3"], "give the duty cycle: --duty T or --duty-cycle PCT"),
    ([*LED[:2], "--duty", "1ms", "3"], "give the period"),
    ([*LED[:2], "--frequency", "200000", "--duty", "0", "3"],
     "the software PWM takes 10000 ns (100 kHz) to 60000000000 ns (60 s)"),
    ([*LED[:2], "--period", "61s", "--duty", "0", "3"], "the software PWM takes"),
    ([*LED, "--polarity", "up", "3"], "bad --polarity 'up': normal or inversed"),
    ([*LED, "--duration", "", "3"], "bad --duration ''"),
    ([*LED, "--duration", "0", "3"], "bad --duration '0'"),
    ([*LED, "--duration", "-1s", "3"], "bad --duration '-1s'"),
    ([*LED, "--duration", "inf", "3"], "bad --duration 'inf'"),
    ([*LED, "--duration", "8d", "3"], "bad --duration '8d'"),
    ([*LED, "--priority", "0", "3"], "bad --priority '0': a SCHED_FIFO priority, 1 to 99"),
    ([*LED, "--priority", "100", "3"], "bad --priority '100'"),
    ([*LED, "--cpu", "-1", "3"], "bad --cpu '-1'"),
    ([*LED, "--cpu", "", "3"], "bad --cpu ''"),
    ([*LED, "--tail", "2ms", "3"], "bad --tail '2ms': a time above 0 and at most 1000000 ns"),
    ([*LED, "--late", "0", "3"], "bad --late '0'"),
    ([*LED, "--late", "5s", "3"], "bad --late '5s'"),
    ([*LED, "--hold", "forever", "3"], "bad --hold 'forever'"),
    ([*LED, "--hold", "daemon", "-b", "sysfs", "3"], "--hold daemon: udrvd holds lines"),
    ([*LED, "--drive", "fast", "3"], "unknown drive 'fast'"),
    ([*LED, "--bogus", "3"], "bad option"),
    ([*LED, ""], "empty line name"),
    ([*LED], "which line? give LINE"),
    ([*LED, "3", "4"], "unexpected argument '4'"),
    (["--servo-us", "1500", "--duty", "1ms", "LED"], "--servo-us gives the pulse"),
    (["--servo-us", "1500", "--frequency", "50.5", "LED"],
     "--frequency 50.5 with --servo-us: a servo's frame rate in whole Hz"),
    (["--servo-us", "1500", "--frequency", "1000", "LED"],
     "a pulse of up to 2000 us (--servo-max) leaves no gap in a frame of 1000 Hz"),
    (["--servo-us", "1500", "--servo-min", "2000", "--servo-max", "1000", "LED"],
     "the servo's range, 2000 to 1000 us, is empty"),
    (["--servo-us", "-1", "LED"], "bad --servo-us '-1': whole microseconds"),
    (["--servo-us", "4294967296", "LED"], "bad --servo-us '4294967296'"),
    ([*LED, "--servo-max", "2500", "LED"], "--servo-min and --servo-max go with --servo-us"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_exit_2_and_requests_nothing(udrv_bin: Path, chip: FakeTree,
                                                  args: list[str],
                                                  message: str) -> None:  # fmt: skip
    res = run(udrv_bin, chip, *args)
    assert res.returncode == 2, res
    assert message in res.stderr, res.stderr
    assert res.stdout == ""
    assert line(chip) == (0, "in", 0)  # checked before the line was requested


def test_a_run_toggles_the_line_and_leaves_it_inactive(udrv_bin: Path,
                                                       chip: FakeTree) -> None:  # fmt: skip
    res = run(udrv_bin, chip, *LED, "--duration", "200ms", "--json", "3")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert {k: doc[k] for k in ("chip", "line", "offset", "period_ns", "duty_ns", "polarity",
                                "ended")} == \
        {"chip": "gpiochip0", "line": "3", "offset": LINE, "period_ns": 10000000,
         "duty_ns": 5000000, "polarity": "normal", "ended": "duration"}  # fmt: skip
    counts_add_up(doc)
    assert line(chip) == (0, "out", 0)  # released, inactive


def test_the_text_counts(udrv_bin: Path, chip: FakeTree) -> None:
    res = run(udrv_bin, chip, "--period", "1ms", "--duty", "250us",
              "--duration", "50ms", "LED")  # fmt: skip
    assert res.returncode == 0, res.stderr
    head, counts = res.stdout.splitlines()
    assert head == ("gpiochip0 line 3 (LED): period 1000000 ns (1000 Hz), duty cycle 250000 ns "
                    "(25%), polarity normal; ended by duration, the line left inactive")
    m = re.fullmatch(r"periods (\d+), missed (\d+), skipped (\d+), edges (\d+), "
                     r"worst lateness (\d+) ns", counts)
    assert m, counts
    counts_add_up(dict(zip(("periods", "missed", "skipped", "edges"), map(int, m.groups()),
                           strict=False)))


@pytest.mark.parametrize(("pct", "level"), [("0", 0), ("100", 1)])
def test_a_steady_level_has_no_edges_after_the_first(udrv_bin: Path, chip: FakeTree, pct: str,
                                                     level: int) -> None:  # fmt: skip
    """0 % and 100 %: the line driven once (libudrv counts that first level
    as an edge: edges is 1, however long it runs), then left inactive."""
    proc = start(udrv_bin, chip, "-c", "0", "--frequency", "1000", "--duty-cycle",
                 pct, "--json", "3")  # fmt: skip
    try:
        wait_line(chip, lambda h, d, v: h == proc.pid and d == "out" and v == level)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=TIMEOUT_S)
    finally:
        proc.kill()
    assert proc.returncode == 0
    doc = json.loads(out)
    assert (doc["edges"], doc["skipped"], doc["ended"]) == (1, 0, "SIGTERM"), doc
    assert doc["periods"] >= 1, doc
    assert line(chip) == (0, "out", 0)


def test_inversed_leaves_the_line_high(udrv_bin: Path, chip: FakeTree) -> None:
    res = run(udrv_bin, chip, *LED, "--polarity", "inversed", "--duration", "50ms",
              "--json", "3")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["polarity"] == "inversed"
    counts_add_up(json.loads(res.stdout))
    assert line(chip) == (0, "out", 1)  # inactive is high


def test_a_servo_pulse_is_clamped_and_said(udrv_bin: Path, chip: FakeTree) -> None:
    res = run(udrv_bin, chip, "--servo-us", "2500", "--duration", "50ms", "--json",
              "LED")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "--servo-us 2500 is outside the servo's range, 1000 to 2000 us: clamped to 2000 us" \
        in res.stderr  # fmt: skip
    doc = json.loads(res.stdout)
    assert (doc["period_ns"], doc["duty_ns"]) == (20000000, 2000000)
    counts_add_up(doc)
    res = run(udrv_bin, chip, "--servo-us", "2500", "--servo-max", "2500",
              "--frequency", "333", "--duration", "20ms", "--json", "LED")  # fmt: skip
    assert res.returncode == 0 and "clamped" not in res.stderr, res.stderr
    doc = json.loads(res.stdout)
    assert (doc["period_ns"], doc["duty_ns"]) == (3003003, 2500000)


def start(udrv_bin: Path, t: FakeTree, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([str(udrv_bin), "pwm", "run", *args], env=fake_env(t),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip


def wait_line(t: FakeTree, holds: Any) -> None:
    """Until the fake line satisfies @holds(holder, dir, level), with a guard."""
    deadline = time.monotonic() + TIMEOUT_S
    while not holds(*line(t)):
        assert time.monotonic() < deadline, f"the line stays {line(t)}"
        time.sleep(0.001)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_an_until_killed_run(udrv_bin: Path, chip: FakeTree,
                                           sig: signal.Signals) -> None:  # fmt: skip
    """The line seen high, then low, while udrv holds it: the PWM runs; then
    the signal ends it, exit 0, the line released inactive."""
    proc = start(udrv_bin, chip, *LED, "--json", "3")
    try:
        wait_line(chip, lambda h, d, v: h == proc.pid and d == "out" and v == 1)
        wait_line(chip, lambda h, d, v: h == proc.pid and v == 0)
        wait_line(chip, lambda h, d, v: h == proc.pid and v == 1)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=TIMEOUT_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    doc = json.loads(out)
    assert doc["ended"] == sig.name, doc
    counts_add_up(doc)
    assert doc["edges"] >= 3, doc  # it rose twice
    assert line(chip) == (0, "out", 0)


def test_a_signal_before_the_start_is_not_lost(udrv_bin: Path, chip: FakeTree) -> None:  # fmt: skip
    """SIGTERM blocked before the line is requested: one that comes at any
    moment after that ends the run (exit 0), never kills udrv mid-way."""
    proc = start(udrv_bin, chip, *LED, "--json", "3")
    try:
        wait_line(chip, lambda h, d, v: h == proc.pid)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=TIMEOUT_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out)["ended"] == "SIGTERM"
    assert line(chip) == (0, "out", 0)


def test_a_busy_line_is_exit_1(udrv_bin: Path, chip: FakeTree) -> None:
    proc = start(udrv_bin, chip, *LED, "3")
    try:
        wait_line(chip, lambda h, d, v: h == proc.pid)
        res = run(udrv_bin, chip, *LED, "--duration", "1s", "LED")
        assert res.returncode == 1 and res.stderr.startswith("udrv: "), res.stderr
        assert res.stdout == ""
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(TIMEOUT_S) == 0
    finally:
        proc.kill()


def test_rt_options_run_or_fail_with_the_librarys_word(udrv_bin: Path,
                                                       chip: FakeTree) -> None:  # fmt: skip
    """SCHED_FIFO without the right (RLIMIT_RTPRIO 0, no CAP_SYS_NICE, as a
    user): exit 1 with the library's message; as root it runs."""
    res = run(udrv_bin, chip, *LED, "--priority", "50", "--cpu", "0",
              "--lock-memory", "--tail", "20us", "--late", "1ms", "--duration", "30ms",
              "--json", "3")  # fmt: skip
    if res.returncode == 0:
        counts_add_up(json.loads(res.stdout))
    else:
        assert res.returncode == 1, res
        assert "soft PWM" in res.stderr, res.stderr
    assert line(chip) == (0, "out", 0)


def test_help_teaches_and_pwm_lists_run(udrv_bin: Path) -> None:
    top = subprocess.run([str(udrv_bin), "pwm", "--help"], capture_output=True, text=True,
                         check=False).stdout  # fmt: skip
    assert "  run        a software PWM on a GPIO line" in top
    text = subprocess.run([str(udrv_bin), "pwm", "run", "--help"], capture_output=True,
                          text=True, check=False).stdout  # fmt: skip
    assert "udrv pwm run --frequency 1000 --duty-cycle 25 GPIO17     (an LED at 1 kHz, 25%)" \
        in text  # fmt: skip
    assert "udrv pwm run --servo-us 1500 GPIO18" in text
    for opt in ("--duration", "--priority", "--cpu", "--lock-memory", "--tail", "--late",
                "--hold daemon", "--servo-us", "--json"):
        assert opt in text, opt
