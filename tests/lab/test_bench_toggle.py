# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toggle on rig/kernel/gpio-wire (quick: --samples 2000), both kernels."""

from __future__ import annotations

import math
from typing import Any

import pytest
from guest import CHIP, bench_ok, peer_without_mlock, sh, udrv_bench

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

SAMPLES = 2000  # toggles per row
SHELL_SAMPLES = SAMPLES // 20  # the shell row toggles 1/20 as often
BATCH = 256  # the default --batch
ROWS = [
    ("sysfs-shell", "sh"),
    ("sysfs", "raw"),
    ("sysfs", "udrv"),
    ("cdev", "raw"),
    ("cdev", "udrv"),
    ("cdev", "libgpiod-2.3"),
]
REFERENCES = {("sysfs", "udrv"): ("sysfs", "raw"), ("cdev", "udrv"): ("cdev", "raw")}

_docs: dict[tuple[str, str], dict[str, Any]] = {}


def bench(board: Any, args: str = "") -> dict[str, Any]:
    """The document of 'udrv-bench toggle --json' with ARGS, once per kernel."""
    key = (board.target, args)
    if key not in _docs:
        doc = bench_ok(board, f"toggle -c {CHIP} --json -q -n {SAMPLES} {args}", 300).json()
        check_bench(doc)
        _docs[key] = doc
    return _docs[key]


def rows(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["mechanism"], r["implementation"]): r for r in doc["rows"]}


def toggles(row: dict[str, Any]) -> int:
    return SHELL_SAMPLES if row["mechanism"] == "sysfs-shell" else SAMPLES


@pytest.mark.lg_std
def test_document(board: Any) -> None:
    doc = bench(board)
    assert doc["bench"] == "toggle"
    assert doc["rt"]["policy"] == "SCHED_FIFO" and doc["rt"]["priority"] == 80
    assert [(r["mechanism"], r["implementation"]) for r in doc["rows"]] == ROWS
    for row in doc["rows"]:
        assert row["sample"] == "toggle" and row["wait"] is None
        assert row["note"]
    by = rows(doc)
    note = by[("cdev", "libgpiod-2.3")]["note"]
    assert "libgpiod 2.3" in note and "uAPI v2" in note and "udrv-bench-peer" in note


def test_batches_and_rate(board: Any) -> None:
    for row in bench(board)["rows"]:
        stats = row["stats"]
        # one sample per batch of BATCH toggles: ns per toggle of that batch
        assert stats["count"] == math.ceil(toggles(row) / BATCH)
        assert stats["min"] > 0
        # toggles over the time in batches, the same time the samples cover
        assert row["rate_per_s"] > 0
        assert abs(row["rate_per_s"] * stats["avg"] / 1e9 - 1) < 0.1, row


def test_udrv_rows_reference_the_raw_loops(board: Any) -> None:
    by = rows(bench(board))
    for key, row in by.items():
        ref = row["reference"]
        if key not in REFERENCES:
            assert ref is None, key
            continue
        assert (ref["mechanism"], ref["implementation"]) == REFERENCES[key]
        raw = by[REFERENCES[key]]
        assert ref["ratio_avg"] == pytest.approx(
            row["stats"]["avg"] / raw["stats"]["avg"], rel=1e-3)
        assert ref["ratio_p50"] == pytest.approx(
            row["stats"]["p50"] / raw["stats"]["p50"], rel=1e-3)
    # udrv vs libgpiod 2.3, measured in the same run, is in the udrv row's note
    note = by[("cdev", "udrv")]["note"]
    ratio = float(note.split("vs libgpiod-2.3 x", 1)[1].split(" ")[0])
    assert ratio == pytest.approx(
        by[("cdev", "udrv")]["stats"]["avg"] / by[("cdev", "libgpiod-2.3")]["stats"]["avg"],
        abs=1e-3)


def test_every_toggle_is_an_edge_received_or_lost(board: Any) -> None:
    """sent = received + lost on the wired partner, for every row.

    At the default SCHED_FIFO 80 the bench starves gpiolib's irq thread
    (SCHED_FIFO 50) during a batch, so the edges of a batch merge into one
    event and the rest show as sequence-number gaps: the note says so.
    """
    for row in bench(board)["rows"]:
        loss = row["loss"]
        assert loss is not None, row
        assert loss["sent"] == toggles(row)
        assert loss["sent"] == loss["received"] + loss["lost"]
        assert loss["received"] >= row["stats"]["count"]  # an event per batch at least
        assert ("lost:" in row["note"]) == (loss["lost"] > 0)


def test_below_the_irq_thread_nothing_is_lost(board: Any) -> None:
    """With the bench below the irq thread every edge becomes an event."""
    doc = bench(board, "--prio 0")
    assert doc["rt"]["policy"] == "SCHED_OTHER"
    for row in doc["rows"]:
        loss = row["loss"]
        assert loss == {"sent": toggles(row), "received": toggles(row), "lost": 0}, row
        assert "lost:" not in row["note"]


