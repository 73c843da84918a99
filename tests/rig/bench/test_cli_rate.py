# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench rate: its help, bad command lines (exit 2, before anything is
touched), and failures without a source (exit 1). The lab
(tests/lab/test_bench_rate.py) sweeps real sources."""

from __future__ import annotations

import pytest

from tests.support.fakes import FakeTree, rt_system
from tests.support.udrv_runner import Runner

QUIET = ["-P", "0", "--no-mlock", "--no-dma-latency", "-q"]


def test_help_teaches_the_sweep(bench: Runner) -> None:
    r = bench("rate", "--help")
    assert r.returncode == 0, r
    for word in ("--rates", "--step-duration", "--batch", "--buffer", "--mechanisms",
                 "--impls", "--refine", "--line", "gen_edges", "knee", "lost", "dropped", "masked",
                 "cdev-batch", "uio-poll", "libgpiod-2.3", "UDRV_BENCH_PEER",
                 "--irq-prio", "FIFO 50"):
        assert word in r.stdout, f"bench rate --help lacks {word}"
    assert "rate" in bench("--help").stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--rates", ""], "bad --rates ''"),
    (["--rates", "0"], "bad --rates '0'"),
    (["--rates", "-5"], "bad --rates '-5'"),
    (["--rates", "5,3"], "the rates must increase"),
    (["--rates", "5,5"], "the rates must increase"),
    (["--rates", "1k,"], "bad --rates '1k,'"),
    (["--rates", ",1k"], "bad --rates ',1k'"),
    (["--rates", "2M"], "bad --rates '2M'"),
    (["--rates", "1000001"], "bad --rates '1000001'"),
    (["--rates", "1.5k"], "bad --rates '1.5k'"),
    (["--rates", "1K"], "bad --rates '1K'"),
    (["--rates", "k"], "bad --rates 'k'"),
    (["--rates", " 1k"], "bad --rates ' 1k'"),
    (["--rates", "1e3"], "bad --rates '1e3'"),
    (["--rates", ",".join(str(i) for i in range(1, 26))], "more than 24 rates"),
    (["--step-duration", "0"], "bad --step-duration '0'"),
    (["--step-duration", "500us"], "bad --step-duration '500us'"),
    (["--step-duration", "2m"], "bad --step-duration '2m'"),
    (["--step-duration", "soon"], "bad --step-duration 'soon'"),
    (["--batch", "1"], "bad --batch '1'"),
    (["--batch", "1025"], "bad --batch '1025'"),
    (["--batch", "16x"], "bad --batch '16x'"),
    (["--buffer", "0"], "bad --buffer '0'"),
    (["--buffer", "2048"], "bad --buffer '2048'"),
    (["--batch", "64", "--buffer", "32"], "--buffer 32 is below --batch 64"),
    (["--refine", "9"], "bad --refine '9'"),
    (["--refine", "-1"], "bad --refine '-1'"),
    (["--line", "2"], "bad --line '2'"),
    (["--line", "0"], "bad --line '0'"),
    (["--line", "65"], "bad --line '65'"),
    (["--mechanisms", "dma"], "unknown mechanism 'dma'"),
    (["--mechanisms", ""], "bad --mechanisms ''"),
    (["--impls", "libgpiod"], "unknown implementation 'libgpiod'"),
    (["--impls", "libgpiod-2.3", "--mechanisms", "uio-read"], "no receiver left"),
    (["-n", "100"], "-n/--samples and -D/--duration do not apply"),
    (["-D", "1s"], "-n/--samples and -D/--duration do not apply"),
    (["extra"], "unexpected argument 'extra'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_command_line_exits_2(bench: Runner, args: list[str], message: str) -> None:
    r = bench("rate", *QUIET, *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "Try 'udrv-bench rate --help'" in r.stderr, r


def test_no_gpio_wire_exits_1(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    r = bench("rate", *QUIET, "--mechanisms", "cdev", "--rates", "1k")
    assert r.returncode == 1, r
    assert "gpio-wire" in r.stderr, r


def test_no_ticker_exits_1(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree)
    r = bench("rate", *QUIET, "--mechanisms", "uio-read", "--rates", "1k")
    assert r.returncode == 1, r
    assert "uio-ticker" in r.stderr and "--mechanisms cdev,cdev-batch" in r.stderr, r
