# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply on gpio-wire + rig/kernel/gpio-reply, on the real kernels.

A = 4 -> B = 5 (wire 2), C = 6 -> D = 7 (wire 3). Checked:
- every responder's accounting: sent (gpio-wire's count on B) = received
  (events on D) + lost, lost 0, and the responder's own count of replies
  equals received (the bench fails otherwise; here also from outside: the
  module's and the wire's counters before and after the bench);
- the order of the responders' medians: isr < kthread < user/read;
- a wrong wire or a responder that is off fails the bench (exit 1, a clear
  message), and the module is put back;
- the toolkit's helper with its reply one edge late or written by its
  interrupt handler (the mutant rig/kernel/udrv-irq-mutant, in udrv-irq's
  place) fails lib/irq-reply;
- the plan's command for a board with reply's jumpers and no gpio-reply.ko
  runs the user and lib responders alone, the module untouched;
- SIGTERM in the middle puts the module's mode, chip and lines back and
  frees the lines;
- on rt-smp: target on CPU 1, log host on CPU 0, two processes;
- --breakdown: every responder's median traced reply split into stages in
  the order of its chain (rig/bench/reply/breakdown.h), the stages adding up to
  the reply's total, its untraced p50 its row's, each traced event type's
  cost measured alone and taken off, tracefs left as it was; and the
  issue's rule, that the stages explain the untraced p50 within 5%.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from background import Background, guest_ok
from guest import Board, sh, udrv_bench

from rig.bench.reply import model as reply_model
from rig.bench.reply import spec as reply_spec
from rig.lab.suite import plan
from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

SAMPLES = 300
WARMUP = 16  # unrecorded edges before each responder (rig/bench/reply/reply.c)
MODULE = "/sys/devices/platform/gpio-reply"
WIRE = "/sys/devices/platform/gpio-wire/edges"
# libudrv's responder: read, busy, irq or irq-reply (udrv-irq, the toolkit's
# kernel helper, which the lab's boards load: the bench runs both by default
# there; irq-reply: C the helper's reply line too, written in its next wait)
CONFIGS = [("isr", None), ("kthread", None)] + [
    ("user", w) for w in ("read", "poll", "epoll", "busy")] + [
    ("lib", w) for w in ("read", "busy", "irq", "irq-reply")]
PARTS = {"isr": ("trigger_to_handler", "handler_to_reply"),
         "kthread": ("trigger_to_handler", "handler_to_reply"),
         "user": ("trigger_to_irq", "irq_to_wake", "wake_to_reply"),
         "lib": ("trigger_to_irq", "irq_to_wake", "wake_to_reply"),
         "busy": ("trigger_to_wake", "wake_to_reply"),
         # the helper writes the reply after the callback: no wake_to_reply
         "irq-reply": ("trigger_to_irq", "irq_to_wake")}


def parts_of(impl: str, wait: str | None) -> tuple[str, ...]:
    return PARTS[wait if wait in ("busy", "irq-reply") else impl]

Row = dict[str, Any]


def rows_by_key(doc: dict[str, Any]) -> dict[tuple[str, str | None, str], Row]:
    out: dict[tuple[str, str | None, str], Row] = {}
    for row in doc["rows"]:
        key = (row["implementation"], row["wait"], row["sample"])
        assert row["mechanism"] == "gpio", row
        assert key not in out, f"row {key} twice"
        out[key] = row
    return out


def counters(board: Board) -> dict[str, int]:
    """gpio-reply's counts and gpio-wire's driven counts on B and D."""
    edges, replies = guest_ok(board, f"cat {MODULE}/counts").split()
    wire = {int(f[0]): int(f[1]) for f in
            (line.split() for line in guest_ok(board, f"cat {WIRE}").splitlines())}
    return {"edges": int(edges), "replies": int(replies), "B": wire[5], "D": wire[7]}


def module_state(board: Board) -> str:
    return guest_ok(board, f"cd {MODULE} && cat mode chip in out").replace("\n", " ")


def held_lines(board: Board) -> str:
    return guest_ok(board, "udrv gpio info -c gpio-wire --json | tr -d ' \\n'")