def test_rates_shell_sysfs_cdev(board: Any) -> None:
    """shell-sysfs << C-sysfs < cdev, for the raw loops and for udrv."""
    by = rows(bench(board))
    shell = by[("sysfs-shell", "sh")]["rate_per_s"]
    for impl in ("raw", "udrv"):
        sysfs = by[("sysfs", impl)]["rate_per_s"]
        cdev = by[("cdev", impl)]["rate_per_s"]
        assert 5 * shell < sysfs < cdev, (impl, shell, sysfs, cdev)


def test_without_edges(board: Any) -> None:
    doc = bench(board, "--no-edges")
    assert [(r["mechanism"], r["implementation"]) for r in doc["rows"]] == ROWS
    assert all(r["loss"] is None for r in doc["rows"])


def test_table_names_what_has_no_row(board: Any) -> None:
    r = bench_ok(board, f"toggle -c {CHIP} -q -n 200 --batch 100")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("udrv-bench toggle on ")
    assert any(line.startswith("cdev/udrv ") and " vs raw" in line for line in lines)
    assert any(line.startswith("mmio: no row") for line in lines)
    assert any(line.startswith("cdev/udrv vs libgpiod-2.3 x") for line in lines)


def test_bad_options(board: Any) -> None:
    r = udrv_bench(board, f"toggle -c {CHIP} --line 1")
    assert r.status == 2 and "odd lines are inputs" in r.stderr
    r = udrv_bench(board, f"toggle -c {CHIP} --batch 1024")
    assert r.status == 2 and "--no-edges" in r.stderr
    r = udrv_bench(board, f"toggle -c {CHIP} --batch 3")
    assert r.status == 2
    r = udrv_bench(board, "toggle -c nochip")
    assert r.status == 1 and "nochip" in r.stderr


DROP = "/sys/module/gpio_wire/parameters"
DROP_EVERY = 7


def wire_dropped(board: Any, line: int) -> int:
    """gpio-wire's own count of the edges it dropped on input @line."""
    for entry in sh(board, "cat /sys/devices/platform/gpio-wire/edges").stdout.splitlines():
        fields = entry.split()
        if int(fields[0]) == line:
            return int(fields[2])
    raise AssertionError(f"gpio-wire has no line {line}")


def test_injected_drops_are_reported_lost(board: Any) -> None:
    """gpio-wire drops every 7th edge (no interrupt): the bench, below the irq
    thread so that the kernel merges nothing, reports exactly those as lost,
    and its figure agrees with the module's own drop count."""
    before = wire_dropped(board, 1)  # the default --line 0 drives line 1
    sh(board, f"echo {DROP_EVERY} > {DROP}/drop_every")
    try:
        doc = bench_ok(board, f"toggle -c {CHIP} --json -q -n 700 --prio 0", 300).json()
    finally:
        sh(board, f"echo 0 > {DROP}/drop_every")
    check_bench(doc)
    total = 0
    for row in doc["rows"]:
        loss = row["loss"]
        assert loss["sent"] == loss["received"] + loss["lost"], row
        # every 7th edge of the module's running count: 1/7 of each row, +-1
        assert abs(loss["lost"] - loss["sent"] / DROP_EVERY) <= 1, row
        assert "dropped by gpio-wire" in row["note"], row
        total += loss["lost"]
    assert total == wire_dropped(board, 1) - before


def test_uncounted_drops_fail_the_check(board: Any) -> None:
    """The same drops, hidden from the module's counters: received + lost no
    longer adds up to the edges sent, and the bench says so (exit 1)."""
    sh(board, f"echo 1 > {DROP}/drop_uncounted; echo {DROP_EVERY} > {DROP}/drop_every")
    try:
        r = udrv_bench(board, f"toggle -c {CHIP} -q -n 200 --prio 0", 300)
    finally:
        sh(board, f"echo 0 > {DROP}/drop_every; echo 0 > {DROP}/drop_uncounted")
    assert r.status == 1, r.stderr
    assert "edge check failed" in r.stderr


def test_libgpiod_peer_text_and_absence(board: Any) -> None:
    """The printed comparison line; without the peer its row is left out
    with a note saying how to get it, and the bench still succeeds."""
    r = bench_ok(board, f"toggle -c {CHIP} -q -n 512", 300)
    assert "cdev/udrv vs libgpiod-2.3 x" in r.stdout
    r = sh(board, f"UDRV_BENCH_PEER=/nonexistent udrv-bench toggle -c {CHIP} -q -n 512")
    assert r.status == 0, r.stderr
    assert "no cdev/libgpiod-2.3 row: no udrv-bench-peer" in r.stdout
    assert "libgpiod-2.3 toggle" not in r.stdout


def test_peer_runs_as_the_bench(board: Any) -> None:
    """The bench checks what its child reports: a peer that does not lock its
    memory as the bench does (a wrapper drops --mlock) fails the bench."""
    wrapper = peer_without_mlock(board)
    r = sh(board, f"UDRV_BENCH_PEER={wrapper} udrv-bench toggle -c {CHIP} -q -n 512")
    assert r.status == 1, r.stdout + r.stderr
    assert "udrv-bench-peer's memory is not locked, the bench's is" in r.stderr, r.stderr
    # the same wrapper is fine when the bench does not lock either
    r = sh(board, f"UDRV_BENCH_PEER={wrapper} udrv-bench toggle -c {CHIP} -q -n 512 --no-mlock")
    assert r.status == 0, r.stderr
