# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pwm and its lgpio peer (udrv-bench-lgpio) on the command line:
help, bad command lines (exit 2, a message naming the option), failures (exit
1). The measurements need a wired pair and a real kernel: tests/lab/
test_bench_pwm.py. The peer is built beside the udrv-bench under test
(peers/); without lgpio's sources (scripts/fetch-peers) its tests are skipped."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.fakes import FakeTree
from tests.support.udrv_runner import Runner, bench_peer

QUIET = ["-P", "0", "--no-mlock", "--no-dma-latency", "-q"]

BAD: list[tuple[list[str], str]] = [
    (["--pwm", "pwm-fixture"], "bad --pwm 'pwm-fixture': CHIP:CHANNEL"),
    (["--pwm", ":0"], "bad --pwm ':0'"),
    (["--pwm", "pwmchip0:"], "bad --pwm 'pwmchip0:'"),
    (["--pwm", "pwmchip0:-1"], "bad --pwm 'pwmchip0:-1'"),
    (["--pwm", "pwmchip0:65536"], "bad --pwm 'pwmchip0:65536'"),
    (["--gen", ""], "bad --gen ''"),
    (["--gen", "udrv,pigpio"], "bad --gen 'udrv,pigpio'"),
    (["--gen", "udrv,udrv"], "bad --gen 'udrv,udrv'"),
    (["--wave", "2khz"], "bad --wave '2khz'"),
    (["--gen-prio", "0"], "bad --gen-prio '0': 1..99"),
    (["--gen-prio", "100"], "bad --gen-prio '100'"),
    (["--gen-cpu", "-1"], "bad --gen-cpu '-1'"),
    (["--gen-cpu", "1x"], "bad --gen-cpu '1x'"),
    (["--tail", "0"], "bad --tail '0'"),
    (["--tail", "2ms"], "bad --tail '2ms'"),
    (["--tail", "nan"], "bad --tail 'nan'"),
    (["--out-line", "65535"], "bad --out-line '65535'"),
    (["--out-line", ""], "bad --out-line ''"),
    (["-c", ""], "bad --chip ''"),
    (["-n", "1"], "-n 1: a period needs two pulses"),
    (["extra"], "unexpected argument 'extra'"),
    (["--trace-on-spike", "0"], "bad --trace-on-spike '0'"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_command_line_exits_2(bench: Runner, args: list[str], message: str) -> None:
    r = bench("pwm", *QUIET, *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "Try 'udrv-bench pwm --help'" in r.stderr, r


def test_help_teaches(bench: Runner) -> None:
    r = bench("pwm", "--help")
    assert r.returncode == 0
    for word in ("hw", "udrv-tuned", "udrv-tail", "lgpio-tuned", "--gen-prio", "--tail",
                 "servo", "1khz", "pwm-fixture:0", "--trace-on-spike US, the first of udrv's",
                 "Example:"):
        assert word in r.stdout, word
    assert "pwm " in bench("--help").stdout


def test_no_chip_exits_1(bench: Runner, tree: FakeTree) -> None:
    r = bench("pwm", *QUIET, "-n", "2")
    assert r.returncode == 1, r
    assert "gpio-wire" in r.stderr, r


def test_trace_on_spike_is_taken(bench: Runner, tree: FakeTree) -> None:
    """pwm hands its pulses to --trace-on-spike (tests/lab/test_bench_pwm.py
    traces them): the option is taken, and fails only for want of the chip."""
    r = bench("pwm", *QUIET, "-n", "2", "--trace-on-spike", "1")
    assert r.returncode == 1, r
    assert "this bench hands no latency samples" not in r.stderr, r
    assert "gpio-wire" in r.stderr, r


# ---- udrv-bench-lgpio ------------------------------------------------------


@pytest.fixture(scope="module")
def peer() -> Path:
    return bench_peer("udrv-bench-lgpio", "UDRV_BENCH_LGPIO")


def run(peer: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(peer), *args], capture_output=True, text=True, timeout=30)


PWM = ["pwm", "--gpiochip", "0", "--line", "0", "--frequency", "1000", "--duty", "50",
       "--duration-ms", "10"]
PEER_BAD: list[tuple[list[str], str]] = [
    ([], "give a command: pwm or servo"),
    (["tx"], "unknown command 'tx'"),
    (["pwm", "x"], "unexpected argument 'x'"),
    (["pwm"], "pwm needs --gpiochip, --line, --frequency, --duty and --duration-ms"),
    (["servo", "--gpiochip", "0", "--line", "0", "--frequency", "50", "--duration-ms", "5"],
     "servo needs --gpiochip, --line, --frequency, --width-us and --duration-ms"),
    ([*PWM, "--width-us", "1500"], "pwm takes no --width-us"),
    ([*PWM[:-1], "0"], "must not be 0"),
    ([*PWM, "--duty", "101"], "bad --duty '101'"),
    ([*PWM, "--frequency", "10001"], "bad --frequency '10001'"),
    ([*PWM, "--frequency", "-1"], "bad --frequency '-1'"),
    ([*PWM, "--line", "1e3"], "bad --line '1e3'"),
    ([*PWM, "--gpiochip", ""], "bad --gpiochip ''"),
    ([*PWM, "--prio", "100"], "bad --prio '100'"),
    ([*PWM, "--cpu", "-2"], "bad --cpu '-2'"),
    ([*PWM, "--duration-ms", "3600001"], "bad --duration-ms '3600001'"),
    ([*PWM, "--bogus"], "unknown option or missing value: '--bogus'"),
    ([*PWM, "--prio"], "unknown option or missing value: '--prio'"),
]


@pytest.mark.parametrize(("args", "message"), PEER_BAD, ids=[" ".join(a) or "none"
                                                              for a, _ in PEER_BAD])
def test_peer_usage_errors_exit_2(peer: Path, args: list[str], message: str) -> None:
    r = run(peer, *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r.stderr
    assert r.stdout == ""


def test_peer_without_the_chip_exits_1(peer: Path) -> None:
    r = run(peer, *PWM[:2], "99", *PWM[3:])
    assert r.returncode == 1, r
    assert "lgGpiochipOpen: can not open gpiochip (lgpio error -78)" in r.stderr, r.stderr


def test_peer_help(peer: Path) -> None:
    r = run(peer, "--help")
    assert r.returncode == 0 and "lgpio 0.2.2.0" in r.stdout
    for word in ("lgTxPwm", "lgTxServo", "--prio", "--mlock", "SCHED_OTHER"):
        assert word in r.stdout, word