@pytest.fixture(scope="module")
def run(board: Board) -> Iterator[tuple[dict[str, Any], dict[str, int], dict[str, int]]]:
    # A low, as the bench's log host requests it: an A left high by an earlier
    # test (test_gpio_cdev sets 4=1) would put one more edge on B when the
    # bench takes the line, which the exact count below would not expect
    guest_ok(board, "udrv gpio set -c gpio-wire 4=0")
    before = counters(board)
    r = udrv_bench(board, f"reply --json --quiet --samples {SAMPLES}", timeout=900)
    after = counters(board)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    doc = r.json()
    check_bench(doc)
    assert doc["bench"] == "reply"
    yield doc, before, after


def test_rows_and_accounting(run: tuple[dict[str, Any], dict[str, int], dict[str, int]]) -> None:
    doc, _, _ = run
    rows = rows_by_key(doc)
    for impl, wait in CONFIGS:
        t2r = rows[(impl, wait, "trigger_to_reply")]
        loss = t2r["loss"]
        assert loss == {"sent": SAMPLES, "received": SAMPLES, "lost": 0}, (impl, wait, loss)
        assert t2r["stats"]["count"] == SAMPLES
        # the responder's own count of its replies, in the note
        assert f"counted {SAMPLES} replies; left out 0" in t2r["note"], t2r["note"]
        for part in parts_of(impl, wait):
            assert rows[(impl, wait, part)]["stats"]["count"] == SAMPLES, (impl, wait, part)
    # trigger_to_reply per responder, and the parts: module 2, user and lib 3,
    # busy and irq-reply 2
    assert len(rows) == len(CONFIGS) + 2 * 2 + 3 * 3 + 2 + 3 + 2 + 3 + 2


def test_counters_seen_from_outside(
        run: tuple[dict[str, Any], dict[str, int], dict[str, int]]) -> None:
    """What gpio-reply and gpio-wire counted agree with the document."""
    _, before, after = run
    per = SAMPLES + WARMUP
    # the module answered exactly the edges of its two responders
    assert after["edges"] - before["edges"] == 2 * per
    assert after["replies"] - before["replies"] == 2 * per
    # every trigger reached B; D saw every reply, plus the first writes of C
    # when a responder takes the lines (the module: C = !B; the user
    # responder: C requested low, then set to !B; lib/irq-reply: the helper
    # binds C at !B), which the log host drains
    assert after["B"] - before["B"] == len(CONFIGS) * per
    extra = after["D"] - before["D"] - len(CONFIGS) * per
    processes = sum(1 for impl, _ in CONFIGS if impl in ("user", "lib"))
    assert 0 <= extra <= 2 + 2 * processes, (before, after)


def test_responder_order(run: tuple[dict[str, Any], dict[str, int], dict[str, int]]) -> None:
    rows = rows_by_key(run[0])
    p50 = {(i, w): rows[(i, w, "trigger_to_reply")]["stats"]["p50"] for i, w in CONFIGS}
    assert p50[("isr", None)] < p50[("kthread", None)] < p50[("user", "read")], p50
    # the parts fit in the whole, sample by sample (checked in the bench)
    for impl, wait in CONFIGS:
        parts = parts_of(impl, wait)
        total = sum(rows[(impl, wait, p)]["stats"]["avg"] for p in parts)
        assert total <= rows[(impl, wait, "trigger_to_reply")]["stats"]["avg"], (impl, wait)


def test_module_and_lines_put_back(board: Board,
                                   run: tuple[dict[str, Any], Any, Any]) -> None:
    assert module_state(board) == "off gpio-wire 5 6 "
    info = held_lines(board)
    assert "gpio-reply" not in info and "udrv-" not in info, info
    # lib/irq's and lib/irq-reply's runs gave B's interrupt (and C) back to
    # udrv-irq (the responder's fd closed)
    assert "udrv-irq" not in guest_ok(board, "cat /proc/interrupts")


