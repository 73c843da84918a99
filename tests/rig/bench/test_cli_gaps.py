# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench gaps on a fake tree: its help, bad command lines (exit 2),
failures (exit 1), and --rt-runtime's write and restore of
proc/sys/kernel/sched_rt_runtime_us (under UDRV_SYSROOT, where libudrv reads
it), after the run and after SIGTERM. --no-line and SCHED_OTHER: no line, no
privileges needed. The lab (tests/lab/test_bench_gaps.py) measures the gaps."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from rig.results.check import check_bench
from rig.results.schema import Invalid
from tests.support.fakes import FakeTree, rt_system
from tests.support.udrv_runner import Runner

RUNTIME = "proc/sys/kernel/sched_rt_runtime_us"
# no line, no real-time settings: runs anywhere, as any user
QUIET = ["--no-line", "-P", "0", "--no-mlock", "--no-dma-latency", "-q"]


@pytest.fixture
def system(tree: FakeTree) -> FakeTree:
    rt_system(tree)
    return tree


def test_help_teaches_the_expected_gap(bench: Runner) -> None:
    r = bench("gaps", "--help")
    assert r.returncode == 0, r
    for opt in ("--chip", "--line", "--backend", "--no-line", "--gap-threshold",
                "--rt-runtime", "--duration", "period - runtime", "sched_rt_runtime_us",
                "SIGTERM"):
        assert opt in r.stdout, f"bench gaps --help lacks {opt}"
    assert "gaps" in bench("--help").stdout


def test_backends_are_libudrvs(bench: Runner, system: FakeTree) -> None:
    """--backend's list, in the help and a bad value's message, is libudrv's
    (udrv_backend_str() over enum udrv_backend), every backend once."""
    names = "cdev, sysfs or mmio"
    assert f"-b, --backend B     {names} (default cdev)" in bench("gaps", "--help").stdout
    r = bench("gaps", *QUIET, "--backend", "gpiomem")
    assert r.returncode == 2, r
    assert f"bad --backend 'gpiomem': {names}\n" in r.stderr, r


