# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench irq on gpio-wire: rows, loss accounting, per-sample consistency."""

from __future__ import annotations

from typing import Any

import pytest
from guest import Board, peer_without_mlock, sh, udrv_bench

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

SAMPLES = 300
EVENT_WAITS = ("read", "poll", "epoll")
PEER = "libgpiod-2.3"  # udrv-bench-peer's rows (rig/bench/peers/)
# (implementation, wait) of the rows with an event: udrv's, the references
EVENT_ROWS = [("udrv", w) for w in EVENT_WAITS] + [("raw", "read"), (PEER, "read")]
SAMPLE_NAMES = ("write_to_irq", "irq_to_wake", "write_to_wake")

Row = dict[str, Any]


def bench(board: Board, args: str) -> dict[str, Any]:
    r = udrv_bench(board, f"irq --json --quiet --samples {SAMPLES} {args}", timeout=600)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    doc: dict[str, Any] = r.json()
    check_bench(doc)
    assert doc["bench"] == "irq"
    return doc


def rows_by_key(doc: dict[str, Any]) -> dict[tuple[str, str, str, str], Row]:
    rows: dict[tuple[str, str, str, str], Row] = {}
    for row in doc["rows"]:
        key = (row["mechanism"], row["implementation"], row["wait"], row["sample"])
        assert key not in rows, f"row {key} twice"
        rows[key] = row
    return rows


def expected_keys() -> set[tuple[str, str, str, str]]:
    keys = {("cdev", "udrv", w, s) for w in EVENT_WAITS for s in SAMPLE_NAMES}
    keys |= {("cdev", "raw", "read", s) for s in SAMPLE_NAMES}
    keys |= {("cdev", PEER, "read", s) for s in SAMPLE_NAMES}
    keys.add(("cdev", "udrv", "busy", "write_to_wake"))
    return keys


@pytest.fixture(scope="module")
def idle(board: Board) -> dict[str, Any]:
    return bench(board, "")


def test_all_rows(idle: dict[str, Any]) -> None:
    assert set(rows_by_key(idle)) == expected_keys()


def test_loss_and_counts(idle: dict[str, Any]) -> None:
    rows = rows_by_key(idle)
    for impl, wait in EVENT_ROWS:
        three = [rows[("cdev", impl, wait, s)] for s in SAMPLE_NAMES]
        for row in three:
            loss = row["loss"]
            assert loss is not None, f"{impl}/{wait}: no loss accounting"
            assert loss["sent"] == SAMPLES, f"{impl}/{wait}: sent {loss['sent']}"
            assert loss["sent"] == loss["received"] + loss["lost"]
            # one edge in flight on a wire: nothing may be lost
            assert loss["lost"] == 0, f"{impl}/{wait}: {loss}"
        counts = {row["stats"]["count"] for row in three}
        assert len(counts) == 1, f"{impl}/{wait}: the three rows hold {counts} samples"
        # t_write <= t_irq <= t_wake held for every sample: none left out
        assert counts == {SAMPLES}, f"{impl}/{wait}: {three[0]['note']}"
        assert three[0]["note"].endswith("left out 0"), three[0]["note"]


def test_write_to_wake_is_the_sum(idle: dict[str, Any]) -> None:
    """Per sample write_to_wake = write_to_irq + irq_to_wake, so the exact
    means add up and the extremes are bounded by the parts'."""
    rows = rows_by_key(idle)
    for impl, wait in EVENT_ROWS:
        w2i, i2w, w2w = (rows[("cdev", impl, wait, s)]["stats"] for s in SAMPLE_NAMES)
        assert w2w["avg"] == pytest.approx(w2i["avg"] + i2w["avg"], rel=1e-9)
        assert w2w["min"] >= w2i["min"] + i2w["min"]
        assert w2w["max"] <= w2i["max"] + i2w["max"]
        assert w2i["min"] > 0 and i2w["min"] > 0


def test_reference_is_raw_read(idle: dict[str, Any]) -> None:
    rows = rows_by_key(idle)
    for sample in SAMPLE_NAMES:
        ref = rows[("cdev", "udrv", "read", sample)]["reference"]
        assert ref is not None and ref["implementation"] == "raw"
        assert ref["ratio_avg"] > 0 and ref["ratio_p50"] > 0
    for wait in ("poll", "epoll", "busy"):
        for row in idle["rows"]:
            if row["wait"] == wait:
                assert row["reference"] is None