def test_wrong_wire_fails(board: Board) -> None:
    before = module_state(board)
    # D = 3 is on wire 1, which C does not drive
    r = udrv_bench(board, "reply --quiet -n 20 --responder isr --watch 3", timeout=300)
    assert r.status == 1, r
    assert "no reply on line 3 (--watch) within 5 s" in r.stderr, r.stderr
    assert module_state(board) == before
    assert "udrv-" not in held_lines(board)


def test_responder_off_fails(board: Board) -> None:
    assert module_state(board).startswith("off ")
    r = udrv_bench(board, "reply --quiet -n 20 --role loghost", timeout=300)
    assert r.status == 1, r
    assert "no reply on line 7" in r.stderr and "responder remote" in r.stderr, r.stderr
    assert "udrv-" not in held_lines(board)


def test_a_board_without_gpio_reply_runs_the_process_responders(board: Board) -> None:
    """The plan's reply command for a board with reply's two jumpers
    (udrv-reply-wire, here gpio-wire's lines) and no gpio-reply.ko: the lines
    named, the user and lib responders alone, the module left untouched."""
    p = plan.for_board(frozenset(), None, plan.parse_reply_wire("gpio-wire 4 5 6 7"))
    opts = " ".join(p.opts["reply"])
    assert opts.endswith("--responder user,lib"), opts
    guest_ok(board, "udrv gpio set -c gpio-wire 4=0")
    before = counters(board)
    r = udrv_bench(board, f"reply --json --quiet --samples 40 {opts}", timeout=600)
    after = counters(board)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    rows = rows_by_key(r.json())
    assert {(i, w) for i, w, s in rows if s == "trigger_to_reply"} == {
        c for c in CONFIGS if c[0] in ("user", "lib")}
    assert after["edges"] == before["edges"] and after["replies"] == before["replies"]


@pytest.fixture
def module_elsewhere(board: Board) -> Iterator[None]:
    """The module on lines 1 -> 0 in kthread mode: not what the bench sets."""
    guest_ok(board, f"cd {MODULE} && echo off > mode && echo 1 > in && echo 0 > out "
                    "&& echo kthread > mode")
    yield
    guest_ok(board, f"cd {MODULE} && echo off > mode && echo 5 > in && echo 6 > out")


def test_sigterm_puts_the_module_and_lines_back(board: Board, module_elsewhere: None) -> None:
    before = module_state(board)
    assert before == "kthread gpio-wire 1 0 "
    # SCHED_OTHER: at FIFO 80 the lockstep leaves the agent little time (as
    # for bench irq in test_bench_signals.py)
    job = Background(board, "reply-sig",
                     "udrv-bench reply -P 0 -D 60s --quiet --out /tmp/reply-sig.json")
    try:
        job.wait_for(f"grep -qx isr {MODULE}/mode", what="gpio-reply in isr mode")
        guest_ok(board, "sleep 1")
        assert job.alive(), job.output()
        job.signal("TERM")
        end = job.ended(timeout_s=60)
    finally:
        job.kill()
    assert end.status == 128 + signal.SIGTERM, f"exit {end.status}\n{end.stderr}"
    assert "interrupted by SIGTERM" in end.stderr
    doc = json.loads(guest_ok(board, "cat /tmp/reply-sig.json"))
    check_bench(doc)
    assert doc["interrupted"] == "SIGTERM"
    assert module_state(board) == before
    info = held_lines(board)
    assert "udrv-" not in info, info
    assert guest_ok(board, "pidof udrv || true").strip() == ""