@pytest.mark.parametrize(("args", "message"), [
    (["--rt-runtime", "-2"], "bad --rt-runtime '-2'"),
    (["--rt-runtime", "0"], "bad --rt-runtime '0'"),
    (["--rt-runtime", ""], "bad --rt-runtime ''"),
    (["--rt-runtime", "950000x"], "bad --rt-runtime '950000x'"),
    (["--rt-runtime", "1e6"], "bad --rt-runtime '1e6'"),
    (["--rt-runtime", " 5"], "bad --rt-runtime ' 5'"),
    (["--rt-runtime", "-1.0"], "bad --rt-runtime '-1.0'"),
    (["--rt-runtime", "99999999999"], "bad --rt-runtime '99999999999'"),
    (["--rt-runtime", "1000001"], "--rt-runtime 1000001: above sched_rt_period_us 1000000"),
    (["--gap-threshold", "0"], "bad --gap-threshold '0'"),
    (["--gap-threshold", "soon"], "bad --gap-threshold 'soon'"),
    (["--gap-threshold", "-1ms"], "bad --gap-threshold '-1ms'"),
    (["--line", "-1"], "bad --line '-1'"),
    (["--line", "1024"], "bad --line '1024'"),
    (["--backend", "gpiomem"], "bad --backend 'gpiomem'"),
    (["--duration", "0"], "bad --duration '0'"),
    (["extra"], "unexpected argument 'extra'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_command_line_exits_2(bench: Runner, system: FakeTree, args: list[str],
                                  message: str) -> None:
    r = bench("gaps", *QUIET, *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "Try 'udrv-bench gaps --help'" in r.stderr, r
    assert system.read(RUNTIME) == "950000\n"


def test_no_throttling_settings_exits_1(bench: Runner, tree: FakeTree) -> None:
    rt_system(tree, rt_runtime_us=None, rt_period_us=None)
    r = bench("gaps", *QUIET, "-D", "1ms")
    assert r.returncode == 1, r
    assert "cannot read /proc/sys/kernel/sched_rt_runtime_us" in r.stderr, r


def test_no_chip_exits_1(bench: Runner, system: FakeTree) -> None:
    r = bench("gaps", "-P", "0", "--no-mlock", "--no-dma-latency", "-q", "-D", "1ms")
    assert r.returncode == 1, r
    assert "gpio-wire" in r.stderr and "--no-line" in r.stderr, r


def test_document_without_rt_runtime(bench: Runner, system: FakeTree) -> None:
    r = bench("gaps", *QUIET, "-D", "20ms", "--gap-threshold", "1us", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    check_bench(doc)
    g = doc["gaps"]
    assert g["sched_rt_runtime_us"] == 950000 and g["sched_rt_period_us"] == 1000000
    assert g["sched_rt_runtime_us_before"] is None  # not set by the bench
    assert g["expected_gap_ns"] is None  # SCHED_OTHER is not throttled
    assert g["threshold_ns"] == 1000
    row = doc["rows"][0]
    assert (row["mechanism"], row["implementation"], row["sample"]) == \
        ("clock", "udrv", "toggle_gap")
    assert row["stats"]["count"] == g["toggles"] > 0
    assert row["loss"] is None  # nothing toggled, nothing to count at a source


def test_rt_runtime_set_for_the_run_and_put_back(bench: Runner, system: FakeTree) -> None:
    r = bench("gaps", *QUIET, "-D", "10ms", "--rt-runtime", "-1", "--json")
    assert r.returncode == 0, r
    g = r.json()["gaps"]
    assert g["sched_rt_runtime_us"] == -1  # read back while measuring
    assert g["sched_rt_runtime_us_before"] == 950000
    assert system.read(RUNTIME) == "950000\n"
    # the table says it too
    r = bench("gaps", *QUIET, "-D", "10ms", "--rt-runtime", "900000")
    assert r.returncode == 0, r
    assert "sched_rt_runtime_us 900000 of sched_rt_period_us 1000000 (set for the run)" in r.stdout
    assert system.read(RUNTIME) == "950000\n"


def test_expected_gap_at_fifo_is_period_minus_runtime(bench: Runner, system: FakeTree) -> None:
    """The expectation only: at FIFO on the host a real loop would be throttled
    by the host's own setting, so the gaps are not asserted here."""
    r = bench("gaps", "--no-line", "-P", "1", "--no-mlock", "--no-dma-latency", "-q",
             "-D", "1ms", "--rt-runtime", "800000", "--json")
    if r.returncode == 1 and "SCHED_FIFO" in r.stderr:
        pytest.skip("no permission for SCHED_FIFO here")
    assert r.returncode == 0, r
    assert r.json()["gaps"]["expected_gap_ns"] == 200_000_000


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_puts_the_runtime_back(bench: Runner, system: FakeTree,
                                      sig: signal.Signals) -> None:
    out = system.root / "gaps.json"
    proc = bench.start("gaps", *QUIET, "-D", "60s", "--rt-runtime", "600000",
                      "--out", str(out))
    try:
        deadline = time.monotonic() + 10
        while system.read(RUNTIME) != "600000\n" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert system.read(RUNTIME) == "600000\n", "the bench never set the runtime"
        time.sleep(0.1)
        proc.send_signal(sig)
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"udrv-bench gaps still running 10 s after {sig.name}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + sig, err
    assert f"interrupted by {sig.name}".encode() in err
    assert system.read(RUNTIME) == "950000\n"
    doc = json.loads(out.read_text())
    check_bench(doc)
    assert doc["interrupted"] == sig.name and doc["gaps"]["sched_rt_runtime_us"] == 600000


def test_suite_command_lines() -> None:
    """What `make lab` runs (rig/lab/suite/qemu.py): the kernel's setting, then -1."""
    from rig.lab.suite import qemu as suite

    assert suite.gaps_command("none", "full") == \
        "udrv-bench gaps --json --quiet --load none --duration 5s"
    assert suite.gaps_command("all", "quick", "-1") == \
        "udrv-bench gaps --json --quiet --load all --duration 3s --rt-runtime -1"


def test_timeline_is_bounded(bench: Runner, system: FakeTree) -> None:
    """Every interval a gap (threshold 1 ns): the first 1000 are listed, the
    rest counted as dropped, and the totals still agree."""
    r = bench("gaps", *QUIET, "-n", "5000", "--gap-threshold", "1ns", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    check_bench(doc)
    g = doc["gaps"]
    assert g["count"] == g["toggles"] == 5000
    assert len(g["timeline"]) == 1000 and g["timeline_dropped"] == 4000
    assert g["longest_ns"] == doc["rows"][0]["stats"]["max"]


def _gaps_doc(bench: Runner) -> dict:
    r = bench("gaps", *QUIET, "-n", "2000", "--gap-threshold", "1ns", "--json")
    assert r.returncode == 0, r
    doc = r.json()
    doc["gaps"]["timeline"] = doc["gaps"]["timeline"][:3]
    doc["gaps"]["timeline_dropped"] = doc["gaps"]["count"] - 3
    check_bench(doc)  # still consistent
    return doc


@pytest.mark.parametrize(("damage", "message"), [
    ("count", "count says"),
    ("order", "timeline out of order"),
    ("threshold", "gap < threshold"),
    ("stalled", "stalled longer than the run"),
    ("missing", "gaps.per_s: missing"),
])
def test_schema_check_sees_each_break(bench: Runner, system: FakeTree, damage: str,
                                      message: str) -> None:
    """rig.results' checks of the gaps object, each invariant broken on purpose."""
    doc = _gaps_doc(bench)
    g = doc["gaps"]
    if damage == "count":
        g["count"] += 1
    elif damage == "order":
        g["timeline"][0], g["timeline"][2] = g["timeline"][2], g["timeline"][0]
    elif damage == "threshold":
        g["threshold_ns"] = 10**12
        g["longest_ns"] = 10**12
    elif damage == "stalled":
        g["stalled_ns"] = g["duration_ns"] + 1
    else:
        del g["per_s"]
    with pytest.raises(Invalid, match=message):
        check_bench(doc)
