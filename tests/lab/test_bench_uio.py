# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench uio in the lab (quick): uio-ticker through udrv_uio_wait() and
through a bare read(), edu through uio_pci_generic.

Checked: the document validates (rig.results), every row is there, loss
accounting adds up (sent, counted by uio-ticker itself = received + lost, the
UIO count's gaps) with one received per sample,
the rows of one interrupt agree on their counts, the udrv rows name their raw
reference with ratios, and the ticker's period is restored afterwards.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from guest import bench_ok, ok, sh, udrv_bench

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["uio-ticker", "edu"])

SAMPLES = 100
TICKER_ROWS = {
    ("uio-ticker", "raw", "read", "expiry_to_wake"),
    ("uio-ticker", "raw", "read", "notify_to_wake"),
    ("uio-ticker", "udrv", "read", "expiry_to_wake"),
    ("uio-ticker", "udrv", "read", "notify_to_wake"),
    ("uio-ticker", "udrv", None, "rearm"),
}
EDU_ROWS = {
    ("edu", "udrv", "read", "write_to_wake"),
    ("edu", "udrv", None, "rearm"),
}
# A wait whose page already holds the next tick gives no latency sample (see
# rig/bench/uio/uio.c): at 1 ms ticks that is a ~1 us window per wait, so a
# handful at most in SAMPLES waits.
MAX_STALE = 5


def key(row: dict[str, Any]) -> tuple[str, str, str | None, str]:
    return (row["mechanism"], row["implementation"], row["wait"], row["sample"])


def rows_by_key(doc: dict[str, Any]) -> dict[tuple, dict[str, Any]]:
    return {key(r): r for r in doc["rows"]}


def sorted_rows(rows: set[tuple]) -> list[tuple]:
    """The bench's row order: raw before udrv, expiry before notify before rearm."""
    order = {"raw": 0, "udrv": 1, "expiry_to_wake": 0, "notify_to_wake": 1,
             "write_to_wake": 1, "rearm": 2}
    return sorted(rows, key=lambda k: (order[k[1]], order[k[3]]))


def period_path(board: Any) -> str:
    dev = ok(board, "uio info --json uio-ticker").json()[0]["device"]
    return f"/sys/class/uio/{dev}/device/period_us"


@pytest.fixture(scope="module")
def uio_run(board: Any) -> tuple[dict[str, Any], str, str]:
    """One quick run per kernel: (document, period before, period after)."""
    path = period_path(board)
    before = sh(board, f"cat {path}").stdout.strip()
    doc = bench_ok(board, f"uio --json --quiet -n {SAMPLES} --period-us 500",
             timeout=600).json()
    after = sh(board, f"cat {path}").stdout.strip()
    return doc, before, after


@pytest.mark.lg_rt
def test_document_validates(uio_run):
    doc = uio_run[0]
    check_bench(doc)
    assert doc["bench"] == "uio"
    assert doc["rt"]["policy"] == "SCHED_FIFO" and doc["rt"]["priority"] == 80


def test_all_rows_present(uio_run):
    doc = uio_run[0]
    assert [key(r) for r in doc["rows"]] == [*sorted_rows(TICKER_ROWS), *sorted_rows(EDU_ROWS)]



def test_loss_accounting(uio_run):
    rows = rows_by_key(uio_run[0])
    for k, row in rows.items():
        if k[3] == "rearm":
            assert row["loss"] is None, k  # a write loses nothing
            continue
        loss = row["loss"]
        # sent: uio-ticker's own count; received: the waits; lost: the UIO
        # count's gaps. A few waits past the samples bring the page and the
        # UIO count onto the same tick at the end.
        assert loss["sent"] == loss["received"] + loss["lost"], k
        assert SAMPLES <= loss["received"] <= SAMPLES + 16, k
    # edu: one interrupt per raise, in lock step
    edu = rows[("edu", "udrv", "read", "write_to_wake")]["loss"]
    assert edu == {"sent": SAMPLES, "received": SAMPLES, "lost": 0}


def test_counts_agree_per_interrupt(uio_run):
    rows = rows_by_key(uio_run[0])
    for impl in ("raw", "udrv"):
        expiry = rows[("uio-ticker", impl, "read", "expiry_to_wake")]
        notify = rows[("uio-ticker", impl, "read", "notify_to_wake")]
        n = expiry["stats"]["count"]
        assert notify["stats"]["count"] == n
        assert SAMPLES - MAX_STALE <= n <= SAMPLES
        assert expiry["loss"] == notify["loss"]
        if n < SAMPLES:
            assert f"waits without a sample: {SAMPLES - n} " in (expiry["note"] or "")
    # the re-arm is timed after every wait
    assert rows[("uio-ticker", "udrv", None, "rearm")]["stats"]["count"] == SAMPLES
    assert rows[("edu", "udrv", "read", "write_to_wake")]["stats"]["count"] == SAMPLES
    assert rows[("edu", "udrv", None, "rearm")]["stats"]["count"] == SAMPLES


def test_notify_comes_after_expiry(uio_run):
    """Same interrupts, later start: notify_to_wake <= expiry_to_wake, sample by
    sample, so also in min, avg and max."""
    rows = rows_by_key(uio_run[0])
    for impl in ("raw", "udrv"):
        e = rows[("uio-ticker", impl, "read", "expiry_to_wake")]["stats"]
        n = rows[("uio-ticker", impl, "read", "notify_to_wake")]["stats"]
        for stat in ("min", "avg", "max"):
            assert 0 < n[stat] <= e[stat], (impl, stat)


def test_udrv_rows_reference_raw(uio_run):
    doc = uio_run[0]
    rows = rows_by_key(doc)
    for sample in ("expiry_to_wake", "notify_to_wake"):
        ref = rows[("uio-ticker", "udrv", "read", sample)]["reference"]
        assert ref["mechanism"] == "uio-ticker" and ref["implementation"] == "raw"
        assert ref["ratio_avg"] > 0 and ref["ratio_p50"] > 0
    for k, row in rows.items():
        if k[1] == "raw" or k[3] == "rearm" or k[0] == "edu":
            assert row["reference"] is None, k
    if doc["kernel"]["realtime"]:
        note = rows[("uio-ticker", "udrv", "read", "notify_to_wake")]["note"]
        assert "SCHED_FIFO 50" in note


def test_period_restored(uio_run):
    _doc, before, after = uio_run
    assert re.fullmatch(r"\d+", before)
    assert after == before


def test_one_device(board):
    doc = bench_ok(board, "uio --json -q -n 20 --device ticker").json()
    check_bench(doc)
    assert {key(r) for r in doc["rows"]} == TICKER_ROWS
    doc = bench_ok(board, "uio --json -q -n 20 --device edu").json()
    check_bench(doc)
    assert {key(r) for r in doc["rows"]} == EDU_ROWS


def test_bad_options(board):
    r = udrv_bench(board, "uio --device nope")
    assert r.status == 2 and "ticker, edu or both" in r.stderr
    r = udrv_bench(board, "uio --period-us 5")
    assert r.status == 2 and "--period-us" in r.stderr