def test_two_processes_on_two_cpus(board_rt_smp: Any) -> None:
    """rt-smp: the user responder on CPU 1 (isolated), the log host on CPU 0."""
    n = 200
    target = Background(board_rt_smp, "reply-target",
                        "udrv-bench reply --role target --responder user --wait read "
                        "--cpu 1 -D 600s --quiet --json --out /tmp/target.json")
    try:
        target.wait_for("udrv gpio info -c gpio-wire | grep -q udrv-reply-target",
                        what="the target holding B and C")
        cpus = guest_ok(board_rt_smp, f"grep Cpus_allowed_list /proc/{target.pid}/status")
        assert cpus.split()[-1] == "1", cpus
        r = sh(board_rt_smp, f"udrv-bench reply --role loghost --responder user --wait read "
                             f"--cpu 0 -n {n} --quiet --json", timeout=600)
        assert r.status == 0, r.stderr
        target.signal("TERM")
        end = target.ended(timeout_s=60)
    finally:
        target.kill()
    host = r.json()
    check_bench(host)
    assert host["rt"]["cpu"] == 0
    (row,) = host["rows"]
    assert (row["implementation"], row["wait"], row["sample"]) == (
        "user", "read", "trigger_to_reply")
    assert row["loss"] == {"sent": n, "received": n, "lost": 0}, row["loss"]
    assert end.status == 128 + signal.SIGTERM, end.stderr
    doc = json.loads(guest_ok(board_rt_smp, "cat /tmp/target.json"))
    check_bench(doc)
    assert doc["rt"]["cpu"] == 1
    rows = rows_by_key(doc)
    w2r = rows[("user", "read", "wake_to_reply")]
    # the target replied to every edge the log host sent, warm-up included
    # (and one more if the log host's request put A back to low)
    sent = w2r["loss"]["sent"]
    assert n + WARMUP <= sent <= n + WARMUP + 1, w2r
    assert w2r["loss"] == {"sent": sent, "received": sent, "lost": 0}, w2r
    assert w2r["stats"]["count"] == sent


def test_module_target_and_loghost_as_two_processes(board: Board) -> None:
    """--role target --responder kthread and --role loghost on one machine:
    the target's counts cover every trigger, its samples come from `last`."""
    n = 100
    target = Background(board, "reply-ktarget",
                        "udrv-bench reply --role target --responder kthread -D 600s "
                        "--quiet --out /tmp/ktarget.json")
    try:
        target.wait_for(f"grep -qx kthread {MODULE}/mode", what="gpio-reply in kthread mode")
        r = sh(board, f"udrv-bench reply --role loghost --responder kthread -n {n} "
                      "--quiet --json", timeout=300)
        assert r.status == 0, r.stderr
        target.signal("INT")
        end = target.ended(timeout_s=60)
    finally:
        target.kill()
    (row,) = r.json()["rows"]
    assert row["implementation"] == "kthread" and row["loss"]["received"] == n, row
    assert end.status == 128 + signal.SIGINT, end.stderr
    doc = json.loads(guest_ok(board, "cat /tmp/ktarget.json"))
    check_bench(doc)
    (h2r,) = doc["rows"]
    assert h2r["sample"] == "handler_to_reply"
    # every edge the log host sent, warm-up included, plus one when its
    # request put A back to low (an earlier run left it high)
    sent = h2r["loss"]["sent"]
    assert n + WARMUP <= sent <= n + WARMUP + 1, h2r
    assert h2r["loss"] == {"sent": sent, "received": sent, "lost": 0}, h2r
    assert 0 < h2r["stats"]["count"] <= sent
    assert f"of {sent} replies sampled" in h2r["note"], h2r["note"]
    assert any(t["name"].endswith("-gpio-reply") for t in doc["wake_threads"]), doc
    assert module_state(board) == "off gpio-wire 5 6 "


@pytest.fixture
def wire_drops(board: Board) -> Iterator[None]:
    """gpio-wire swallows every 7th edge (its fault injection), counted."""
    guest_ok(board, "echo 7 > /sys/module/gpio_wire/parameters/drop_every")
    yield
    guest_ok(board, "echo 0 > /sys/module/gpio_wire/parameters/drop_every")


def test_a_dropped_edge_fails_the_bench(board: Board, wire_drops: None) -> None:
    """One edge in flight and a level-based reply: an edge the wire swallows
    leaves the log host without a reply, and the bench must say so, not
    count on."""
    for responder in ("isr", "user --wait read"):
        r = udrv_bench(board, f"reply --quiet -n 50 --responder {responder}", timeout=300)
        assert r.status == 1, r
        assert "no reply on line 7 (--watch) within 5 s" in r.stderr, r.stderr
        assert module_state(board) == "off gpio-wire 5 6 "
        assert "udrv-" not in held_lines(board)
        assert guest_ok(board, "pidof udrv || true").strip() == ""


