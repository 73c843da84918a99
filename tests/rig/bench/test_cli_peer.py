# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench-peer's command line (rig/bench/peers/): usage errors exit 2 with a
message, runtime failures exit 1, version and --help exit 0.

The peer is built beside the udrv-bench under test (build/dev/rig/bench/peers/);
$UDRV_BENCH_PEER names another one. Without libgpiod 2.3's sources
(scripts/fetch-peers) it is not built and these tests are skipped.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.udrv_runner import bench_peer


@pytest.fixture(scope="module")
def peer() -> Path:
    return bench_peer("udrv-bench-peer", "UDRV_BENCH_PEER")


def run(peer: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(peer), *args], input=stdin, capture_output=True, text=True,
                          timeout=30)


USAGE: list[tuple[list[str], str]] = [
    ([], "unknown command ''"),
    (["bogus"], "unknown command 'bogus'"),
    (["version", "x"], "unknown command 'version'"),
    (["toggle"], "needs --chip"),
    (["toggle", "--chip", "/dev/gpiochip0"], "needs the line"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "-1"], "bad --line '-1'"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "1x"], "bad --line '1x'"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", " 1"], "bad --line ' 1'"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "65535"], "bad --line '65535'"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "0", "--batch", "2"], "takes no --batch"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "0", "extra"], "unexpected argument"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "0", "--nope"], "unknown option"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line"], "missing value"),
    (["irq", "--chip", "/dev/gpiochip0", "--out-line", "2"], "needs --samples and --level"),
    (["irq", "--chip", "/dev/gpiochip0", "--out-line", "2", "--samples", "5", "--level", "2"],
     "bad --level '2'"),
    (["irq", "--chip", "/dev/gpiochip0", "--out-line", "2", "--samples", "5x",
      "--level", "0"], "bad --samples '5x'"),
    (["irq", "--chip", "/dev/gpiochip0", "--out-line", "2", "--samples", "5", "--level", "0",
      "--buffer", "4"], "takes no --batch, --buffer"),
    (["toggle", "--chip", "/dev/gpiochip0", "--line", "0", "--ready"], "toggle takes no --ready"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1", "--ready"],
     "rx takes no --ready"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1"], "needs --batch"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "0"], "bad --batch '0'"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1025"], "bad --batch '1025'"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1", "--buffer", "-1"],
     "bad --buffer '-1'"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1", "--max-samples", ""],
     "bad --max-samples ''"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1", "--samples", "3"],
     "takes no --samples"),
    (["rx", "--chip", "/dev/gpiochip0", "--line", "1", "--batch", "1", "--level", "1"],
     "takes no --level"),
]


@pytest.mark.parametrize(("args", "message"), USAGE, ids=[" ".join(a) or "none" for a, _ in USAGE])
def test_usage_errors_exit_2(peer: Path, args: list[str], message: str) -> None:
    r = run(peer, *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("cmd", [
    ["toggle", "--line", "0"],
    ["irq", "--out-line", "2", "--samples", "3", "--level", "0"],
    ["rx", "--line", "1", "--batch", "1"],
])
def test_a_failing_request_exits_1(peer: Path, tmp_path: Path, cmd: list[str]) -> None:
    """No chip there, or a file that is not a GPIO chip: a message naming it, exit 1."""
    for chip in (str(tmp_path / "gpiochip9"), "/dev/null"):
        r = run(peer, cmd[0], "--chip", chip, *cmd[1:])
        assert r.returncode == 1, r
        assert chip in r.stderr and "libgpiod" in r.stderr, r.stderr
        assert "ready" not in r.stdout


def test_version_and_help(peer: Path) -> None:
    r = run(peer, "version")
    assert (r.returncode, r.stdout) == (0, "libgpiod 2.3\n"), r
    r = run(peer, "--help")
    assert r.returncode == 0
    for word in ("toggle", "irq", "rx", "--batch", "--buffer", "--max-samples", "--break",
                 "--ready", "seqno_first", "cpu_sys_ns"):
        assert word in r.stdout, word
