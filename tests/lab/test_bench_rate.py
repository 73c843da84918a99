# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench rate on gpio-wire's generator and uio-ticker: the source's count
is the reference. A low rate loses nothing (received == the source's count);
drop_every's drops show as loss, exactly, also when the kernel's own counter
hides them; a sweep past the knee has one; a receiver that stops early (a fake
peer) shows as lost, not as less offered; SIGTERM puts the sources back."""

from __future__ import annotations

from typing import Any

import pytest
from guest import Board, sh

from rig.bench.rate import spec as rate_spec
from rig.results.check import check_bench
from tests.support.results_docs import suite_table

pytestmark = pytest.mark.lg_feature(["gpio-wire", "uio-ticker"])

WIRE = "/sys/devices/platform/gpio-wire"
QUICK = "--json -q --step-duration 50ms"

Doc = dict[str, Any]


def bench(board: Board, args: str, env: str = "") -> Doc:
    r = sh(board, f"{env} udrv-bench rate {QUICK} {args}", timeout=600)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    doc: Doc = r.json()
    check_bench(doc)
    assert doc["bench"] == "rate"
    return doc


def steps(doc: Doc, mech: str, impl: str) -> list[dict[str, Any]]:
    return [s for s in doc["rate"]["steps"]
            if s["mechanism"] == mech and s["implementation"] == impl]


def capacity(doc: Doc, mech: str, impl: str) -> dict[str, Any]:
    (c,) = [c for c in doc["rate"]["capacity"]
            if c["mechanism"] == mech and c["implementation"] == impl]
    return c


@pytest.fixture(scope="module")
def low(board: Board) -> Doc:
    return bench(board, "--rates 2k,5k --mechanisms cdev,cdev-batch,uio-read,uio-poll "
                 "--impls raw,udrv")


def test_low_rate_loses_nothing(low: Doc) -> None:
    for mech in ("cdev", "cdev-batch", "uio-read", "uio-poll"):
        for impl in ("raw", "udrv"):
            got = steps(low, mech, impl)
            assert [s["target_per_s"] for s in got] == [2000, 5000], (mech, impl)
            for s in got:
                where = f"{mech}/{impl} at {s['target_per_s']}/s"
                assert s["received"] == s["source_count"], f"{where}: {s}"
                assert s["lost"] == 0 and s["kernel_dropped"] == 0, f"{where}: {s}"
                # the source's count is what was offered: rate x step, +- a period
                assert abs(s["source_count"] - s["target_per_s"] * 0.05) <= 2, f"{where}: {s}"
                assert s["samples"] == s["received"], f"{where}: {s}"
                assert 0 < s["p50_ns"] <= s["p99_ns"] <= s["max_ns"], f"{where}: {s}"
                assert 0 < s["cpu_pct"] < 100, f"{where}: {s}"
            c = capacity(low, mech, impl)
            assert c["knee_per_s"] == pytest.approx(5000, rel=0.02), c
            if impl == "raw":
                assert c["ratio_vs_raw"] == 1.0, c


def test_latency_row_is_the_knee(low: Doc) -> None:
    for row in low["rows"]:
        knee = next(s for s in steps(low, row["mechanism"], row["implementation"])
                    if s["target_per_s"] == 5000)
        assert row["stats"]["count"] == knee["samples"], row
        assert row["loss"] == {"sent": knee["source_count"], "received": knee["received"],
                               "lost": 0}, row


def test_source_count_matches_gpio_wire(board: Board) -> None:
    """gen_edges over the whole bench = its warm-up and steps (nothing else toggles)."""
    before = int(sh(board, f"cat {WIRE}/gen_edges").stdout)
    doc = bench(board, "--rates 3k --mechanisms cdev --impls raw")
    after = int(sh(board, f"cat {WIRE}/gen_edges").stdout)
    (s,) = steps(doc, "cdev", "raw")
    warmup = after - before - s["source_count"]
    assert 0 < warmup <= 61, f"warm-up made {warmup} edges (20 ms at 3k/s: 60)"
    assert s["received"] == s["source_count"]
    assert sh(board, f"cat {WIRE}/gen_period_ns {WIRE}/gen_limit {WIRE}/gen_line").stdout.split() \
        == ["0", "0", "1"], "the generator was not put back"


def wire_driven(board: Board, line: int) -> int:
    """gpio-wire's count of the level changes driven onto input `line`."""
    rows = [w.split() for w in sh(board, f"cat {WIRE}/edges").stdout.splitlines()]
    return next(int(r[1]) for r in rows if int(r[0]) == line)


@pytest.mark.lg_feature(["gpio-wire", "udrv-irq"])
def test_the_helpers_responder_answers_every_edge(board: Board) -> None:
    """irq (read, then the reply) and irq-reply (both in one call) take a low
    rate whole, and every edge is answered: C (line 6, wired to 7) changes
    once per edge of the generator's line 3 (the first reply of each sweep
    may leave C where it was: it starts low)."""
    gen0, c0 = int(sh(board, f"cat {WIRE}/gen_edges").stdout), wire_driven(board, 7)
    doc = bench(board, "--rates 2k,5k --mechanisms irq,irq-reply --impls raw,udrv")
    gen = int(sh(board, f"cat {WIRE}/gen_edges").stdout) - gen0
    replies = wire_driven(board, 7) - c0
    for mech, wait in (("irq", "read"), ("irq-reply", "set-wait")):
        got = steps(doc, mech, "raw")
        assert [s["target_per_s"] for s in got] == [2000, 5000], mech
        for s in got:
            assert s["received"] == s["source_count"], f"{mech}: {s}"
            assert s["lost"] == 0 and s["kernel_dropped"] == 0, f"{mech}: {s}"
        assert steps(doc, mech, "udrv") == [], "the helper's rows are raw only"
        (row,) = [r for r in doc["rows"] if r["mechanism"] == mech]
        assert row["wait"] == wait, row
    assert gen - 2 <= replies <= gen, f"{replies} replies on the wire for {gen} edges"
    assert "udrv-irq" not in sh(board, "cat /proc/interrupts").stdout


@pytest.mark.parametrize("uncounted", [0, 1], ids=["counted", "uncounted"])
def test_drop_every_shows_as_loss_exactly(board: Board, uncounted: int) -> None:
    p = "/sys/module/gpio_wire/parameters"
    sh(board, f"echo 7 > {p}/drop_every; echo {uncounted} > {p}/drop_uncounted")
    try:
        doc = bench(board, "--rates 2k --mechanisms cdev --impls raw --step-duration 100ms")
    finally:
        sh(board, f"echo 0 > {p}/drop_every; echo 0 > {p}/drop_uncounted")
    (s,) = steps(doc, "cdev", "raw")
    assert s["source_count"] >= 190, s
    # every 7th edge of the chip (the warm-up's too): 1 in 7 of the step's, +- 1
    assert abs(s["lost"] - s["source_count"] / 7) <= 1, s
    assert s["lost"] == s["source_count"] - s["received"] > 0, s
    assert s["kernel_dropped"] == 0, s  # the kernel never saw them
    # the wire's own counter shows them, unless told to hide them: the loss
    # is counted at the source either way
    assert s["injected"] == (0 if uncounted else s["lost"]), s
    assert capacity(doc, "cdev", "raw")["knee_per_s"] is None


def test_knee_exists_past_it_loss(board: Board) -> None:
    doc = bench(board, "--rates 2k,20k,200k --mechanisms cdev --impls raw")
    got = steps(doc, "cdev", "raw")
    assert got[0]["lost"] == 0, got[0]
    assert got[-1]["lost"] > 0, f"200k/s lost nothing: {got[-1]}"
    knee = capacity(doc, "cdev", "raw")["knee_per_s"]
    assert knee is not None and knee < 200000 * 0.99, knee
    zero = [s["offered_per_s"] for s in got
            if s["lost"] == 0 and s["received_per_s"] >= 0.95 * s["offered_per_s"]]
    assert knee == max(zero)
    assert got[-1]["received_per_s"] < got[-1]["offered_per_s"]


FAKE_PEER = """#!/bin/sh
# a receiver that reads nothing: the source's count shows it all as lost
echo ready
out="received 0\\nreads 0\\nseqno_first 0\\nseqno_last 0\\ncpu_user_ns 0\\ncpu_sys_ns 1000"
trap 'printf "$out\\nsamples 0\\n%s\\n" "$END"; exit 0' TERM
while :; do sleep 0.01; done
"""


def fake_peer(board: Board, end: str) -> str:
    board.put_bytes(FAKE_PEER.replace("$END", end).encode(), "/tmp/fake-peer", 0o755)
    return "UDRV_BENCH_PEER=/tmp/fake-peer"


def test_receiver_that_stops_early_shows_as_lost(board: Board) -> None:
    doc = bench(board, "--rates 2k --mechanisms cdev --impls libgpiod-2.3",
                env=fake_peer(board, "end"))
    (s,) = steps(doc, "cdev", "libgpiod-2.3")
    assert s["received"] == 0 and s["lost"] == s["source_count"], s
    assert s["offered_per_s"] == pytest.approx(2000, rel=0.05), s  # not "less offered"
    assert s["cpu_ns"] == 1000, s  # the peer's own report


def test_broken_peer_output_fails(board: Board) -> None:
    r = sh(board, f"{fake_peer(board, 'fin')} udrv-bench rate {QUICK} --rates 2k "
           "--mechanisms cdev --impls libgpiod-2.3", timeout=120)
    assert r.status == 1, r
    assert "the output of /tmp/fake-peer rx: line 8: unknown key 'fin'" in r.stderr, r.stderr


def test_absent_peer_is_a_note(board: Board) -> None:
    doc = bench(board, "--rates 2k --mechanisms cdev --impls raw,libgpiod-2.3",
                env="UDRV_BENCH_PEER=/nonexistent")
    c = capacity(doc, "cdev", "libgpiod-2.3")
    assert c["measured"] is False and "left out" in c["note"], c
    assert not steps(doc, "cdev", "libgpiod-2.3")
    assert capacity(doc, "cdev", "raw")["measured"] is True


def test_sigterm_puts_the_sources_back(board: Board) -> None:
    r = sh(board, "uio=$(grep -l uio-ticker /sys/class/uio/*/name); "
           "d=${uio%/name}/device; before=$(cat $d/period_ns); "
           "udrv-bench rate -q --rates 1k --step-duration 10s --mechanisms cdev,uio-read "
           "--impls raw > /tmp/rate.out 2>&1 & pid=$!; sleep 1; kill -TERM $pid; wait $pid; "
           f"echo rc=$?; cat {WIRE}/gen_period_ns {WIRE}/gen_limit {WIRE}/gen_line; "
           "echo $before; cat $d/period_ns $d/tick_limit", timeout=120)
    out = r.stdout.split()
    assert out[0] == "rc=143", r
    assert out[1:4] == ["0", "0", "1"], f"gpio-wire's generator not put back: {out}"
    assert out[5:7] == [out[4], "0"], f"uio-ticker not put back: {out}"


def test_libgpiod_peer_takes_a_low_rate(board: Board) -> None:
    """The real peer (udrv-bench-peer rx, libgpiod 2.3), where the lab ships it."""
    if sh(board, "test -x /usr/libexec/udrv/udrv-bench-peer").status:
        pytest.skip("no udrv-bench-peer in this lab (scripts/fetch-peers, make static)")
    doc = bench(board, "--rates 2k --mechanisms cdev,cdev-batch --impls libgpiod-2.3")
    for mech in ("cdev", "cdev-batch"):
        (s,) = steps(doc, mech, "libgpiod-2.3")
        assert s["received"] == s["source_count"] >= 95, s
        assert s["lost"] == 0 and s["kernel_dropped"] == 0, s
        assert s["samples"] == s["received"] and s["cpu_ns"] > 0, s
        assert capacity(doc, mech, "libgpiod-2.3")["measured"] is True


def test_suite_quick_rate(board: Board, request: pytest.FixtureRequest) -> None:
    """The sweep `make lab-quick` runs (rig/lab/suite/qemu.py), and its table."""
    from rig.lab.suite import qemu as suite

    run = suite.SuiteRun(request.node.callspec.id, "none")
    suite.run_rate(board, [run], "quick")
    assert run.failures == [], run.failures
    (doc,) = run.documents
    check_bench(doc)
    assert doc["rate"]["rates"] == [2000, 20000, 200000]
    table = suite_table(rate_spec.text_table, [run])
    assert len(table) == 3 + len(doc["rate"]["capacity"])  # title (2 lines), head