HELPER_KO = "/lib/modules/$(uname -r)/extra/{0}/{0}.ko"


@pytest.fixture(params=["late", "isr"])
def mutant_helper(request: pytest.FixtureRequest, board: Board) -> Iterator[str]:
    """rig/kernel/udrv-irq-mutant in udrv-irq's place, with one of its
    mutations (late: UDRV_IRQ_SET_WAIT waits before it writes the reply;
    isr: its handler writes the reply), the real helper put back after."""
    mutant = HELPER_KO.format("udrv-irq-mutant")
    if sh(board, f"test -f {mutant}").status:
        pytest.skip("no udrv-irq-mutant.ko: built from source only (UDRV_LAB_MODULES=build)")
    guest_ok(board, f"rmmod udrv_irq && insmod {mutant} mutation={request.param}")
    try:
        yield request.param
    finally:
        guest_ok(board, "rmmod udrv_irq_mutant && insmod " + HELPER_KO.format("udrv-irq"))


# what the bench says of each mutation: one edge late, the log host sees no
# reply; written by the handler, D's edge comes before the process woke
MUTANT_FAILS = {
    "late": "no reply on line 7 (--watch) within 5 s",
    "isr": "before the lib responder had decided its reply to edge 1",
}


def test_a_helper_that_breaks_the_reply_fails_the_bench(board: Board,
                                                        mutant_helper: str) -> None:
    """The bench catches a broken reply path: with the helper's wait armed
    before its write, lib/irq-reply's reply to an edge comes only with the
    next edge, and with one edge in flight the log host sees none on D; with
    the reply written by the helper's interrupt handler (C = !B is
    predictable: a pre-armed reply), D's edge comes before the responder
    woke, which the bench checks on every edge. lib/irq, which waits by
    read() and replies through its request, passes on the same module."""
    guest_ok(board, "grep -q 'isr' /sys/module/udrv_irq_mutant/parameters/mutation"
             if mutant_helper == "isr" else "grep -q '^udrv_irq_mutant ' /proc/modules")
    r = udrv_bench(board, "reply --quiet -n 20 --responder lib --wait irq", timeout=300)
    assert r.status == 0, r.stderr
    r = udrv_bench(board, "reply --quiet -n 20 --responder lib --wait irq-reply", timeout=300)
    assert r.status == 1, r
    assert MUTANT_FAILS[mutant_helper] in r.stderr, r.stderr
    assert "udrv-" not in held_lines(board)
    assert "udrv-irq" not in guest_ok(board, "cat /proc/interrupts")


BD_EDGES = 201  # REPLY_BD_EDGES (rig/bench/reply/reply.h)
BD_COST_EDGES = 101  # REPLY_BD_COST_EDGES
# each chain's stages (rig/bench/reply/breakdown.h): the bench traces B's side
# (no IPI, no D's hardirq); b_thread_s only on a kernel that forced-threads
# gpiolib-cdev's handlers (none here)
BD_STAGES = {
    "isr": ["write_to_b_hardirq", "b_hardirq_to_reply", "reply_to_timestamp"],
    "kthread": ["write_to_b_hardirq", "b_hardirq_to_b_thread", "b_thread_to_reply",
                "reply_to_timestamp"],
    "user": ["write_to_b_hardirq", "b_hardirq_to_b_thread", "b_thread_to_responder",
             "responder_to_reply", "reply_to_timestamp"],
    "busy": ["write_to_reply", "reply_to_timestamp"],
    # udrv-irq: the responder woken from B's hard irq handler, no thread
    "helper": ["write_to_b_hardirq", "b_hardirq_to_responder", "responder_to_reply",
               "reply_to_timestamp"],
    # and C written by udrv-irq in the responder's next call, which D's
    # timestamp falls inside of
    "helper_reply": ["write_to_b_hardirq", "b_hardirq_to_responder",
                     "responder_to_helper_write", "helper_write_to_timestamp"],
}
# the event types each chain traces (bd_filters, rig/bench/reply/reply_breakdown.c)
BD_EVENTS = {"isr": {"irq_handler_entry", "gpio_value"},
             "kthread": {"irq_handler_entry", "sched_switch", "gpio_value"},
             "user": {"irq_handler_entry", "sched_switch", "gpio_value"},
             "busy": {"gpio_value"},
             "helper": {"irq_handler_entry", "sched_switch", "gpio_value"},
             "helper_reply": {"irq_handler_entry", "sched_switch", "gpio_value"}}
