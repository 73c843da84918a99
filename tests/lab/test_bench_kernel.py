# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench kernel: irqlat's samples in udrv's rows, checked against the module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from guest import Board, sh, udrv_bench

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["gpio-wire", "irqlat"])

# more than a page of text in /sys/kernel/irqlat/samples: read in pieces
SAMPLES = 2000
SYS = "/sys/kernel/irqlat"
PARAMS = "chip out in edge threaded passes timeout_ms delay_us"


def bench(board: Board, args: str) -> dict[str, Any]:
    r = udrv_bench(board, f"kernel --json --quiet --samples {SAMPLES} {args}", timeout=600)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    doc: dict[str, Any] = r.json()
    check_bench(doc)
    assert doc["bench"] == "kernel"
    return doc


def cat(board: Board, path: str) -> str:
    r = sh(board, f"cat {path}")
    assert r.status == 0, r.stderr
    return r.stdout


def module_stats(board: Board) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in cat(board, f"{SYS}/stats").splitlines())


def params(board: Board) -> str:
    return sh(board, f"cd /sys/module/irqlat/parameters && cat {PARAMS}").stdout


@pytest.fixture
def unchanged_params(board: Board) -> Iterator[None]:
    before = params(board)
    yield
    assert params(board) == before, "udrv-bench kernel did not put the parameters back"


def check_row_is_last_run(board: Board, row: dict[str, Any], mode: str) -> None:
    st = module_stats(board)
    s = row["stats"]
    assert st["mode"] == mode and int(st["passes"]) == SAMPLES
    assert row["loss"] == {"sent": SAMPLES, "received": SAMPLES - int(st["missed"]),
                           "lost": int(st["missed"])}
    assert s["count"] == int(st["samples"]) == SAMPLES - int(st["missed"])
    assert s["min"] == int(st["min_ns"]) and s["max"] == int(st["max_ns"])
    assert int(s["avg"]) == int(st["avg_ns"])
    # the samples file: one value per line, read whole and in odd pieces
    text = cat(board, f"{SYS}/samples")
    values = [int(v) for v in text.split()]
    assert len(values) == s["count"] and text.count("\n") == s["count"]
    assert min(values) == s["min"] and max(values) == s["max"]
    assert sum(values) // len(values) == int(st["avg_ns"])
    pieces = sh(board, f"dd if={SYS}/samples bs=7 2>/dev/null").stdout
    assert pieces == text
    # and the module's histogram counts the same values
    for line in cat(board, f"{SYS}/histogram").splitlines()[1:]:
        lo, hi, n = line.split()
        top = float("inf") if hi == "inf" else int(hi)
        assert sum(1 for v in values if int(lo) <= v < top) == int(n), line


def test_hardirq(board: Board, unchanged_params: None) -> None:
    doc = bench(board, "")
    assert len(doc["rows"]) == 1
    row = doc["rows"][0]
    assert (row["mechanism"], row["implementation"], row["wait"], row["sample"]) == (
        "irqlat", "kernel", None, "trigger_to_isr")
    assert row["loss"]["lost"] == 0
    check_row_is_last_run(board, row, "hardirq")
    st = module_stats(board)
    assert (st["chip"], st["out"], st["in"], st["edge"]) == ("gpio-wire", "2", "3", "both")


def test_threaded(board: Board, unchanged_params: None) -> None:
    doc = bench(board, "--threaded --edge rising --out-line 4")
    keys = [(r["mechanism"], r["implementation"], r["wait"], r["sample"]) for r in doc["rows"]]
    assert keys == [("irqlat", "kernel", None, "trigger_to_isr"),
                    ("irqlat", "kernel", "threaded", "trigger_to_isr")]
    hard, threaded = doc["rows"]
    # the irq thread's wake-up comes on top of the hard interrupt
    assert threaded["stats"]["min"] > hard["stats"]["min"]
    check_row_is_last_run(board, threaded, "threaded")
    st = module_stats(board)
    assert (st["out"], st["in"], st["edge"]) == ("4", "5", "rising")


def test_bad_options(board: Board) -> None:
    r = udrv_bench(board, "kernel --duration 1s")
    assert r.status == 2 and "--duration" in r.stderr
    r = udrv_bench(board, "kernel --samples 1000001")
    assert r.status == 2 and "1000000" in r.stderr
    r = udrv_bench(board, "kernel --edge sideways")
    assert r.status == 2
    r = udrv_bench(board, "kernel -c no-such-chip")
    assert r.status == 1 and "no-such-chip" in r.stderr


def test_line_busy(board: Board, unchanged_params: None) -> None:
    r = sh(board, "udrv gpio mon -c gpio-wire -n 1 -t 3s 3 >/dev/null & sleep 1; "
                  "udrv-bench kernel --samples 10; echo status $?; wait")
    assert "status 1" in r.stdout and "busy" in r.stderr, r.stderr


def test_module_not_loaded(board: Board) -> None:
    ko = sh(board, "find /lib/modules -name irqlat.ko").stdout.strip()
    assert ko, "irqlat.ko not in the guest"
    assert sh(board, "rmmod irqlat").status == 0
    try:
        r = udrv_bench(board, "kernel --samples 10")
        assert r.status == 1
        assert "/sys/kernel/irqlat" in r.stderr and "modprobe irqlat" in r.stderr
    finally:
        assert sh(board, f"insmod {ko}").status == 0
    assert cat(board, f"{SYS}/run").strip() == "idle"