def test_libgpiod_rows(idle: dict[str, Any]) -> None:
    """The libgpiod 2.3 peer's rows: the same loop, and udrv's ratio to it."""
    rows = rows_by_key(idle)
    for sample in SAMPLE_NAMES:
        row = rows[("cdev", PEER, "read", sample)]
        assert row["reference"] is None
    assert "gpiod_line_request_read_edge_events()" in rows[("cdev", PEER, "read",
                                                            "irq_to_wake")]["note"]
    # udrv's blocking read vs libgpiod's, in the udrv row's note
    note = rows[("cdev", "udrv", "read", "write_to_wake")]["note"]
    ratio = float(note.split(f"vs {PEER} x", 1)[1].split(" ")[0])
    udrv_avg = rows[("cdev", "udrv", "read", "write_to_wake")]["stats"]["avg"]
    peer_avg = rows[("cdev", PEER, "read", "write_to_wake")]["stats"]["avg"]
    assert ratio == pytest.approx(udrv_avg / peer_avg, abs=1e-3)


def test_libgpiod_line_in_the_table(board: Board) -> None:
    r = udrv_bench(board, "irq --quiet --samples 50", timeout=300)
    assert r.status == 0, r.stderr
    assert f"cdev/{PEER}/read write_to_wake" in r.stdout
    assert f"cdev/udrv/read write_to_wake vs {PEER} x" in r.stdout


def test_no_peer_is_a_note(board: Board) -> None:
    """Without udrv-bench-peer the libgpiod rows are left out, with a note
    saying how to get them; the bench still succeeds."""
    r = sh(board, "UDRV_BENCH_PEER=/nonexistent udrv-bench irq --quiet --samples 50")
    assert r.status == 0, r.stderr
    assert f"no cdev/{PEER} rows: no udrv-bench-peer" in r.stdout
    assert "scripts/fetch-peers" in r.stdout
    assert PEER + "/read" not in r.stdout.replace(f"cdev/{PEER} rows", "")
    doc = sh(board, "UDRV_BENCH_PEER=/nonexistent udrv-bench irq --json --quiet --samples 20")
    impls = {row["implementation"] for row in doc.json()["rows"]}
    assert impls == {"udrv", "raw"}


def test_peer_runs_as_the_bench(board: Board) -> None:
    """The bench checks what its child reports: a peer that does not lock its
    memory as the bench does (a wrapper drops --mlock) fails the bench."""
    wrapper = peer_without_mlock(board)
    r = sh(board, f"UDRV_BENCH_PEER={wrapper} udrv-bench irq --quiet --samples 20")
    assert r.status == 1, r.stdout + r.stderr
    assert "udrv-bench-peer's memory is not locked, the bench's is" in r.stderr, r.stderr
    # the same wrapper is fine when the bench does not lock either
    r = sh(board, f"UDRV_BENCH_PEER={wrapper} udrv-bench irq --quiet --samples 20 --no-mlock")
    assert r.status == 0, r.stderr



def test_busy_has_no_event(idle: dict[str, Any]) -> None:
    row = rows_by_key(idle)[("cdev", "udrv", "busy", "write_to_wake")]
    assert row["loss"] is None
    assert row["stats"]["count"] == SAMPLES
    assert "no event" in row["note"]


def test_under_load(board: Board) -> None:
    doc = bench(board, "--load hackbench")
    assert doc["load"] == "hackbench"
    rows = rows_by_key(doc)
    assert set(rows) == expected_keys()
    for row in doc["rows"]:
        if row["loss"] is not None:
            assert row["loss"]["sent"] == SAMPLES
    left = board.run("ps -o comm | grep -c '^udrv' || true").stdout.strip()
    assert left == "0", f"{left} udrv processes left after the bench"


def test_the_load_is_gone_when_the_bench_returns(board: Board) -> None:
    """Every process of a load is reaped before udrv-bench returns (the bench
    is their subreaper), so the next bench starts with none of it running:
    counted in the same shell, right after. Before, 4 to 7 of `all`'s were
    still exiting, runnable, at that moment."""
    for cmd in ("udrv-bench load all -D 1s", "udrv-bench irq --samples 200 --load all -q"):
        r = board.run(f"{cmd} >/dev/null; ps -o pid,stat,args | grep -c '[u]drv-bench' || true",
                      timeout=300)
        assert r.stdout.strip() == "0", (cmd, r.stdout, r.stderr)


def test_errors(board: Board) -> None:
    r = udrv_bench(board, "irq --samples 10 -c no-such-chip")
    assert r.status == 1 and "no-such-chip" in r.stderr
    r = udrv_bench(board, "irq --samples 10 --out-line 7")
    assert r.status == 2 and "input would be line 8" in r.stderr
    # the lines are held by someone else: the holder is named
    r = sh(board, "udrv gpio mon -c gpio-wire -n 1 -t 3s 3 >/dev/null & sleep 1; "
                  "udrv-bench irq --samples 10; echo status $?; wait")
    assert "status 1" in r.stdout and "busy" in r.stderr, r.stderr