TRACEFS = ("T=/sys/kernel/tracing; [ -e $T/trace ] || T=/sys/kernel/debug/tracing; "
           "if [ -e $T/trace ]; then cat $T/tracing_on $T/current_tracer $T/trace_clock "
           "$T/events/sched/sched_switch/enable $T/events/sched/sched_switch/filter "
           "$T/events/gpio/gpio_value/filter; else echo unmounted; fi")


@pytest.fixture(scope="module")
def breakdown(board: Board) -> Iterator[tuple[dict[str, Any], str, str]]:
    guest_ok(board, "udrv gpio set -c gpio-wire 4=0")
    before = guest_ok(board, TRACEFS)
    r = udrv_bench(board, f"reply --json --quiet --samples {SAMPLES} --breakdown",
                   timeout=1200)
    after = guest_ok(board, TRACEFS)
    assert r.status == 0, f"exit {r.status}\n{r.stderr}"
    doc = r.json()
    check_bench(doc)
    keep = os.environ.get("UDRV_LAB_BREAKDOWN_OUT")  # the numbers of docs/rig/lab.md
    if keep:
        kernel = "rt" if doc["kernel"]["realtime"] else "std"
        with open(os.path.join(keep, f"bench-reply-breakdown-{kernel}.json"), "w") as f:
            f.write(r.stdout)
    yield doc, before, after


def test_breakdown_stages(breakdown: tuple[dict[str, Any], str, str]) -> None:
    doc, before, after = breakdown
    rows = rows_by_key(doc)
    entries = {(e["implementation"], e["wait"]): e for e in doc["breakdown"]}
    # rt: the busy responder spinning on the log host's CPU is not traced
    # (tracefs waits for RCU threads it holds off; rig/bench/reply/reply_breakdown.c)
    busy = [] if doc["kernel"]["realtime"] else [("user", "busy"), ("lib", "busy")]
    assert sorted(entries, key=str) == sorted([c for c in CONFIGS if c[1] != "busy"] + busy,
                                              key=str)
    for (impl, wait), e in entries.items():
        chain = "busy" if wait == "busy" else "helper" if wait == "irq" else \
            "helper_reply" if wait == "irq-reply" else "user" if impl == "lib" else impl
        assert e["chain"] == chain and e["edges"] == BD_EDGES, e
        assert [s["name"] for s in e["stages"]] == BD_STAGES[chain], e["stages"]
        assert all(s["ns"] >= 0 for s in e["stages"]), e["stages"]
        assert sum(s["ns"] for s in e["stages"]) == e["total_ns"], e
        assert e["untraced_p50_ns"] == rows[(impl, wait, "trigger_to_reply")]["stats"]["p50"]
        # D's side is not traced: where its timestamp was taken is not known
        # (docs/rig/lab.md: in hard irq context, from traces of D's side)
        assert e["timestamp_in"] is None, e
        # tracing costs time; it never makes a reply faster
        assert e["traced_total_ns"] > e["untraced_p50_ns"], e
        # each event type's cost measured alone, then taken off the marks
        assert e["cost_edges"] == BD_COST_EDGES, e
        assert {c["event"] for c in e["costs"]} == BD_EVENTS[chain], e
        assert all(c["traced_p50_ns"] > e["untraced_p50_ns"] for c in e["costs"]
                   if c["per_reply"] >= 1), e["costs"]
        assert e["total_ns"] < e["traced_total_ns"], e
    assert after == before, (before, after)


def test_breakdown_explains_the_untraced_p50(
        breakdown: tuple[dict[str, Any], str, str]) -> None:
    """The issue's rule: each responder's stages, every traced event's cost
    (measured with its type alone on) taken off, add up to its untraced p50
    within 5%."""
    for e in breakdown[0]["breakdown"]:
        reply_spec.check_matches(reply_model.entry(e))
